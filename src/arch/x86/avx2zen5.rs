//! The AVX2 backend for the AMD Zen 5 (family 1Ah) where it runs AVX2 (a build without the `avx512`
//! feature, or a machine that hides AVX-512): the vector type of [`super::avx2`] with its
//! `SHORT_WHOLE` parameter set, whose schedule checks every input up to one block whole, with no
//! ASCII test first (`crate::tiers::SHORT_ASCII_FROM`, as every backend but AVX2 does), so that no
//! message of mixed text pays a wrong guess: on a Zen 5 a wrong guess costs more than the check it
//! would save (docs/PERFORMANCE.md#avx2-zen5-short-whole). A row of its own in the table of
//! backends (`crate::arch`), under the same [`Backend::Avx2`](crate::Backend::Avx2), as
//! `super::avx2units128` is; its main loop, scan of records and cold `locate` are `super::avx2`'s.

entry_points!(super::avx2::Avx2Vector<false, true>, "avx2"; sharing super::avx2);
