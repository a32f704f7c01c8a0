//! The medium path's groups (see [`super::schedule`], which chooses them): inputs from
//! `SHORT_BELOW` bytes (AVX2: from `Schedule::GROUPS_FROM`) below the main loop, in groups
//! of blocks each tested for ASCII with one OR-reduction, from the first 64-byte boundary
//! ([`validate_medium`]) or, with a branch per group and none on the whole input, where
//! the schedule says ([`validate_groups`]); a busy input in one pass with no ASCII tests
//! ([`check_busy`]).
//!
//! Next: [`super::blocks`] for the helpers these share with the main loop,
//! [`super::lookup`] for the check of one register.

use super::blocks::{aligned_head, all_ascii, busy_bits, check_start, prefetch_blocks, verdict};
use super::lookup::Tables;
use super::tuning::Schedule;
use super::vector::Vector;
use crate::tiers::{
    BLOCK, MASKED_BELOW, MEDIUM_LONG_ERROR_TEST, MEDIUM_LONG_FIRST_TEST, MEDIUM_MASK_GROUPS,
    MEDIUM_PREFETCH_FROM, MEMORY_PREFETCH_AHEAD, MEMORY_PREFETCH_FAR, PREFETCH_AHEAD, REGISTER_512,
    SMALL_GROUP,
};

