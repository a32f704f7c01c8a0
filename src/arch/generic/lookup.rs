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
//! The input is processed in 64-byte blocks (64 / `BYTES` registers each). Leading ASCII
//! is skipped 256 and then 64 bytes at a time before any table is loaded. After that, the
//! bytes 1, 2 and 3 before each register are **loaded from memory** (three overlapping
//! unaligned loads) rather than shifted in from the previous register: loads have ports
//! of their own, while the byte shifts (`palignr`, and on AVX2 a lane permute) compete
//! with the three table lookups and the nibble shifts for the same shuffle ports. (The
//! first block of an input, which has no bytes before it, and the short-input and cold
//! paths shift registers instead; the results are the same.)
//!
//! The error accumulator is tested after every group of 8 blocks (512 bytes). Within a
//! group, each block is first tested for ASCII (one OR-reduction, and an ASCII block only
//! needs the end-of-register check) if the group starts with an ASCII block or the last
//! group had one; otherwise the text is taken to be non-ASCII and the tests are left out,
//! as they would almost never pay. The last partial block is handled by re-checking the
//! last 64 bytes of the input (overlapping bytes already checked), so nothing is copied.
//! Inputs of up to 512 bytes take a straight path through their registers (see
//! `validate_short`); 8 to 15 bytes make one 128-bit register from two 8-byte reads, and
//! only inputs shorter than that are copied into a zero-filled block: the zeros are ASCII,
//! so a sequence cut off by the end of input shows up as TOO_SHORT.
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
    CARRY | TOO_LARGE,                              // ____0100
    CARRY | TOO_LARGE | TOO_LARGE_1000,             // ____0101
    CARRY | TOO_LARGE | TOO_LARGE_1000,             // ____011_
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             // ____1___
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, // ____1101
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
    CARRY | TOO_LARGE | TOO_LARGE_1000,             //
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
                incomplete_max: V::load_unaligned(INCOMPLETE_MAX.as_ptr().add(BLOCK - V::BYTES)),
            }
        }
    }

    /// The error bits for register `input`, whose predecessor in memory is `prev_input`.
    #[inline(always)]
    fn check(&self, input: V, prev_input: V) -> V {
        self.classify(
            input,
            input.prev1(prev_input),
            input.prev2(prev_input),
            input.prev3(prev_input),
        )
    }

    /// The error bits for the register at `ptr`, with the bytes 1, 2 and 3 before each of
    /// its bytes loaded straight from memory: three more loads instead of the byte shifts,
    /// which compete with the table lookups for the same execution ports (and on AVX2 need
    /// a lane permute first).
    ///
    /// # Safety
    /// `ptr - 3` is valid for reads of `V::BYTES + 3` bytes.
    #[inline(always)]
    unsafe fn check_at(&self, ptr: *const u8) -> V {
        // SAFETY: all four loads lie in the `V::BYTES + 3` bytes from `ptr - 3`.
        unsafe {
            self.classify(
                V::load_unaligned(ptr),
                V::load_unaligned(ptr.sub(1)),
                V::load_unaligned(ptr.sub(2)),
                V::load_unaligned(ptr.sub(3)),
            )
        }
    }

    /// The error bits of `input` given the bytes 1, 2 and 3 before each of its bytes.
    #[inline(always)]
    fn classify(&self, input: V, prev1: V, prev2: V, prev3: V) -> V {
        let special = self
            .byte_1_high
            .lookup16(prev1.shr4())
            .and(self.byte_1_low.lookup16(prev1.and(self.low_nibble)))
            .and(self.byte_2_high.lookup16(input.shr4()));
        let is_third = prev2.saturating_sub(self.third_byte_min);
        let is_fourth = prev3.saturating_sub(self.fourth_byte_min);
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
    /// Whether a block of the last group was all ASCII (see [`State::group`]).
    saw_ascii: bool,
}

impl<V: Vector> State<V> {
    /// Checks one block of `BLOCK` bytes at `ptr`.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `BLOCK` bytes (the instruction set is proven by `self`).
    #[inline(always)]
    unsafe fn block(&mut self, t: &Tables<V>, ptr: *const u8) {
        // SAFETY: the block lies inside the caller's guarantee.
        if unsafe { all_ascii::<V>(ptr, 1) } {
            // Only a sequence left open at the end of the previous register can be wrong
            // here. (Computed only now: most blocks after a non-ASCII one are not ASCII.)
            self.error = self.error.or(t.incomplete(self.prev_input));
            // SAFETY: the last register of the block lies inside the caller's guarantee.
            self.prev_input = unsafe { V::load_unaligned(ptr.add(BLOCK - V::BYTES)) };
        } else {
            // SAFETY: as above.
            unsafe { self.block_no_ascii_test(t, ptr) };
        }
    }

