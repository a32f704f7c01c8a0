//! The x86 and x86-64 backends: SSE4.2 (128-bit), AVX2 (256-bit) and, with the cargo
//! feature `avx512` (on by default), AVX-512 (512-bit; with VBMI, `avx512vbmi`); and the
//! AVX2 character count.

pub(crate) mod avx2;
#[cfg(feature = "avx512")]
pub(crate) mod avx512;
#[cfg(feature = "avx512")]
pub(crate) mod avx512vbmi;
pub(crate) mod count;
pub(crate) mod sse42;

/// `prefetcht0`: asks for the cache line at `ptr` in every cache level (see
/// [`Vector::prefetch`](crate::arch::generic::vector::Vector::prefetch)).
///
/// # Safety
/// The CPU has SSE (each x86 vector type proves that it does).
#[inline(always)]
pub(crate) unsafe fn prefetch(ptr: *const u8) {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::{_mm_prefetch, _MM_HINT_T0};
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: the caller guarantees SSE; a prefetch reads nothing and never faults,
    // whatever the address.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.cast()) }
}
