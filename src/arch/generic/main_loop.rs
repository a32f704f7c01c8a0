//! The main loop: long inputs on the 128- and 256-bit backends (from `MEDIUM_BELOW`, 16
//! KiB; AVX-512 never gets here, [`crate::tiers`]). Its per-block ASCII tests let ASCII
//! through at a fraction of a check's cost; on AVX2 (256-bit units) they go into a mask
//! first, so that text seen once (where the predictor cannot know which block is ASCII)
//! pays no guess per block; its prefetches pay where the text comes from memory.
//!
//! ```text
//! [first block where it lies: ASCII test, or a check with registers shifted]
//! [from the first 64-byte boundary: ASCII skip, 4 blocks (AVX2: 2) then 1 at a time,
//! or one block checked there, overlapping the first]
//! ([group: 8 blocks of 64 bytes, one error test] [ASCII skip, if the
//! group was all ASCII: 4 blocks (AVX2: 2) at a time])*  (from 1 MiB: the same, and
//! dense runs after busy groups)*  [block, error test]*
//! [last 64 bytes, overlapping the blocks before] [end-of-input check]
//! ```
//!
//! One idea: **test for ASCII only where it is likely to pay, and check everything else
//! through the tables without branching on each register.** The rules, each in the function
//! that applies it:
//!
//! - *Leading ASCII* is skipped before any table is loaded ([`leading_ascii`]).
//! - *Aligned blocks*: the blocks start on 64-byte boundaries of memory; the first block
//!   is checked where it lies, the rest from the first boundary inside it, overlapping it
//!   ([`aligned_head`], [`State::first_blocks`]).
//! - *Loaded predecessors*: the 3 bytes before each register are loaded from memory rather
//!   than shifted in, since loads have ports of their own while the shifts compete with
//!   the table lookups ([`State::block`]).
//! - *Groups*: the error accumulator is tested once per group of `LOOP_GROUP` blocks; a
//!   group tests each block for ASCII only if its first block, or a block of the group
//!   before, was ASCII (of a group without tests, two blocks that move on by one from
//!   group to group) ([`State::group`]): with a branch per block, or (AVX2 on 256-bit
//!   units, `Schedule::MAIN_LOOP_BITS`) every test first into a mask, made one group ahead,
//!   and a loop over the blocks that are not ASCII ([`State::group_by_mask`]); after a
//!   group that was all ASCII, ASCII is skipped `S::ASCII_SKIP_BLOCKS` blocks at a time
//!   ([`skip_ascii`]), and those groups and skips ask for the bytes `PREFETCH_AHEAD` ahead.
//! - *Far into a long input* (from `DENSE_AFTER`): after `BUSY_GROUPS` busy groups in a
//!   row, `DENSE_GROUPS` groups go without ASCII tests, where the branch predictor cannot
//!   have learnt the text; every group there asks for the bytes ahead, those without
//!   tests too, and further ahead as well (`MEMORY_PREFETCH_AHEAD`), since so far in the
//!   text comes from memory ([`State::group`]).
//! - *The end*: the last partial block is re-checked as the last 64 bytes of the input,
//!   overlapping, so nothing is copied ([`State::finish`]).
//!
//! Why each rule is as it is, and what it bought: `docs/PERFORMANCE.md#main-loop`, and the
//! sections after it (`#aligned-blocks`, `#main-loop-ascii-skip`, `#prefetch-ahead`,
//! `#far-into-long-input`, `#memory-prefetch`, `#avx2-main-loop-mask`). Errors are located as
//! for the other paths ([`super::locate::locate`]).
//! Next: [`super::schedule`] for shorter inputs, [`super::lookup`] for the check of one
//! register.

use super::blocks::{aligned_head, all_ascii, busy_bits, prefetch_blocks};
use super::lookup::Tables;
use crate::arch::generic::tuning::Schedule;
use crate::arch::generic::vector::Vector;
use crate::tiers::{
    BLOCK, BUSY_BLOCKS, BUSY_GROUPS, DENSE_AFTER, DENSE_GROUPS, LOOP_GROUP, MEMORY_PREFETCH_AHEAD,
    PREFETCH_AHEAD,
};
use core::marker::PhantomData;

