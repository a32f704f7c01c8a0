//! The lookup algorithm (Keiser & Lemire, "Validating UTF-8 In Less Than One Instruction
//! Per Byte", 2021), written once for every [`Vector`] backend.
//!
//! # The idea
//!
//! Almost every UTF-8 error is visible in **two consecutive bytes**: the byte before (`prev1`)
//! and the current one (`cur`). Split each into nibbles and look up three 16-entry tables,
//! each giving an 8-bit set of "error classes that are still possible":
//!
//! ```text
//! special = BYTE_1_HIGH[prev1 >> 4] & BYTE_1_LOW[prev1 & 15] & BYTE_2_HIGH[cur >> 4]
//! ```
//!
//! A class survives the AND only if all three nibbles allow it. The classes:
//!
//! | bit | class      | pattern (prev1, cur)                         |
//! |-----|------------|----------------------------------------------|
//! | 0   | TOO_SHORT  | lead `11xxxxxx` followed by a non-continuation |
//! | 1   | TOO_LONG   | ASCII `0xxxxxxx` followed by a continuation  |
//! | 2   | OVERLONG_3 | `E0` then `80..9F`                           |
//! | 3   | TOO_LARGE  | `F4` then `90..BF`, or `F5..FF` then `90..BF` |
//! | 4   | SURROGATE  | `ED` then `A0..BF`                           |
//! | 5   | OVERLONG_2 | `C0`/`C1` then a continuation                |
//! | 6   | TOO_LARGE_1000 / OVERLONG_4 | `F5..FF` then `80..8F` / `F0` then `80..8F` |
//! | 7   | TWO_CONTS  | a continuation followed by a continuation    |
//!
//! Every class except TWO_CONTS is an error by itself. Two continuations in a row are
//! correct only as bytes 3 or 4 of a 3- or 4-byte sequence, which the pair cannot see, so we
//! look further back: `cur` *must* be such a continuation exactly when the byte two back
//! (`prev2`) is `>= E0` or the byte three back (`prev3`) is `>= F0`. A saturating subtraction
//! turns that into a high bit, and
//!
//! ```text
//! error = special ^ (must_be_2_3_continuation & 0x80)
//! ```
//!
//! is zero exactly when the bytes are valid: a required third/fourth byte cancels the
//! TWO_CONTS bit, and a required one that is missing (or a TWO_CONTS that is not required)
//! leaves a bit set.
//!
//! # End of input
//!
//! A sequence may still be open at the end of a register: the last byte `>= C0`, the
//! second-to-last `>= E0` or the third-to-last `>= F0`. One saturating subtraction against
//! `[FF, …, FF, EF, DF, BF]` finds that; it is an error only if the input ends there, or
//! if the next block is pure ASCII (which skips the tables), so it is computed only then,
//! from the last register checked.
//!
//! # The loop
//!
//! The input is processed in 64-byte blocks (64 / `BYTES` registers each). A block whose
//! bytes are all ASCII is skipped after one OR-reduction. The error accumulator is tested
//! after every group of 8 blocks (512 bytes): fewer tests, and on AVX2 measurably fewer
//! instructions per byte than testing every block or every 4 blocks. The last partial block is handled by re-checking the last
//! 64 bytes of the input (overlapping bytes already checked, with the true register before
//! them), so nothing is copied; inputs too short for that (under 64 + one register) are
//! copied into a zero-filled block: the zeros are ASCII, so a sequence cut off by the end of
//! input shows up as TOO_SHORT.
//!
//! # Locating an error
//!
//! The error bits are *local*: the bits of byte `i` depend only on bytes `i-3..=i`. So if
//! the first error starts at byte `e`, no byte before `e` has bits set (the bytes before `e`
//! are valid text), and the error sets a bit at most 3 bytes after `e` (a stray continuation
//! at `e`, a bad second byte at `e+1`, a missing continuation at `e+1..=e+3`). When a block
//! fails, a cold path re-checks it register by register, takes the first byte `i` with a
//! bit set, and reports `i - 3`: the first error starts within 3 bytes after that. The
//! scalar decoder then finds it exactly, after backing up to the start of a character.
//! An error that only the end-of-register check reveals (a sequence left open at the end of the
//! previous block) is reported at the block start.

