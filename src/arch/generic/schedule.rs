//! The schedule of the lookup algorithm ([`super::lookup`]): which registers are checked
//! when, for every input length, and the cold search for an error's place. The thresholds
//! are the size tiers of [`crate::tiers`]:
//!
//! ```text
//! bytes       0     8     16          32          64      513 = SHORT_BELOW     16 KiB = MEDIUM_BELOW
//!             |     |     |           |           |       |                     |
//! 128-bit     word  | packed | short path                 | medium path         | main loop
//! AVX2        word  | two 16-byte loads | short path      | medium path         | main loop
//! AVX-512     word  | one masked load -----------| short   | medium path (every length)
//!
//! word: inputs under `WORD_BELOW` never reach a backend (`crate::word`, from
//! `crate::engine`); the paths here still take them correctly.
//!
//! one register: [the input, zeros after it: a cut-off sequence shows as too short]
//! short path:   [one ASCII test if > 64 bytes] [register 0] [registers 1.. whole]
//!               [last register, overlapping] [end-of-input check]
//! medium path:  [first block where it lies: ASCII test, else checked]
//!               ([group: 4 aligned blocks from the first 64-byte boundary: ASCII test,
//!               else checked])*  [the rest: as many registers as the longest rest needs,
//!               clamped to end at the end: ASCII test, else checked] [end-of-input check]
//! main loop:    see super::main_loop
//! ```
//!
//! One idea: **the branches of a call depend on its length, not on its bytes**, but for a
//! few ASCII tests, each over as many bytes as text of one kind (ASCII, or not) tends to
//! span. A message is validated once: a branch on its bytes is a coin the predictor cannot
//! have seen, and a wrong guess costs more than checking a few registers through the
//! tables (docs/PERFORMANCE.md, "Per call"). The rules, each in the function that applies
//! it:
//!
//! - *One register* for inputs shorter than one ([`validate_partial`]).
//! - *Straight through* for inputs of up to 8 blocks: every register checked, one ASCII
//!   test over all of them ([`validate_short`]).
//! - *Groups* of `MEDIUM_GROUP` blocks (AVX-512 below `MASKED_BELOW`: `MEDIUM_GROUP_512`;
//!   eight registers either way) above that, on 64-byte boundaries of memory, one
//!   ASCII test each; their number, and the rest's registers, depend on the length only
//!   ([`validate_medium`]). Below `MASKED_BELOW`, up to 64 groups are tested before any of
//!   their branches is taken, so that a wrong guess is found as soon as it is made.
//! - *Loaded predecessors*: the 3 bytes before a register are loaded from memory rather
//!   than shifted in, where they lie inside the input ([`Tables::check_at`]).
//! - *Long inputs* on the 128- and 256-bit backends go to the main loop
//!   ([`super::main_loop`]), whose per-block ASCII tests pay where a text is validated
//!   again and again.
//!
//! Next: [`super::lookup`] for the check of one register, [`super::main_loop`] for long
//! inputs, `crate::arch` for the backends that compile this schedule.
//!
//! # Locating an error
//!
//! The error bits are *local*: the bits of byte `i` depend only on bytes `i-3..=i`. So if
//! the first error starts at byte `e`, no byte before `e` has bits set, and the error sets
//! a bit at most 3 bytes after `e` (a stray continuation at `e`, a bad second byte at
//! `e+1`, a missing continuation at `e+1..=e+3`). When a validator reports an error, the
//! cold [`locate`] re-checks block by block, takes the first byte `i` with a bit set, and
//! reports `i - 3`; the scalar decoder then finds the error exactly, after backing up to
//! the start of a character (`crate::engine::exact_error`). An error that only the
//! end-of-register check reveals (a sequence left open at the end of the previous block) is
//! reported at the block start.

use super::lookup::Tables;
use crate::arch::generic::vector::Vector;
use crate::tiers::{
    BLOCK, MASKED_BELOW, MEDIUM_ERROR_TEST, MEDIUM_GROUP, MEDIUM_GROUP_512, REGISTER_512,
    SHORT_BELOW,
};