/// A register of zeros for any backend, read by [`State::group_by_mask`] in place of the
/// register at the end of a block that is followed by one that is not ASCII (zeros leave
/// no sequence open).
#[repr(align(64))]
struct Zeros([u8; 64]);
static ZEROS: Zeros = Zeros([0; 64]);

/// `p`, which the compiler can no longer tell apart from any other address: a load from
/// [`ZEROS`] chosen by a select is then neither folded (to zeros) nor the select turned into
/// a branch, which would be a guess per block again.
#[inline(always)]
fn opaque(mut p: *const u8) -> *const u8 {
    #[cfg(target_arch = "x86_64")]
    #[allow(
        clippy::pointers_in_nomem_asm_block,
        reason = "the template is empty: it reads nothing through `p`"
    )]
    // SAFETY: an empty template: no instruction runs, and `p` is left as it is.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) p, options(pure, nomem, nostack, preserves_flags));
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        p = core::hint::black_box(p);
    }
    p
}

/// The running state between blocks.
struct State<V, S> {
    /// The last register checked (its bytes precede the next block).
    prev_input: V,
    /// Non-zero once an error has been seen.
    error: V,
    /// Whether a block tested for ASCII was all ASCII (see [`State::group`]).
    saw_ascii: bool,
    /// Whether every block of the last group was tested and found ASCII: the main loop
    /// then skips ASCII whole units at a time before the next group (see [`validate_long`]).
    ascii_group: bool,
    /// The blocks of the current group that were tested for ASCII and were not.
    busy_blocks: usize,
    /// Busy groups in a row (far into the input only; see [`State::group`]).
    busy_groups: usize,
    /// Groups still to check without ASCII tests after a run of busy groups.
    dense_left: usize,
    /// The ASCII tests' mask ([`State::group_by_mask`]) of the group that starts at
    /// `next_at`, made by the tested group before it.
    next_busy: u32,
    /// Where the group of `next_busy` starts (null before the first).
    next_at: *const u8,
    /// The schedule whose constants the methods read.
    schedule: PhantomData<S>,
}

impl<V: Vector, S: Schedule> State<V, S> {
    /// No error yet; `prev_input` is the register before the first block checked.
    #[inline(always)]
    fn new(prev_input: V, zero: V) -> Self {
        State {
            prev_input,
            error: zero,
            saw_ascii: false,
            ascii_group: false,
            busy_blocks: 0,
            busy_groups: 0,
            dense_left: 0,
            next_busy: 0,
            next_at: core::ptr::null(),
            schedule: PhantomData,
        }
    }

    /// Checks one block of `BLOCK` bytes at `ptr`.
    ///
    /// - `ASCII_TEST`: first test the block for ASCII (one OR-reduction); an ASCII block
    ///   only needs the end-of-register check of the register before it.
    /// - `LOAD_PREV`: read the 3 bytes before each register from memory (see
    ///   [`Tables::check_at`]); otherwise shift them in from the register before.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `BLOCK` bytes, and with `LOAD_PREV` also of the 3 bytes
    /// before it (the instruction set is proven by `self`).
    #[inline(always)]
    unsafe fn block<const ASCII_TEST: bool, const LOAD_PREV: bool>(
        &mut self,
        t: &Tables<V>,
        ptr: *const u8,
    ) {
        // SAFETY: the last register of the block lies inside the caller's guarantee.
        let last = unsafe { V::load_unaligned(ptr.add(BLOCK - V::BYTES)) };
        // SAFETY: the block lies inside the caller's guarantee.
        if ASCII_TEST && unsafe { all_ascii::<V>(ptr, 1) } {
            // Only a sequence left open at the end of the previous register can be wrong
            // here. (Computed only now: most blocks after a non-ASCII one are not ASCII.)
            self.error = self.error.or(t.incomplete(self.prev_input));
            self.saw_ascii = true;
        } else if LOAD_PREV {
            // (A tested block that is not ASCII means its group was not all ASCII; the
            // group without tests clears the flag itself.)
            if ASCII_TEST {
                self.ascii_group = false;
                self.busy_blocks += 1;
            }
            for i in 0..BLOCK / V::BYTES {
                // SAFETY: register i and the 3 bytes before it lie inside the caller's
                // guarantee.
                self.error = self.error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
            }
        } else {
            let mut prev = self.prev_input;
            for i in 0..BLOCK / V::BYTES {
                // SAFETY: register i lies inside the caller's guarantee.
                let r = unsafe { V::load_unaligned(ptr.add(i * V::BYTES)) };
                self.error = self.error.or(t.check(r, prev));
                prev = r;
            }
        }
        self.prev_input = last;
    }

