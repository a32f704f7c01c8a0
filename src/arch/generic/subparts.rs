//! The vector pass behind every path that meets invalid text ([`crate::damaged::every_error`], and through
//! it lossy decoding, repair and the records' policies): where each ill-formed part of a
//! stretch of text starts and how long it is (its *maximal subpart*), decided 64 bytes at a
//! time from bit masks, where the scalar decoder decides a byte at a time.
//!
//! # The idea
//!
//! Where decoding resumes after an error is the crate's one rule (`crate::reference::decode`), and
//! under it the decoding of UTF-8 is *local*: a byte that is not a continuation byte
//! (`80..BF`) always starts something (ASCII, a character, or an ill-formed part), and a
//! lead byte `C0..FF` at `i` takes 1 to 4 bytes, decided by bytes `i..i + 4` alone:
//!
//! ```text
//! S2 = lead at i and (i, i+1) a valid start of a sequence    (span >= 2)
//! S3 = S2 and lead >= E0 and a continuation at i+2          (span >= 3)
//! S4 = S3 and lead >= F0 and a continuation at i+3          (span 4)
//! well-formed at i = S2 and lead < E0, or S3 and lead < F0, or S4
//! ```
//!
//! "A valid start" is the lookup algorithm's pair check (`super::lookup`) finding no error
//! class in the pair: a lead that can start a sequence, followed by a continuation byte in
//! the range that lead allows (`E0 A0..BF`, `ED 80..9F`, `F0 90..BF`, `F4 80..8F`). A lead
//! that is not well-formed starts an ill-formed part of `1 + S2 + S3` bytes. A
//! continuation byte at `j` belongs to the span of a lead before it exactly when
//! `S2` at `j - 1`, `S3` at `j - 2` or `S4` at `j - 3`; otherwise it is an ill-formed part
//! of its own, one byte long. So, with one bit per byte and shifts of 64-bit words:
//!
//! ```text
//! covered = S2 << 1 | S3 << 2 | S4 << 3          (with the bits carried from the block before)
//! errors  = lead & !well_formed | continuation & !covered
//! ```
//!
//! Each block needs the masks of the 3 bytes after it: the blocks are computed one ahead.
//! The masks come from the vector trait's compare ([`Vector::eq_mask`]) and the lookup
//! tables.
//!
//! Text damaged by a one-byte encoding (Latin-1 text, UTF-16 of Latin scripts) has almost
//! no lead byte followed by a continuation byte, and where none is, every byte that is not
//! ASCII is a part of one byte whatever it is: the blocks of a stretch where that holds, up
//! to the first where it does not, are decided from two masks of the bytes' top bits
//! (`Consts::isolated`), without the five masks.
//!
//! Next: `crate::damaged::every_error`, which walks these bits.

use super::lookup::Tables;
use crate::arch::generic::vector::Vector;
use crate::arch::portable::{BlockParts, Subparts};
use crate::tiers::{BLOCK, SUBPART_BLOCKS};

/// The bits of the covered bytes (continuation bytes taken by a lead before them) of the
/// first 3 bytes after a block, given the block's `S2`, `S3` and `S4`.
#[inline(always)]
fn carry_out(s2: u64, s3: u64, s4: u64) -> u64 {
    (s2 >> 63) | (s3 >> 62) | (s4 >> 61)
}

/// The masks of one block, before they are combined with the next block's.
#[derive(Clone, Copy, Default)]
struct Masks {
    /// Continuation bytes `80..BF`.
    cont: u64,
    /// Lead bytes `C0..FF`.
    lead: u64,
    /// Bytes `E0..FF` (a lead that needs a third byte).
    need3: u64,
    /// Bytes `F0..FF` (a lead that needs a fourth byte).
    need4: u64,
    /// Bit `j`: the pair (byte `j - 1`, byte `j`) has no error class of the lookup
    /// algorithm: after a lead, a second byte it allows.
    pair_ok: u64,
}

/// The bits of `m` from bit `by` on, followed by the first `by` bits of `next` (the word
/// after it): the mask of the bytes `by` places further on.
#[inline(always)]
fn shifted(m: u64, next: u64, by: u32) -> u64 {
    (m >> by) | (next << (64 - by))
}

/// The vector constants of a scan.
struct Consts<V> {
    tables: Tables<V>,
    zero: V,
    c0: V,
    e0: V,
    f0: V,
    x80: V,
}

