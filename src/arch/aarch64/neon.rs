//! The NEON backend: 128-bit registers (`uint8x16_t`).
//!
//! Every primitive is one instruction:
//!
//! - `vqtbl1q_u8` (`TBL`) does the nibble lookups. Unlike `pshufb` it does not look at the
//!   high bit of an index (an index of 16 or more gives 0), which does not matter here:
//!   every index is a nibble.
//! - `vextq_u8::<15/14/13>(prev, cur)` (`EXT`) takes the last 1, 2 or 3 bytes of `prev`
//!   followed by the first bytes of `cur`: the same as `palignr` with its operands swapped.
//! - `vshrq_n_u8::<4>` (`USHR`) is a true per-byte shift, so no mask is needed (SSE and AVX
//!   only shift 16-bit lanes).
//! - `vqsubq_u8` (`UQSUB`) is the per-byte saturating unsigned subtraction.
//! - The reductions use across-lane maxima: `vmaxvq_u8` (`UMAXV .16B`) for "any high bit
//!   set" (the maximum byte is `>= 0x80`), and, for "any bit set", `vmaxvq_u32` over the
//!   same bits seen as four 32-bit lanes (`UMAXV .4S`), a shorter reduction than over 16
//!   bytes with the same answer: some lane is non-zero exactly when some byte is.
//!
//! NEON is part of the aarch64 base architecture and enabled at compile time by every
//! aarch64 target (`cfg(target_feature = "neon")` selects this module in `super::super`),
//! so [`validate`] carries `#[target_feature(enable = "neon")]` only to mirror the other
//! backends; the intrinsics are selected either way.

use core::arch::aarch64::*;

use crate::arch::generic::vector::Vector;

/// A 128-bit register. Only made by the `unsafe` constructors of [`Vector`], whose callers
/// guarantee that the CPU supports NEON: every safe method below relies on that.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct NeonVector(uint8x16_t);

// The size tier named in `BYTES` is this register's width.
const _: () = assert!(core::mem::size_of::<NeonVector>() == <NeonVector as Vector>::BYTES);

impl Vector for NeonVector {
    type Narrow = Self;
    const BYTES: usize = crate::tiers::REGISTER_128;

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees NEON and 16 readable bytes at `ptr`; `LD1` has no
        // alignment requirement beyond the byte.
        Self(unsafe { vld1q_u8(ptr) })
    }
    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        // SAFETY: the caller guarantees NEON.
        Self(unsafe { vdupq_n_u8(byte) })
    }
    #[inline(always)]
    unsafe fn repeat16(table: [u8; 16]) -> Self {
        // SAFETY: the caller guarantees NEON; `table` is 16 readable bytes.
        unsafe { Self::load_unaligned(table.as_ptr()) }
    }
    #[cfg(test)]
    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        assert!(out.len() >= 16);
        // SAFETY: a NeonVector exists only where NEON does; `out` holds 16 bytes.
        unsafe { vst1q_u8(out.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: a NeonVector exists only where NEON does.
        Self(unsafe { vorrq_u8(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: a NeonVector exists only where NEON does.
        Self(unsafe { vandq_u8(self.0, other.0) })
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: a NeonVector exists only where NEON does.
        Self(unsafe { veorq_u8(self.0, other.0) })
    }
    #[inline(always)]
    fn shr4(self) -> Self {
        // SAFETY: a NeonVector exists only where NEON does. USHR shifts each byte on its
        // own and shifts in zeros: no mask needed.
        Self(unsafe { vshrq_n_u8::<4>(self.0) })
    }
    #[inline(always)]
    fn lookup16(self, idx: Self) -> Self {
        // SAFETY: a NeonVector exists only where NEON does. Every index is below 16 (the
        // trait's contract), so TBL reads the table and never yields its out-of-range 0.
        Self(unsafe { vqtbl1q_u8(self.0, idx.0) })
    }
    #[inline(always)]
    fn prev1(self, prev: Self) -> Self {
        // SAFETY: a NeonVector exists only where NEON does. EXT #15: byte 15 of `prev`,
        // then bytes 0..15 of `self`.
        Self(unsafe { vextq_u8::<15>(prev.0, self.0) })
    }
    #[inline(always)]
    fn prev2(self, prev: Self) -> Self {
        // SAFETY: as for prev1; bytes 14..16 of `prev`, then bytes 0..14 of `self`.
        Self(unsafe { vextq_u8::<14>(prev.0, self.0) })
    }
    #[inline(always)]
    fn prev3(self, prev: Self) -> Self {
        // SAFETY: as for prev1; bytes 13..16 of `prev`, then bytes 0..13 of `self`.
        Self(unsafe { vextq_u8::<13>(prev.0, self.0) })
    }
    #[inline(always)]
    fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: a NeonVector exists only where NEON does.
        Self(unsafe { vqsubq_u8(self.0, other.0) })
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: a NeonVector exists only where NEON does.
        unsafe { vmaxvq_u8(self.0) < 0x80 }
    }
    #[inline(always)]
    fn any_set(self) -> bool {
        // SAFETY: a NeonVector exists only where NEON does; the reinterpretation is free.
        unsafe { vmaxvq_u32(vreinterpretq_u32_u8(self.0)) != 0 }
    }
    #[inline(always)]
    fn eq_mask(self, other: Self) -> u64 {
        // Each equal byte becomes its bit's weight (1, 2, 4, ... 128 in each half), and the
        // sum of each half is its 8 bits.
        const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
        // SAFETY: a NeonVector exists only where NEON does; WEIGHTS is 16 readable bytes.
        unsafe {
            let bits = vandq_u8(vceqq_u8(self.0, other.0), vld1q_u8(WEIGHTS.as_ptr()));
            let low = vaddv_u8(vget_low_u8(bits)) as u64;
            let high = vaddv_u8(vget_high_u8(bits)) as u64;
            low | high << 8
        }
    }
}