/// Inputs of `SHORT_BELOW` to `MEDIUM_BELOW - 1` bytes on the backends without
/// `Schedule::GROUP_BRANCHES`, in groups of `G` blocks, each tested for ASCII with one
/// OR-reduction and checked through the tables when it is not: the first block where it
/// lies, then the groups from the first 64-byte boundary ([`aligned_head`]), so that their
/// loads never straddle a cache line, then the rest (less than a group and a block) in
/// registers, the last ones clamped to end at the end of the input, overlapping. The error
/// accumulator is tested once, at the end (from `MASKED_BELOW` on, every
/// `MEDIUM_LONG_ERROR_TEST` groups, and an error says where the span that failed starts).
/// On AVX-512 below `MASKED_BELOW`, a first block that is not ASCII sends the whole input
/// through one pass with no ASCII test, as in [`validate_groups`]; from it, an input that
/// ends `MEDIUM_PREFETCH_FROM` or more into its text (it starts `at` bytes in) asks ahead.
///
/// # Safety
/// As for [`validate`](super::schedule::validate); `2 * BLOCK <= input.len()` (`SHORT_BELOW`).
#[inline(always)]
pub(super) unsafe fn validate_medium<V: Vector, S: Schedule, const G: usize>(
    input: &[u8],
    at: usize,
) -> Result<(), usize> {
    const {
        // Below `MASKED_BELOW` every group's ASCII test fits in one mask of
        // `MEDIUM_MASK_GROUPS` bits.
        assert!(MASKED_BELOW / (G * BLOCK) <= MEDIUM_MASK_GROUPS);
        assert!(MEDIUM_MASK_GROUPS <= 64);
    }
    let len = input.len();
    let ptr = input.as_ptr();
    debug_assert!(2 * BLOCK <= len);
    // SAFETY: the caller guarantees the instruction set; len > BLOCK >= V::BYTES.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    // Where the groups start, and how many there are: as many as fit whatever `head` is,
    // so that their number depends on the length only (a loop whose trip count changed
    // with the address would be mispredicted). The rest: as many registers from `rest_at`
    // as the longest rest needs (`head` = 3).
    let head = aligned_head(ptr);
    let groups = (len - BLOCK) / (G * BLOCK);
    let rest_at = head + groups * G * BLOCK;
    let rest = (len - 3 - groups * G * BLOCK).div_ceil(V::BYTES);
    let rest_reg = |i: usize| {
        // SAFETY: the register lies inside `input`, 3 <= rest_at.
        unsafe { ptr.add((rest_at + i * V::BYTES).min(len - V::BYTES)) }
    };
    // The OR of the rest's registers (its ASCII test).
    let rest_or = || {
        let mut any = zero;
        for i in 0..rest {
            // SAFETY: see `rest_reg`.
            any = any.or(unsafe { V::load_unaligned(rest_reg(i)) });
        }
        any
    };
    // SAFETY: BLOCK < len.
    let first_ascii = unsafe { all_ascii::<V>(ptr, 1) };
    // Up to `MASKED_BELOW` bytes, every ASCII test comes first, with no branch: the first
    // block's, one bit per group into `busy`, the rest's. An input that is all ASCII (most
    // messages of mostly-ASCII text) is then valid at once, with no other work; otherwise
    // each group branches on its bit, decided as soon as it is met, so a wrong guess costs
    // a refill of the pipeline, not also the wait for its group's loads. Longer inputs
    // (AVX-512's whole files) test each group as they go: reading each group twice costs
    // more there than it saves (docs/PERFORMANCE.md#medium-path).
    let masked = len < MASKED_BELOW;
    if V::BYTES == REGISTER_512 && masked && !first_ascii {
        // (AVX-512) A first block that is not ASCII says the text is busy: one pass
        // ([`check_busy`]), as in `validate_groups`. The 128-bit backends keep their
        // ASCII tests: a full check costs them four times the registers, and SSE4.2 lost
        // on English HTML with this rule (docs/PERFORMANCE.md#busy-one-pass).
        // SAFETY: the first block, the groups and the rest's registers lie inside
        // `input`, each register 3 bytes in or more but the first block's first.
        return unsafe {
            check_busy::<V, S, G>(
                &t,
                ptr,
                len,
                Cover {
                    start_blocks: 1,
                    head,
                    groups,
                    rest,
                },
                &rest_reg,
            )
        };
    }
    let mut busy = u64::MAX;
    let mut rest_any = zero;
    if masked {
        busy = 0;
        for k in 0..groups {
            // SAFETY: the group lies inside `input` (rest_at <= len).
            let ascii = unsafe { all_ascii::<V>(ptr.add(head + k * G * BLOCK), G) };
            busy |= u64::from(!ascii) << k;
        }
        rest_any = rest_or();
        if first_ascii && busy == 0 && rest_any.is_ascii() {
            return Ok(());
        }
    }
    let mut error = zero;
    // Everything before it is valid, but perhaps a sequence its last 3 bytes leave open:
    // the `from` of an error (see `validate`).
    let mut clean_to = 0;
    if !first_ascii {
        // SAFETY: BLOCK <= len.
        error = unsafe { check_start(&t, ptr, BLOCK / V::BYTES) };
    }
    if masked {
        for k in 0..groups {
            // SAFETY: the group lies inside `input`, 3 <= its start.
            let e = unsafe { group::<V, G>(&t, ptr, head + k * G * BLOCK, busy >> k & 1 == 0) };
            error = error.or(e);
        }
    } else {
        let mut pos = head;
        let mut g = 0;
        let mut test_at = MEDIUM_LONG_FIRST_TEST;
        // Whether the text the input ends (it starts `at` bytes into it: a `Validator`'s
        // chunk, a parallel piece) is long enough to come from memory rather than from a
        // cache near the core.
        let ask_ahead = at.saturating_add(len) >= MEDIUM_PREFETCH_FROM;
        if ask_ahead && first_ascii {
            // Leading ASCII, read at the speed of memory: whole groups, each its test and
            // nothing else, asking further ahead than the groups below. Everything before
            // the first group that is not ASCII is valid.
            // SAFETY: every group tested lies inside `input` (g < groups).
            while g < groups && unsafe { all_ascii::<V>(ptr.add(pos), G) } {
                prefetch_blocks::<V>(ptr.wrapping_add(pos + MEMORY_PREFETCH_AHEAD), G);
                pos += G * BLOCK;
                g += 1;
            }
            clean_to = pos;
            test_at = g + MEDIUM_LONG_FIRST_TEST;
        }
        while g < groups {
            while g < test_at.min(groups) {
                if ask_ahead {
                    prefetch_blocks::<V>(ptr.wrapping_add(pos + PREFETCH_AHEAD), G);
                    prefetch_blocks::<V>(ptr.wrapping_add(pos + MEMORY_PREFETCH_AHEAD), G);
                    prefetch_blocks::<V>(ptr.wrapping_add(pos + MEMORY_PREFETCH_FAR), G);
                }
                // SAFETY: the group lies inside `input`, 3 <= pos.
                error = error
                    .or(unsafe { group::<V, G>(&t, ptr, pos, all_ascii::<V>(ptr.add(pos), G)) });
                pos += G * BLOCK;
                g += 1;
            }
            if g < groups {
                // An invalid long input stops within `MEDIUM_LONG_ERROR_TEST` groups of its
                // error, which lies after the last span found clean.
                if error.any_set() {
                    return Err(clean_to);
                }
                clean_to = pos;
            }
            test_at += MEDIUM_LONG_ERROR_TEST;
        }
        rest_any = rest_or();
    }
    if rest_any.is_ascii() {
        // SAFETY: 3 <= rest_at <= len.
        error = error.or(unsafe { open_before(&t, ptr, rest_at) });
    } else {
        for i in 0..rest {
            // SAFETY: see `rest_reg`.
            error = error.or(unsafe { t.check_at(rest_reg(i)) });
        }
    }
    // SAFETY: V::BYTES <= len.
    verdict(error.or(unsafe { open_at_end(&t, ptr, len, true) })).map_err(|_| clean_to)
}

