//! The table of backends: each target's vector backends **once**, narrowest first, one row
//! each: the [`Backend`](crate::Backend), its vector type (what the instruction set can do:
//! [`super::generic::vector`]), its schedule (how the CPUs of the row are driven:
//! [`super::generic::tuning`]), the module of its entry points (declared here by
//! `backends!`, named as the row's variant, `Backend::variant`; after `sharing`, the row
//! whose main loop, scan and cold `locate` it takes), its character counter (the portable
//! one where the backend has none of its own), the target features it needs (all of them),
//! and for a row that is for some CPUs only, the test that says which (`if`). `cfg`
//! attributes on a row leave it out of builds without it.
//!
//! A backend may have more than one row, for CPUs with more of its instruction set
//! (AVX-512 with VBMI), or for some CPUs of it, named by an `if` (AVX2 on 128-bit units
//! and AVX2 on the AMD Zen 5, each with a schedule of its own): the last row this CPU runs
//! and that is for it is the backend's, for `Backend` and for the selection alike
//! ([`super::dispatch`]); the tests run every row the CPU can run (`for_each_vector`,
//! `tests::every_row_agrees_with_std` and `tests::every_row_finds_one_error_in_ascii`). A
//! row with an `if` is chosen only at run time (with `std`): a build without detection
//! never takes it.
//!
//! Adding a backend is one row here, plus its vector type, its `Backend` variant and,
//! where no existing one fits, its schedule. The macros that read the table are
//! in [`super::rows`].

cfg_if::cfg_if! {
    if #[cfg(any(target_arch = "x86", target_arch = "x86_64"))] {
        use super::{generic::tuning, portable, x86};
        backends! {
            Sse42: x86::sse42::Sse42Vector, tuning::OutOfLine128, sse42, portable::count_non_continuation, "sse4.2";
            Avx2: x86::avx2::Avx2Vector, tuning::Avx2Units256, avx2, x86::count::count_non_continuation, "avx2";
            // AVX2 where it runs on 128-bit units (AMD Zen 1 and Zen+, Hygon Dhyana): a
            // schedule of its own for calls up to 16 KiB, the plain row's main loop.
            Avx2: x86::avx2::Avx2Vector, tuning::Avx2Units128, avx2units128 sharing avx2, x86::count::count_non_continuation, "avx2" if x86::has_128_bit_units;
            // AVX2 on the AMD Zen 5: inputs up to one block checked whole.
            Avx2: x86::avx2::Avx2Vector, tuning::Avx2Zen5, avx2zen5 sharing avx2, x86::count::count_non_continuation, "avx2" if x86::checks_short_inputs_whole;
            // AVX512F implies AVX2, so AVX-512 counts with the AVX2 counter.
            #[cfg(feature = "avx512")]
            Avx512: x86::avx512::Avx512Vector<x86::avx512::Pshufb>, tuning::Avx512, avx512, x86::count::count_non_continuation, "avx512f", "avx512bw";
            // The same backend where the CPU has VBMI too (Ice Lake and later, Zen 4 and
            // later): its nibble lookups are `vpermb`, with no mask.
            #[cfg(feature = "avx512")]
            Avx512: x86::avx512::Avx512Vector<x86::avx512::Vpermb>, tuning::Avx512, avx512vbmi, x86::count::count_non_continuation, "avx512f", "avx512bw", "avx512vbmi";
        }
    } else if #[cfg(all(target_arch = "aarch64", target_feature = "neon"))] {
        use super::{aarch64, generic::tuning, portable};
        backends! {
            Neon: aarch64::neon::NeonVector, tuning::Inline128, neon, portable::count_non_continuation, "neon";
        }
    } else if #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))] {
        use super::{generic::tuning, portable, wasm32};
        backends! {
            Simd128: wasm32::simd128::Simd128Vector, tuning::Inline128, simd128, portable::count_non_continuation, "simd128";
        }
    } else {
        backends! {}
    }
}