/// Validates `input`, shorter than `V::MEDIUM_BELOW` bytes, with vector type `V`: the hot
/// path of a call (longer inputs: [`super::main_loop::validate_long`]).
///
/// Returns `Err(from)` if the input is invalid: everything before `from` is valid except
/// perhaps a sequence left open by its last 3 bytes ([`locate`] narrows that down; these
/// paths say `Err(0)`).
///
/// # Safety
/// The CPU supports `V`'s instruction set. This function must be inlined into a function
/// compiled with that instruction set enabled (`#[target_feature]`), or the intrinsics will
/// not be selected.
#[inline(always)]
pub(crate) unsafe fn validate<V: Vector>(input: &[u8]) -> Result<(), usize> {
    let len = input.len();
    debug_assert!(len < V::MEDIUM_BELOW);
    if len >= SHORT_BELOW {
        // SAFETY: the caller guarantees the instruction set; SHORT_BELOW <= len.
        unsafe { validate_medium_path::<V>(input) }
    } else {
        // SAFETY: the caller guarantees the instruction set; len < SHORT_BELOW.
        unsafe { validate_below_short::<V>(input) }
    }
}

/// [`validate`] for inputs of `SHORT_BELOW` bytes and more (the medium path; in a function
/// of its own on the backends with `Vector::PATHS_OUT_OF_LINE`), in groups of
/// `MEDIUM_GROUP_512` blocks with 512-bit registers below `MASKED_BELOW` (eight registers a
/// group, as AVX2's groups of `MEDIUM_GROUP` blocks have), and of `MEDIUM_GROUP` blocks
/// otherwise (AVX-512's whole files: see `crate::tiers::MEDIUM_GROUP_512`).
///
/// # Safety
/// As for [`validate`]; `SHORT_BELOW <= input.len()`.
#[inline(always)]
pub(crate) unsafe fn validate_medium_path<V: Vector>(input: &[u8]) -> Result<(), usize> {
    // SAFETY: the caller guarantees the instruction set and the length.
    unsafe {
        if V::BYTES == REGISTER_512 && input.len() < MASKED_BELOW {
            validate_medium::<V, MEDIUM_GROUP_512>(input)
        } else {
            validate_medium::<V, MEDIUM_GROUP>(input)
        }
    }
}

/// [`validate`] for inputs shorter than `SHORT_BELOW`: one register, or the short path.
///
/// # Safety
/// As for [`validate`]; `input.len() < SHORT_BELOW`.
#[inline(always)]
pub(crate) unsafe fn validate_below_short<V: Vector>(input: &[u8]) -> Result<(), usize> {
    let len = input.len();
    debug_assert!(len < SHORT_BELOW);
    if len >= V::BYTES {
        // SAFETY: the caller guarantees the instruction set; V::BYTES <= len <
        // SHORT_BELOW.
        unsafe { validate_short::<V>(input) }
    } else {
        // SAFETY: the caller guarantees the instruction set; every vector type loads a
        // partial register; len < V::BYTES.
        unsafe { validate_partial::<V>(input) }
    }
}

