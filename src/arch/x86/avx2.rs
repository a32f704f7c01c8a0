//! The AVX2 backend: 256-bit registers (`__m256i`).
//!
//! AVX2's byte shuffle and `palignr` work inside each 128-bit lane, which suits the nibble
//! tables (repeated in both lanes) but not the shift by 1–3 bytes: the bytes that enter the
//! upper lane must come from the lower lane of the same register. `vperm2i128` first builds
//! the register "previous upper lane : current lower lane", and `vpalignr` then takes the
//! right bytes from it.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::arch::vector::Vector;

/// A 256-bit register. Only made by the `unsafe` constructors of [`Vector`], whose callers
/// guarantee that the CPU supports AVX2: every safe method below relies on that.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Avx2Vector(__m256i);

impl Avx2Vector {
    /// `prev`'s upper lane followed by `self`'s lower lane: lane by lane, the 16 bytes
    /// that come just before each lane of `self` in memory.
    #[inline(always)]
    fn straddle(self, prev: Self) -> __m256i {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        unsafe { _mm256_permute2x128_si256::<0x21>(prev.0, self.0) }
    }
}

// The size tier named in `BYTES` is this register's width.
const _: () = assert!(core::mem::size_of::<Avx2Vector>() == <Avx2Vector as Vector>::BYTES);

impl Vector for Avx2Vector {
    const BYTES: usize = crate::tiers::REGISTER_256;

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees AVX2 and 32 readable bytes at `ptr`.
        Self(unsafe { _mm256_loadu_si256(ptr.cast()) })
    }
    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        // SAFETY: the caller guarantees AVX2.
        Self(unsafe { _mm256_set1_epi8(byte as i8) })
    }
    #[inline(always)]
    unsafe fn repeat16(table: [u8; 16]) -> Self {
        // SAFETY: the caller guarantees AVX2; `table` is 16 readable bytes.
        Self(unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast())) })
    }
    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        assert!(out.len() >= 32);
        // SAFETY: an Avx2Vector exists only where AVX2 does; `out` holds 32 bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        Self(unsafe { _mm256_or_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        Self(unsafe { _mm256_and_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        Self(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn shr4(self) -> Self {
        // SAFETY: an Avx2Vector exists only where AVX2 does. 16-bit shift, then clear the
        // bits that crossed from the neighbouring byte.
        Self(unsafe { _mm256_and_si256(_mm256_srli_epi16::<4>(self.0), _mm256_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    fn lookup16(self, idx: Self) -> Self {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        Self(unsafe { _mm256_shuffle_epi8(self.0, idx.0) })
    }
    #[inline(always)]
    fn prev1(self, prev: Self) -> Self {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        Self(unsafe { _mm256_alignr_epi8::<15>(self.0, self.straddle(prev)) })
    }
    #[inline(always)]
    fn prev2(self, prev: Self) -> Self {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        Self(unsafe { _mm256_alignr_epi8::<14>(self.0, self.straddle(prev)) })
    }
    #[inline(always)]
    fn prev3(self, prev: Self) -> Self {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        Self(unsafe { _mm256_alignr_epi8::<13>(self.0, self.straddle(prev)) })
    }
    #[inline(always)]
    fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        Self(unsafe { _mm256_subs_epu8(self.0, other.0) })
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        unsafe { _mm256_movemask_epi8(self.0) == 0 }
    }
    #[inline(always)]
    fn any_set(self) -> bool {
        // SAFETY: an Avx2Vector exists only where AVX2 (so AVX's vptest) does.
        unsafe { _mm256_testz_si256(self.0, self.0) == 0 }
    }
    #[inline(always)]
    fn eq_mask(self, other: Self) -> u64 {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        unsafe { _mm256_movemask_epi8(_mm256_cmpeq_epi8(self.0, other.0)) as u32 as u64 }
    }
    #[inline(always)]
    fn prefetch(ptr: *const u8) {
        // SAFETY: an Avx2Vector exists only where AVX2 (so SSE) does.
        unsafe { super::prefetch(ptr) }
    }
}

// Inputs shorter than one 256-bit register go to SSE4.2 (every CPU with AVX2 has it):
// 128-bit registers can be loaded straight from such an input where 256-bit ones would
// need a copy (see `crate::tiers`).
entry_points!(Avx2Vector, "avx2"; below crate::tiers::REGISTER_256 => super::sse42::validate);