impl<V: Vector> Consts<V> {
    /// The masks of the `BLOCK` bytes at `ptr`, `prev` being the register before them (a
    /// register of zeros at the start of a scan, where the pair before the first byte does
    /// not matter). Returns the masks and the last register of the block.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `BLOCK` bytes.
    #[inline(always)]
    unsafe fn masks(&self, ptr: *const u8, prev: V) -> (Masks, V) {
        let mut m = Masks::default();
        let mut prev = prev;
        for r in 0..BLOCK / V::BYTES {
            // SAFETY: the register lies in the block (the caller's guarantee).
            let v = unsafe { V::load_unaligned(ptr.add(r * V::BYTES)) };
            self.add_register(&mut m, v, prev, r * V::BYTES);
            prev = v;
        }
        (m, prev)
    }

    /// Adds the masks of the register `v` (`prev` the one before it), `shift` bytes into
    /// its block, to `m`.
    #[inline(always)]
    fn add_register(&self, m: &mut Masks, v: V, prev: V, shift: usize) {
        let top2 = v.and(self.c0);
        m.cont |= top2.eq_mask(self.x80) << shift;
        m.lead |= top2.eq_mask(self.c0) << shift;
        m.need3 |= v.and(self.e0).eq_mask(self.e0) << shift;
        m.need4 |= v.and(self.f0).eq_mask(self.f0) << shift;
        m.pair_ok |= self.tables.pair(v.prev1(prev), v).eq_mask(self.zero) << shift;
    }

    /// The masks of block `k` of a scan of `bytes` from `from` ([`Consts::masks`]): from
    /// memory where the whole block lies in `bytes`, else from registers with zeros after
    /// the bytes ([`Vector::load_partial`]; all zeros past the end).
    #[inline(always)]
    fn masks_of(&self, bytes: &[u8], from: usize, k: usize, prev: V) -> (Masks, V) {
        let at = from + k * BLOCK;
        if at + BLOCK <= bytes.len() {
            // SAFETY: the block lies in `bytes`.
            unsafe { self.masks(bytes.as_ptr().add(at), prev) }
        } else {
            // SAFETY: the instruction set is `V`'s where a `Consts<V>` is made (`scan`'s
            // contract).
            unsafe { self.masks_near_end(bytes, at, prev) }
        }
    }

    /// [`Consts::masks`] of a block that the end of `bytes` cuts (or that starts after it),
    /// its registers loaded without a copy: by [`Vector::load_partial`] where the end cuts
    /// one, zeros after it.
    ///
    /// # Safety
    /// The CPU supports `V`'s instruction set.
    #[inline(always)]
    unsafe fn masks_near_end(&self, bytes: &[u8], at: usize, prev: V) -> (Masks, V) {
        let mut m = Masks::default();
        let mut prev = prev;
        for r in 0..BLOCK / V::BYTES {
            // SAFETY: the caller guarantees the instruction set.
            let v = unsafe { self.register_near_end(bytes, at + r * V::BYTES) };
            self.add_register(&mut m, v, prev, r * V::BYTES);
            prev = v;
        }
        (m, prev)
    }

    /// The register of `bytes` at `start`, with zeros after the end of `bytes`: loaded
    /// whole where it lies in `bytes`, by [`Vector::load_partial`] where the end cuts it.
    ///
    /// # Safety
    /// The CPU supports `V`'s instruction set.
    #[inline(always)]
    unsafe fn register_near_end(&self, bytes: &[u8], start: usize) -> V {
        if start + V::BYTES <= bytes.len() {
            // SAFETY: the register lies in `bytes`; the caller guarantees the instruction
            // set.
            unsafe { V::load_unaligned(bytes.as_ptr().add(start)) }
        } else if start < bytes.len() {
            // SAFETY: fewer than `BYTES` bytes are left; the instruction set as above.
            unsafe { V::load_partial(&bytes[start..]) }
        } else {
            self.zero
        }
    }

    /// The lead bytes (`C0..FF`) and the continuation bytes (`80..BF`) of the `BLOCK` bytes
    /// at `ptr`, a bit each.
    ///
    /// # Safety
    /// `ptr` is valid for reads of `BLOCK` bytes.
    #[inline(always)]
    unsafe fn top(&self, ptr: *const u8) -> (u64, u64) {
        let (mut lead, mut cont) = (0u64, 0u64);
        for r in 0..BLOCK / V::BYTES {
            // SAFETY: the register lies in the block (the caller's guarantee).
            let v = unsafe { V::load_unaligned(ptr.add(r * V::BYTES)) };
            self.add_top(&mut lead, &mut cont, v, r * V::BYTES);
        }
        (lead, cont)
    }

