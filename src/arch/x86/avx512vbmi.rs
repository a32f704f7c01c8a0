//! The AVX-512 backend for CPUs with AVX512VBMI as well (Ice Lake and later, AMD Zen 4 and
//! later): the vector type of [`super::avx512`] with its `VBMI` parameter set, whose nibble
//! lookups are `vpermb` with no mask (see there). It is a row of its own in the table of
//! backends (`crate::arch`), wider than the plain AVX-512 one, under the same
//! [`Backend::Avx512`](crate::Backend::Avx512): a CPU that has VBMI runs this one, one that
//! does not runs the plain one, and the tests run both.

entry_points!(super::avx512::Avx512Vector<true>, "avx512f", "avx512bw", "avx512vbmi");
