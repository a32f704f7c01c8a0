//! The AVX-512 backend: 512-bit registers (`__m512i`), AVX512F and AVX512BW (the byte
//! operations), with the cargo feature `avx512` (on by default).
//!
//! It is the lookup algorithm with registers of 64 bytes, one register per block: the same
//! nibble tables (`vpshufb` works inside each 128-bit lane on AVX-512BW as on AVX2), the
//! same schedule. Six things differ from AVX2:
//!
//! - **The shift by 1-3 bytes.** `vpalignr` still works lane by lane, so the bytes that
//!   enter each lane must come from the lane before it: `valignq` by 6 quadwords builds
//!   "previous register's last lane : lanes 0-2 of this one" (AVX2 needs `vperm2i128` for
//!   the same), and `vpalignr` takes the right bytes from it. The groups do not use it
//!   (they load the bytes before each register from memory); the first block and the cold
//!   path do.
//! - **The reductions go through mask registers**: `vpmovb2m` gives the 64 high bits (ASCII
//!   test), `vptestmq` whether any bit is set.
//! - **Inputs shorter than one register (64 bytes) take one masked load** (`vmovdqu8` with
//!   a mask of their length, zeros after them): the bytes past the input are never read, so
//!   the load cannot fault, and one check does the whole input. (Narrower backends pack
//!   such inputs from overlapping reads instead.)
//! - **No main loop**: every input from 513 bytes takes the medium path
//!   (`crate::tiers::MEDIUM_BELOW_512`).
//! - **The lookup's constants are pinned in registers** (`Vector::pinned`): with 32
//!   registers there is room, and the unrolled short path no longer reads them from memory
//!   in every copy.
//! - **With AVX512VBMI** (Ice Lake and later, Zen 4 and later), the nibble lookups are
//!   `vpermb`, which reads six bits of each index, so neither nibble needs a mask: three
//!   instructions fewer per register. Those CPUs get the table's row `avx512vbmi`,
//!   `Avx512Vector<Vpermb>`; the others (Skylake-SP, Cascade Lake) `Avx512Vector<Pshufb>`.
//!
//! Why this design, and how it was tested and measured on AVX-512 hardware: docs/AVX512.md.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::arch::generic::vector::Vector;
use core::marker::PhantomData;

/// How an [`Avx512Vector`] looks up a nibble in a table ([`Vector::lookup_high`],
/// [`Vector::lookup_low`]): [`Pshufb`] or [`Vpermb`], the instruction set the vector type
/// proves beside AVX512F and AVX512BW.
pub(crate) trait NibbleLookup: Copy {
    /// Whether the lookups are `vpermb` (AVX512VBMI) rather than a mask and `vpshufb`.
    const VPERMB: bool;
}

/// Nibble lookups by `vpshufb` after a mask of the nibble (AVX512BW).
#[derive(Clone, Copy)]
pub(crate) struct Pshufb;

impl NibbleLookup for Pshufb {
    const VPERMB: bool = false;
}

/// Nibble lookups by `vpermb`, which reads six bits of each index: no mask (AVX512VBMI).
#[derive(Clone, Copy)]
pub(crate) struct Vpermb;

impl NibbleLookup for Vpermb {
    const VPERMB: bool = true;
}

/// A 512-bit register. Only made by the `unsafe` constructors of [`Vector`], whose callers
/// guarantee that the CPU supports AVX512F and AVX512BW, and AVX512VBMI where `L` is
/// [`Vpermb`]: every safe method below relies on that. `L` changes only the nibble lookups.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Avx512Vector<L = Pshufb>(__m512i, PhantomData<L>);

impl<L: NibbleLookup> Avx512Vector<L> {
    /// The register `v` as this vector type.
    #[inline(always)]
    fn of(v: __m512i) -> Self {
        Self(v, PhantomData)
    }

    /// `prev`'s last 128-bit lane followed by `self`'s lanes 0-2: lane by lane, the 16 bytes
    /// that come just before each lane of `self` in memory.
    #[inline(always)]
    fn straddle(self, prev: Self) -> __m512i {
        // SAFETY: an Avx512Vector exists only where AVX512F does. `valignq` shifts the
        // 16 quadwords `self:prev` (prev in the low half) right by 6: quadwords 6, 7 of
        // `prev`, then 0-5 of `self`.
        unsafe { _mm512_alignr_epi64::<6>(self.0, prev.0) }
    }
}

/// `v`, opaque to the compiler (see `Vector::pinned`): an empty `asm!` that takes it in a
/// register and gives it back (the register class needs the target feature on the function
/// that holds the `asm!`, hence a function of its own, inlined into its callers, which
/// have it too).
///
/// # Safety
/// The CPU supports AVX512F.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn pin(mut v: __m512i) -> __m512i {
    // SAFETY: an empty asm block that only names the register: it reads and writes nothing
    // else.
    unsafe {
        core::arch::asm!("/* {0} */", inout(zmm_reg) v, options(pure, nomem, nostack, preserves_flags));
    }
    v
}

// The size tier named in `BYTES` is this register's width.
const _: () = assert!(core::mem::size_of::<Avx512Vector>() == <Avx512Vector as Vector>::BYTES);