/// Inputs of `V::BYTES` to `SHORT_BELOW - 1` bytes, with no loop over blocks and no
/// per-block ASCII or error tests, which for a few blocks cost more than they save.
///
/// 1. Above one block, if the first register is ASCII, one OR-reduction of all the blocks
///    (the last one overlapping the one before it) lets ASCII through before any table is
///    loaded. Text that is not ASCII mostly fails the first test and skips the rest. (Up to
///    one block, no test: on text seen once it would be a guess, and one or two registers
///    cost about what a wrong guess costs.)
/// 2. Every register is loaded straight from the input: whole registers from the start
///    (the first with a zero predecessor, the others with the 3 bytes before them loaded
///    from memory, as in the main loop), then, if the length is not a whole number of
///    registers, one that ends at the end of the input and overlaps the one before it,
///    also with its 3 bytes before loaded from memory — except when it starts 1 or 2 bytes
///    into the input: then it is checked with a zero predecessor and its first 3 bytes'
///    error bits cleared (the first register has checked them).
/// 3. The last register must not leave a sequence open.
///
/// # Safety
/// As for [`validate`]; `V::BYTES <= input.len() < SHORT_BELOW`.
#[inline(always)]
unsafe fn validate_short<V: Vector>(input: &[u8]) -> Result<(), usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    if len > BLOCK {
        // SAFETY: the caller guarantees the instruction set; BLOCK < len, so the first
        // register, the whole blocks from the start and the last block lie inside `input`.
        let ascii = unsafe {
            V::load_unaligned(ptr).is_ascii()
                && or_blocks::<V>(ptr, len / BLOCK)
                    .or(or_block::<V>(ptr.add(len - BLOCK)))
                    .is_ascii()
        };
        if ascii {
            return Ok(());
        }
    }
    // SAFETY: the caller guarantees the instruction set; V::BYTES <= len.
    let (t, zero, first) = unsafe { (Tables::<V>::new(), V::splat(0), V::load_unaligned(ptr)) };
    let mut error = t.check(first, zero);
    for i in 1..len / V::BYTES {
        // SAFETY: 3 <= i * V::BYTES and (i + 1) * V::BYTES <= len.
        error = error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
    }
    let last_at = len - V::BYTES;
    // SAFETY: V::BYTES <= len.
    let last = unsafe { V::load_unaligned(ptr.add(last_at)) };
    if !len.is_multiple_of(V::BYTES) {
        if last_at >= 3 {
            // SAFETY: 3 <= last_at, so the register and the 3 bytes before it lie inside
            // `input`.
            error = error.or(unsafe { t.check_at(ptr.add(last_at)) });
        } else {
            // SAFETY: CLEAR_FIRST_3 has BLOCK >= V::BYTES bytes.
            let mask = unsafe { V::load_unaligned(CLEAR_FIRST_3.as_ptr()) };
            error = error.or(t.check(last, zero).and(mask));
        }
    }
    error = error.or(t.incomplete(last));
    if error.any_set() {
        Err(0)
    } else {
        Ok(())
    }
}