    /// Checks `LOOP_GROUP` consecutive blocks at `ptr`. If the first block is all ASCII, or
    /// a block of the last group was (where that group went without tests: the two blocks
    /// it tested for this one), each block gets its ASCII test; otherwise the
    /// text here is probably not ASCII, and the whole group goes through the tables without
    /// the tests (which would almost never pay off). Afterwards `ascii_group` says whether
    /// all of its blocks were tested and found ASCII.
    ///
    /// `FAR`: the group lies `DENSE_AFTER` bytes or more into the input, where the branch
    /// predictor cannot have learnt the text (see "Far into a long input" above). There,
    /// after `BUSY_GROUPS` tested groups in a row with `BUSY_BLOCKS` or more non-ASCII
    /// blocks each, the next `DENSE_GROUPS` groups go through the tables without the tests;
    /// the groups without tests ask for the bytes `PREFETCH_AHEAD` ahead as the tested ones
    /// do everywhere, and every group for those `MEMORY_PREFETCH_AHEAD` ahead.
    ///
    /// `next_in_input`: the next group lies inside the input too (its ASCII tests are then
    /// made here, see [`State::group_by_mask`]).
    ///
    /// # Safety
    /// `ptr - 3` is valid for reads of `LOOP_GROUP * BLOCK + 3` bytes, and with
    /// `next_in_input` of `2 * LOOP_GROUP * BLOCK + 3`.
    #[inline(always)]
    unsafe fn group<const FAR: bool>(
        &mut self,
        t: &Tables<V>,
        ptr: *const u8,
        next_in_input: bool,
    ) {
        if FAR {
            // (The text comes from memory: see `MEMORY_PREFETCH_AHEAD`.)
            prefetch_blocks::<V>(ptr.wrapping_add(MEMORY_PREFETCH_AHEAD), LOOP_GROUP);
        }
        // Far into the input, the groups of a dense run are not tested.
        let may_test = !FAR || self.dense_left == 0;
        // SAFETY: the first block lies in the group, within the caller's guarantee.
        if may_test && (self.saw_ascii || unsafe { all_ascii::<V>(ptr, 1) }) {
            prefetch_blocks::<V>(ptr.wrapping_add(PREFETCH_AHEAD), LOOP_GROUP);
            if S::MAIN_LOOP_BITS {
                // SAFETY: the caller's guarantee.
                let busy = unsafe { self.group_by_mask(t, ptr, next_in_input) };
                self.saw_ascii = busy != (1 << LOOP_GROUP) - 1;
                self.ascii_group = busy == 0;
                self.busy_blocks = busy.count_ones() as usize;
            } else {
                self.saw_ascii = false;
                self.ascii_group = true;
                self.busy_blocks = 0;
                for k in 0..LOOP_GROUP {
                    // SAFETY: block k and the 3 bytes before it lie in the caller's
                    // guarantee.
                    unsafe { self.block::<true, true>(t, ptr.add(k * BLOCK)) };
                }
            }
            if FAR {
                if self.busy_blocks >= BUSY_BLOCKS {
                    self.busy_groups += 1;
                    if self.busy_groups >= BUSY_GROUPS {
                        self.dense_left = DENSE_GROUPS;
                    }
                } else {
                    self.busy_groups = 0;
                }
            }
        } else {
            if FAR {
                self.dense_left = self.dense_left.saturating_sub(1);
                // Far in, the text comes from memory, and a wrong guess of the groups
                // around empties the pipeline of the loads in flight
                // (docs/PERFORMANCE.md#memory-prefetch).
                prefetch_blocks::<V>(ptr.wrapping_add(PREFETCH_AHEAD), LOOP_GROUP);
            }
            self.ascii_group = false;
            for k in 0..LOOP_GROUP {
                // SAFETY: as above.
                unsafe { self.block::<false, true>(t, ptr.add(k * BLOCK)) };
            }
            // Whether the next group is tested: two of this group's blocks, two apart,
            // both ASCII, tested with no branch; which two, the group's place in memory
            // decides, so that they move on by one block from one group to the next.
            // Without it, text whose non-ASCII blocks repeat every 512 bytes or a divisor
            // of it, one on the first block of every group, would never be tested
            // (docs/PERFORMANCE.md#untested-groups).
            let a = ptr as usize / (LOOP_GROUP * BLOCK) % LOOP_GROUP;
            let b = (a + 2) % LOOP_GROUP;
            // SAFETY: both blocks lie in the group.
            self.saw_ascii = unsafe {
                all_ascii::<V>(ptr.add(a * BLOCK), 1) & all_ascii::<V>(ptr.add(b * BLOCK), 1)
            };
        }
    }