/// Inputs of `Schedule::GROUPS_FROM` (`GROUPS_FROM_256`; on 128-bit units
/// `GROUPS_FROM_UNITS_128`) to `MASKED_BELOW - 1` bytes on the backends with
/// `Schedule::GROUP_BRANCHES` (AVX2), and AVX-512's of `GROUPS_FROM_512` to
/// `GROUP_BRANCHES_BELOW_512 - 1` bytes, in groups of `G` = `MEDIUM_GROUP` blocks (AVX-512
/// from `LARGE_GROUPS_FROM_512`: `MEDIUM_GROUP_512`; AVX2 below `Schedule::SMALL_GROUPS_BELOW`:
/// `SMALL_GROUP`): below `Schedule::ALIGNED_FROM` (`ALIGNED` false; AVX2 only) where the input
/// starts, right after the first block with `Schedule::GROUPS_AFTER_FIRST_BLOCK` (AVX2 on
/// 256-bit units: the first block, tested first anyway, is read once, the first group
/// needs no check with no bytes before it, and a length one block past a whole number of
/// groups leaves no rest; every kind of text measured was faster for it:
/// docs/PERFORMANCE.md#avx2-groups-after-first-block), else at the first byte; from
/// `ALIGNED_FROM`, a first block and the groups from the first 64-byte boundary, as in
/// [`validate_medium`]. Then the rest: in the registers that end at the end of the input,
/// except AVX-512's from the first 64-byte boundary, in registers from where the groups
/// end, the last clamped to end at the end (counted from the end, each of its 64-byte loads
/// straddled a cache line, which messages all ASCII paid for; AVX2's 32-byte loads
/// measured the same either way: docs/PERFORMANCE.md#group-branches).
///
/// Where the first block is not ASCII, every group and the rest are checked in one pass, with no
/// ASCII test (aligned or not: from the first byte too, busy text read each group twice,
/// docs/PERFORMANCE.md#busy-one-pass). Otherwise every ASCII test comes first, with no branch: the
/// first block's (unless the groups start at the first byte), one bit per group into `busy`, the
/// rest's. Then **no branch on the whole input**: whether a message of mixed text is all ASCII is a
/// coin the predictor cannot call (of mostly-ASCII text, some messages are and some are not, at
/// every length), and each wrong guess costs more than the branch saves, even where most messages
/// are all ASCII: a message that is not then pays for a wrong guess on its group too
/// (docs/PERFORMANCE.md#group-branches). Instead each group branches on its own bit, which on
/// mostly-ASCII text is nearly always "ASCII"; a group that is ASCII costs that test and nothing
/// else, and a group that is not is checked, with the register at its end tested for a sequence
/// left open where what follows it is ASCII ([`open_at_end`]). The bits are tested four to a step,
/// so that an ASCII group costs one instruction; with `Schedule::BUSY_GROUPS_LOOP` (AVX2) a loop
/// visits the bits that are set instead, and its one guess is how many there are.
///
/// # Safety
/// As for [`validate`](super::schedule::validate); `S::GROUPS_FROM <= input.len() < MASKED_BELOW` and
/// `(1 + G) * BLOCK <= input.len()` (AVX-512: `(2 + G) * BLOCK`); where not `ALIGNED`,
/// `input.len() < S::ALIGNED_FROM`.
#[inline(always)]
pub(super) unsafe fn validate_groups<
    V: Vector,
    S: Schedule,
    const G: usize,
    const ALIGNED: bool,