/// Inputs of `SHORT_BELOW` to `MEDIUM_BELOW - 1` bytes: the first block where it lies,
/// then groups of `G` blocks from the first 64-byte boundary ([`aligned_head`]), each
/// tested for ASCII with one OR-reduction of aligned loads and checked through the tables
/// when it is not; the rest (less than a group and a block) as one more group whose last
/// register ends at the end of the input, overlapping; the error accumulator tested once,
/// at the end. An input shorter than `BLOCK + G * BLOCK` (AVX-512's shortest) has no group:
/// the first block and the rest.
///
/// # Safety
/// As for [`validate`]; `2 * BLOCK <= input.len()` (`SHORT_BELOW`).
#[inline(always)]
unsafe fn validate_medium<V: Vector, const G: usize>(input: &[u8]) -> Result<(), usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    debug_assert!(2 * BLOCK <= len);
    // SAFETY: the caller guarantees the instruction set; len > BLOCK >= V::BYTES.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    let mut error = zero;
    // The first block where it lies: its first register has no bytes before it.
    // SAFETY: BLOCK < len.
    if !unsafe { all_ascii::<V>(ptr, 1) } {
        // SAFETY: as above.
        error = t.check(unsafe { V::load_unaligned(ptr) }, zero);
        for i in 1..BLOCK / V::BYTES {
            // SAFETY: 3 <= i * V::BYTES and the register lies in the first block.
            error = error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
        }
    }
    // Before an ASCII group at `at`, the register before must not leave a sequence open.
    // The test reads the register that ends at `at`, or at the first block's end when `at`
    // lies inside the first block: where that block was checked, it saw the ASCII bytes
    // from `at` on, so a sequence open before `at` is already an error, and the register
    // ending at `BLOCK` can only show one that is (bytes `at..BLOCK` are ASCII). No branch
    // on `at`, which depends on the input's address: on text seen once it would be a guess
    // (docs/PERFORMANCE.md, "Per call").
    let open_before = |at: usize| {
        // SAFETY: the register ends at `at.max(BLOCK)`, inside `input`.
        t.incomplete(unsafe { V::load_unaligned(ptr.add(at.max(BLOCK) - V::BYTES)) })
    };
    // The groups: as many as fit after the first block whatever `head` is, so that their
    // number depends on the length only (a loop whose trip count changed with the address
    // would be mispredicted).
    let groups = (len - BLOCK) / (G * BLOCK);
    let mut pos = aligned_head(ptr);
    // Up to `MASKED_BELOW` bytes, the groups go `MEDIUM_ERROR_TEST` (at most 64) at a time:
    // first the ASCII tests of all of them, into a mask, with no branch, then each group's
    // branch on its bit. The tests' loads all start at once, and each branch is decided as
    // soon as it is met, so a wrong guess costs a refill of the pipeline, not also the wait
    // for its group's loads. Longer inputs (AVX-512's whole files) test each group as they
    // go: reading each group twice costs more there than it saves (docs/PERFORMANCE.md,
    // "Per call").
    let mut g0 = 0;
    while g0 < groups {
        let n = (groups - g0).min(MEDIUM_ERROR_TEST);
        let mut busy = u64::MAX;
        if len < MASKED_BELOW {
            busy = 0;
            for k in 0..n {
                // SAFETY: the group lies inside `input`.
                let ascii = unsafe { all_ascii::<V>(ptr.add(pos + k * G * BLOCK), G) };
                busy |= u64::from(!ascii) << k;
            }
        }
        for k in 0..n {
            let ascii = if len < MASKED_BELOW {
                busy >> k & 1 == 0
            } else {
                // SAFETY: the group lies inside `input` (pos + G * BLOCK <= BLOCK + the
                // groups' bytes <= len).
                unsafe { all_ascii::<V>(ptr.add(pos), G) }
            };
            if ascii {
                error = error.or(open_before(pos));
            } else {
                // SAFETY: as above, and 3 <= pos.
                error = error.or(unsafe { check_group::<V, G>(&t, ptr.add(pos)) });
            }
            pos += G * BLOCK;
        }
        g0 += n;
        // An invalid long input stops within `MEDIUM_ERROR_TEST` groups of its error.
        if g0 < groups && error.any_set() {
            return Err(0);
        }
    }
    // The rest, less than a group and a block: as many registers from `pos` as the longest
    // rest needs (`head` = 3), the last ones clamped to end at the end of the input.
    let last_at = len - V::BYTES;
    let rest = (len - 3 - groups * G * BLOCK).div_ceil(V::BYTES);
    let at = |i: usize| (pos + i * V::BYTES).min(last_at);
    // SAFETY: every register read lies inside `input`; 3 <= pos.
    unsafe {
        let mut any = zero;
        for i in 0..rest {
            any = any.or(V::load_unaligned(ptr.add(at(i))));
        }
        if any.is_ascii() {
            error = error.or(open_before(pos));
        } else {
            for i in 0..rest {
                error = error.or(t.check_at(ptr.add(at(i))));
            }
        }
    }
    // SAFETY: len >= V::BYTES.
    error = error.or(t.incomplete(unsafe { V::load_unaligned(ptr.add(len - V::BYTES)) }));
    if error.any_set() {
        Err(0)
    } else {
        Ok(())
    }
}

/// The error bits of the `G` blocks at `ptr`, each register with its 3 bytes before it
/// read from memory.
///
/// # Safety
/// `ptr - 3` is valid for reads of `G * BLOCK + 3` bytes.
#[inline(always)]
unsafe fn check_group<V: Vector, const G: usize>(t: &Tables<V>, ptr: *const u8) -> V {
    // SAFETY: the caller's guarantee covers every register and the 3 bytes before it.
    let mut error = unsafe { t.check_at(ptr) };
    for i in 1..G * BLOCK / V::BYTES {
        // SAFETY: as above.
        error = error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
    }
    error
}

/// Inputs shorter than one register, in one register with zeros after them
/// ([`Vector::load_partial`]: packed from overlapping reads on the 128-bit backends, two
/// 16-byte loads on AVX2, one masked load on AVX-512). Zeros are ASCII, so a sequence cut
/// off by the end shows up as TOO_SHORT and needs no end-of-input check.
///
/// # Safety
/// As for [`validate`]; `input.len() < V::BYTES`.
#[inline(always)]
unsafe fn validate_partial<V: Vector>(input: &[u8]) -> Result<(), usize> {
    debug_assert!(input.len() < V::BYTES);
    // SAFETY: the caller guarantees the instruction set and input.len() < V::BYTES.
    let (t, zero, reg) = unsafe { (Tables::<V>::new(), V::splat(0), V::load_partial(input)) };
    if t.check(reg, zero).any_set() {
        Err(0)
    } else {
        Ok(())
    }
}

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
pub(super) unsafe fn or_block<V: Vector>(ptr: *const u8) -> V {
    // SAFETY: every register read lies in the `BLOCK` bytes at `ptr`.
    let mut any = unsafe { V::load_unaligned(ptr) };
    for i in 1..BLOCK / V::BYTES {
        // SAFETY: as above.
        any = any.or(unsafe { V::load_unaligned(ptr.add(i * V::BYTES)) });
    }
    any
}

