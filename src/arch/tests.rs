//! The table's rows against std and against models (every row this CPU runs, not only the
//! one the public `Backend` reaches): the scans of records windows, the validators and
//! their cold `locate`, and the searches for ill-formed parts.

use super::window::{ErrorBits, Positions, POSITIONS, WINDOW_WORDS};
use crate::backend::Backend;
use crate::tiers::{BLOCK, RECORD_WINDOW};
use std::vec::Vec;

/// A scan function of the table's type (a backend's, the portable one, the dispatched
/// one), with its name.
type Scanner<'a> = (
    &'a str,
    &'a dyn Fn(&[u8], usize, u8, &mut Positions, &mut ErrorBits) -> (usize, u64),
);

/// The table's rows this CPU runs, each with its place in the table, which the tests'
/// messages name: AVX-512's two rows share a backend name.
fn runnable_rows() -> impl Iterator<Item = (usize, &'static super::rows::Entry)> {
    super::backends::BACKENDS
        .iter()
        .enumerate()
        .filter(|(_, e)| (e.detect)())
}

/// `variant` (`Backend::variant`) names the row `row` chooses, where the backend runs:
/// the module of the last runnable row of that backend that is for this CPU (on x86,
/// AVX2's code for 128-bit units exactly where the CPU is one of those), and nothing
/// where it does not run.
#[test]
fn variant_names_the_row_this_cpu_runs() {
    for b in Backend::ALL {
        let expected = if b == Backend::Scalar {
            Some("scalar")
        } else {
            super::backends::BACKENDS
                .iter()
                .rev()
                .find(|e| e.backend == b && (e.detect)() && (e.prefer)())
                .map(|e| e.variant)
        };
        assert_eq!(super::variant(b), expected, "{b}");
        assert_eq!(super::variant(b).is_some(), super::is_available(b), "{b}");
    }
    assert!(super::variant(super::selected()).is_some());
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if super::is_available(Backend::Avx2) {
        let want = if super::x86::has_128_bit_units() {
            "avx2units128"
        } else if super::x86::checks_short_inputs_whole() {
            "avx2zen5"
        } else {
            "avx2"
        };
        assert_eq!(super::variant(Backend::Avx2), Some(want));
    }
}

/// Every scan this CPU runs: each runnable backend's, the portable one, the dispatched.
fn scanners(f: impl Fn(Scanner<'_>)) {
    f(("portable", &super::window::scan));
    f(("dispatched", &super::scan));
    for (row, e) in runnable_rows() {
        let name = std::format!("{} (row {row})", e.backend.name());
        // SAFETY: `detect` said this CPU runs the backend.
        f((&name, &|b, from, byte, p, w| unsafe {
            (e.scan)(b, from, byte, p, w)
        }));
    }
}

/// The positions a scan found.
fn positions(scan: Scanner<'_>, bytes: &[u8], from: usize, byte: u8) -> Vec<usize> {
    let mut positions: Positions = [core::mem::MaybeUninit::new(0x5555); POSITIONS];
    let mut words: ErrorBits = [0x5555; WINDOW_WORDS];
    let (count, _) = (scan.1)(bytes, from, byte, &mut positions, &mut words);
    positions[..count]
        .iter()
        // SAFETY: the scan wrote the first `count` positions (and they were initialized
        // before, too).
        .map(|p| usize::from(unsafe { p.assume_init() }))
        .collect()
}

/// The delimiter search of every scan against a byte-by-byte model: windows of every
/// length up to three blocks and around a records window, at every alignment of a
/// block, at the start of a buffer and after bytes of their own, each byte value a
/// delimiter.
#[test]
fn every_scan_finds_every_delimiter() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let data: Vec<u8> = (0..2 * BLOCK + RECORD_WINDOW + 4 * BLOCK)
        .map(|_| {
            // Mostly a few values (many matches), now and then any byte.
            let b = (super::test_text::next(&mut x) >> 32) as u8;
            if b < 200 {
                b & 0x8A
            } else {
                b
            }
        })
        .collect();
    let mut lengths: Vec<usize> = (0..=3 * BLOCK).collect();
    lengths.extend(RECORD_WINDOW - 2..=RECORD_WINDOW + 2);
    let mut searches = 0;
    for &len in &lengths {
        for start in (0..BLOCK).step_by(if len > 3 * BLOCK { 16 } else { 1 }) {
            // The window alone, and after BLOCK + start bytes of the buffer.
            for (bytes, from) in [
                (&data[start..start + len], 0),
                (&data[..BLOCK + start + len], BLOCK + start),
            ] {
                let window = &bytes[from..(from + RECORD_WINDOW).min(bytes.len())];
                for byte in [
                    0x00,
                    0x0A,
                    0x08,
                    0x82,
                    0x8A,
                    0xFF,
                    window.first().copied().unwrap_or(1),
                ] {
                    let model: Vec<usize> =
                        (0..window.len()).filter(|&i| window[i] == byte).collect();
                    scanners(|scan| {
                        let got = positions(scan, bytes, from, byte);
                        assert_eq!(
                            got, model,
                            "{}: {len} bytes from {from} (+{start}), {byte:#04X}",
                            scan.0
                        );
                    });
                    searches += 1;
                }
            }
        }
    }
    assert!(searches > 10_000, "{searches}");
}

