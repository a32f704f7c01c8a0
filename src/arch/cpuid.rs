//! Which x86 CPUs run AVX2 on 128-bit units, from what `cpuid` says of them (their vendor
//! and signature): the condition of the AVX2 row with its own schedule
//! (`super::x86::avx2units128`), asked by `super::x86::has_128_bit_units`. Plain
//! arithmetic on two values, so it is compiled and tested on every target (the lists of
//! tests are the same on every target: `scripts/test-cross.sh`).

/// Whether the CPU of this vendor string (`cpuid` leaf 0: EBX, EDX, ECX) and signature
/// (leaf 1: EAX) runs its 256-bit AVX2 operations on 128-bit units: AMD Zen 1 and Zen+
/// (family 17h, models below 30h; Zen 2, from model 30h, has 256-bit units) and Hygon
/// Dhyana (family 18h, a Zen 1). Every other CPU, Intel's included, takes the plain AVX2
/// row: on an Intel Xeon Emerald Rapids the 128-bit units' schedule, forced on, was slower
/// on every kind of text but invalid text (docs/PERFORMANCE.md, "A second CPU, fifth time").
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
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
        assert!(
            units_128(b"HygonGenuine", 0x0090_0F01),
            "Hygon C86 (Dhyana)"
        );
        // The same signature from another vendor says nothing.
        assert!(!units_128(b"GenuineIntel", 0x0080_0F12), "Intel");
        assert!(
            !units_128(b"GenuineIntel", 0x000C_06F2),
            "Xeon Emerald Rapids"
        );
    }
}