use super::super::vector::Vector;

/// The size of one block: the unit of the loop, of the ASCII fast path and of the error
/// check.
pub(crate) const BLOCK: usize = 64;

const TOO_SHORT: u8 = 1 << 0;
const TOO_LONG: u8 = 1 << 1;
const OVERLONG_3: u8 = 1 << 2;
const TOO_LARGE: u8 = 1 << 3;
const SURROGATE: u8 = 1 << 4;
const OVERLONG_2: u8 = 1 << 5;
const TOO_LARGE_1000: u8 = 1 << 6;
const OVERLONG_4: u8 = 1 << 6;
const TWO_CONTS: u8 = 1 << 7;
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Indexed by the high nibble of the previous byte.
const BYTE_1_HIGH: [u8; 16] = [
    // 0_______ ASCII: a continuation after it is too long.
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    // 10______ continuation.
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    // 1100____ two-byte lead.
    TOO_SHORT | OVERLONG_2,
    // 1101____ two-byte lead.
    TOO_SHORT,
    // 1110____ three-byte lead.
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    // 1111____ four-byte lead (or F5..FF).
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// Indexed by the low nibble of the previous byte.
const BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, // ____0000
    CARRY | OVERLONG_2,                           // ____0001
    CARRY,                                        // ____001_
    CARRY,
    CARRY | TOO_LARGE,                               // ____0100
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____0101
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____011_
    CARRY | TOO_LARGE | TOO_LARGE_1000,              //
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____1___
    CARRY | TOO_LARGE | TOO_LARGE_1000,              //
    CARRY | TOO_LARGE | TOO_LARGE_1000,              //
    CARRY | TOO_LARGE | TOO_LARGE_1000,              //
    CARRY | TOO_LARGE | TOO_LARGE_1000,              //
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,  // ____1101
    CARRY | TOO_LARGE | TOO_LARGE_1000,              //
    CARRY | TOO_LARGE | TOO_LARGE_1000,              //
];

/// Indexed by the high nibble of the current byte.
const BYTE_2_HIGH: [u8; 16] = [
    // 0_______ ASCII.
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    // 1000____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    // 1001____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    // 101_____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    // 11______ a lead byte.
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// The largest byte allowed in each of the last 3 positions of a register for no sequence
/// to be left open: `..., FF, EF, DF, BF`. Loaded from its last `BYTES` bytes.
static INCOMPLETE_MAX: [u8; BLOCK] = {
    let mut t = [0xFF; BLOCK];
    t[BLOCK - 3] = 0xF0 - 1;
    t[BLOCK - 2] = 0xE0 - 1;
    t[BLOCK - 1] = 0xC0 - 1;
    t
};

/// The constants of the algorithm, loaded into registers once per call.
#[derive(Clone, Copy)]
struct Tables<V> {
    byte_1_high: V,
    byte_1_low: V,
    byte_2_high: V,
    low_nibble: V,
    third_byte_min: V,
    fourth_byte_min: V,
    high_bit: V,
    incomplete_max: V,
}

impl<V: Vector> Tables<V> {
    /// # Safety
    /// The CPU supports `V`'s instruction set.
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: the caller guarantees the instruction set; INCOMPLETE_MAX has BLOCK >=
        // V::BYTES bytes, so reading its last V::BYTES bytes stays inside it.
        unsafe {
            Tables {
                byte_1_high: V::repeat16(BYTE_1_HIGH),
                byte_1_low: V::repeat16(BYTE_1_LOW),
                byte_2_high: V::repeat16(BYTE_2_HIGH),
                low_nibble: V::splat(0x0F),
                third_byte_min: V::splat(0xE0 - 0x80),
                fourth_byte_min: V::splat(0xF0 - 0x80),
                high_bit: V::splat(0x80),
                incomplete_max: V::load_unaligned(
                    INCOMPLETE_MAX.as_ptr().add(BLOCK - V::BYTES),
                ),
            }
        }
    }

    /// The error bits for register `input`, whose predecessor in memory is `prev_input`.
    #[inline(always)]
    fn check(&self, input: V, prev_input: V) -> V {
        let prev1 = input.prev1(prev_input);
        let special = self
            .byte_1_high
            .lookup16(prev1.shr4())
            .and(self.byte_1_low.lookup16(prev1.and(self.low_nibble)))
            .and(self.byte_2_high.lookup16(input.shr4()));
        let is_third = input.prev2(prev_input).saturating_sub(self.third_byte_min);
        let is_fourth = input.prev3(prev_input).saturating_sub(self.fourth_byte_min);
        is_third.or(is_fourth).and(self.high_bit).xor(special)
    }

    /// Non-zero where a sequence is still open at the end of `input`.
    #[inline(always)]
    fn incomplete(&self, input: V) -> V {
        input.saturating_sub(self.incomplete_max)
    }
}