/// Every row of the table this CPU runs, raw and yes-or-no, says what std says, on text
/// of every length up to past the short path and the first groups of the medium path,
/// and around `MASKED_BELOW`, at three starts. The public [`Backend`] reaches only a
/// backend's widest row (AVX-512 has two, with VBMI and without): this is where a CPU
/// with VBMI runs the other one's validators, beside the primitive tests.
#[test]
fn every_row_agrees_with_std() {
    use super::test_text::{next, PIECES, VALID};
    use crate::tiers::{MASKED_BELOW, SHORT_BELOW};
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let text = |kinds: usize, x: &mut u64| {
        let mut t = Vec::new();
        while t.len() < MASKED_BELOW + 4 * BLOCK {
            t.extend_from_slice(PIECES[(next(x) >> 40) as usize % kinds]);
        }
        t
    };
    // Valid pieces only (cut anywhere, a sequence may be left open at the end), and
    // now and then a broken one.
    let texts = [text(VALID, &mut x), text(PIECES.len(), &mut x)];
    let mut lengths: Vec<usize> = (0..=2 * SHORT_BELOW + BLOCK).collect();
    lengths.extend(MASKED_BELOW - 2..=MASKED_BELOW + 2 * BLOCK);
    let mut checks = 0;
    for (row, e) in runnable_rows() {
        for t in &texts {
            for start in [0, 1, 61] {
                for &len in &lengths {
                    let input = &t[start..start + len];
                    let want = core::str::from_utf8(input).is_ok();
                    // SAFETY: `detect` said this CPU runs the backend.
                    let (raw, valid) = unsafe { ((e.raw)(input, 0), (e.valid)(input, 0)) };
                    assert_eq!(
                        raw.is_ok(),
                        want,
                        "{} (row {row}): raw, {len} bytes from {start}",
                        e.backend.name()
                    );
                    assert_eq!(
                        valid,
                        want,
                        "{} (row {row}): yes or no, {len} bytes from {start}",
                        e.backend.name()
                    );
                    checks += 1;
                }
            }
        }
    }
    std::eprintln!("{checks} checks");
}

