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

/// Whether this CPU runs its 256-bit AVX2 operations on 128-bit units, two at a time: AMD
/// Zen 1 and Zen+ (family 17h, models below 30h; Zen 2, from model 30h, has 256-bit units)
/// and Hygon Dhyana (family 18h, a Zen 1). Those CPUs take AVX2's schedule for them
/// (`avx2units128`). Asked of `cpuid` once, then remembered; only of a CPU that has AVX2.
/// Without `std` (no run-time detection, `crate::arch`) it is never called.
#[allow(dead_code)] // Only the run-time choice (`std`) calls it.
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

/// [`has_128_bit_units`], asked of the CPU: its vendor (leaf 0) and its family and model
/// (leaf 1).
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
    units_128(&vendor, signature)
}

/// Whether the CPU of this vendor string (`cpuid` leaf 0: EBX, EDX, ECX) and signature
/// (leaf 1: EAX) has 128-bit AVX2 units: see [`has_128_bit_units`].
pub(crate) fn units_128(vendor: &[u8; 12], signature: u32) -> bool {
    let base_family = (signature >> 8) & 0xF;
    let family = if base_family == 0xF {
        base_family + ((signature >> 20) & 0xFF)
    } else {
        base_family
    };
    let model = ((signature >> 4) & 0xF) | ((signature >> 12) & 0xF0);
    match vendor {
        b"AuthenticAMD" => family == 0x17 && model < 0x30,
        b"HygonGenuine" => family == 0x18,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::units_128;

    /// Signatures (`cpuid` leaf 1, EAX) of real CPUs: only Zen 1, Zen+ and Dhyana have
    /// 128-bit units.
    #[test]
    fn the_cpus_with_128_bit_units() {
        let amd = b"AuthenticAMD";
        for (name, signature, want) in [
            ("EPYC 7601 (Zen 1)", 0x0080_0F12, true),
            ("Ryzen 7 1700 (Zen 1)", 0x0080_0F11, true),
            ("Ryzen 5 2400G (Zen 1, APU)", 0x0081_0F10, true),
            ("Ryzen 7 2700X (Zen+)", 0x0080_0F82, true),
            ("EPYC 7742 (Zen 2)", 0x0083_0F10, false),
            ("Ryzen 9 3900X (Zen 2)", 0x0087_0F10, false),
            ("EPYC 7763 (Zen 3)", 0x00A0_0F11, false),
            ("EPYC 9654 (Zen 4)", 0x00A1_0F11, false),
            ("EPYC 9005 (Zen 5)", 0x00B0_0F21, false),
            ("Phenom II (K10)", 0x0010_0F42, false),
        ] {
            assert_eq!(units_128(amd, signature), want, "{name}");
        }
        assert!(units_128(b"HygonGenuine", 0x0090_0F01), "Hygon C86 (Dhyana)");
        // The same signature from another vendor says nothing.
        assert!(!units_128(b"GenuineIntel", 0x0080_0F12), "Intel");
        assert!(!units_128(b"GenuineIntel", 0x000C_06F2), "Xeon Emerald Rapids");
    }
}