/// The running state between blocks.
struct State<V> {
    /// The last register checked (its bytes precede the next block).
    prev_input: V,
    /// Non-zero once an error has been seen.
    error: V,
}

impl<V: Vector> State<V> {
    /// Checks one block of `BLOCK` bytes at `ptr`.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `BLOCK` bytes (the instruction set is proven by `self`).
    #[inline(always)]
    unsafe fn block(&mut self, t: &Tables<V>, ptr: *const u8) {
        let n = BLOCK / V::BYTES;
        let mut regs = [self.prev_input; 4];
        debug_assert!(n <= regs.len());
        for (i, r) in regs.iter_mut().enumerate().take(n) {
            // SAFETY: i * V::BYTES + V::BYTES <= BLOCK, within the caller's guarantee.
            *r = unsafe { V::load_unaligned(ptr.add(i * V::BYTES)) };
        }
        let mut any = regs[0];
        for r in &regs[1..n] {
            any = any.or(*r);
        }
        if any.is_ascii() {
            // Only a sequence left open at the end of the previous register can be wrong
            // here. (Computed only now: most blocks after a non-ASCII one are not ASCII.)
            self.error = self.error.or(t.incomplete(self.prev_input));
            self.prev_input = regs[n - 1];
            return;
        }
        let mut prev = self.prev_input;
        for r in &regs[..n] {
            self.error = self.error.or(t.check(*r, prev));
            prev = *r;
        }
        self.prev_input = prev;
    }

    /// Checks `GROUP` consecutive blocks at `ptr`.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `GROUP * BLOCK` bytes.
    #[inline(always)]
    unsafe fn group(&mut self, t: &Tables<V>, ptr: *const u8) {
        for k in 0..GROUP {
            // SAFETY: block k lies in the group, within the caller's guarantee.
            unsafe { self.block(t, ptr.add(k * BLOCK)) };
        }
    }
}

/// How many blocks the main loop handles between two tests of the error accumulator (and
/// with one ASCII test when they are all ASCII).
const GROUP: usize = 8;