>(
    input: &[u8],
) -> Result<(), usize> {
    // With at least one group (where the input starts: every input of the path has one,
    // after its first block too), the rest's registers start 3 bytes in or more (below),
    // and every group's bit fits in `busy`, one mask of `MEDIUM_MASK_GROUPS` bits (as in
    // `validate_medium`).
    // (Groups of `SMALL_GROUP` blocks only below `S::SMALL_GROUPS_BELOW`.)
    const {
        let below = if G == SMALL_GROUP {
            S::SMALL_GROUPS_BELOW
        } else {
            MASKED_BELOW
        };
        assert!(ALIGNED || S::GROUPS_FROM >= (1 + G) * BLOCK);
        assert!(below / (G * BLOCK) <= MEDIUM_MASK_GROUPS && MEDIUM_MASK_GROUPS <= 64);
    };
    let len = input.len();
    let ptr = input.as_ptr();
    debug_assert!(len < MASKED_BELOW && (1 + G) * BLOCK <= len);
    debug_assert!(V::BYTES != REGISTER_512 || (2 + G) * BLOCK <= len);
    debug_assert!(S::GROUPS_FROM <= len);
    debug_assert!(ALIGNED || len < S::ALIGNED_FROM);
    // SAFETY: the caller guarantees the instruction set; len > BLOCK >= V::BYTES.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    // Whether the groups start at the first byte (AVX2 on 128-bit units, below
    // `ALIGNED_FROM`); else after a first block, tested on its own.
    let at_first_byte = !ALIGNED && !S::GROUPS_AFTER_FIRST_BLOCK;
    // As in `validate_medium`: the number of groups and of the rest's registers depends
    // on the length only (`head` = 3 where `ALIGNED`).
    let (head, min_head) = if ALIGNED {
        (aligned_head(ptr), 3)
    } else if at_first_byte {
        (0, 0)
    } else {
        (BLOCK, BLOCK)
    };
    // AVX-512's groups leave the rest one whole block or more (fewer than `G + 2`), under
    // one ASCII test, where a rest of a few bytes would be a register and a branch more:
    // with the inputs of one group (448-639 bytes, `tiers::ONE_GROUP_BELOW_512`) in their
    // own function, every kind of text measured is faster at 576-639 bytes
    // (docs/PERFORMANCE.md#avx512-groups).
    let groups = if ALIGNED && V::BYTES == REGISTER_512 {
        (len - 2 * BLOCK) / (G * BLOCK)
    } else {
        (len - if at_first_byte { 0 } else { BLOCK }) / (G * BLOCK)
    };
    debug_assert!((1..=MEDIUM_MASK_GROUPS).contains(&groups));
    let rest = (len - min_head - groups * G * BLOCK).div_ceil(V::BYTES);
    // The rest's registers: with registers of a whole block (AVX-512) where `ALIGNED`,
    // from where the groups end (`rest_at`, 3 bytes in or more), the last ones clamped to
    // end at the end, as in `validate_medium`; else ending at the end, the first
    // `rest * V::BYTES` bytes before it, at or before where the groups end and at least 3
    // bytes in (`1 <= groups`). Either way they cover the bytes after the groups.
    let rest_at = head + groups * G * BLOCK;
    let rest_reg = |i: usize| {
        // SAFETY: the register lies inside `input`, 3 bytes in or more.
        unsafe {
            if ALIGNED && V::BYTES == BLOCK {
                ptr.add((rest_at + i * V::BYTES).min(len - V::BYTES))
            } else {
                ptr.add(len - (rest - i) * V::BYTES)
            }
        }
    };
    // SAFETY: BLOCK < len.
    if !unsafe { all_ascii::<V>(ptr, 1) } {
        // A first block that is not ASCII says the text is busy: one pass ([`check_busy`]):
        // the first block and the groups from `head`, or (from the first byte) the first
        // group as the start and the others after it.
        let cover = if at_first_byte {
            Cover {
                start_blocks: G,
                head: G * BLOCK,
                groups: groups - 1,
                rest,
            }
        } else {
            Cover {
                start_blocks: 1,
                head,
                groups,
                rest,
            }
        };
        // SAFETY: the start, the groups and the rest's registers lie inside `input`, each
        // register 3 bytes in or more but the start's first (1 <= groups).
        return unsafe { check_busy::<V, S, G>(&t, ptr, len, cover, &rest_reg) };
    }
    // Each group's ASCII test, a bit of `busy`: with AVX2 two groups a turn ([`busy_bits`];
    // below `ALIGNED_FROM` the compiler unrolls the whole loop, whose branches depend on
    // the length only). AVX-512, not measured with them, keeps one a turn.
    let mut busy = 0u64;
    if V::BYTES == REGISTER_512 {
        for k in 0..groups {
            // SAFETY: the group lies inside `input`.
            let ascii = unsafe { all_ascii::<V>(ptr.add(head + k * G * BLOCK), G) };
            busy |= u64::from(!ascii) << k;
        }
    } else {
        // SAFETY: the groups lie inside `input`.
        busy = unsafe { busy_bits::<V, u64>(ptr.add(head), G, groups) };
    }
    let mut rest_any = zero;
    for i in 0..rest {
        // SAFETY: see `rest_reg`.
        rest_any = rest_any.or(unsafe { V::load_unaligned(rest_reg(i)) });
    }
    let rest_ascii = rest_any.is_ascii();
    // Whether what starts at group `k` is ASCII (the rest's test where `k == groups`).
    let ascii_from = |k: usize| {
        if k < groups {
            busy >> k & 1 == 0
        } else {
            rest_ascii
        }
    };
    // The start of the input, whose first register has no bytes before it: the first
    // block, ASCII (tested above); or, where the groups start at the first byte, the first
    // group, checked here where it is not ASCII (and left out by the steps below).
    let first_group = usize::from(at_first_byte);
    let mut error = zero;
    if at_first_byte && busy & 1 != 0 {
        // SAFETY: G * BLOCK <= len (1 <= groups).
        error = unsafe {
            check_start(&t, ptr, G * BLOCK / V::BYTES).or(open_at_end(
                &t,
                ptr,
                G * BLOCK,
                ascii_from(first_group),
            ))
        };
    }
    // The error bits of group `k` (after `first_group`, before `groups`), which is not
    // ASCII: every register, and the one at its end must not leave a sequence open where
    // what follows is ASCII. (A macro, not a closure: a closure here was not inlined.)
    macro_rules! busy_group {
        ($k:expr) => {{
            let k: usize = $k;
            let pos = head + k * G * BLOCK;
            // SAFETY: the group lies inside `input`, 3 <= pos.
            unsafe {
                check_group::<V, G>(&t, ptr.add(pos)).or(open_at_end(
                    &t,
                    ptr,
                    pos + G * BLOCK,
                    ascii_from(k + 1),
                ))
            }
        }};
    }
    if S::BUSY_GROUPS_LOOP {
        // One group a turn, the lowest bit set: `busy`'s bits from `groups` on are clear.
        let mut todo = busy & (u64::MAX << first_group);
        while todo != 0 {
            error = error.or(busy_group!(todo.trailing_zeros() as usize));
            todo &= todo - 1;
        }
    } else {
        // Four bits to a step, each tested against a constant; `todo`'s bits from `groups`
        // on are clear.
        let mut todo = busy >> first_group;
        let mut k = first_group;
        while k < groups {
            macro_rules! step {
                ($j:literal) => {
                    if todo & 1 << $j != 0 {
                        error = error.or(busy_group!(k + $j));
                    }
                };
            }
            step!(0);
            step!(1);
            step!(2);
            step!(3);
            todo >>= 4;
            k += 4;
        }
    }
    if !rest_ascii {
        for i in 0..rest {
            // SAFETY: see `rest_reg`.
            error = error.or(unsafe { t.check_at(rest_reg(i)) });
        }
        // SAFETY: V::BYTES <= len.
        error = error.or(unsafe { open_at_end(&t, ptr, len, true) });
    }
    verdict(error)
}