    /// A tested group with `Schedule::MAIN_LOOP_BITS`: every block's ASCII test first, one
    /// bit each into a mask (set: not ASCII), with no branch; then a loop over the set
    /// bits, each such block checked through the tables, and the register at its end tested
    /// for a sequence left open where the next block of the group is ASCII (after the
    /// group's last block, the next group does that from `prev_input`). The loop's one
    /// guess is how many blocks are not ASCII, where a branch per block guesses each one.
    /// Returns the mask.
    ///
    /// The mask is made one group ahead: where `next_in_input` says the next group lies
    /// inside the input, its ASCII tests are made here, before this group's loop, and the
    /// next call takes its mask from `next_busy` (where the next group checked is not that
    /// one, after an ASCII skip or an untested group, it makes its own). The loop's loads
    /// then wait on no test: with the mask of the group itself, every group would begin with
    /// the latency of its tests and of the first address made from them, which a branch per
    /// block, guessed, does not wait on, and text the branch predictor has learnt pays most
    /// for it (docs/PERFORMANCE.md#avx2-main-loop-mask).
    ///
    /// # Safety
    /// `ptr - 3` is valid for reads of `LOOP_GROUP * BLOCK + 3` bytes, and with
    /// `next_in_input` of `2 * LOOP_GROUP * BLOCK + 3`.
    #[inline(always)]
    unsafe fn group_by_mask(&mut self, t: &Tables<V>, ptr: *const u8, next_in_input: bool) -> u32 {
        const {
            assert!(LOOP_GROUP.is_multiple_of(2) && LOOP_GROUP < 32);
            assert!(V::BYTES <= ZEROS.0.len());
        };
        let busy: u32 = if self.next_at == ptr {
            self.next_busy
        } else {
            // SAFETY: the group's blocks lie inside the caller's guarantee.
            unsafe { busy_bits::<V, u32>(ptr, 1, LOOP_GROUP) }
        };
        if next_in_input {
            let next = ptr.wrapping_add(LOOP_GROUP * BLOCK);
            // SAFETY: the next group's blocks lie inside the caller's guarantee.
            self.next_busy = unsafe { busy_bits::<V, u32>(next, 1, LOOP_GROUP) };
            self.next_at = next;
        }
        // A sequence left open by the register before the group, where its first block is
        // ASCII.
        // SAFETY: the instruction set is proven by `self`.
        let first_ascii = unsafe { V::splat(u8::from(busy & 1 == 0).wrapping_neg()) };
        self.error = self
            .error
            .or(t.incomplete(self.prev_input).and(first_ascii));
        // The blocks not ASCII whose next block in the group is.
        let ends = busy & !(busy >> 1) & ((1 << (LOOP_GROUP - 1)) - 1);
        let mut todo = busy;
        while todo != 0 {
            let k = todo.trailing_zeros() as usize;
            let at = ptr.wrapping_add(k * BLOCK);
            for i in 0..BLOCK / V::BYTES {
                // SAFETY: register i of block k and the 3 bytes before it lie inside the
                // caller's guarantee.
                self.error = self.error.or(unsafe { t.check_at(at.add(i * V::BYTES)) });
            }
            // The register at the block's end where the next block is ASCII, else the
            // register of zeros: a select of the address (a mask made from the bit cost
            // more, docs/PERFORMANCE.md#avx2-main-loop-mask).
            let from = core::hint::select_unpredictable(
                ends >> k & 1 != 0,
                at.wrapping_add(BLOCK - V::BYTES),
                opaque(ZEROS.0.as_ptr()),
            );
            // SAFETY: either the block's last register or `ZEROS`.
            self.error = self
                .error
                .or(t.incomplete(unsafe { V::load_unaligned(from) }));
            todo &= todo - 1;
        }
        // SAFETY: the group's last register lies inside it.
        self.prev_input = unsafe { V::load_unaligned(ptr.add(LOOP_GROUP * BLOCK - V::BYTES)) };
        busy
    }

