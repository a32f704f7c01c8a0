//! The small vector trait that the lookup algorithm is written against.
//!
//! A [`Vector`] is one SIMD register of `BYTES` unsigned bytes (16 for SSE4.2, NEON and
//! simd128; 32 for AVX2). It offers exactly the primitives the algorithm needs and nothing
//! more: loads, bitwise logic, a per-byte shift right by 4, a 16-entry table lookup
//! (`pshufb`, `vqtbl1q_u8`, `u8x16_swizzle`), shifting in the last 1, 2 or 3 bytes of the
//! previous register (`palignr`, `vextq_u8`, `i8x16_shuffle`), a saturating subtraction and
//! two reductions ("any high bit set", "any bit set").
//!
//! **Holding a value is the proof that the instruction set exists.** Every way to *make* a
//! vector (`load_unaligned`, `splat`, `repeat16`) is an `unsafe fn` whose contract is that
//! the CPU supports the backend's instructions. Operations on existing vectors are then safe:
//! their implementations rely on that invariant, and each backend's `SAFETY` comments say
//! so. Every method is `#[inline(always)]` and carries no `#[target_feature]`: the generic
//! algorithm is inlined into a single `#[target_feature]` function per backend, which is
//! where the instructions are actually selected.

/// One SIMD register of unsigned bytes; see the [module documentation](self).
pub(crate) trait Vector: Copy {
    /// The number of bytes in one register.
    const BYTES: usize;

    /// Loads `BYTES` bytes from `ptr`, which need not be aligned.
    ///
    /// # Safety
    /// The CPU supports the backend's instruction set, and `ptr` is valid for reads of
    /// `BYTES` bytes.
    unsafe fn load_unaligned(ptr: *const u8) -> Self;

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

    /// Writes the bytes, in memory order, to `out[..BYTES]` (used by tests and debugging).
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

    /// Asks the CPU to bring the 64 bytes at `ptr` into the nearest cache now, because they
    /// will be read soon. A hint: it never faults, whatever `ptr` is, and reads nothing.
    /// Where the instruction set has no stable prefetch (NEON and simd128 in stable Rust),
    /// it does nothing.
    #[inline(always)]
    fn prefetch(ptr: *const u8) {
        let _ = ptr;
    }

    /// The index of the first byte that is not zero, if any. Only used on the cold path
    /// that locates an error, so the portable version (store and scan) is good enough.
    #[inline(always)]
    fn first_nonzero_byte(self) -> Option<usize> {
        let mut bytes = [0u8; 64];
        self.store(&mut bytes);
        bytes[..Self::BYTES].iter().position(|&b| b != 0)
    }
}