    /// Checks one block of `BLOCK` bytes at `ptr` with the tables, without the ASCII test,
    /// shifting in the bytes before each register from the one before it.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `BLOCK` bytes (the instruction set is proven by `self`).
    #[inline(always)]
    unsafe fn block_no_ascii_test(&mut self, t: &Tables<V>, ptr: *const u8) {
        let mut prev = self.prev_input;
        for i in 0..BLOCK / V::BYTES {
            // SAFETY: i * V::BYTES + V::BYTES <= BLOCK, within the caller's guarantee.
            let r = unsafe { V::load_unaligned(ptr.add(i * V::BYTES)) };
            self.error = self.error.or(t.check(r, prev));
            prev = r;
        }
        self.prev_input = prev;
    }

    /// Like [`block`](State::block), but reading the bytes before each register from
    /// memory (see [`Tables::check_at`]).
    ///
    /// # Safety
    /// `ptr - 3` is valid for reads of `BLOCK + 3` bytes.
    #[inline(always)]
    unsafe fn block_at(&mut self, t: &Tables<V>, ptr: *const u8) {
        // SAFETY: the block lies inside the caller's guarantee.
        let last = unsafe { V::load_unaligned(ptr.add(BLOCK - V::BYTES)) };
        // SAFETY: as above.
        if unsafe { all_ascii::<V>(ptr, 1) } {
            // Only a sequence left open at the end of the previous register can be wrong
            // here. (Computed only now: most blocks after a non-ASCII one are not ASCII.)
            self.error = self.error.or(t.incomplete(self.prev_input));
            self.saw_ascii = true;
        } else {
            // SAFETY: as above.
            unsafe { self.block_at_no_ascii_test(t, ptr) };
        }
        self.prev_input = last;
    }

    /// Checks one block of `BLOCK` bytes at `ptr` with the tables, without the ASCII test,
    /// reading the bytes before each register from memory (see [`Tables::check_at`]).
    ///
    /// # Safety
    /// `ptr - 3` is valid for reads of `BLOCK + 3` bytes.
    #[inline(always)]
    unsafe fn block_at_no_ascii_test(&mut self, t: &Tables<V>, ptr: *const u8) {
        for i in 0..BLOCK / V::BYTES {
            // SAFETY: register i and the 3 bytes before it lie inside the caller's
            // guarantee.
            self.error = self.error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
        }
        // SAFETY: the last register of the block lies inside the caller's guarantee.
        self.prev_input = unsafe { V::load_unaligned(ptr.add(BLOCK - V::BYTES)) };
    }

    /// Checks `GROUP` consecutive blocks at `ptr`. If the first block is all ASCII, or a
    /// block of the last group was, each block gets its ASCII test; otherwise the text here
    /// is probably not ASCII, and the whole group goes through the tables without the
    /// tests (which would almost never pay off).
    ///
    /// # Safety
    /// `ptr - 3` is valid for reads of `GROUP * BLOCK + 3` bytes.
    #[inline(always)]
    unsafe fn group(&mut self, t: &Tables<V>, ptr: *const u8) {
        // SAFETY: the first block lies in the group, within the caller's guarantee.
        if self.saw_ascii || unsafe { all_ascii::<V>(ptr, 1) } {
            self.saw_ascii = false;
            for k in 0..GROUP {
                // SAFETY: block k and the 3 bytes before it lie in the caller's guarantee.
                unsafe { self.block_at(t, ptr.add(k * BLOCK)) };
            }
        } else {
            for k in 0..GROUP {
                // SAFETY: as above.
                unsafe { self.block_at_no_ascii_test(t, ptr.add(k * BLOCK)) };
            }
        }
    }
}

/// How many blocks the main loop handles between two tests of the error accumulator.
const GROUP: usize = 8;

/// All ones but for the first 3 bytes; its first `BYTES` bytes clear the error bits of the
/// first 3 bytes of a register.
static CLEAR_FIRST_3: [u8; BLOCK] = {
    let mut t = [0xFF; BLOCK];
    t[0] = 0;
    t[1] = 0;
    t[2] = 0;
    t
};