impl<L: NibbleLookup> Vector for Avx512Vector<L> {
    // The masked load takes every length under 64 in one register. (AVX2's and SSE4.2's
    // registers under 32 bytes were faster there and slower at 32-63 B on a Zen 4, not
    // measured elsewhere: docs/PERFORMANCE.md#avx2-narrow-register.)
    type Narrow = Self;
    const BYTES: usize = crate::tiers::REGISTER_512;

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees AVX512F and 64 readable bytes at `ptr`.
        Self::of(unsafe { _mm512_loadu_si512(ptr.cast()) })
    }

    #[inline(always)]
    unsafe fn load_partial(input: &[u8]) -> Self {
        debug_assert!(input.len() < Self::BYTES);
        let mask: __mmask64 = (1u64 << input.len()) - 1;
        // SAFETY: the caller guarantees AVX512BW (`vmovdqu8`) and input.len() < 64; the
        // masked load reads only the `input.len()` bytes the mask selects, all inside
        // `input` (masked-off bytes are not accessed and cannot fault), and zeroes the rest.
        Self::of(unsafe { _mm512_maskz_loadu_epi8(mask, input.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        // SAFETY: the caller guarantees AVX512F.
        Self::of(unsafe { _mm512_set1_epi8(byte as i8) })
    }
    #[inline(always)]
    unsafe fn repeat16(table: [u8; 16]) -> Self {
        // SAFETY: the caller guarantees AVX512F; `table` is 16 readable bytes.
        Self::of(unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(table.as_ptr().cast())) })
    }
    #[inline(always)]
    fn lookup_high(table: Self, x: Self) -> Self {
        if L::VPERMB {
            // SAFETY: an Avx512Vector<Vpermb> exists only where AVX512BW and AVX512VBMI do.
            // `vpermb` reads bits 0-5 of each index: after the 16-bit shift those are the
            // byte's high nibble and 2 bits of the next byte's low one, and `table` repeats
            // its 16 bytes in every lane (the trait's contract), so entry `i` is entry
            // `i % 16`: no mask needed.
            Self::of(unsafe { _mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(x.0), table.0) })
        } else {
            table.lookup16(x.shr4())
        }
    }
    #[inline(always)]
    fn lookup_low(table: Self, x: Self, low_nibble: Self) -> Self {
        if L::VPERMB {
            // SAFETY: an Avx512Vector<Vpermb> exists only where AVX512VBMI does. As above:
            // bits 4-5 of each index select a repeat of the same 16 bytes.
            Self::of(unsafe { _mm512_permutexvar_epi8(x.0, table.0) })
        } else {
            table.lookup16(x.and(low_nibble))
        }
    }
    #[inline(always)]
    fn pinned(self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512F does.
        Self::of(unsafe { pin(self.0) })
    }
    #[cfg(test)]
    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        assert!(out.len() >= 64);
        // SAFETY: an Avx512Vector exists only where AVX512F does; `out` holds 64 bytes.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512F does.
        Self::of(unsafe { _mm512_or_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512F does.
        Self::of(unsafe { _mm512_and_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512F does.
        Self::of(unsafe { _mm512_xor_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn shr4(self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512BW (the 16-bit shift) does. Then
        // clear the bits that crossed from the neighbouring byte.
        Self::of(unsafe {
            _mm512_and_si512(_mm512_srli_epi16::<4>(self.0), _mm512_set1_epi8(0x0F))
        })
    }
    #[inline(always)]
    fn lookup16(self, idx: Self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512BW does.
        Self::of(unsafe { _mm512_shuffle_epi8(self.0, idx.0) })
    }
    #[inline(always)]
    fn prev1(self, prev: Self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512BW does.
        Self::of(unsafe { _mm512_alignr_epi8::<15>(self.0, self.straddle(prev)) })
    }
    #[inline(always)]
    fn prev2(self, prev: Self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512BW does.
        Self::of(unsafe { _mm512_alignr_epi8::<14>(self.0, self.straddle(prev)) })
    }
    #[inline(always)]
    fn prev3(self, prev: Self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512BW does.
        Self::of(unsafe { _mm512_alignr_epi8::<13>(self.0, self.straddle(prev)) })
    }
    #[inline(always)]
    fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: an Avx512Vector exists only where AVX512BW does.
        Self::of(unsafe { _mm512_subs_epu8(self.0, other.0) })
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: an Avx512Vector exists only where AVX512BW (`vpmovb2m`) does.
        unsafe { _mm512_movepi8_mask(self.0) == 0 }
    }
    #[inline(always)]
    fn any_set(self) -> bool {
        // SAFETY: an Avx512Vector exists only where AVX512F (`vptestmq`) does.
        unsafe { _mm512_test_epi64_mask(self.0, self.0) != 0 }
    }
    #[inline(always)]
    fn eq_mask(self, other: Self) -> u64 {
        // SAFETY: an Avx512Vector exists only where AVX512BW (`vpcmpeqb` into a mask) does.
        unsafe { _mm512_cmpeq_epi8_mask(self.0, other.0) }
    }
    #[inline(always)]
    fn prefetch(ptr: *const u8) {
        // SAFETY: an Avx512Vector exists only where AVX-512 (so SSE) does.
        unsafe { super::prefetch(ptr) }
    }
}