    /// [`Consts::top`] of the block of `bytes` at `at` that the end of `bytes` cuts or ends:
    /// zeros after the end, as [`Consts::masks_near_end`] reads them.
    ///
    /// # Safety
    /// The CPU supports `V`'s instruction set.
    #[inline(always)]
    unsafe fn top_near_end(&self, bytes: &[u8], at: usize) -> (u64, u64) {
        let (mut lead, mut cont) = (0u64, 0u64);
        for r in 0..BLOCK / V::BYTES {
            // SAFETY: the caller guarantees the instruction set.
            let v = unsafe { self.register_near_end(bytes, at + r * V::BYTES) };
            self.add_top(&mut lead, &mut cont, v, r * V::BYTES);
        }
        (lead, cont)
    }

    /// Adds the lead and continuation bytes of the register `v`, `shift` bytes into its
    /// block, to `lead` and `cont`.
    #[inline(always)]
    fn add_top(&self, lead: &mut u64, cont: &mut u64, v: V, shift: usize) {
        let top2 = v.and(self.c0);
        *lead |= top2.eq_mask(self.c0) << shift;
        *cont |= top2.eq_mask(self.x80) << shift;
    }

    /// The parts of the first blocks of the `blocks` from `from` in which no lead byte
    /// (`C0..FF`) is followed by a continuation byte (`80..BF`), the byte after each block
    /// counted (zeros after the end of `bytes`, as in [`scan`]): there no sequence has a
    /// second byte, so every byte that is not ASCII is an ill-formed part of one byte,
    /// whatever it is (a lead that no continuation byte follows, a continuation byte that
    /// no lead takes), and nothing reaches past such a block. Latin-1 text, UTF-16 of Latin
    /// scripts and runs of junk lead bytes (`FF`) are such text nearly everywhere; two
    /// masks of the bytes' top bits decide it, where the full search computes five masks a
    /// register. Writes their parts into `parts` and returns how many blocks from the first
    /// are such, stopping at the first that is not; the caller ensures no carry comes in.
    /// The blocks with a byte after them in `bytes` go first, in a loop of their own
    /// ([`Consts::isolated_whole`]); then a last block that the end cuts or ends (all of a
    /// log line shorter than a block), read as [`Consts::masks_near_end`] reads it.
    ///
    /// # Safety
    /// The CPU supports `V`'s instruction set.
    #[inline(always)]
    unsafe fn isolated(
        &self,
        bytes: &[u8],
        from: usize,
        blocks: usize,
        parts: &mut [BlockParts],
    ) -> usize {
        let whole = ((bytes.len() - from).saturating_sub(1) / BLOCK).min(blocks);
        let done = if whole > 0 {
            // SAFETY: the `whole` blocks and the byte after them lie in `bytes`.
            unsafe { self.isolated_whole(bytes, from, whole, parts) }
        } else {
            0
        };
        if done < whole || whole == blocks {
            return done;
        }
        // The last block, with nothing of `bytes` after it.
        // SAFETY: the caller guarantees the instruction set.
        let (lead, cont) = unsafe { self.top_near_end(bytes, from + whole * BLOCK) };
        let Some(p) = lone_parts(lead, cont) else {
            return whole;
        };
        parts[whole] = p;
        whole + 1
    }

    /// [`Consts::isolated`] of the first `blocks` from `from`, each with a byte after it in
    /// `bytes`.
    ///
    /// # Safety
    /// The blocks and the byte after the last lie in `bytes`; the CPU supports `V`'s
    /// instruction set.
    #[inline(always)]
    unsafe fn isolated_whole(
        &self,
        bytes: &[u8],
        from: usize,
        blocks: usize,
        parts: &mut [BlockParts],
    ) -> usize {
        // SAFETY: the block lies in `bytes` (the caller's guarantee).
        let (mut lead, mut cont) = unsafe { self.top(bytes.as_ptr().add(from)) };
        for (k, slot) in parts.iter_mut().enumerate().take(blocks) {
            // A second byte stops here, before the next block is read.
            let Some(p) = lone_parts(lead, cont) else {
                return k;
            };
            let at = from + (k + 1) * BLOCK;
            // The next block's masks, or those of the one byte after the last block.
            let next = if k + 1 < blocks {
                // SAFETY: as for the first block.
                unsafe { self.top(bytes.as_ptr().add(at)) }
            } else {
                let b = bytes[at];
                (u64::from(b >= 0xC0), u64::from(b & 0xC0 == 0x80))
            };
            // A pair across two blocks is met in the first of them.
            if lead >> 63 & next.1 != 0 {
                return k;
            }
            *slot = p;
            (lead, cont) = next;
        }
        blocks
    }
}