/// Validates `input` with vector type `V`.
///
/// Returns `Err(pos)` if the input is invalid, where the first error starts at most 3
/// bytes after `pos`, or is a sequence left open by the character that contains byte
/// `pos - 1` (see "Locating an error" above). Callers back up to the start of that
/// character and let the scalar decoder find the exact error.
///
/// # Safety
/// The CPU supports `V`'s instruction set. This function must be inlined into a function
/// compiled with that instruction set enabled (`#[target_feature]`), or the intrinsics will
/// not be selected.
#[inline(always)]
pub(crate) unsafe fn validate<V: Vector>(input: &[u8]) -> Result<(), usize> {
    // SAFETY: the caller guarantees the instruction set.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    let mut state = State {
        prev_input: zero,
        error: zero,
    };
    let len = input.len();
    let ptr = input.as_ptr();
    let mut pos = 0;

    // Main loop: GROUP blocks (each with its own ASCII test), then one error test.
    while pos + GROUP * BLOCK <= len {
        let before = state.prev_input;
        // SAFETY: pos + GROUP * BLOCK <= len, so the group lies inside `input`.
        unsafe { state.group(&t, ptr.add(pos)) };
        if state.error.any_set() {
            // SAFETY: as above.
            return Err(unsafe { locate_in_group(&t, ptr, pos, before) });
        }
        pos += GROUP * BLOCK;
    }
    // Then single blocks.
    while pos + BLOCK <= len {
        let prev_input = state.prev_input;
        // SAFETY: pos + BLOCK <= len, so the block lies inside `input`.
        unsafe { state.block(&t, ptr.add(pos)) };
        if state.error.any_set() {
            // SAFETY: as above.
            return Err(pos + unsafe { locate(&t, ptr.add(pos), prev_input) }.unwrap_or(0));
        }
        pos += BLOCK;
    }
    if pos == len {
        return if t.incomplete(state.prev_input).any_set() {
            Err(pos)
        } else {
            Ok(())
        };
    }

    // The last, partial block.
    if len >= BLOCK + V::BYTES {
        // Re-check the last BLOCK bytes, overlapping bytes already checked, with the true
        // register before them as `prev_input`: no copy needed. Bytes checked twice give
        // the same bits twice.
        let start = len - BLOCK;
        // SAFETY: start >= V::BYTES, so the register before `start` is inside `input`.
        let prev_input = unsafe { V::load_unaligned(ptr.add(start - V::BYTES)) };
        state.prev_input = prev_input;
        // SAFETY: start + BLOCK == len.
        unsafe { state.block(&t, ptr.add(start)) };
        // The last bytes of the input must not open a sequence.
        state.error = state.error.or(t.incomplete(state.prev_input));
        if state.error.any_set() {
            // SAFETY: as above. `None`: a sequence left open at the end, or (when the
            // overlap is under 3 bytes) just before `start`: the scalar decoder from
            // `start` (after backing up) finds either.
            return Err(start + unsafe { locate(&t, ptr.add(start), prev_input) }.unwrap_or(0));
        }
    } else {
        let mut tail = [0u8; BLOCK];
        tail[..len - pos].copy_from_slice(&input[pos..]);
        let prev_input = state.prev_input;
        // SAFETY: `tail` is BLOCK bytes long.
        unsafe { state.block(&t, tail.as_ptr()) };
        if state.error.any_set() {
            // SAFETY: as above.
            return Err(pos + unsafe { locate(&t, tail.as_ptr(), prev_input) }.unwrap_or(0));
        }
    }
    Ok(())
}

/// The cold path for a failed group at `ptr + pos`: replays its blocks one at a time from
/// the register before it, `prev_input`, and locates the error in the first block that
/// fails.
///
/// # Safety
/// `ptr + pos` is valid for reads of `GROUP * BLOCK` bytes (the instruction set is proven
/// by `t`).
#[inline(always)]
unsafe fn locate_in_group<V: Vector>(
    t: &Tables<V>,
    ptr: *const u8,
    pos: usize,
    prev_input: V,
) -> usize {
    let mut state = State {
        prev_input,
        error: prev_input.xor(prev_input),
    };
    for k in 0..GROUP {
        let at = pos + k * BLOCK;
        let prev = state.prev_input;
        // SAFETY: the block lies inside the group, within the caller's guarantee.
        unsafe { state.block(t, ptr.add(at)) };
        if state.error.any_set() {
            // SAFETY: as above.
            return at + unsafe { locate(t, ptr.add(at), prev) }.unwrap_or(0);
        }
    }
    // Unreachable when the group failed; `pos` is still a correct (if slower) answer.
    pos
}

/// The cold path: re-checks the failed block at `ptr` (whose predecessor register was
/// `prev_input`) and returns an offset into it at most 3 bytes before the first error, or
/// `None` when no byte of the block has error bits (the error is a sequence left open
/// before it, or at the end of the input). See "Locating an error" above.
///
/// # Safety
/// `ptr` is valid for reads of `BLOCK` bytes (the instruction set is proven by `t`).
#[inline(always)]
unsafe fn locate<V: Vector>(t: &Tables<V>, ptr: *const u8, prev_input: V) -> Option<usize> {
    let mut prev = prev_input;
    for i in 0..BLOCK / V::BYTES {
        // SAFETY: i * V::BYTES + V::BYTES <= BLOCK, within the caller's guarantee.
        let input = unsafe { V::load_unaligned(ptr.add(i * V::BYTES)) };
        if let Some(lane) = t.check(input, prev).first_nonzero_byte() {
            return Some((i * V::BYTES + lane).saturating_sub(3));
        }
        prev = input;
    }
    None
}
