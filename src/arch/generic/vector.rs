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

use crate::tiers::REGISTER_128;

/// One SIMD register of unsigned bytes; see the [module documentation](self).
pub(crate) trait Vector: Copy {
    /// The number of bytes in one register.
    const BYTES: usize;

    /// The vector type that checks inputs shorter than one of *its* registers, where that
    /// is narrower than `Self` (`schedule::validate_small`); `Self` where none is. AVX2:
    /// SSE4.2's 128-bit register for inputs of under 16 bytes, which one register of 16
    /// bytes checks with fewer instructions and jumps than one of 32 (no step from 15 to 16
    /// bytes: docs/PERFORMANCE.md#avx2-narrow-register).
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

    /// Inputs shorter than this (and at least `SHORT_BELOW` bytes) take the medium path of
    /// the schedule, longer ones its main loop (see `crate::tiers`).
    const MEDIUM_BELOW: usize = crate::tiers::MEDIUM_BELOW;

    /// The main loop skips ASCII this many blocks at a time (see `crate::tiers`).
    const ASCII_SKIP_BLOCKS: usize = crate::tiers::ASCII_SKIP_BLOCKS;

    /// Inputs shorter than this take the paths with no 64-byte aligned head: one register,
    /// the short path, and from [`Self::GROUPS_FROM`] (AVX2 only) the groups that start
    /// where the input does; longer ones the medium path from the first 64-byte boundary
    /// (see `crate::tiers`). Where [`Self::PATHS_OUT_OF_LINE`], the two are functions of their
    /// own. (AVX-512's is where its inputs with one group end: `schedule::validate_unaligned`
    /// takes those, in its function.)
    const ALIGNED_FROM: usize = crate::tiers::SHORT_BELOW;

    /// Where the short path ends and the groups begin: inputs from this up to
    /// [`Self::ALIGNED_FROM`]` - 1` bytes take `schedule::validate_unaligned` (in a
    /// function of its own where [`Self::PATHS_OUT_OF_LINE`], so that shorter inputs run no
    /// test of their length for it): AVX2's groups that start where the input does
    /// (`tiers::GROUPS_FROM_256`; on 128-bit units `tiers::GROUPS_FROM_UNITS_128`),
    /// AVX-512's first groups (`tiers::GROUPS_FROM_512`). `SHORT_BELOW` by default, where
    /// it is also `ALIGNED_FROM`: no input takes that function. Measured per backend
    /// (docs/PERFORMANCE.md#avx2-groups-after-first-block, docs/PERFORMANCE.md#avx512-groups).
    const GROUPS_FROM: usize = crate::tiers::SHORT_BELOW;

    /// Whether the groups below [`Self::ALIGNED_FROM`] (`schedule::validate_groups`) start
    /// right after the first block, whose ASCII test comes first anyway, rather than at the
    /// first byte: the first block is then read once, the first group needs no check of
    /// its own with no bytes before it, and an input whose length is one block past a whole
    /// number of groups has no rest. `false` by default; AVX2 on 256-bit units `true`,
    /// where every kind of text measured was faster with it
    /// (docs/PERFORMANCE.md#avx2-groups-after-first-block); AVX2 on 128-bit units (Zen 1),
    /// where it was not measured, keeps the groups from the first byte.
    const GROUPS_AFTER_FIRST_BLOCK: bool = false;

    /// Whether a backend's entries (`validate`, `is_valid`) jump to a function of its own
    /// for each path (short, medium, main loop) rather than hold the short and medium paths
    /// inline. Where the medium path needs the registers a function must save and restore
    /// (SSE4.2 and AVX2: six of them), the compiler saves them on entry, for the short
    /// path too; a jump to each path's function costs one branch instead. And where the
    /// short path shares a function with the medium path, a change to the medium path's
    /// code moves the short path's and its timing with it. It is a cost where a call cannot
    /// be a jump (WASM) and was not measured on NEON: `false` by default
    /// (docs/PERFORMANCE.md#paths-out-of-line).
    const PATHS_OUT_OF_LINE: bool = false;