/// The parts of a block whose lead bytes are `lead` and continuation bytes `cont` (a bit
/// each), if no lead in it is followed by a continuation byte: every byte that is not ASCII
/// a part of one byte ([`Consts::isolated`]; the byte after the block is the caller's to
/// look at). `None` where a lead has a second byte in the block.
#[inline(always)]
fn lone_parts(lead: u64, cont: u64) -> Option<BlockParts> {
    (lead & cont >> 1 == 0).then_some(BlockParts {
        starts: lead | cont,
        two: 0,
        three: 0,
    })
}

/// Scans the blocks of `bytes` from `from` for ill-formed parts: returns what each block
/// has (block `k` at `from + k * BLOCK`), at most [`SUBPART_BLOCKS`] blocks, how many, and
/// the carry out of the last one (see below). The blocks
/// cover the bytes from `from` to the end of `bytes` or `SUBPART_BLOCKS` blocks, whichever
/// is shorter; bytes past the end of `bytes` are read as zeros (ASCII), so a sequence that
/// the end leaves open shows as an ill-formed part that ends there (the caller tells the
/// two apart: `crate::damaged::every_error`).
///
/// `carry` says which of the first 3 bytes from `from` are continuation bytes taken by a
/// lead before `from` (bit `j` for byte `from + j`; their spans were decided before): 0
/// where `from` is where decoding goes on after valid text or an ill-formed part, the carry
/// out of the scan before where `from` is where that scan stopped. The bytes before `from`
/// are not read.
///
/// # Safety
/// The CPU supports `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn scan<V: Vector>(bytes: &[u8], from: usize, carry: u64) -> Subparts {
    assert!(from <= bytes.len(), "the scan starts inside the input");
    let len = bytes.len();
    let blocks = (len - from).div_ceil(BLOCK).min(SUBPART_BLOCKS);
    let mut out = Subparts {
        blocks,
        carry,
        ..Subparts::default()
    };
    if blocks == 0 {
        return out;
    }
    // SAFETY: the caller guarantees the instruction set.
    let c = unsafe {
        Consts::<V> {
            tables: Tables::new(),
            zero: V::splat(0),
            c0: V::splat(0xC0),
            e0: V::splat(0xE0),
            f0: V::splat(0xF0),
            x80: V::splat(0x80),
        }
    };
    // The blocks where no lead byte has a second byte, then the full search from the
    // first that is not, as from the start of a scan: its carry in is 0, and the
    // pair before its first byte (the register before it, zeros here) is the block
    // before's to decide, which is decided.
    let lone = if carry == 0 {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { c.isolated(bytes, from, blocks, &mut out.parts) }
    } else {
        0
    };
    if lone == blocks {
        return out;
    }
    let (mut cur, mut prev) = c.masks_of(bytes, from, lone, c.zero);
    let mut carry = carry;
    for (k, slot) in out.parts.iter_mut().enumerate().take(blocks).skip(lone) {
        let (next, last) = c.masks_of(bytes, from, k + 1, prev);
        let two = cur.lead & shifted(cur.pair_ok, next.pair_ok, 1);
        let three = two & cur.need3 & shifted(cur.cont, next.cont, 2);
        let four = three & cur.need4 & shifted(cur.cont, next.cont, 3);
        let well_formed = (two & !cur.need3) | (three & !cur.need4) | four;
        let covered = (two << 1) | (three << 2) | (four << 3) | carry;
        *slot = BlockParts {
            starts: (cur.lead & !well_formed) | (cur.cont & !covered),
            two,
            three,
        };
        carry = carry_out(two, three, four);
        (cur, prev) = (next, last);
    }
    out.carry = carry;
    out
}
