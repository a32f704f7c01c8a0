//! The AVX2 backend for CPUs whose AVX2 runs on 128-bit units (AMD Zen 1 and Zen+, Hygon
//! Dhyana): the vector type of [`super::avx2`] with its `UNITS_128` parameter set, whose
//! schedule tests for ASCII where the other's checks (see there). It is a row of its own in
//! the table of backends (`crate::arch`), after the plain AVX2 one, under the same
//! [`Backend::Avx2`](crate::Backend::Avx2): a CPU that [`super::has_128_bit_units`] runs
//! this one, every other AVX2 CPU the plain one, and the tests run both on every AVX2 CPU.
//! Only its entries and the paths of calls up to 16 KiB are its own: the main loop, the
//! scan of records and the cold `locate`, which no size tier of the schedule changes, are
//! `super::avx2`'s.

entry_points!(super::avx2::Avx2Vector<true>, "avx2"; sharing super::avx2);