/// The OR of the registers of the block at `ptr`.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `BLOCK` bytes.
#[inline(always)]
unsafe fn or_block<V: Vector>(ptr: *const u8) -> V {
    // SAFETY: every register read lies in the `BLOCK` bytes at `ptr`.
    let mut any = unsafe { V::load_unaligned(ptr) };
    for i in 1..BLOCK / V::BYTES {
        // SAFETY: as above.
        any = any.or(unsafe { V::load_unaligned(ptr.add(i * V::BYTES)) });
    }
    any
}

/// Whether the `n * BLOCK` bytes at `ptr` are all ASCII: one OR-reduction, one test.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `n * BLOCK` bytes.
#[inline(always)]
unsafe fn all_ascii<V: Vector>(ptr: *const u8, n: usize) -> bool {
    // SAFETY: every block read lies in the `n * BLOCK` bytes at `ptr`; the caller
    // guarantees the instruction set.
    let mut any = unsafe { or_block::<V>(ptr) };
    for b in 1..n {
        // SAFETY: as above.
        any = any.or(unsafe { or_block::<V>(ptr.add(b * BLOCK)) });
    }
    any.is_ascii()
}

/// Validates `input` with vector type `V`: the hot path.
///
/// Returns `Err(from)` if the input is invalid, where everything before `from` is valid
/// except perhaps a sequence left open by its last 3 bytes. [`locate`] then narrows that
/// down.
///
/// 1. Skip leading ASCII, 256 and then 64 bytes at a time, before any table is loaded: pure
///    ASCII costs a few instructions per 64 bytes, and short ASCII inputs pay no setup.
/// 2. The main loop: groups of `GROUP` blocks (see [`State::group`] for when a block gets
///    its own ASCII test), then single blocks, each with its ASCII test; the error
///    accumulator is tested once per group or block.
/// 3. The last partial block: re-check the last 64 bytes, overlapping bytes already
///    checked, so nothing is copied. Its `prev_input` is the true register before it, read
///    from memory.
/// 4. Inputs of up to 512 bytes (under `SHORT`): see [`validate_short`].
///
/// # Safety
/// The CPU supports `V`'s instruction set. This function must be inlined into a function
/// compiled with that instruction set enabled (`#[target_feature]`), or the intrinsics will
/// not be selected.
#[inline(always)]
pub(crate) unsafe fn validate<V: Vector>(input: &[u8]) -> Result<(), usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    if len < SHORT {
        // SAFETY: the caller guarantees the instruction set; len < SHORT.
        return unsafe { validate_short::<V>(input) };
    }

    // 1. Leading ASCII.
    let mut pos = 0;
    // SAFETY: the 4 blocks tested lie inside `input`; the caller guarantees the
    // instruction set.
    while pos + 4 * BLOCK <= len && unsafe { all_ascii::<V>(ptr.add(pos), 4) } {
        pos += 4 * BLOCK;
    }
    // SAFETY: as above, for one block.
    while pos + BLOCK <= len && unsafe { all_ascii::<V>(ptr.add(pos), 1) } {
        pos += BLOCK;
    }
    // SAFETY: len >= BLOCK, so the last block lies inside `input`.
    if pos == len || (pos + BLOCK > len && unsafe { all_ascii::<V>(ptr.add(len - BLOCK), 1) }) {
        return Ok(());
    }

    // SAFETY: the caller guarantees the instruction set.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    // The bytes before `pos` are ASCII: as a predecessor, any ASCII register acts as zero.
    let mut state = State {
        prev_input: zero,
        error: zero,
        saw_ascii: false,
    };

    // 2. The main loop reads the 3 bytes before each register from memory, so a first
    // block at the very start of the input is checked on its own, with a zero register
    // before it. (Step 1 found it is not ASCII: no need to test again.)
    if pos == 0 {
        // SAFETY: len >= SHORT > BLOCK.
        unsafe { state.block_no_ascii_test(&t, ptr) };
        if state.error.any_set() {
            return Err(0);
        }
        pos = BLOCK;
    }
    while pos + GROUP * BLOCK <= len {
        // SAFETY: BLOCK <= pos and pos + GROUP * BLOCK <= len, so the group and the 3 bytes
        // before it lie inside `input`.
        unsafe { state.group(&t, ptr.add(pos)) };
        if state.error.any_set() {
            return Err(pos);
        }
        pos += GROUP * BLOCK;
    }
    while pos + BLOCK <= len {
        // SAFETY: BLOCK <= pos and pos + BLOCK <= len, so the block and the 3 bytes before
        // it lie inside `input`.
        unsafe { state.block_at(&t, ptr.add(pos)) };
        if state.error.any_set() {
            return Err(pos);
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

    // 3. The last, partial block. Here len >= SHORT >= 2 * BLOCK, so the register before it is
    // inside the input.
    let start = len - BLOCK;
    // SAFETY: start >= BLOCK >= V::BYTES.
    state.prev_input = unsafe { V::load_unaligned(ptr.add(start - V::BYTES)) };
    // SAFETY: start >= BLOCK and start + BLOCK == len.
    unsafe { state.block_at(&t, ptr.add(start)) };
    // The last bytes of the input must not open a sequence.
    state.error = state.error.or(t.incomplete(state.prev_input));
    if state.error.any_set() {
        return Err(pos);
    }
    Ok(())
}

/// Inputs of up to 512 bytes take [`validate_short`]: straight through the registers, with
/// one ASCII test for the whole input and no per-block ASCII or error tests, which for a few
/// blocks cost more than they save. (At 256 and 512 bytes of CJK this was 0.76x and 0.84x
/// simdutf8 through the main loop, about 1.0x through the short path, in one noisy run.)
/// Must be at least `2 * BLOCK` (see step 3 of [`validate`]).
const SHORT: usize = 8 * BLOCK + 1;

/// Inputs under [`SHORT`] bytes, with no loop over blocks. Above one block, if the first
/// register is ASCII, one OR-reduction of all the registers lets ASCII through before any
/// table is loaded (text that is not ASCII mostly fails the first test and skips it). When
/// the input holds at least one register, every register is loaded straight from the
/// input: whole registers from the start (the first with a zero predecessor, the others
/// with the 3 bytes before them loaded from memory, as in the main loop), then, if the
/// length is not a whole number of registers, one that ends at the end of the input and
/// overlaps the one before it, also with its 3 bytes before loaded from memory. (Only when
/// the input is one register and 1 or 2 bytes long is that register shifted back without
/// 3 bytes before it; it is checked with a zero predecessor and its first 3 bytes' error
/// bits cleared, as the first register has checked them.) 8 to 15 bytes make one 128-bit
/// register from two 8-byte reads; shorter inputs are copied into a zero-filled block
/// (zeros are ASCII, so a sequence cut off by the end of the input shows up as
/// TOO_SHORT). A copy is avoided where possible because wide loads of freshly written
/// bytes cannot be forwarded from the narrower stores, which costs more than the whole
/// check.
///
/// # Safety
/// As for [`validate`]; `input.len() < SHORT`.
#[inline(always)]
unsafe fn validate_short<V: Vector>(input: &[u8]) -> Result<(), usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    let whole = len / V::BYTES;
    let rest = len % V::BYTES;
    // SAFETY: the caller guarantees the instruction set; len > BLOCK >= V::BYTES, so
    // the first register lies inside `input`.
    if len > BLOCK && unsafe { V::load_unaligned(ptr) }.is_ascii() {
        // An OR-reduction of the whole input, block by block (the last block overlapping
        // the one before it): an ASCII input needs no tables. Text that is not ASCII
        // usually shows it in its first register, and then skips this. (Up to one block,
        // the caller has already tested for ASCII a word at a time.)
        // SAFETY: len > BLOCK, so the last block lies inside `input`; the caller
        // guarantees the instruction set.
        let mut any = unsafe { or_block::<V>(ptr.add(len - BLOCK)) };
        for b in 0..len / BLOCK {
            // SAFETY: (b + 1) * BLOCK <= len; as above.
            any = any.or(unsafe { or_block::<V>(ptr.add(b * BLOCK)) });
        }
        if any.is_ascii() {
            return Ok(());
        }
    }
    // SAFETY: the caller guarantees the instruction set.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    let mut state = State {
        prev_input: zero,
        error: zero,
        saw_ascii: false,
    };
    if whole >= 1 {
        // The first register has nothing before it; the others read the 3 bytes before
        // them from memory, as in the main loop.
        // SAFETY: V::BYTES <= len.
        let first = unsafe { V::load_unaligned(ptr) };
        state.error = t.check(first, zero);
        state.prev_input = first;
        for i in 1..whole {
            // SAFETY: 3 <= i * V::BYTES and (i + 1) * V::BYTES <= len.
            state.error = state.error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
        }
        if whole > 1 {
            // SAFETY: whole * V::BYTES <= len.
            state.prev_input = unsafe { V::load_unaligned(ptr.add((whole - 1) * V::BYTES)) };
        }
        if rest != 0 && len - V::BYTES >= 3 {
            // The last register, overlapping the one before it, with its 3 bytes before
            // read from memory.
            // SAFETY: 3 <= len - V::BYTES, so the register and the 3 bytes before it lie
            // inside `input`.
            let at = unsafe { ptr.add(len - V::BYTES) };
            // SAFETY: as above.
            state.error = state.error.or(unsafe { t.check_at(at) });
            // SAFETY: as above.
            state.prev_input = unsafe { V::load_unaligned(at) };
        } else if rest != 0 {
            // One or two bytes past one register: the last register, shifted back by them,
            // with its first 3 bytes (already checked) masked off.
            // SAFETY: CLEAR_FIRST_3 has BLOCK >= V::BYTES bytes.
            let mask = unsafe { V::load_unaligned(CLEAR_FIRST_3.as_ptr()) };
            // SAFETY: len >= V::BYTES, so the last register lies inside `input`.
            let last = unsafe { V::load_unaligned(ptr.add(len - V::BYTES)) };
            state.error = state.error.or(t.check(last, zero).and(mask));
            state.prev_input = last;
        }
        state.error = state.error.or(t.incomplete(state.prev_input));
    } else if V::BYTES == 16 && len >= 8 {
        // 8 to 15 bytes into one 128-bit register from two overlapping 8-byte reads, the
        // second shifted right past the bytes the first already holds; the lanes after the
        // input are zero (ASCII, so a sequence cut off by the end shows up as TOO_SHORT).
        // Two 8-byte values make a 16-byte register without the stalled store forwarding
        // of a byte-wise copy.
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&input[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let high = word(len - 8)
            .checked_shr(8 * (16 - len) as u32)
            .unwrap_or(0);
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&word(0).to_le_bytes());
        bytes[8..].copy_from_slice(&high.to_le_bytes());
        // SAFETY: `bytes` is 16 = V::BYTES bytes long.
        let reg = unsafe { V::load_unaligned(bytes.as_ptr()) };
        state.error = t.check(reg, zero);
    } else {
        let mut tail = [0u8; BLOCK];
        tail[..len].copy_from_slice(input);
        // SAFETY: `tail` is BLOCK bytes long (and len < V::BYTES <= BLOCK here).
        unsafe { state.block(&t, tail.as_ptr()) };
    }
    if state.error.any_set() {
        Err(0)
    } else {
        Ok(())
    }
}

