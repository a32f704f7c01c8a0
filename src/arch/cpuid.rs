//! Which AVX2 schedule an x86 CPU takes, from what `cpuid` says of it (its vendor and
//! signature): the condition of the AVX2 rows with schedules of their own
//! (the table's rows `avx2units128` and `avx2zen5`, `crate::arch`), asked by
//! `super::x86::avx2_schedule`. Plain arithmetic on two values, so it is compiled and tested
//! on every target (the lists of tests are the same on every target:
//! `scripts/test-cross.sh`).

/// The AVX2 schedules (the rows of `super::x86::avx2`'s vector type, each with its
/// `crate::arch::generic::tuning::Schedule`).
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Avx2Schedule {
    /// Every CPU but those below: the plain AVX2 row.
    Plain,
    /// AVX2 on 128-bit units: AMD Zen 1 and Zen+ (family 17h, models below 30h; Zen 2,
    /// from model 30h, has 256-bit units) and Hygon Dhyana (family 18h, a Zen 1), where a
    /// full check costs twice as much; forced on an Intel Xeon Emerald Rapids, this schedule
    /// was slower on every kind of text but invalid text (docs/PERFORMANCE.md#avx2-units-128).
    Units128,
    /// Inputs up to one block checked whole, with no ASCII test: AMD Zen 5 (family 1Ah),
    /// where the plain schedule's wrong guesses on mixed text of 8-64 bytes cost more than
    /// the checks they save (docs/PERFORMANCE.md#avx2-zen5-short-whole). Not the Zen 4
    /// (family 19h), where checking mostly-ASCII text up to one block whole made a cliff:
    /// not measured there with this schedule.
    ShortWhole,
}

/// The AVX2 schedule of the CPU of this vendor string (`cpuid` leaf 0: EBX, EDX, ECX) and
/// signature (leaf 1: EAX).
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
pub(crate) fn avx2_schedule(vendor: &[u8; 12], signature: u32) -> Avx2Schedule {
    let base_family = (signature >> 8) & 0xF;
    let family = if base_family == 0xF {
        base_family + ((signature >> 20) & 0xFF)
    } else {
        base_family
    };
    let model = ((signature >> 4) & 0xF) | ((signature >> 12) & 0xF0);
    match vendor {
        b"AuthenticAMD" if family == 0x17 && model < 0x30 => Avx2Schedule::Units128,
        b"AuthenticAMD" if family == 0x1A => Avx2Schedule::ShortWhole,
        b"HygonGenuine" if family == 0x18 => Avx2Schedule::Units128,
        _ => Avx2Schedule::Plain,
    }
}

#[cfg(test)]
mod tests {
    use super::{avx2_schedule, Avx2Schedule};

    /// Signatures (`cpuid` leaf 1, EAX) of real CPUs: Zen 1, Zen+ and Dhyana have 128-bit
    /// units; the Zen 5 checks short inputs whole; every other CPU is plain.
    #[test]
    fn the_schedule_of_each_cpu() {
        use Avx2Schedule::{Plain, ShortWhole, Units128};
        let amd = b"AuthenticAMD";
        for (name, signature, want) in [
            ("EPYC 7601 (Zen 1)", 0x0080_0F12, Units128),
            ("Ryzen 7 1700 (Zen 1)", 0x0080_0F11, Units128),
            ("Ryzen 5 2400G (Zen 1, APU)", 0x0081_0F10, Units128),
            ("Ryzen 7 2700X (Zen+)", 0x0080_0F82, Units128),
            ("EPYC 7742 (Zen 2)", 0x0083_0F10, Plain),
            ("Ryzen 9 3900X (Zen 2)", 0x0087_0F10, Plain),
            ("EPYC 7763 (Zen 3)", 0x00A0_0F11, Plain),
            ("EPYC 9654 (Zen 4)", 0x00A1_0F11, Plain),
            ("EPYC 9005 (Zen 5)", 0x00B0_0F21, ShortWhole),
            ("Ryzen 9 9950X (Zen 5)", 0x00B4_0F40, ShortWhole),
            ("Phenom II (K10)", 0x0010_0F42, Plain),
        ] {
            assert_eq!(avx2_schedule(amd, signature), want, "{name}");
        }
        assert_eq!(
            avx2_schedule(b"HygonGenuine", 0x0090_0F01),
            Units128,
            "Hygon C86 (Dhyana)"
        );
        // The same signatures from another vendor say nothing.
        assert_eq!(avx2_schedule(b"GenuineIntel", 0x0080_0F12), Plain, "Intel");
        assert_eq!(avx2_schedule(b"GenuineIntel", 0x00B0_0F21), Plain, "Intel");
        assert_eq!(
            avx2_schedule(b"GenuineIntel", 0x000C_06F2),
            Plain,
            "Xeon Emerald Rapids"
        );
    }
}