/// Every row of the table this CPU runs finds the one character or error put into ASCII
/// text at every place that matters to its schedule, at three alignments: every place
/// of every length up to two blocks and a 256-bit register (the one-register paths,
/// the short path's ASCII tests from `Schedule::SHORT_ASCII_FROM` on); and, in the rows
/// the public [`Backend`] does not reach on this CPU (another row of the backend is
/// chosen), medium lengths from the first of AVX2's groups of `SMALL_GROUP` blocks on
/// 128-bit units (where they replace the short path) past their last, the places
/// within 2 bytes of each 32-byte boundary of memory and at the end. Its cold `locate` says where, within 3 bytes.
/// The rows the public API reaches, `tests/boundary_sweep.rs` sweeps at every length;
/// a row for some CPUs only (AVX2 on 128-bit units) runs here on every CPU with its
/// instruction set, and so does the plain row on those CPUs.
#[test]
fn every_row_finds_one_error_in_ascii() {
    use crate::tiers::{
        GROUPS_FROM_UNITS_128, MEDIUM_UNALIGNED_BELOW, MEDIUM_UNALIGNED_BELOW_UNITS_128,
        REGISTER_256, SHORT_BELOW, SMALL_GROUPS_BELOW_256,
    };
    // (pattern, valid): a character, a stray continuation byte, a sequence cut short.
    let patterns: [(&[u8], bool); 3] = [
        ("é".as_bytes(), true),
        (b"\x80", false),
        (b"\xE2\x82", false),
    ];
    let short: Vec<usize> = (0..=2 * BLOCK + REGISTER_256).collect();
    let mut medium: Vec<usize> = (GROUPS_FROM_UNITS_128 - 2..SMALL_GROUPS_BELOW_256 + 2 * BLOCK)
        .step_by(131)
        .collect();
    for edge in [
        GROUPS_FROM_UNITS_128,
        SHORT_BELOW,
        MEDIUM_UNALIGNED_BELOW_UNITS_128,
        MEDIUM_UNALIGNED_BELOW,
        SMALL_GROUPS_BELOW_256,
    ] {
        medium.extend(edge - 1..=edge + 1);
    }
    let max = medium.iter().copied().max().unwrap_or(0);
    let mut buffer = std::vec![b'a'; max + 3 * BLOCK];
    // The first 64-byte boundary of the buffer: starts 0, 1 and 61 bytes after it.
    let aligned = buffer.as_ptr().align_offset(BLOCK);
    let (mut checks, mut medium_rows) = (0, 0);
    for (row, e) in runnable_rows() {
        let reached = super::dispatch::row(e.backend) == Some(row);
        let lengths = if reached {
            short.clone()
        } else {
            medium_rows += 1;
            [&short[..], &medium[..]].concat()
        };
        for start in [0, 1, 61].map(|s| aligned + s) {
            for &len in &lengths {
                let places: Vec<usize> = (0..len)
                    .filter(|&p| {
                        len <= 2 * BLOCK + REGISTER_256 || (start + p + 2) % 32 <= 4 || p + 4 >= len
                    })
                    .collect();
                for &(pattern, valid) in &patterns {
                    for &p in &places {
                        let end = (p + pattern.len()).min(len);
                        buffer[start + p..start + end].copy_from_slice(&pattern[..end - p]);
                        let input = &buffer[start..start + len];
                        let want = valid && end - p == pattern.len();
                        // SAFETY: `detect` said this CPU runs the backend.
                        let (raw, yes) = unsafe { ((e.raw)(input, 0), (e.valid)(input, 0)) };
                        let name = e.backend.name();
                        let what = std::format!(
                            "{name} (row {row}): {len} bytes from {start}, {pattern:02X?} at {p}"
                        );
                        assert_eq!(raw.is_ok(), want, "raw, {what}");
                        assert_eq!(yes, want, "yes or no, {what}");
                        if let Err(from) = raw {
                            // SAFETY: as above.
                            let at = unsafe { (e.locate)(input, from) };
                            assert!(at <= p + 3 && p <= at + 3, "locate said {at}, {what}");
                        }
                        buffer[start + p..start + end].fill(b'a');
                        checks += 1;
                    }
                }
            }
        }
    }
    // (No rows on a target without a vector backend: nothing to check there.)
    let rows = runnable_rows().count();
    assert!(checks >= 100_000 * rows, "{checks} checks in {rows} rows");
    std::eprintln!("{checks} checks in {rows} rows, medium lengths in {medium_rows}");
}

