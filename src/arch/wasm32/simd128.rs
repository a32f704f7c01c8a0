//! The WebAssembly `simd128` backend: 128-bit registers (`v128`).
//!
//! Every primitive is one WebAssembly instruction, which the engine translates to the
//! host's own (on x86-64, V8 emits the SSE/AVX instruction in brackets):
//!
//! - `u8x16_swizzle` (`i8x16.swizzle`, `pshufb` plus an index fix-up) does the nibble
//!   lookups. An index of 16 or more gives 0; every index here is a nibble.
//! - `i8x16_shuffle::<15, 16, …, 30>(prev, cur)` (`i8x16.shuffle` with constant lanes,
//!   which engines recognise as `palignr`) takes the last 1, 2 or 3 bytes of `prev`
//!   followed by the first bytes of `cur`.
//! - `u8x16_shr(v, 4)` (`i8x16.shr_u`) is a per-byte shift: no mask needed in the source
//!   (the engine adds the one that SSE needs).
//! - `u8x16_sub_sat` (`i8x16.sub_sat_u`, `psubusb`) is the saturating subtraction.
//! - `u8x16_bitmask` (`i8x16.bitmask`, `pmovmskb`) answers "any high bit set", and
//!   `v128_any_true` (`v128.any_true`, `ptest`) "any bit set".
//!
//! simd128 cannot be detected at run time: a module that uses it fails to *validate* (it
//! is never run) on an engine without it. That is why `core::arch::wasm32` declares these
//! intrinsics as safe functions; only the loads and stores, which take raw pointers, are
//! `unsafe`. The module is selected in `super::super` by `cfg(target_feature = "simd128")`.

use core::arch::wasm32::*;

use crate::arch::generic::vector::Vector;

/// A 128-bit register. Only made by the `unsafe` constructors of [`Vector`], whose callers
/// guarantee that the engine supports simd128 (it does wherever this code is compiled in,
/// or the module would not have loaded).
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Simd128Vector(v128);

// The size tier named in `BYTES` is this register's width.
const _: () = assert!(core::mem::size_of::<Simd128Vector>() == <Simd128Vector as Vector>::BYTES);

impl Vector for Simd128Vector {
    type Narrow = Self;
    const BYTES: usize = crate::tiers::REGISTER_128;

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `ptr`. `v128.load` has no
        // alignment requirement (its alignment is only a hint).
        Self(unsafe { v128_load(ptr.cast()) })
    }
    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        Self(u8x16_splat(byte))
    }
    #[inline(always)]
    unsafe fn repeat16(table: [u8; 16]) -> Self {
        // SAFETY: `table` is 16 readable bytes.
        unsafe { Self::load_unaligned(table.as_ptr()) }
    }
    #[cfg(test)]
    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        assert!(out.len() >= 16);
        // SAFETY: `out` holds 16 writable bytes; `v128.store` needs no alignment.
        unsafe { v128_store(out.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        Self(v128_or(self.0, other.0))
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        Self(v128_and(self.0, other.0))
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        Self(v128_xor(self.0, other.0))
    }
    #[inline(always)]
    fn shr4(self) -> Self {
        Self(u8x16_shr(self.0, 4))
    }
    #[inline(always)]
    fn lookup16(self, idx: Self) -> Self {
        Self(u8x16_swizzle(self.0, idx.0))
    }
    // Lanes 0..16 of a shuffle's input are `prev`, 16..32 are `self`: prevK takes lanes
    // 16 - K .. 32 - K, the last K bytes of `prev` and then the first 16 - K of `self`.
    #[inline(always)]
    #[rustfmt::skip] // one line per shuffle, not one line per lane
    fn prev1(self, prev: Self) -> Self {
        let (p, c) = (prev.0, self.0);
        Self(i8x16_shuffle::<15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30>(p, c))
    }
    #[inline(always)]
    #[rustfmt::skip] // one line per shuffle, not one line per lane
    fn prev2(self, prev: Self) -> Self {
        let (p, c) = (prev.0, self.0);
        Self(i8x16_shuffle::<14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29>(p, c))
    }
    #[inline(always)]
    #[rustfmt::skip] // one line per shuffle, not one line per lane
    fn prev3(self, prev: Self) -> Self {
        let (p, c) = (prev.0, self.0);
        Self(i8x16_shuffle::<13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28>(p, c))
    }
    #[inline(always)]
    fn saturating_sub(self, other: Self) -> Self {
        Self(u8x16_sub_sat(self.0, other.0))
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        u8x16_bitmask(self.0) == 0
    }
    #[inline(always)]
    fn any_set(self) -> bool {
        v128_any_true(self.0)
    }
    #[inline(always)]
    fn eq_mask(self, other: Self) -> u64 {
        u8x16_bitmask(u8x16_eq(self.0, other.0)) as u64
    }
}
