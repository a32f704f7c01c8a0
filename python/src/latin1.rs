//! Text of Latin-1 characters (ASCII, and `C2`/`C3` with a continuation byte) validated and
//! written into a Latin-1 string in one AVX2 pass, ahead of `decode.rs`'s loop: German,
//! French, Spanish text whose characters all fit one byte, which CPython decodes in one pass
//! of its own at some 10-14 GB/s and the loop, a sequence at a time, slower.
//!
//! Each step takes 16 bytes and checks them by masks of their bytes: every byte that is not
//! ASCII is a lead `C2` or `C3` followed by a continuation byte, or that continuation byte
//! (a lead at the end of the last step counts). The character of a lead is the byte after
//! it, plus `0x40` after `C3`; the continuation bytes are squeezed out, eight bytes at a
//! time, by a shuffle from a table of the 256 patterns. 32 ASCII bytes are copied whole.
//! At the first step it cannot take (another byte, an error) it stops, before the lead of a
//! character it has not finished, and the loop goes on from there: it never decides what
//! is an error, only what is valid Latin-1.
//!
//! Next: `decode.rs` (`decode_into`), which runs it before its loop.

/// The shuffles that squeeze eight bytes: entry `k` moves the bytes whose bit is set in `k`
/// to the front, in order (`wide::kept_lanes`; the rest of the eight are zero: the next
/// store writes over them, or they lie past what the pass counts).
#[cfg(target_arch = "x86_64")]
static SQUEEZE8: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut k = 0;
    while k < 256 {
        let lanes = crate::wide::kept_lanes(k);
        let mut j = 0;
        while j < 8 {
            t[k][j] = lanes[j];
            j += 1;
        }
        k += 1;
    }
    t
};

/// Writes the valid Latin-1 text of `src` from byte `i` and character `o` on into `dst`,
/// which has room for `room` characters, as far as it goes; returns where it stopped: the
/// byte and character from which the rest is to be decoded (at a character's start). Only
/// with AVX2; elsewhere it returns `(i, o)`.
///
/// # Safety
/// `dst` is valid for `room` bytes.
#[inline]
pub(crate) unsafe fn fast_forward(
    src: &[u8],
    dst: *mut u8,
    room: usize,
    (i, o): (usize, usize),
) -> (usize, usize) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2; `dst` by the caller's promise.
        return unsafe { latin1_avx2(src, dst, room, (i, o)) };
    }
    let _ = (src, dst, room);
    (i, o)
}

/// [`fast_forward`] with AVX2.
///
/// # Safety
/// The CPU has AVX2; `dst` is valid for `room` bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn latin1_avx2(
    src: &[u8],
    dst: *mut u8,
    room: usize,
    (mut i, mut o): (usize, usize),
) -> (usize, usize) {
    use std::arch::x86_64::*;
    let n = src.len();
    let p = src.as_ptr();
    let c2 = _mm_set1_epi8(0xC2u8 as i8);
    let c3 = _mm_set1_epi8(0xC3u8 as i8);
    let continuation_below = _mm_set1_epi8(-0x40);
    let plus = _mm_set1_epi8(0x40);
    let high_lanes = _mm_set1_epi8(8);
    // Whether the byte before `i` is a lead whose character is written (its continuation
    // byte is at `i`).
    let mut open = false;
    while i + 32 <= n && o + 32 <= room {
        // SAFETY: `i + 32 <= n`.
        let head = unsafe { _mm256_loadu_si256(p.add(i).cast()) };
        if !open && _mm256_movemask_epi8(head) == 0 {
            // SAFETY: `o + 32 <= room`; 32 bytes from `i` are in `src`.
            unsafe { std::ptr::copy_nonoverlapping(p.add(i), dst.add(o), 32) };
            i += 32;
            o += 32;
            continue;
        }
        // SAFETY: `i + 17 <= n`.
        let (b0, b1) = unsafe {
            (
                _mm_loadu_si128(p.add(i).cast()),
                _mm_loadu_si128(p.add(i + 1).cast()),
            )
        };
        let bits = |v: __m128i| _mm_movemask_epi8(v) as u32;
        let is_c3 = _mm_cmpeq_epi8(b0, c3);
        // All ones in the bytes of a lead.
        let is_lead = _mm_or_si128(_mm_cmpeq_epi8(b0, c2), is_c3);
        let lead = bits(is_lead);
        let continuation = bits(_mm_cmpgt_epi8(continuation_below, b0));
        let followed = bits(_mm_cmpgt_epi8(continuation_below, b1));
        let other = bits(b0) & !lead & !continuation;
        let led = (lead << 1 | u32::from(open)) & 0xFFFF;
        if other != 0 || lead & !followed != 0 || continuation != led {
            break;
        }
        let chars = _mm_blendv_epi8(b0, _mm_add_epi8(b1, _mm_and_si128(is_c3, plus)), is_lead);
        let keep = !continuation & 0xFFFF;
        let (low, high) = (keep & 0xFF, keep >> 8);
        for (k, shift) in [(low, false), (high, true)] {
            // SAFETY: `k < 256`.
            let mut shuffle =
                unsafe { _mm_loadu_si128(SQUEEZE8.get_unchecked(k as usize).as_ptr().cast()) };
            if shift {
                // The high eight bytes: the table's lane numbers moved up by 8 (an unused
                // lane's 0x80 stays negative: zero).
                shuffle = _mm_add_epi8(shuffle, high_lanes);
            }
            // SAFETY: `o + 16 <= room` (the loop's bound, less the first half's 8 or
            // fewer).
            unsafe { _mm_storel_epi64(dst.add(o).cast(), _mm_shuffle_epi8(chars, shuffle)) };
            o += k.count_ones() as usize;
        }
        open = lead >> 15 != 0;
        i += 16;
    }
    if open {
        // The last lead's character is written; the loop decodes it again.
        (i - 1, o - 1)
    } else {
        (i, o)
    }
}