    /// The main loop's groups from `pos`, while `pos < stop` and a whole group is left
    /// before `len`, each all-ASCII group followed by an ASCII skip ([`skip_ascii`]).
    /// Returns where the next group would start, or `Err(start)` of a group with an error.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `len` bytes, and `3 <= pos`.
    #[inline(always)]
    unsafe fn groups<const FAR: bool>(
        &mut self,
        t: &Tables<V>,
        ptr: *const u8,
        mut pos: usize,
        stop: usize,
        len: usize,
    ) -> Result<usize, usize> {
        while pos < stop && pos + LOOP_GROUP * BLOCK <= len {
            // SAFETY: 3 <= pos and pos + LOOP_GROUP * BLOCK <= len, so the group and
            // the 3 bytes before it lie inside the caller's guarantee, and so does the next
            // group where the last argument says so.
            unsafe { self.group::<FAR>(t, ptr.add(pos), pos + 2 * LOOP_GROUP * BLOCK <= len) };
            if self.error.any_set() {
                return Err(pos);
            }
            pos += LOOP_GROUP * BLOCK;
            if self.ascii_group {
                // The group's last block was ASCII, so no sequence is left open before the
                // run, and the register before any block of the run is ASCII, which is all
                // `prev_input` needs to be.
                // SAFETY: as for the leading ASCII; the skip stays inside `len`.
                pos = unsafe { skip_ascii::<V, S>(ptr, pos, len) };
            }
        }
        Ok(pos)
    }

    /// The input's first block, which is not ASCII ([`leading_ascii`]), checked where it
    /// lies with a zero register before it (the main loop reads the 3 bytes before each
    /// register, and there are none), then the block from `head`, the first 64-byte
    /// boundary ([`aligned_head`]), overlapping it, so that the main loop's blocks are
    /// aligned. The first block's check covers the bytes before `head` (a sequence open at
    /// its end is closed or not in the next), so an error found in the second starts at
    /// `head` or later. Returns where the main loop starts, or `Err` where an error is.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `SHORT_BELOW` bytes or more, and `3 <= head <= BLOCK`.
    #[inline(always)]
    unsafe fn first_blocks(
        &mut self,
        t: &Tables<V>,
        ptr: *const u8,
        head: usize,
    ) -> Result<usize, usize> {
        // SAFETY: the first block lies inside the caller's guarantee.
        unsafe { self.block::<false, false>(t, ptr) };
        if self.error.any_set() {
            return Err(0);
        }
        if head == BLOCK {
            return Ok(BLOCK);
        }
        // SAFETY: 3 <= head and head + BLOCK < SHORT_BELOW, so the block and the 3 bytes
        // before it lie inside the caller's guarantee.
        unsafe { self.block::<false, true>(t, ptr.add(head)) };
        if self.error.any_set() {
            return Err(head);
        }
        Ok(head + BLOCK)
    }

