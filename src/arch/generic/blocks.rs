//! The helpers of the schedule's paths and of the main loop ([`super::main_loop`]): the
//! checks of the registers from the start and to the end of an input, the verdict of an
//! error accumulator, the ASCII tests of blocks and groups of blocks (one OR-reduction, or
//! one bit per block), the requests for bytes ahead, and where the first 64-byte boundary
//! of an input lies.

use super::lookup::Tables;
use super::vector::Vector;
use crate::tiers::BLOCK;

/// The error bits of the first `regs` registers of the input at `ptr`: the first with no
/// bytes before it, the others with the 3 bytes before them read from memory.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `1 <= regs`; `ptr` is valid for reads of
/// `regs * V::BYTES` bytes.
#[inline(always)]
pub(super) unsafe fn check_start<V: Vector>(t: &Tables<V>, ptr: *const u8, regs: usize) -> V {
    // SAFETY: the register lies in the first `regs`; the caller guarantees the
    // instruction set.
    let mut error = unsafe { t.check(V::load_unaligned(ptr), V::splat(0)) };
    for i in 1..regs {
        // SAFETY: 3 <= i * V::BYTES and the register lies in the first `regs`.
        error = error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
    }
    error
}

/// `error` with the error bits of register `from` of the input of `len` bytes at `ptr`
/// and of those after it, the last one ending at the end (overlapping the one before it
/// where `len` is not a whole number of registers), each with the 3 bytes before it read
/// from memory.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `len` bytes;
/// `3 <= from * V::BYTES` and `3 <= len - V::BYTES`.
#[inline(always)]
pub(super) unsafe fn check_to_end<V: Vector>(
    t: &Tables<V>,
    ptr: *const u8,
    from: usize,
    len: usize,
    mut error: V,
) -> V {
    for i in from..(len - 1) / V::BYTES {
        // SAFETY: the register lies before the last one, inside the input, 3 <= i *
        // V::BYTES.
        error = error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
    }
    // SAFETY: 3 <= len - V::BYTES, so the register and the 3 bytes before it lie inside
    // the input.
    error.or(unsafe { t.check_at(ptr.add(len - V::BYTES)) })
}

/// A path's answer from its error accumulator: `Err(0)` where any bit is set (see
/// [`validate`](super::schedule::validate)).
#[inline(always)]
pub(super) fn verdict<V: Vector>(error: V) -> Result<(), usize> {
    if error.any_set() {
        Err(0)
    } else {
        Ok(())
    }
}

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
unsafe fn or_blocks<V: Vector>(ptr: *const u8, n: usize) -> V {
    // SAFETY: every block read lies in the `n * BLOCK` bytes at `ptr`.
    let mut any = unsafe { or_block::<V>(ptr) };
    for b in 1..n {
        // SAFETY: as above.
        any = any.or(unsafe { or_block::<V>(ptr.add(b * BLOCK)) });
    }
    any
}

/// Asks for the `n` blocks at `ptr` ([`Vector::prefetch`], one per 64-byte block). Any
/// address will do: a prefetch never faults.
#[inline(always)]
pub(super) fn prefetch_blocks<V: Vector>(ptr: *const u8, n: usize) {
    for k in 0..n {
        V::prefetch(ptr.wrapping_add(k * BLOCK));
    }
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

/// A mask of one bit per span of blocks ([`busy_bits`]): `u32` or `u64`.
pub(super) trait Mask: Copy {
    /// No bit set.
    const EMPTY: Self;
    /// The mask shifted up by one, with bit 0 set where `high_bits` (a span's
    /// [`Vector::high_bits`]) is not zero. On x86-64, two instructions: `neg` sets the
    /// carry where `high_bits` is not zero, and `adc` of the mask to itself doubles it and
    /// adds the carry, where a compare, a set, a shift and an OR take four or five.
    fn push(self, high_bits: u32) -> Self;
}

/// [`Mask::push`] for `$t`, whose register is named `$r` in `asm!` (`e`: 32 bits, `r`: 64).
macro_rules! mask {
    ($t:ty, $r:literal) => {
        impl Mask for $t {
            const EMPTY: Self = 0;
            #[inline(always)]
            fn push(self, high_bits: u32) -> Self {
                #[cfg(target_arch = "x86_64")]
                {
                    let mut mask = self;
                    // SAFETY: arithmetic on two registers, nothing else read or written.
                    unsafe {
                        core::arch::asm!(
                            "neg {m:e}",
                            concat!("adc {b:", $r, "}, {b:", $r, "}"),
                            b = inout(reg) mask,
                            m = inout(reg) high_bits => _,
                            options(pure, nomem, nostack),
                        );
                    }
                    mask
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    self << 1 | <$t>::from(high_bits != 0)
                }
            }
        }
    };
}
mask!(u32, "e");
mask!(u64, "r");

/// The ASCII tests of `n` spans of `blocks` blocks each, one after the other from `ptr`,
/// two a turn (the first of an odd number alone), the last span first: bit `k` of the
/// answer (a mask `M`, `u32` or `u64`) is set where span `k` is not all ASCII. AVX2's
/// medium-path groups and its main loop's blocks. Two a turn: one a turn, the loop's own
/// instructions (its count, compare and jump) are about as many as the tests', and on
/// mostly-ASCII text they are most of the time (docs/PERFORMANCE.md#two-tests-a-turn).
/// Each span's bit goes in by [`Mask::push`] (docs/PERFORMANCE.md#mask-by-carry).
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of
/// `n * blocks * BLOCK` bytes; `blocks >= 1`, and `M` has `n` bits or more.
#[inline(always)]
pub(super) unsafe fn busy_bits<V: Vector, M: Mask>(ptr: *const u8, blocks: usize, n: usize) -> M {
    debug_assert!(blocks >= 1 && n <= 8 * core::mem::size_of::<M>());
    let span = |k: usize| {
        // SAFETY: span k lies in the caller's bytes (k < n).
        unsafe { or_blocks::<V>(ptr.add(k * blocks * BLOCK), blocks) }.high_bits()
    };
    let mut busy = M::EMPTY;
    let mut k = n;
    while k >= 2 {
        k -= 2;
        let (high, low) = (span(k + 1), span(k));
        busy = busy.push(high).push(low);
    }
    if k == 1 {
        // The first of an odd number of spans.
        busy = busy.push(span(0));
    }
    busy
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
