//! The x86 and x86-64 vector types: SSE4.2 (128-bit), AVX2 (256-bit) and, with the cargo
//! feature `avx512` (on by default), AVX-512 (512-bit; with VBMI or without); the AVX2
//! character count; and which AVX2 schedule a CPU takes ([`avx2_schedule`]). The rows that
//! pair them with their schedules are the table of backends (`crate::arch`).

pub(crate) mod avx2;
#[cfg(feature = "avx512")]
pub(crate) mod avx512;
pub(crate) mod count;
pub(crate) mod sse42;

use crate::arch::cpuid::Avx2Schedule;

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
/// Zen 1 and Zen+, Hygon Dhyana): those CPUs take AVX2's schedule for them
/// (the table's row `avx2units128`). See [`avx2_schedule`].
pub(crate) fn has_128_bit_units() -> bool {
    avx2_schedule() == Avx2Schedule::Units128
}

/// Whether this CPU takes AVX2's schedule that checks inputs up to one block whole (the AMD
/// Zen 5: the table's row `avx2zen5`). See [`avx2_schedule`].
pub(crate) fn checks_short_inputs_whole() -> bool {
    avx2_schedule() == Avx2Schedule::ShortWhole
}

/// The AVX2 schedule of this CPU (`crate::arch::cpuid::avx2_schedule`). Asked of `cpuid`
/// once, then remembered; only of a CPU that has AVX2. Without `std` (no run-time
/// detection, `crate::arch`) it is never called.
fn avx2_schedule() -> Avx2Schedule {
    use core::sync::atomic::{AtomicU8, Ordering};
    const SCHEDULES: [Avx2Schedule; 3] = [
        Avx2Schedule::Plain,
        Avx2Schedule::Units128,
        Avx2Schedule::ShortWhole,
    ];
    /// 0: not asked yet; else 1 + the schedule's index in `SCHEDULES`.
    static ANSWER: AtomicU8 = AtomicU8::new(0);
    match ANSWER.load(Ordering::Relaxed) {
        0 => {
            let schedule = cpuid_avx2_schedule();
            let index = SCHEDULES.iter().position(|s| *s == schedule).unwrap_or(0);
            // (At most 3: fits a u8.)
            ANSWER.store(1 + index as u8, Ordering::Relaxed);
            schedule
        }
        answer => SCHEDULES[usize::from(answer - 1)],
    }
}

/// [`avx2_schedule`], asked of the CPU: its vendor (leaf 0) and its signature (leaf 1),
/// decoded by `crate::arch::cpuid::avx2_schedule`.
fn cpuid_avx2_schedule() -> Avx2Schedule {
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
    crate::arch::cpuid::avx2_schedule(&vendor, signature)
}
