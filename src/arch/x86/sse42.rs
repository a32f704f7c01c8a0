//! The SSE4.2 backend: 128-bit registers (`__m128i`).
//!
//! `pshufb` (SSSE3) does the nibble lookups, `palignr` (SSSE3) shifts in the previous
//! register's bytes, `ptest` (SSE4.1) is the "any bit set" reduction. SSE4.2 is the
//! feature we check for because every CPU that has it has the others too.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::arch::generic::vector::Vector;

/// A 128-bit register. Only made by the `unsafe` constructors of [`Vector`], whose callers
/// guarantee that the CPU supports SSE4.2: every safe method below relies on that.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Sse42Vector(__m128i);

// The size tier named in `BYTES` is this register's width.
const _: () = assert!(core::mem::size_of::<Sse42Vector>() == <Sse42Vector as Vector>::BYTES);

impl Vector for Sse42Vector {
    type Narrow = Self;
    const BYTES: usize = crate::tiers::REGISTER_128;

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees SSE4.2 and 16 readable bytes at `ptr`.
        Self(unsafe { _mm_loadu_si128(ptr.cast()) })
    }
    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        // SAFETY: the caller guarantees SSE4.2.
        Self(unsafe { _mm_set1_epi8(byte as i8) })
    }
    #[inline(always)]
    unsafe fn repeat16(table: [u8; 16]) -> Self {
        // SAFETY: the caller guarantees SSE4.2; `table` is 16 readable bytes.
        unsafe { Self::load_unaligned(table.as_ptr()) }
    }
    #[cfg(test)]
    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        assert!(out.len() >= 16);
        // SAFETY: a Sse42Vector exists only where SSE4.2 does; `out` holds 16 bytes.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: a Sse42Vector exists only where SSE4.2 does.
        Self(unsafe { _mm_or_si128(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: a Sse42Vector exists only where SSE4.2 does.
        Self(unsafe { _mm_and_si128(self.0, other.0) })
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: a Sse42Vector exists only where SSE4.2 does.
        Self(unsafe { _mm_xor_si128(self.0, other.0) })
    }
    #[inline(always)]
    fn shr4(self) -> Self {
        // SAFETY: a Sse42Vector exists only where SSE4.2 does. There is no 8-bit shift:
        // shift 16-bit lanes and clear the bits that crossed from the neighbouring byte.
        Self(unsafe { _mm_and_si128(_mm_srli_epi16::<4>(self.0), _mm_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    fn lookup16(self, idx: Self) -> Self {
        // SAFETY: a Sse42Vector exists only where SSE4.2 (so SSSE3's pshufb) does.
        Self(unsafe { _mm_shuffle_epi8(self.0, idx.0) })
    }
    #[inline(always)]
    fn prev1(self, prev: Self) -> Self {
        // SAFETY: a Sse42Vector exists only where SSE4.2 (so SSSE3's palignr) does.
        Self(unsafe { _mm_alignr_epi8::<15>(self.0, prev.0) })
    }
    #[inline(always)]
    fn prev2(self, prev: Self) -> Self {
        // SAFETY: as for prev1.
        Self(unsafe { _mm_alignr_epi8::<14>(self.0, prev.0) })
    }
    #[inline(always)]
    fn prev3(self, prev: Self) -> Self {
        // SAFETY: as for prev1.
        Self(unsafe { _mm_alignr_epi8::<13>(self.0, prev.0) })
    }
    #[inline(always)]
    fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: a Sse42Vector exists only where SSE4.2 does.
        Self(unsafe { _mm_subs_epu8(self.0, other.0) })
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: a Sse42Vector exists only where SSE4.2 does.
        unsafe { _mm_movemask_epi8(self.0) == 0 }
    }
    #[inline(always)]
    fn high_bits(self) -> u32 {
        // SAFETY: a Sse42Vector exists only where SSE4.2 does.
        unsafe { _mm_movemask_epi8(self.0) as u32 }
    }
    #[inline(always)]
    fn any_set(self) -> bool {
        // SAFETY: a Sse42Vector exists only where SSE4.2 (so SSE4.1's ptest) does.
        unsafe { _mm_testz_si128(self.0, self.0) == 0 }
    }
    #[inline(always)]
    fn eq_mask(self, other: Self) -> u64 {
        // SAFETY: a Sse42Vector exists only where SSE4.2 (so SSE2) does.
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, other.0)) as u16 as u64 }
    }
    #[inline(always)]
    fn prefetch(ptr: *const u8) {
        // SAFETY: an Sse42Vector exists only where SSE4.2 (so SSE) does.
        unsafe { super::prefetch(ptr) }
    }
}