    /// Single blocks from `pos` while a whole one is left before `len`, each with its ASCII
    /// test and an error test. Returns where the last partial block starts (or `len`), or
    /// `Err(start)` of a block with an error.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `len` bytes, and `3 <= pos`.
    #[inline(always)]
    unsafe fn blocks(
        &mut self,
        t: &Tables<V>,
        ptr: *const u8,
        mut pos: usize,
        len: usize,
    ) -> Result<usize, usize> {
        while pos + BLOCK <= len {
            // SAFETY: 3 <= pos and pos + BLOCK <= len, so the block and the 3 bytes before
            // it lie inside the caller's guarantee.
            unsafe { self.block::<true, true>(t, ptr.add(pos)) };
            if self.error.any_set() {
                return Err(pos);
            }
            pos += BLOCK;
        }
        Ok(pos)
    }

    /// The end of the input from `pos` (less than one block before `len`): the last 64
    /// bytes re-checked, overlapping bytes already checked (nothing is copied), with the
    /// true register before them read from memory; then the input must not end inside a
    /// sequence.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `len` bytes, `len >= 2 * BLOCK`, and
    /// `len - BLOCK < pos <= len`.
    #[inline(always)]
    unsafe fn finish(
        &mut self,
        t: &Tables<V>,
        ptr: *const u8,
        pos: usize,
        len: usize,
    ) -> Result<(), usize> {
        if pos < len {
            let start = len - BLOCK;
            // SAFETY: start >= BLOCK >= V::BYTES.
            self.prev_input = unsafe { V::load_unaligned(ptr.add(start - V::BYTES)) };
            // SAFETY: start >= BLOCK and start + BLOCK == len.
            unsafe { self.block::<true, true>(t, ptr.add(start)) };
        }
        // The last bytes of the input must not open a sequence.
        self.error = self.error.or(t.incomplete(self.prev_input));
        if self.error.any_set() {
            Err(pos)
        } else {
            Ok(())
        }
    }
}

/// The end of the ASCII run from `pos`, as far as whole units of `S::ASCII_SKIP_BLOCKS` blocks
/// reach (each one OR-reduction and one test, with the bytes `PREFETCH_AHEAD` ahead asked
/// for): the first unit that is not all ASCII, or that would end past `len`, starts at the
/// returned offset.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `len` bytes.
#[inline(always)]
unsafe fn skip_ascii<V: Vector, S: Schedule>(ptr: *const u8, mut pos: usize, len: usize) -> usize {
    // The loop starts on a 64-byte boundary of code, wherever the linker puts the function
    // that holds it: elsewhere the speed of whole files hangs on where that is, from one
    // build to the next (docs/PERFORMANCE.md#skip-ascii-code-alignment).
    #[cfg(target_arch = "x86_64")]
    // SAFETY: an assembler directive, no instruction: padding (no-ops) up to the next
    // 64-byte boundary of code.
    unsafe {
        core::arch::asm!(".p2align 6", options(nomem, nostack, preserves_flags));
    }
    while pos + S::ASCII_SKIP_BLOCKS * BLOCK <= len {
        prefetch_blocks::<V>(ptr.wrapping_add(pos + PREFETCH_AHEAD), S::ASCII_SKIP_BLOCKS);
        // SAFETY: the unit lies inside the `len` bytes at `ptr`.
        if !unsafe { all_ascii::<V>(ptr.add(pos), S::ASCII_SKIP_BLOCKS) } {
            break;
        }
        pos += S::ASCII_SKIP_BLOCKS * BLOCK;
    }
    pos
}