/// The error bits of every scan keep the contract of `generic::delimiters::scan` on every
/// record of many buffers of up to three windows, scanned window after window: no bit in
/// a valid record's bytes and delimiter but at its first two bytes, a bit in every
/// invalid one's (the last record's too, unless the end of the buffer only cuts it
/// short); and every word said to have a bit has one.
#[test]
fn every_scan_keeps_the_contract_on_every_record() {
    use super::test_text::{next, PIECES, VALID};
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut buffers = 0;
    for round in 0..1500u64 {
        let target = match round % 5 {
            0 => (round % 97) as usize,
            1 => BLOCK + (round % 67) as usize,
            2 => 3 * BLOCK + (round % 131) as usize,
            3 => RECORD_WINDOW - 3 + (round % 7) as usize,
            _ => 2 * RECORD_WINDOW + (round % 301) as usize,
        };
        let mut buffer = Vec::new();
        while buffer.len() < target {
            let x = next(&mut x);
            // Mostly valid pieces, now and then a broken one; sometimes valid only.
            let kinds = match round % 3 {
                0 => PIECES.len(),
                _ if x.is_multiple_of(5) => PIECES.len(),
                _ => VALID,
            };
            buffer.extend_from_slice(PIECES[(x >> 40) as usize % kinds]);
        }
        buffer.truncate(target);
        // Records: cut at each `\n`; the last runs to the end of the buffer.
        let mut records = Vec::new();
        let mut s = 0;
        for (d, &b) in buffer.iter().enumerate() {
            if b == b'\n' {
                records.push((s, d));
                s = d + 1;
            }
        }
        let last = s;
        scanners(|scan| {
            let name = scan.0;
            let mut all = Vec::new();
            for from in (0..buffer.len().max(1)).step_by(RECORD_WINDOW) {
                let mut found: Positions = [core::mem::MaybeUninit::new(0); POSITIONS];
                let mut words: ErrorBits = [0x5555; WINDOW_WORDS];
                let (_, with_bits) = (scan.1)(&buffer, from, b'\n', &mut found, &mut words);
                let len = (buffer.len() - from).min(RECORD_WINDOW);
                assert_eq!(
                    with_bits >> 1 >> ((len.max(1) - 1) / BLOCK),
                    0,
                    "{name}: a word past the window"
                );
                // Only the words it says it wrote are read; each has a bit.
                for (k, word) in words.iter_mut().enumerate() {
                    if with_bits >> k & 1 == 1 {
                        assert_ne!(
                            *word, 0,
                            "{name}: word {k} of window {from} said to have a bit"
                        );
                    } else {
                        *word = 0;
                    }
                }
                let bits: Vec<bool> = (0..len)
                    .map(|i| words[i / BLOCK] >> (i % BLOCK) & 1 == 1)
                    .collect();
                assert_eq!(
                    bits.iter().filter(|&&b| b).count(),
                    words.iter().map(|w| w.count_ones() as usize).sum::<usize>(),
                    "{name}: a bit past the window's end"
                );
                all.extend(bits);
            }
            let bit = |i: usize| all[i];
            for &(s, d) in &records {
                if core::str::from_utf8(&buffer[s..d]).is_ok() {
                    assert!(
                        !(s + 2..=d).any(bit),
                        "{name}: valid record {s}..{d} has a bit of its own"
                    );
                } else {
                    assert!(
                        (s..=d).any(bit),
                        "{name}: invalid record {s}..{d} has no bit"
                    );
                }
            }
            // The last record: without a byte after it, an error in its last bytes may
            // have no bit (the records iterator checks its last character on its own).
            match core::str::from_utf8(&buffer[last..]) {
                Ok(_) => assert!(
                    !(last + 2..buffer.len()).any(bit),
                    "{name}: valid last record"
                ),
                Err(e) => assert!(
                    (last..buffer.len()).any(bit)
                        || e.error_len()
                            .is_none_or(|n| last + e.valid_up_to() + n == buffer.len()),
                    "{name}: invalid last record, {e:?}, with no bit"
                ),
            }
        });
        buffers += 1;
    }
    assert_eq!(buffers, 1500);
}

/// The searches for ill-formed parts (`generic::subparts::scan`) of every row this CPU
/// runs, the portable one and the dispatched one, against std's invalid parts.
mod subparts_tests {
    use crate::arch::portable::Subparts;
    use crate::arch::test_text::PIECES;
    use crate::tiers::{BLOCK, SUBPART_BLOCKS};
    use std::vec::Vec;

