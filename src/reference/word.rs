//! Inputs shorter than a word (`tiers::WORD_BELOW`, 8 bytes): packed into one `u64` and run
//! through a **shift DFA**, with no vector register and no branch on the bytes. The engine
//! (`crate::engine`) sends them here before it calls any backend, on every path into a
//! validator, so the differential tests reach this code through every backend they test.
//! (It also lends its packing to the 128-bit registers' `arch::generic::vector::pack16`.)
//!
//! One idea: the automaton of Unicode Table 3-7 (`crate::grammar`) has 9 states, so each
//! state can be a bit offset (a multiple of 6 below 64) and the row of a byte, a `u64`, can
//! hold the next state of every state at that state's offset. One step is then
//! `state = ROW[byte] >> state`: the row's load does not wait for the state, so the chain
//! from one byte to the next is one shift. (The shift count is taken modulo 64, so the
//! higher bits a step leaves in `state` do not matter; the last one is masked off.)
//!
//! Next: `crate::arch` for the backends that take the longer inputs, `crate::tiers` for
//! which lengths go where.

use crate::reference::grammar::{is_continuation, strict_rule};

/// The bits of one state in a row.
const WIDTH: u32 = 6;

/// The state between characters (and the start and accepting state): offset 0, so that a
/// row's lowest bits are the state after a byte that starts a character.
const ACCEPT: u64 = 0;
/// Waiting for `k` more continuation bytes `80..BF` (k = 1, 2, 3).
const fn need(k: usize) -> u64 {
    k as u64 * WIDTH as u64
}
/// After a lead byte whose second byte has a narrower range than `80..BF` (E0, ED, F0, F4):
/// states 4 to 7, in the order of [`NARROW`].
const fn narrow_state(i: usize) -> u64 {
    (4 + i) as u64 * WIDTH as u64
}
/// The state after an error; every byte keeps it there.
const ERROR: u64 = 8 * WIDTH as u64;

/// The lead bytes with a narrow second byte, and their rules (length, second byte's range).
const NARROW: [(u8, (usize, u8, u8)); 4] = narrow_leads();

/// The lead bytes of the grammar whose second byte is not any continuation byte, in order
/// (the compilation stops if there are not exactly four).
const fn narrow_leads() -> [(u8, (usize, u8, u8)); 4] {
    let mut out = [(0u8, (0usize, 0u8, 0u8)); 4];
    let mut n = 0;
    let mut lead = 0xC0u8;
    loop {
        if let Some((len, lo, hi)) = strict_rule(lead) {
            if lo != 0x80 || hi != 0xBF {
                // Four states are all a row has room for beside the five others.
                assert!(n < 4, "more narrow lead bytes than states");
                out[n] = (lead, (len, lo, hi));
                n += 1;
            }
        }
        if lead == 0xFF {
            break;
        }
        lead += 1;
    }
    assert!(n == 4, "the grammar has four narrow lead bytes");
    out
}

/// The state after `byte` from the state between characters.
const fn after_lead(byte: u8) -> u64 {
    let mut i = 0;
    while i < NARROW.len() {
        if NARROW[i].0 == byte {
            return narrow_state(i);
        }
        i += 1;
    }
    match strict_rule(byte) {
        Some((len, _, _)) => need(len - 1),
        None => ERROR,
    }
}

/// The rows: `ROWS[byte] >> state & 63` is the state after `byte` in `state`.
static ROWS: [u64; 256] = {
    let mut rows = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        let cont = is_continuation(byte);
        // The state between characters sits at offset 0 (ACCEPT).
        let mut row = after_lead(byte);
        let mut k = 1;
        while k <= 3 {
            let next = if cont { need(k - 1) } else { ERROR };
            row |= next << need(k);
            k += 1;
        }
        let mut i = 0;
        while i < NARROW.len() {
            let (_, (len, lo, hi)) = NARROW[i];
            let next = if lo <= byte && byte <= hi {
                need(len - 2)
            } else {
                ERROR
            };
            row |= next << narrow_state(i);
            i += 1;
        }
        row |= ERROR << ERROR;
        rows[b] = row;
        b += 1;
    }
    rows
};

/// The bytes of `input` (shorter than 8) in a `u64`, the first in the lowest byte, zeros
/// after them: two overlapping 4-byte reads from 4 bytes on, three 1-byte reads below.
#[inline(always)]
pub(crate) fn pack(input: &[u8]) -> u64 {
    let len = input.len();
    debug_assert!(len < 8);
    if len >= 4 {
        let word = |at: usize| {
            let mut w = [0u8; 4];
            w.copy_from_slice(&input[at..at + 4]);
            u64::from(u32::from_le_bytes(w))
        };
        word(0) | (word(len - 4) >> (8 * (8 - len))) << 32
    } else if len > 0 {
        let at = |i: usize| u64::from(input[i]) << (8 * i);
        at(0) | at(len / 2) | at(len - 1)
    } else {
        0
    }
}

/// Whether `input`, shorter than 8 bytes, is valid UTF-8.
///
/// Out of line and `#[cold]`, though it is not rare: the test of the length in front of
/// every call (`crate::engine`) then falls through to the backend, and only the short
/// inputs jump here. Without `#[cold]` the jump goes the other way, and the calls of 8 to
/// 200 bytes pay for it (docs/PERFORMANCE.md#word-dfa).
#[cold]
#[inline(never)]
pub(crate) fn is_valid(input: &[u8]) -> bool {
    let word = pack(input);
    // The state after the input's last byte decides. The zeros after it are ASCII, which
    // keep the state between characters and turn a sequence left open into an error, so
    // steps past the input change nothing: 3 steps up to 3 bytes, 7 from 4. (A branch on
    // the length, not on the bytes; each arm a fixed number of steps, unrolled. Seven
    // steps for every length cost the shortest inputs more: docs/PERFORMANCE.md#word-dfa.)
    let state = if input.len() < 4 {
        steps::<3>(word)
    } else {
        steps::<7>(word)
    };
    state & ((1 << WIDTH) - 1) == ACCEPT
}

/// The state after the first `N` bytes of `word`, from the state between characters.
#[inline(always)]
fn steps<const N: usize>(word: u64) -> u64 {
    let mut state = ACCEPT;
    for i in 0..N {
        state = ROWS[(word >> (8 * i)) as u8 as usize].wrapping_shr(state as u32);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_string_of_up_to_three_bytes() {
        let mut buf = [0u8; 3];
        for len in 0..=3usize {
            for n in 0..1u32 << (8 * len) {
                for (i, b) in buf.iter_mut().enumerate().take(len) {
                    *b = (n >> (8 * i)) as u8;
                }
                let s = &buf[..len];
                assert_eq!(is_valid(s), core::str::from_utf8(s).is_ok(), "{s:02x?}");
            }
        }
    }
}