/// The OR of the registers of the `n` blocks at `ptr`, block by block.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `n * BLOCK` bytes,
/// and `n >= 1`.
#[inline(always)]
pub(super) unsafe fn or_blocks<V: Vector>(ptr: *const u8, n: usize) -> V {
    // SAFETY: every block read lies in the `n * BLOCK` bytes at `ptr`.
    let mut any = unsafe { or_block::<V>(ptr) };
    for b in 1..n {
        // SAFETY: as above.
        any = any.or(unsafe { or_block::<V>(ptr.add(b * BLOCK)) });
    }
    any
}

/// Whether the `n * BLOCK` bytes at `ptr` are all ASCII: one OR-reduction, one test.
///
/// # Safety
/// As for [`or_blocks`].
#[inline(always)]
pub(super) unsafe fn all_ascii<V: Vector>(ptr: *const u8, n: usize) -> bool {
    // SAFETY: the caller's guarantee.
    unsafe { or_blocks::<V>(ptr, n) }.is_ascii()
}

/// The offset of the first 64-byte boundary of memory after `ptr` where aligned blocks
/// start: `BLOCK` when `ptr` is on one, or when the boundary is 1 or 2
/// bytes in (the main loop reads the 3 bytes before a block). Always `3..=BLOCK`.
#[inline(always)]
pub(super) fn aligned_head(ptr: *const u8) -> usize {
    match BLOCK - ptr as usize % BLOCK {
        at @ 3.. => at,
        _ => BLOCK,
    }
}

/// The cold path: given `from` from a validator's `Err`, returns an offset at most 3 bytes
/// before the first error, or the start of a block whose predecessor left a sequence open,
/// or the end of the input when the input ends inside a sequence (see "Locating an error"
/// above). Everything before the character that contains the byte before the returned
/// offset is valid.
///
/// It re-checks block by block from `from` (or from 0 when `from` is under one register),
/// with the true register before it read from memory, and copies the last partial block
/// into a zero-filled one. Each backend compiles it into its own `#[cold]`,
/// `#[target_feature]` function, so the hot paths stay small.
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
        let mut error = zero;
        let mut last = prev;
        for i in 0..BLOCK / V::BYTES {
            // SAFETY: `block` is valid for BLOCK bytes (inside `input`, or `tail`).
            let r = unsafe { V::load_unaligned(block.add(i * V::BYTES)) };
            error = error.or(t.check(r, last));
            last = r;
        }
        if error.any_set() {
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
        prev = last;
        pos += BLOCK;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::aligned_head;
    use crate::tiers::BLOCK;

    /// `aligned_head`'s contract at every address modulo a block: the offset of the first
    /// 64-byte boundary of memory after `ptr`, so that the blocks from there are aligned;
    /// `BLOCK` where that boundary is fewer than 3 bytes in (the 3 bytes before a block are
    /// read). A wrong offset still gives right answers (the blocks overlap wherever they
    /// start), so only this test sees it: found by mutation testing (docs/RELIABILITY.md).
    #[test]
    fn aligned_head_is_the_first_boundary_after_the_start() {
        let base = [0u8; 4 * BLOCK];
        let start = base.as_ptr().align_offset(BLOCK);
        for offset in 0..2 * BLOCK {
            let ptr = base[start + offset..].as_ptr();
            let head = aligned_head(ptr);
            let boundary = BLOCK - offset % BLOCK; // 1..=BLOCK bytes in
            if boundary >= 3 {
                assert_eq!(head, boundary, "offset {offset}");
                assert_eq!((ptr as usize + head) % BLOCK, 0, "offset {offset}");
            } else {
                assert_eq!(head, BLOCK, "offset {offset}");
            }
        }
    }
}
