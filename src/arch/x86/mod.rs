//! The x86 and x86-64 backends: SSE4.2 (128-bit), AVX2 (256-bit; on CPUs that run it on
//! 128-bit units, `avx2units128`) and, with the cargo feature `avx512` (on by default),
//! AVX-512 (512-bit; with VBMI, `avx512vbmi`); the AVX2 character count; and which CPUs
//! have 128-bit units ([`has_128_bit_units`]).

pub(crate) mod avx2;
pub(crate) mod avx2units128;
#[cfg(feature = "avx512")]
pub(crate) mod avx512;
#[cfg(feature = "avx512")]
pub(crate) mod avx512vbmi;
pub(crate) mod count;
pub(crate) mod sse42;

/// `prefetcht0`: asks for the cache line at `ptr` in every cache level (see
/// [`Vector::prefetch`](crate::arch::generic::vector::Vector::prefetch)).
///
/// # Safety
/// The CPU has SSE (each x86 vector type proves that it does).
#[inline(always)]
pub(crate) unsafe fn prefetch(ptr: *const u8) {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::{_mm_prefetch, _MM_HINT_T0};
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: the caller guarantees SSE; a prefetch reads nothing and never faults,
    // whatever the address.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.cast()) }
}

/// Whether this CPU runs its 256-bit AVX2 operations on 128-bit units, two at a time (AMD
/// Zen 1 and Zen+, Hygon Dhyana: `crate::arch::cpuid::units_128`). Those CPUs take AVX2's
/// schedule for them
/// (`avx2units128`). Asked of `cpuid` once, then remembered; only of a CPU that has AVX2.
/// Without `std` (no run-time detection, `crate::arch`) it is never called.
pub(crate) fn has_128_bit_units() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    /// 0: not asked yet; 1: no; 2: yes.
    static ANSWER: AtomicU8 = AtomicU8::new(0);
    match ANSWER.load(Ordering::Relaxed) {
        0 => {
            let yes = cpuid_has_128_bit_units();
            ANSWER.store(1 + u8::from(yes), Ordering::Relaxed);
            yes
        }
        answer => answer == 2,
    }
}

/// [`has_128_bit_units`], asked of the CPU: its vendor (leaf 0) and its signature (leaf 1),
/// decoded by `crate::arch::cpuid::units_128`.
fn cpuid_has_128_bit_units() -> bool {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::__cpuid;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::__cpuid;
    // SAFETY: `cpuid` exists on every x86-64 CPU, and on every x86 one with AVX2 (the
    // table asks this only of CPUs that have it, `crate::arch`); leaves 0 and 1 exist on
    // every CPU that has it. (`__cpuid` is an `unsafe fn` in older Rust, the MSRV's, and
    // safe in newer.)
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe {
        let leaf0 = __cpuid(0);
        let mut vendor = [0u8; 12];
        vendor[..4].copy_from_slice(&leaf0.ebx.to_le_bytes());
        vendor[4..8].copy_from_slice(&leaf0.edx.to_le_bytes());
        vendor[8..].copy_from_slice(&leaf0.ecx.to_le_bytes());
        (vendor, __cpuid(1).eax)
    };
    crate::arch::cpuid::units_128(&vendor, signature)
}
