//! The small vector trait that the lookup algorithm is written against.
//!
//! A [`Vector`] is one SIMD register of `BYTES` unsigned bytes (16 for SSE4.2, NEON and
//! simd128; 32 for AVX2; 64 for AVX-512: the size tiers `REGISTER_128`, `REGISTER_256` and
//! `REGISTER_512`). It offers exactly the primitives the algorithm needs and nothing more:
//! loads, bitwise logic, a per-byte shift right by 4, a 16-entry table lookup
//! (`pshufb`, `vqtbl1q_u8`, `u8x16_swizzle`), shifting in the last 1, 2 or 3 bytes of the
//! previous register (`palignr`, `vextq_u8`, `i8x16_shuffle`), a saturating subtraction and
//! two reductions ("any high bit set", "any bit set"), and for the delimiters of records a
//! byte-wise compare reduced to a bit mask.
//!
//! **Holding a value is the proof that the instruction set exists.** Every way to *make* a
//! vector (`load_unaligned`, `splat`, `repeat16`) is an `unsafe fn` whose contract is that
//! the CPU supports the backend's instructions. Operations on existing vectors are then safe:
//! their implementations rely on that invariant, and each backend's `SAFETY` comments say
//! so. Every method is `#[inline(always)]` and carries no `#[target_feature]`: the generic
//! algorithm is inlined into a single `#[target_feature]` function per backend, which is
//! where the instructions are actually selected.
//!
//! What an instruction set can do is all this trait says: how the CPUs that run it are
//! best driven (which path takes which lengths) is their schedule,
//! [`super::tuning::Schedule`].

use crate::tiers::REGISTER_128;

/// One SIMD register of unsigned bytes; see the [module documentation](self).
pub(crate) trait Vector: Copy {
    /// The number of bytes in one register.
    const BYTES: usize;

    /// The vector type that checks inputs shorter than one of *its* registers, where that
    /// is narrower than `Self` (`schedule::validate_small`); `Self` where none is. AVX2:
    /// SSE4.2's 128-bit register for inputs under 16 bytes, which one register of 16 bytes
    /// checks with fewer instructions than a 256-bit one built from two loads
    /// (docs/PERFORMANCE.md#avx2-narrow-register); AVX-512 `Self`, whose masked load takes
    /// every length in one instruction.
    ///
    /// Contract: every CPU that runs `Self`'s instruction set runs `Narrow`'s, and the
    /// target features of `Self`'s functions imply `Narrow`'s (AVX2 implies SSE4.2), so
    /// that holding a `Self` proves a `Narrow` may be made.
    type Narrow: Vector;

    /// Loads `BYTES` bytes from `ptr`, which need not be aligned.
    ///
    /// # Safety
    /// The CPU supports the backend's instruction set, and `ptr` is valid for reads of
    /// `BYTES` bytes.
    unsafe fn load_unaligned(ptr: *const u8) -> Self;

    /// The bytes of `input`, shorter than one register, in a register with zeros after them
    /// (ASCII: a sequence cut off by the end of `input` shows up as one too short).
    ///
    /// The default, for 128-bit registers, is [`pack16`]. AVX2 (two 16-byte loads) and
    /// AVX-512 (a masked load) have their own.
    ///
    /// # Safety
    /// The CPU supports the backend's instruction set; `input.len() < BYTES`.
    #[inline(always)]
    unsafe fn load_partial(input: &[u8]) -> Self {
        assert!(
            Self::BYTES == REGISTER_128 && input.len() < REGISTER_128,
            "the packed load is for shorter inputs than one 128-bit register"
        );
        let bytes = pack16(input);
        // SAFETY: the caller guarantees the instruction set; `bytes` holds 16 = BYTES bytes.
        unsafe { Self::load_unaligned(bytes.as_ptr()) }
    }

    /// Every byte set to `byte`.
    ///
    /// # Safety
    /// The CPU supports the backend's instruction set.
    unsafe fn splat(byte: u8) -> Self;

    /// The 16 bytes of `table` repeated in every 128-bit lane (the form `lookup16` wants).
    ///
    /// # Safety
    /// The CPU supports the backend's instruction set.
    unsafe fn repeat16(table: [u8; 16]) -> Self;

    /// `table.lookup16(x.shr4())`: the entry of `table` for the high nibble of each byte
    /// of `x`. `table` is one made by [`Vector::repeat16`], whose 16 bytes repeat in
    /// every 128-bit lane (a backend may rely on that: AVX-512 with VBMI looks up with
    /// `vpermb`, which reads six bits of each index and so needs no mask after the shift).
    #[inline(always)]
    fn lookup_high(table: Self, x: Self) -> Self {
        table.lookup16(x.shr4())
    }

    /// `table.lookup16(x.and(low_nibble))`, `low_nibble` being every byte `0x0F`: the entry
    /// of `table` for the low nibble of each byte of `x`. `table` as for
    /// [`Vector::lookup_high`].
    #[inline(always)]
    fn lookup_low(table: Self, x: Self, low_nibble: Self) -> Self {
        table.lookup16(x.and(low_nibble))
    }

