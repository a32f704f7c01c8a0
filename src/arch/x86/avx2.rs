//! The AVX2 backend: 256-bit registers (`__m256i`).
//!
//! AVX2's byte shuffle and `palignr` work inside each 128-bit lane, which suits the nibble
//! tables (repeated in both lanes) but not the shift by 1–3 bytes: the bytes that enter the
//! upper lane must come from the lower lane of the same register. `vperm2i128` first builds
//! the register "previous upper lane : current lower lane", and `vpalignr` then takes the
//! right bytes from it.
//!
//! Inputs shorter than one register (32 bytes) are loaded into one with zeros after them:
//! 16 to 31 bytes from two 16-byte loads, the second ending at the end of the input and
//! moved down by `pshufb` with a control read from a sliding table (`SLIDE`); fewer from
//! the 128-bit packing (`vector::pack16`). One 256-bit check then does the whole input;
//! but first the two loads' OR (of two 8-byte reads under 16 bytes) is tested for ASCII,
//! which on mostly-ASCII text saves the check (`crate::tiers::SHORT_ASCII_FROM_256`).
//!
//! The same vector type serves three rows of the table of backends (`crate::arch`), each
//! with its own schedule (`crate::arch::generic::tuning`): CPUs that run a 256-bit
//! operation at once, CPUs that split it on 128-bit units (chosen by
//! [`super::has_128_bit_units`]) and the AMD Zen 5 (chosen by
//! [`super::checks_short_inputs_whole`]). The tests run all three on every AVX2 CPU.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::arch::generic::vector::Vector;

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

/// From offset `k` (1..=16), the `pshufb` control that moves a register's bytes down by
/// `k` and fills the top `k` with zeros (a control byte with its high bit set).
static SLIDE: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

// The size tier named in `BYTES` is this register's width.
const _: () = assert!(core::mem::size_of::<Avx2Vector>() == <Avx2Vector as Vector>::BYTES);

impl Vector for Avx2Vector {
    // Inputs under 16 bytes in one SSE4.2 register (AVX2 implies SSE4.2).
    type Narrow = super::sse42::Sse42Vector;
    const BYTES: usize = crate::tiers::REGISTER_256;

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees AVX2 and 32 readable bytes at `ptr`.
        Self(unsafe { _mm256_loadu_si256(ptr.cast()) })
    }
    #[inline(always)]
    unsafe fn load_partial(input: &[u8]) -> Self {
        let len = input.len();
        debug_assert!(len < Self::BYTES);
        if len >= 16 {
            // SAFETY: the caller guarantees AVX2 (so SSSE3's `pshufb`); 16 <= len, so both
            // 16-byte loads lie inside `input`, and 1 <= 32 - len <= 16, inside SLIDE. The
            // second load ends at the end of the input; its bytes are moved down by
            // 32 - len, past those the first load holds, with zeros after them.
            unsafe {
                let low = _mm_loadu_si128(input.as_ptr().cast());
                let high = _mm_loadu_si128(input.as_ptr().add(len - 16).cast());
                let down = _mm_loadu_si128(SLIDE.as_ptr().add(32 - len).cast());
                Self(_mm256_set_m128i(_mm_shuffle_epi8(high, down), low))
            }
        } else {
            let bytes = crate::arch::generic::vector::pack16(input);
            // SAFETY: the caller guarantees AVX2; `bytes` holds 16 bytes; the upper lane
            // is zero.
            Self(unsafe { _mm256_zextsi128_si256(_mm_loadu_si128(bytes.as_ptr().cast())) })
        }
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
    #[cfg(test)]
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
    fn high_bits(self) -> u32 {
        // SAFETY: an Avx2Vector exists only where AVX2 does.
        unsafe { _mm256_movemask_epi8(self.0) as u32 }
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
