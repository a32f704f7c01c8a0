//! The x86 and x86-64 backends: SSE4.2 (128-bit) and AVX2 (256-bit), and the AVX2
//! character count.

pub(crate) mod avx2;
pub(crate) mod count;
pub(crate) mod sse42;