/// Validates `input` with vector type `V`: the main loop, for inputs of `S::MEDIUM_BELOW`
/// bytes and more. `input` starts `at` bytes into the text it belongs to (0 for a whole
/// input, a chunk's offset in a stream): the rule of "Far into a long input" applies from
/// `DENSE_AFTER` bytes into that text.
///
/// Returns `Err(from)` if the input is invalid, where everything before `from` is valid
/// except perhaps a sequence left open by its last 3 bytes.
///
/// 1. Leading ASCII, before any table is loaded: [`leading_ascii`].
/// 2. The first blocks, if the input does not start with ASCII: [`State::first_blocks`].
/// 3. The groups, before and after `DENSE_AFTER` ([`State::groups`]), then single blocks
///    ([`State::blocks`]).
/// 4. The last, partial block and the end-of-input check: [`State::finish`].
///
/// # Safety
/// As for [`super::schedule::validate`]; `SHORT_BELOW <= input.len()`.
#[inline(always)]
pub(crate) unsafe fn validate_long<V: Vector, S: Schedule>(
    input: &[u8],
    at: usize,
) -> Result<(), usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    let head = aligned_head(ptr);
    // SAFETY: the caller guarantees the instruction set; `ptr` is valid for `len` bytes,
    // len >= SHORT_BELOW > BLOCK, and 3 <= head <= BLOCK.
    let Some(pos) = (unsafe { leading_ascii::<V, S>(ptr, head, len) }) else {
        return Ok(());
    };
    // SAFETY: the caller guarantees the instruction set.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    // The bytes before `pos` are ASCII: as a predecessor, any ASCII register acts as zero.
    let mut state = State::<V, S>::new(zero, zero);
    let mut pos = pos;
    if pos == 0 {
        // SAFETY: as above.
        pos = unsafe { state.first_blocks(&t, ptr, head) }?;
    }
    // The groups before `DENSE_AFTER` bytes into the text (the input starts `at` bytes into
    // it), then those after.
    // SAFETY: 3 <= pos and `ptr` is valid for `len` bytes.
    pos = unsafe { state.groups::<false>(&t, ptr, pos, DENSE_AFTER.saturating_sub(at), len) }?;
    // SAFETY: as above.
    pos = unsafe { state.groups::<true>(&t, ptr, pos, usize::MAX, len) }?;
    // SAFETY: as above.
    pos = unsafe { state.blocks(&t, ptr, pos, len) }?;
    // SAFETY: as above, and len >= SHORT_BELOW >= 2 * BLOCK.
    unsafe { state.finish(&t, ptr, pos, len) }
}

/// Skips leading ASCII before any table is loaded: the first block where it lies, then
/// from `head` (the first 64-byte boundary, [`aligned_head`]) `S::ASCII_SKIP_BLOCKS` blocks
/// and then one block at a time. `None`: the whole input is ASCII. Otherwise where checking
/// starts: 0 when the first block is not ASCII, else the start of the first block from
/// `head` on that is not ASCII (at least `head`).
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `len` bytes, and
/// `len > BLOCK`.
#[inline(always)]
unsafe fn leading_ascii<V: Vector, S: Schedule>(
    ptr: *const u8,
    head: usize,
    len: usize,
) -> Option<usize> {
    // SAFETY: the caller guarantees the instruction set and len > BLOCK.
    if !unsafe { all_ascii::<V>(ptr, 1) } {
        return Some(0);
    }
    // SAFETY: the caller's guarantee.
    let mut pos = unsafe { skip_ascii::<V, S>(ptr, head, len) };
    // SAFETY: the blocks tested lie inside the `len` bytes at `ptr`.
    while pos + BLOCK <= len && unsafe { all_ascii::<V>(ptr.add(pos), 1) } {
        pos += BLOCK;
    }
    if pos == len {
        return None;
    }
    // SAFETY: len >= BLOCK, so the last block lies inside the `len` bytes at `ptr`.
    if pos + BLOCK > len && unsafe { all_ascii::<V>(ptr.add(len - BLOCK), 1) } {
        return None;
    }
    Some(pos)
}