/// Where [`check_busy`] reads an input: its first `start_blocks` blocks from the first
/// byte, `groups` groups of `G` blocks from `head`, and `rest` registers (`rest_reg(i)`).
struct Cover {
    start_blocks: usize,
    head: usize,
    groups: usize,
    rest: usize,
}

/// One pass over an input whose first block is not ASCII ("busy"): every register of its
/// [`Cover`] (the first with no bytes before it) and the end-of-input check, with no ASCII
/// test and no branch but the loops'. [`validate_groups`] (AVX2) and [`validate_medium`]
/// (AVX-512, below `MASKED_BELOW`) send such inputs here: reading each group for its ASCII
/// test and again to check it costs text that is not ASCII in every group more than the
/// tests save (docs/PERFORMANCE.md#busy-one-pass).
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `len` bytes, which
/// hold every register of `cover`, each 3 bytes in or more but the first one's.
#[inline(always)]
unsafe fn check_busy<V: Vector, S: Schedule, const G: usize>(
    t: &Tables<V>,
    ptr: *const u8,
    len: usize,
    cover: Cover,
    rest_reg: impl Fn(usize) -> *const u8,
) -> Result<(), usize> {
    let Cover {
        start_blocks,
        head,
        groups,
        rest,
    } = cover;
    // With `Schedule::BUSY_ERROR_TEST`, the error is tested every that many bytes of groups,
    // and an error says where the span that failed starts (as in `validate_medium` from
    // `MASKED_BELOW`).
    let every = match S::BUSY_ERROR_TEST {
        0 => usize::MAX,
        bytes => (bytes / (G * BLOCK)).max(1),
    };
    let mut clean_to = 0;
    // SAFETY: the caller's guarantee covers every register read.
    unsafe {
        let mut error = check_start(t, ptr, start_blocks * BLOCK / V::BYTES);
        for k in 0..groups {
            if k % every == 0 && k > 0 {
                // No bit before this group: everything before it is valid but perhaps a
                // sequence its last 3 bytes leave open.
                if error.any_set() {
                    return Err(clean_to);
                }
                clean_to = head + k * G * BLOCK;
            }
            error = error.or(check_group::<V, G>(t, ptr.add(head + k * G * BLOCK)));
        }
        for i in 0..rest {
            error = error.or(t.check_at(rest_reg(i)));
        }
        verdict(error.or(open_at_end(t, ptr, len, true))).map_err(|_| clean_to)
    }
}