    /// Inputs of this many bytes and more, up to one block, are tested for ASCII (one OR of
    /// two overlapping reads or registers) before any table is loaded
    /// (`schedule::validate_small`), those left to `Narrow` too; those above one block
    /// always are. `tiers::SHORT_ASCII_FROM` (none) by default; AVX2
    /// `tiers::SHORT_ASCII_FROM_256`, on 128-bit units `tiers::SHORT_ASCII_FROM_UNITS_128`.
    const SHORT_ASCII_FROM: usize = crate::tiers::SHORT_ASCII_FROM;

    /// Below this, the groups with a branch each (`GROUP_BRANCHES`), where the input starts
    /// (`schedule::validate_unaligned`) and from the first 64-byte boundary
    /// (`schedule::validate_aligned`, from `ALIGNED_FROM`), have `tiers::SMALL_GROUP`
    /// blocks instead of `MEDIUM_GROUP`. 0 (none) by default; AVX2
    /// `tiers::SMALL_GROUPS_BELOW_256`, at least its `ALIGNED_FROM`.
    const SMALL_GROUPS_BELOW: usize = 0;

    /// Where a busy input (its first block not ASCII) goes through its groups in one pass
    /// (`schedule::check_busy`), its error is tested every this many bytes of groups, and
    /// an invalid one stops there. 0 (once, at the end) by default; AVX2 on 128-bit units
    /// `tiers::BUSY_ERROR_TEST_UNITS_128`.
    const BUSY_ERROR_TEST: usize = 0;

    /// Whether the medium path below `MASKED_BELOW` branches on each group's ASCII test
    /// with no test of the whole input first, the groups starting where the input does
    /// below [`Self::ALIGNED_FROM`] ([`Self::GROUPS_AFTER_FIRST_BLOCK`];
    /// `schedule::validate_groups`); else the whole input's ASCII test comes first
    /// (`schedule::validate_medium`). On mixed text whether a whole message is ASCII is a
    /// coin for that test (docs/PERFORMANCE.md#group-branches). `false` by default. (AVX-512
    /// takes the same groups, with its aligned rest, from `tiers::GROUPS_FROM_512` to
    /// `tiers::GROUP_BRANCHES_BELOW_512` only: from there its messages all ASCII lose more
    /// than the others gain.)
    const GROUP_BRANCHES: bool = false;

    /// Whether `schedule::validate_groups` reaches the groups that are not ASCII by a loop
    /// over the set bits of its mask (one guess per input: how many there are) instead of
    /// a branch on each group's bit (a guess per group, four bits to a step). `false` by
    /// default; AVX2 `true`, where every kind of text measured was faster with it
    /// (docs/PERFORMANCE.md#avx2-small-groups); not measured on an Intel core.
    const BUSY_GROUPS_LOOP: bool = false;

    /// Whether the main loop's tested groups take every block's ASCII test first, into a
    /// mask, and reach the blocks that are not ASCII by a loop over its bits
    /// (`main_loop::State::group_by_mask`), instead of a branch on each block's test.
    /// `false` by default; AVX2 on 256-bit units `true`: whole files of mixed text seen once
    /// gain far more than files validated again and again (whose branches the predictor has
    /// learnt) lose (docs/PERFORMANCE.md#avx2-main-loop-mask; why text seen once decides:
    /// docs/PERFORMANCE.md#text-seen-once-decides).
    const MAIN_LOOP_BITS: bool = false;

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
    /// One bit per byte, in memory order: bit `i` is set when byte `i` of `self` equals
    /// byte `i` of `other`; the bits from `BYTES` up are zero. (Finding record delimiters:
    /// [`generic::marks`](crate::arch::generic::marks).)
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
    /// path that locates an error: [`crate::arch::generic::schedule::locate`]). From
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
/// past the bytes the first already holds; below 8 bytes, the word of [`crate::word::pack`].
/// Whole words make a register without the stalled store forwarding of a byte-wise copy.
/// (The validators' entry sends inputs below `tiers::WORD_BELOW` to `crate::word`, so a
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
        (crate::word::pack(input), 0)
    };
    let mut bytes = [0u8; REGISTER_128];
    bytes[..8].copy_from_slice(&low.to_le_bytes());
    bytes[8..].copy_from_slice(&high.to_le_bytes());
    bytes
}
