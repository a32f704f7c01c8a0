//! Everything that depends on the target: the backends and how one is chosen.
//!
//! This is the one place where target `cfg`s are spelled out. Each vector backend provides
//! an `unsafe fn validate(&[u8]) -> Result<(), usize>` compiled for its instruction set (the
//! generic lookup algorithm inlined into one `#[target_feature]` function). This module
//! answers two questions for the rest of the crate:
//!
//! - [`is_available`]: can this CPU run a given [`Backend`]?
//! - [`validate`]: run the best backend. On x86 with `std`, the first call detects the CPU
//!   and stores the chosen function in a static pointer; later calls are one load and an
//!   indirect call. When AVX2 (or, without `std`, SSE4.2) is enabled at compile time
//!   (`-C target-cpu=native`), that backend is called directly and nothing is detected.
//!   aarch64 (NEON) and wasm32 (`simd128`) choose at compile time.
//!
//! A raw validator returns `Err(pos)` when the input is invalid: everything before the
//! character that contains byte `pos - 1` is valid, and the first error starts at most a few
//! bytes after `pos` (3 for the vector backends, 0 for the scalar one). The caller
//! ([`crate::exact_error`]) backs up to the start of that character and lets the scalar
//! decoder find the exact error.

cfg_if::cfg_if! {
    if #[cfg(any(
        target_arch = "x86",
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon"),
        all(target_arch = "wasm32", target_feature = "simd128")
    ))] {
        pub(crate) mod generic;
        pub(crate) mod vector;
        #[cfg(test)]
        mod primitive_tests;
    } else {
        // No vector backend on this target (wasm32 without simd128, other architectures):
        // the generic algorithm and the vector trait are compiled but never instantiated.
        #[allow(dead_code)]
        pub(crate) mod generic;
        #[allow(dead_code)]
        pub(crate) mod vector;
        #[cfg(test)]
        #[allow(dead_code)]
        mod primitive_tests;
    }
}

/// Runs a test once for every vector type this CPU supports (tests only).
#[cfg(test)]
pub(crate) trait VectorTest {
    /// Runs the test with vector type `V`, named `name` in messages.
    ///
    /// # Safety
    /// The CPU supports `V`'s instruction set.
    unsafe fn run<V: vector::Vector>(&mut self, name: &str);
}

use crate::Backend;

/// The signature every backend's raw validator shares; see the module documentation.
pub(crate) type RawValidate = unsafe fn(&[u8]) -> Result<(), usize>;

/// The scalar decoder as a raw validator: its error position is exact.
pub(crate) fn scalar_validate(input: &[u8]) -> Result<(), usize> {
    crate::scalar::validate(input).map_err(|e| e.valid_up_to())
}

/// What [`validate`] runs where no vector backend is available: the scalar decoder, except
/// that inputs under 16 bytes go to `core::str::from_utf8`, whose loop is faster than ours
/// there (the vector backends take them in one register). The position is exact either way.
#[allow(dead_code)] // Unused where a vector backend is chosen at compile time.
fn fallback_validate(input: &[u8]) -> Result<(), usize> {
    if input.len() < 16 {
        core::str::from_utf8(input)
            .map(|_| ())
            .map_err(|e| e.valid_up_to())
    } else {
        scalar_validate(input)
    }
}

