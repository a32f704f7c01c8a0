//! The x86 and x86-64 backends: SSE4.2 (128-bit) and AVX2 (256-bit).

pub(crate) mod avx2;
pub(crate) mod sse42;