/// Where `next_ascii` (the bytes from `end` on are ASCII; at the end of the input, always),
/// the error bits of the register
/// that ends at `end` if it leaves a sequence open; none otherwise (the bytes from `end` on
/// are then checked with the 3 bytes before them). A mask, not a branch: whether the next
/// group is ASCII is known, but a branch on it would be one more guess.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `V::BYTES <= end`; `ptr` is valid for reads of
/// `end` bytes.
#[inline(always)]
unsafe fn open_at_end<V: Vector>(t: &Tables<V>, ptr: *const u8, end: usize, next_ascii: bool) -> V {
    // SAFETY: the register ends at `end`, inside the input; the caller guarantees the
    // instruction set.
    unsafe {
        t.incomplete(V::load_unaligned(ptr.add(end - V::BYTES)))
            .and(V::splat(u8::from(next_ascii).wrapping_neg()))
    }
}

/// The error bits of the group of `G` blocks at `ptr + pos`: where it is `ascii`, only
/// whether the register before it leaves a sequence open ([`open_before`]), otherwise
/// every register of it ([`check_group`]).
///
/// # Safety
/// The CPU supports `V`'s instruction set; `3 <= pos`; `ptr` is valid for reads of
/// `pos + G * BLOCK` bytes, and of `BLOCK` bytes at least.
#[inline(always)]
unsafe fn group<V: Vector, const G: usize>(
    t: &Tables<V>,
    ptr: *const u8,
    pos: usize,
    ascii: bool,
) -> V {
    // SAFETY: the caller's guarantee.
    unsafe {
        if ascii {
            open_before(t, ptr, pos)
        } else {
            check_group::<V, G>(t, ptr.add(pos))
        }
    }
}

/// Before ASCII bytes at `at`, the register before must not leave a sequence open. The
/// test reads the register that ends at `at`, or at the first block's end when `at` lies
/// inside the first block: where that block was checked, it saw the ASCII bytes from `at`
/// on, so a sequence open before `at` is already an error, and the register ending at
/// `BLOCK` can only show one that is (bytes `at..BLOCK` are ASCII). No branch on `at`,
/// which depends on the input's address: on text seen once it would be a guess
/// (docs/PERFORMANCE.md#medium-path).
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `at.max(BLOCK)`
/// bytes.
#[inline(always)]
unsafe fn open_before<V: Vector>(t: &Tables<V>, ptr: *const u8, at: usize) -> V {
    // SAFETY: the register ends at `at.max(BLOCK)`, inside the input.
    t.incomplete(unsafe { V::load_unaligned(ptr.add(at.max(BLOCK) - V::BYTES)) })
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