cfg_if::cfg_if! {
    if #[cfg(any(target_arch = "x86", target_arch = "x86_64"))] {
        pub(crate) mod x86;

        /// Runs `test` with every vector type this CPU supports; returns their names.
        #[cfg(test)]
        pub(crate) fn for_each_vector(test: &mut impl VectorTest) -> std::vec::Vec<&'static str> {
            let mut ran = std::vec::Vec::new();
            if has_sse42() {
                // SAFETY: SSE4.2 was just detected.
                unsafe { test.run::<x86::sse42::Sse42Vector>("sse4.2") };
                ran.push("sse4.2");
            }
            if has_avx2() {
                // SAFETY: AVX2 was just detected.
                unsafe { test.run::<x86::avx2::Avx2Vector>("avx2") };
                ran.push("avx2");
            }
            ran
        }

        /// Whether this CPU can run `backend`.
        pub(crate) fn is_available(backend: Backend) -> bool {
            match backend {
                Backend::Scalar => true,
                Backend::Sse42 => has_sse42(),
                Backend::Avx2 => has_avx2(),
                _ => false,
            }
        }

        /// The raw validator of `backend`, if this CPU can run it.
        pub(crate) fn raw(backend: Backend) -> Option<RawValidate> {
            if !is_available(backend) {
                return None;
            }
            match backend {
                Backend::Scalar => Some(scalar_validate as RawValidate),
                Backend::Sse42 => Some(x86::sse42::validate as RawValidate),
                Backend::Avx2 => Some(x86::avx2::validate as RawValidate),
                _ => None,
            }
        }

        /// The backend that [`validate`] uses on this CPU.
        pub(crate) fn selected() -> Backend {
            if has_avx2() {
                Backend::Avx2
            } else if has_sse42() {
                Backend::Sse42
            } else {
                Backend::Scalar
            }
        }

        #[inline]
        fn has_avx2() -> bool {
            cfg_if::cfg_if! {
                if #[cfg(target_feature = "avx2")] {
                    true
                } else if #[cfg(feature = "std")] {
                    std::is_x86_feature_detected!("avx2")
                } else {
                    false
                }
            }
        }

        #[inline]
        fn has_sse42() -> bool {
            cfg_if::cfg_if! {
                if #[cfg(target_feature = "sse4.2")] {
                    true
                } else if #[cfg(feature = "std")] {
                    std::is_x86_feature_detected!("sse4.2")
                } else {
                    false
                }
            }
        }

        cfg_if::cfg_if! {
            if #[cfg(target_feature = "avx2")] {
                /// Runs the best backend (AVX2, enabled at compile time).
                #[inline]
                pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
                    // SAFETY: AVX2 is enabled for the whole program at compile time.
                    unsafe { x86::avx2::validate(input) }
                }
            } else if #[cfg(feature = "std")] {
                use core::sync::atomic::{AtomicPtr, Ordering};

                /// The chosen raw validator; starts as `detect`, which replaces itself.
                static CHOSEN: AtomicPtr<()> = AtomicPtr::new(detect as *mut ());

                /// First call only: choose, remember, and run.
                unsafe fn detect(input: &[u8]) -> Result<(), usize> {
                    let f = match selected() {
                        Backend::Scalar => fallback_validate as RawValidate,
                        best => raw(best).expect("the selected backend is available"),
                    };
                    CHOSEN.store(f as *mut (), Ordering::Relaxed);
                    // SAFETY: `raw` only returns validators that this CPU can run.
                    unsafe { f(input) }
                }

                /// Runs the best backend this CPU has (detected on first use).
                #[inline]
                pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
                    let f = CHOSEN.load(Ordering::Relaxed);
                    // SAFETY: CHOSEN only ever holds `detect` or a function returned by
                    // `raw`, all of type RawValidate, stored as pointers of that type.
                    let f = unsafe { core::mem::transmute::<*mut (), RawValidate>(f) };
                    // SAFETY: `detect` checks the CPU; the others were checked by it.
                    unsafe { f(input) }
                }
            } else if #[cfg(target_feature = "sse4.2")] {
                /// Runs the best backend (SSE4.2, enabled at compile time).
                #[inline]
                pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
                    // SAFETY: SSE4.2 is enabled for the whole program at compile time.
                    unsafe { x86::sse42::validate(input) }
                }
            } else {
                /// Runs the best backend: without `std` there is no runtime detection, and
                /// no vector instruction set was enabled at compile time.
                #[inline]
                pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
                    fallback_validate(input)
                }
            }
        }
    } else if #[cfg(all(target_arch = "aarch64", target_feature = "neon"))] {
        pub(crate) mod aarch64;

        /// Runs `test` with every vector type this CPU supports; returns their names.
        #[cfg(test)]
        pub(crate) fn for_each_vector(test: &mut impl VectorTest) -> std::vec::Vec<&'static str> {
            // SAFETY: NEON is enabled at compile time (the cfg of this branch).
            unsafe { test.run::<aarch64::neon::NeonVector>("neon") };
            std::vec!["neon"]
        }

        /// Whether this CPU can run `backend`.
        pub(crate) fn is_available(backend: Backend) -> bool {
            matches!(backend, Backend::Scalar | Backend::Neon)
        }

        /// The raw validator of `backend`, if this CPU can run it.
        pub(crate) fn raw(backend: Backend) -> Option<RawValidate> {
            match backend {
                Backend::Scalar => Some(scalar_validate as RawValidate),
                Backend::Neon => Some(aarch64::neon::validate as RawValidate),
                _ => None,
            }
        }

        /// The backend that [`validate`] uses: NEON, always present on aarch64.
        pub(crate) fn selected() -> Backend {
            Backend::Neon
        }

        /// Runs the NEON backend.
        #[inline]
        pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
            // SAFETY: NEON is enabled at compile time (the cfg of this branch).
            unsafe { aarch64::neon::validate(input) }
        }
    } else if #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))] {
        pub(crate) mod wasm32;

        /// Runs `test` with every vector type this CPU supports; returns their names.
        #[cfg(test)]
        pub(crate) fn for_each_vector(test: &mut impl VectorTest) -> std::vec::Vec<&'static str> {
            // SAFETY: simd128 is enabled at compile time (the cfg of this branch).
            unsafe { test.run::<wasm32::simd128::Simd128Vector>("simd128") };
            std::vec!["simd128"]
        }

        /// Whether this CPU can run `backend`.
        pub(crate) fn is_available(backend: Backend) -> bool {
            matches!(backend, Backend::Scalar | Backend::Simd128)
        }

        /// The raw validator of `backend`, if this CPU can run it.
        pub(crate) fn raw(backend: Backend) -> Option<RawValidate> {
            match backend {
                Backend::Scalar => Some(scalar_validate as RawValidate),
                Backend::Simd128 => Some(wasm32::simd128::validate as RawValidate),
                _ => None,
            }
        }

        /// The backend that [`validate`] uses: simd128, enabled at compile time.
        pub(crate) fn selected() -> Backend {
            Backend::Simd128
        }

        /// Runs the simd128 backend.
        #[inline]
        pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
            // SAFETY: simd128 is enabled at compile time (the cfg of this branch).
            unsafe { wasm32::simd128::validate(input) }
        }
    } else {
        /// Runs `test` with every vector type this CPU supports: none on this target.
        #[cfg(test)]
        pub(crate) fn for_each_vector(_test: &mut impl VectorTest) -> std::vec::Vec<&'static str> {
            std::vec::Vec::new()
        }

        /// Whether this CPU can run `backend`: only the scalar one on this target.
        pub(crate) fn is_available(backend: Backend) -> bool {
            matches!(backend, Backend::Scalar)
        }

        /// The raw validator of `backend`, if this CPU can run it.
        pub(crate) fn raw(backend: Backend) -> Option<RawValidate> {
            match backend {
                Backend::Scalar => Some(scalar_validate as RawValidate),
                _ => None,
            }
        }

        /// The backend that [`validate`] uses: the scalar one.
        pub(crate) fn selected() -> Backend {
            Backend::Scalar
        }

        /// Runs the scalar backend (see [`fallback_validate`]).
        #[inline]
        pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
            fallback_validate(input)
        }
    }
}

// Character counting (`crate::count`): not a validation backend, just the one dispatch.
cfg_if::cfg_if! {
    if #[cfg(any(target_arch = "x86", target_arch = "x86_64"))] {
        /// The number of bytes that are not continuation bytes: AVX2 where the CPU has it
        /// (a cached feature check per call), the portable word-at-a-time count otherwise.
        #[inline]
        pub(crate) fn count_non_continuation(bytes: &[u8]) -> usize {
            if has_avx2() {
                // SAFETY: `has_avx2` just checked that the CPU supports AVX2.
                unsafe { x86::count::count_non_continuation(bytes) }
            } else {
                crate::count::count_portable(bytes)
            }
        }
    } else {
        /// The number of bytes that are not continuation bytes (portable code; NEON and
        /// simd128 versions are not written yet).
        #[inline]
        pub(crate) fn count_non_continuation(bytes: &[u8]) -> usize {
            crate::count::count_portable(bytes)
        }
    }
}
