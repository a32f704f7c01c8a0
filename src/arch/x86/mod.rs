//! The x86 and x86-64 backends: SSE4.2 (128-bit), AVX2 (256-bit) and, with the cargo
//! feature `avx512`, AVX-512 (512-bit); and the AVX2 character count.

pub(crate) mod avx2;
#[cfg(feature = "avx512")]
pub(crate) mod avx512;
pub(crate) mod count;
pub(crate) mod sse42;