/// The cold path: given `from` from [`validate`], returns an offset at most 3 bytes before
/// the first error, or the start of a block whose predecessor left a sequence open, or the
/// end of the input when the input ends inside a sequence (see "Locating an error" above).
/// Everything before the character that contains the byte before the returned offset is
/// valid.
///
/// It re-checks block by block from `from` (or from 0 when `from` is under one register),
/// with the true register before it read from memory, and copies the last partial block
/// into a zero-filled one. Each backend compiles it into its own `#[cold]`,
/// `#[target_feature]` function, so the hot loop stays small.
///
/// # Safety
/// As for [`validate`].
#[inline(always)]
pub(crate) unsafe fn locate<V: Vector>(input: &[u8], from: usize) -> usize {
    let len = input.len();
    let ptr = input.as_ptr();
    // SAFETY: the caller guarantees the instruction set.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    let mut pos = if from < V::BYTES { 0 } else { from.min(len) };
    let mut prev = if pos == 0 {
        zero
    } else {
        // SAFETY: V::BYTES <= pos <= len.
        unsafe { V::load_unaligned(ptr.add(pos - V::BYTES)) }
    };
    let mut tail = [0u8; BLOCK];
    while pos < len {
        let block = if pos + BLOCK <= len {
            // SAFETY: the block lies inside `input`.
            unsafe { ptr.add(pos) }
        } else {
            tail[..len - pos].copy_from_slice(&input[pos..]);
            tail.as_ptr()
        };
        let mut state = State {
            prev_input: prev,
            error: zero,
            saw_ascii: false,
        };
        // SAFETY: `block` is valid for BLOCK bytes (inside `input`, or `tail`).
        unsafe { state.block(&t, block) };
        if state.error.any_set() {
            for i in 0..BLOCK / V::BYTES {
                // SAFETY: as above.
                let input = unsafe { V::load_unaligned(block.add(i * V::BYTES)) };
                if let Some(lane) = t.check(input, prev).first_nonzero_byte() {
                    return pos + (i * V::BYTES + lane).saturating_sub(3);
                }
                prev = input;
            }
            // No byte has error bits: a sequence left open before this block.
            return pos;
        }
        prev = state.prev_input;
        pos += BLOCK;
    }
    len
}