    /// Every ill-formed part of `bytes` from `from` (a boundary), window after window of
    /// `search`, as (start, length): each window's parts, the next window from where it
    /// stopped with its carry.
    fn parts(
        search: crate::arch::rows::SubpartsFn,
        bytes: &[u8],
        from: usize,
    ) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let (mut at, mut carry) = (from, 0);
        while at < bytes.len() {
            // SAFETY: `runnable_subparts` lists only searches this CPU runs.
            let found: Subparts = unsafe { search(bytes, at, carry) };
            let (blocks, c) = (found.blocks, found.carry);
            assert!(blocks > 0 && blocks <= SUBPART_BLOCKS);
            for (k, p) in found.parts[..blocks].iter().enumerate() {
                let mut starts = p.starts;
                while starts != 0 {
                    let i = starts.trailing_zeros();
                    starts &= starts - 1;
                    out.push((at + k * BLOCK + i as usize, p.len_at(i)));
                }
            }
            at += blocks * BLOCK;
            carry = c;
        }
        out
    }

    /// The reference: std's invalid parts, each as long as its bytes (a sequence the end
    /// leaves open is one part).
    fn std_parts(bytes: &[u8], from: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = from;
        for chunk in bytes[from..].utf8_chunks() {
            at += chunk.valid().len();
            if !chunk.invalid().is_empty() {
                out.push((at, chunk.invalid().len()));
            }
            at += chunk.invalid().len();
        }
        out
    }

    /// Buffers of pieces of damaged text (every odd byte and broken sequence of the test
    /// text), of every length to past two windows, searched from their start and from
    /// after each character boundary in the first block, by every search: the same parts
    /// as std's.
    #[test]
    fn every_search_finds_std_parts() {
        let searches = crate::arch::dispatch::runnable_subparts();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let window = SUBPART_BLOCKS * BLOCK;
        let mut checked = 0;
        for round in 0..400 {
            let target = (crate::arch::test_text::next(&mut x) as usize) % (2 * window + 2 * BLOCK)
                + round % 3;
            let mut bytes = Vec::new();
            while bytes.len() < target {
                let piece =
                    PIECES[(crate::arch::test_text::next(&mut x) >> 7) as usize % PIECES.len()];
                bytes.extend_from_slice(piece);
                if crate::arch::test_text::next(&mut x).is_multiple_of(7) {
                    bytes.push((crate::arch::test_text::next(&mut x) >> 24) as u8);
                }
            }
            let starts: Vec<usize> = (0..bytes.len().min(BLOCK + 3))
                .filter(|&i| {
                    // A boundary: where decoding from the start goes on.
                    core::str::from_utf8(&bytes[..i]).is_ok()
                        || std_parts(&bytes, 0).iter().any(|&(s, n)| s + n == i)
                })
                .collect();
            for &from in &starts {
                let want = std_parts(&bytes, from);
                for (name, search) in &searches {
                    assert_eq!(
                        parts(*search, &bytes, from),
                        want,
                        "{name}: {bytes:02X?} from {from}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// Bytes that are not ASCII standing alone among ASCII bytes (Latin-1 text, UTF-16 of
    /// Latin scripts: where the search looks at the top bits alone), and beside a second
    /// one, a lead or a continuation byte one, two or a block further on (a lead followed
    /// by a continuation byte it must leave to the full search, a valid one among them), at
    /// every place of a window and of the byte after it, in inputs shorter than a block and
    /// than 3 (the end cuts their last block), and one byte, one block and a window and a
    /// few bytes longer than a window.
    #[test]
    fn lone_bytes_at_every_place_of_a_window() {
        let searches = crate::arch::dispatch::runnable_subparts();
        let window = SUBPART_BLOCKS * BLOCK;
        let seconds = [
            None,
            Some((1, 0xA9)),
            Some((1, 0xE3)),
            Some((2, 0xA9)),
            Some((2, 0xFF)),
            Some((BLOCK, 0xA9)),
        ];
        let mut checked = 0;
        for len in [
            BLOCK - 1,
            2 * BLOCK + 5,
            window + 1,
            window + BLOCK,
            2 * window + 3,
        ] {
            for place in 0..(window + 2).min(len) {
                for b in [0x80u8, 0xBF, 0xC2, 0xE9, 0xF0, 0xFF] {
                    for second in seconds {
                        let mut bytes = std::vec![b'a'; len];
                        bytes[place] = b;
                        if let Some((d, s)) = second.filter(|(d, _)| place + d < len) {
                            bytes[place + d] = s;
                        }
                        let want = std_parts(&bytes, 0);
                        for (name, search) in &searches {
                            assert_eq!(
                                parts(*search, &bytes, 0),
                                want,
                                "{name}: {len} {place} {b:02X} {second:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked >= 3 * (window + 1) * 6 * seconds.len(), "{checked}");
    }

    /// The same at the end of the input and around block edges: every byte value, and
    /// every pair of them, placed at every offset of the last bytes of a block, after ASCII
    /// and after a long run of 2-byte characters.
    #[test]
    fn every_byte_and_pair_at_every_place_near_block_edges() {
        let searches = crate::arch::dispatch::runnable_subparts();
        let fills: [&[u8]; 2] = [b"a", "\u{e9}".as_bytes()];
        for fill in fills {
            for len in [
                BLOCK - 4,
                BLOCK - 1,
                BLOCK,
                BLOCK + 2,
                2 * BLOCK - 2,
                SUBPART_BLOCKS * BLOCK + 1,
            ] {
                for place in len.saturating_sub(6)..len {
                    for b0 in 0x70..=0xFFu16 {
                        for b1 in [
                            0x00u16, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC3, 0xE2, 0xF0,
                        ] {
                            let mut bytes: Vec<u8> =
                                fill.iter().copied().cycle().take(len).collect();
                            // The fill cut back to a boundary before the place.
                            let mut p = place;
                            while p > 0 && bytes[p] & 0xC0 == 0x80 {
                                p -= 1;
                            }
                            bytes[p] = b0 as u8;
                            if p + 1 < len {
                                bytes[p + 1] = b1 as u8;
                            }
                            let want = std_parts(&bytes, 0);
                            for (name, search) in &searches {
                                assert_eq!(
                                    parts(*search, &bytes, 0),
                                    want,
                                    "{name}: {len} {p} {b0:02X} {b1:02X}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
