//! The wasm32 backend: `simd128` (128-bit), chosen at compile time
//! (`-C target-feature=+simd128`); WebAssembly has no run-time feature detection.

pub(crate) mod simd128;