    /// The same register, made opaque to the compiler: the lookup's constants
    /// (`lookup::Tables::new`) go through it, so that they are built once into registers
    /// instead of being read again from the constant pool by each instruction that uses
    /// them. Where the compiler unrolls the short path's registers (AVX-512), it folds
    /// those reads into every copy, three more loads per register beside the four of
    /// `check_at` (docs/PERFORMANCE.md#avx512-pinned-constants). The default is the register
    /// itself: with AVX2's 16 registers, pinning eight constants made the main loop spill
    /// and gained nothing.
    #[inline(always)]
    fn pinned(self) -> Self {
        self
    }

    /// Writes the bytes, in memory order, to `out[..BYTES]` (the primitives' tests).
    #[cfg(test)]
    fn store(self, out: &mut [u8]);

    /// Bitwise OR.
    fn or(self, other: Self) -> Self;
    /// Bitwise AND.
    fn and(self, other: Self) -> Self;
    /// Bitwise XOR.
    fn xor(self, other: Self) -> Self;
    /// Each byte shifted right by 4 (its high nibble, 0..=15).
    fn shr4(self) -> Self;
    /// Table lookup: byte `i` of the result is `self[idx[i]]` within the same 128-bit lane.
    /// Every byte of `idx` must be below 16.
    fn lookup16(self, idx: Self) -> Self;
    /// The register shifted by one byte towards higher addresses, with the last byte of
    /// `prev` (the register before it in memory) shifted in at the front.
    fn prev1(self, prev: Self) -> Self;
    /// Like [`prev1`](Vector::prev1), by two bytes.
    fn prev2(self, prev: Self) -> Self;
    /// Like [`prev1`](Vector::prev1), by three bytes.
    fn prev3(self, prev: Self) -> Self;
    /// Per-byte unsigned saturating subtraction.
    fn saturating_sub(self, other: Self) -> Self;
    /// True when no byte has its high bit set.
    fn is_ascii(self) -> bool;
    /// True when any bit of any byte is set.
    fn any_set(self) -> bool;
    /// Zero exactly when no byte has its high bit set ([`is_ascii`](Vector::is_ascii)),
    /// else any other value: one instruction where the instruction set gathers the high
    /// bits (x86's `movemask`).
    #[inline(always)]
    fn high_bits(self) -> u32 {
        u32::from(!self.is_ascii())
    }
    /// One bit per byte, in memory order: bit `i` is set when byte `i` of `self` equals
    /// byte `i` of `other`; the bits from `BYTES` up are zero. (Finding record delimiters:
    /// [`generic::delimiters`](crate::arch::generic::delimiters).)
    fn eq_mask(self, other: Self) -> u64;

    /// Asks the CPU to bring the 64 bytes at `ptr` into the nearest cache now, because they
    /// will be read soon. A hint: it never faults, whatever `ptr` is, and reads nothing.
    /// Where the instruction set has no stable prefetch (NEON and simd128 in stable Rust),
    /// it does nothing.
    #[inline(always)]
    fn prefetch(ptr: *const u8) {
        let _ = ptr;
    }

    /// The index of the first byte from byte `from` on that is not zero, if any (the cold
    /// path that locates an error: [`crate::arch::generic::locate::locate`]). From
    /// [`Vector::eq_mask`]: one compare into a bit mask and a count of its trailing ones. (A
    /// store and a scan of the bytes stalls on the store and guesses a branch per byte:
    /// docs/PERFORMANCE.md#exact-errors.)
    #[inline(always)]
    fn first_nonzero_byte(self, from: usize) -> Option<usize> {
        debug_assert!(from < Self::BYTES);
        // SAFETY: a Vector exists only where its instruction set does.
        let zeros = self.eq_mask(unsafe { Self::splat(0) }) | ((1u64 << from) - 1);
        // Bits from BYTES up are zero in `zeros`, so they count as bytes that are not zero:
        // `BYTES` trailing ones or more mean none.
        match zeros.trailing_ones() as usize {
            i if i < Self::BYTES => Some(i),
            _ => None,
        }
    }
}

/// The bytes of `input` (under 16) followed by zeros, read without a byte loop and without a
/// branch on the bytes: two overlapping 8-byte words (8 to 15 bytes), the second shifted
/// past the bytes the first already holds; below 8 bytes, the word of [`crate::reference::word::pack`].
/// Whole words make a register without the stalled store forwarding of a byte-wise copy.
/// (The validators' entry sends inputs below `tiers::WORD_BELOW` to `crate::reference::word`, so a
/// backend packs 8 to 15 bytes on every public path; shorter ones still pack correctly.)
#[inline(always)]
pub(crate) fn pack16(input: &[u8]) -> [u8; REGISTER_128] {
    let len = input.len();
    debug_assert!(len < REGISTER_128);
    let (low, high) = if len >= 8 {
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&input[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let high = word(len - 8) >> (8 * (REGISTER_128 - 1 - len)) >> 8;
        (word(0), high)
    } else {
        (crate::reference::word::pack(input), 0)
    };
    let mut bytes = [0u8; REGISTER_128];
    bytes[..8].copy_from_slice(&low.to_le_bytes());
    bytes[8..].copy_from_slice(&high.to_le_bytes());
    bytes
}
