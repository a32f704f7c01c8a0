//! `vutf8::records::RecordReader` (feature `std`): the records of a stream read in chunks of
//! every size equal `records::lines` / `split` on the whole input, with the same offsets
//! (from the start of the stream), numbers and verdicts; records longer than the cap are
//! reported with their heads and skipped, or cut back to a character boundary, and the
//! stream goes on; the reader's counts equal those of the reference's records.
#![cfg(feature = "std")]

mod common;

use common::std_error_kind;
use proptest::prelude::*;
use std::io::{self, Read};
use vutf8::grammar::floor_boundary;
use vutf8::records::{lines, split, Counts, Frame, Framing};

/// A reader that returns reads of the planned sizes in turn (0: an `Interrupted` error).
struct Chunked<'a> {
    data: &'a [u8],
    sizes: &'a [usize],
    calls: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.calls % self.sizes.len()];
        self.calls += 1;
        if size == 0 {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "try again"));
        }
        let n = size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// What a frame says, owned: (number, offset, bytes, end bytes, verdict, cut) or
/// (number, offset, length, head) of a record too long.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Record(u64, u64, Vec<u8>, Vec<u8>, bool, bool),
    TooLong(u64, u64, u64, Vec<u8>),
}

/// The frames of `data` read in chunks of the planned `sizes`, and the reader's counts.
fn read_all(data: &[u8], sizes: &[usize], framing: Framing) -> (Vec<Seen>, Counts) {
    let mut reader = framing.reader(Chunked {
        data,
        sizes,
        calls: 0,
    });
    let mut out = Vec::new();
    while let Some(frame) = reader.next_frame().expect("no read error") {
        out.push(match frame {
            Frame::Record(r) => Seen::Record(
                r.number(),
                r.offset(),
                r.bytes().to_vec(),
                r.end().to_vec(),
                r.is_valid(),
                r.is_cut(),
            ),
            Frame::TooLong {
                number,
                offset,
                len,
                head,
            } => Seen::TooLong(number, offset, len, head.to_vec()),
        });
    }
    (out, reader.counts())
}

/// The reference: the records of the whole input (`lines` or `split`), numbered from 1,
/// each with the bytes up to the next record as its end, and the cap applied (a head of
/// `max` bytes); their counts, the verdicts and kinds from std.
fn reference(data: &[u8], delimiter: u8, max: usize, cut: bool) -> (Vec<Seen>, Counts) {
    let records: Vec<_> = if delimiter == b'\n' {
        lines(data).collect()
    } else {
        split(data, delimiter).unwrap().collect()
    };
    let mut out = Vec::new();
    let mut counts = Counts::new();
    let mut count = |bytes: &[u8]| match std_error_kind(bytes) {
        None => counts.add_valid(),
        Some(kind) => counts.add_invalid(kind),
    };
    for (i, r) in records.iter().enumerate() {
        let number = i as u64 + 1;
        let offset = r.offset() as u64;
        let next = records.get(i + 1).map_or(data.len(), |n| n.offset());
        let end = data[r.offset() + r.bytes().len()..next].to_vec();
        if r.bytes().len() <= max {
            count(r.bytes());
            out.push(Seen::Record(
                number,
                offset,
                r.bytes().to_vec(),
                end,
                r.is_valid(),
                false,
            ));
        } else if cut {
            let kept = &r.bytes()[..floor_boundary(r.bytes(), max)];
            let valid = std::str::from_utf8(kept).is_ok();
            count(kept);
            out.push(Seen::Record(
                number,
                offset,
                kept.to_vec(),
                vec![],
                valid,
                true,
            ));
        } else {
            out.push(Seen::TooLong(
                number,
                offset,
                r.bytes().len() as u64,
                r.bytes()[..max].to_vec(),
            ));
        }
    }
    for seen in &out {
        match seen {
            Seen::Record(.., true) => counts.add_cut(),
            Seen::TooLong(..) => counts.add_too_long(),
            Seen::Record(..) => {}
        }
    }
    (out, counts)
}

const PIECES: [&[u8]; 12] = [
    b"\n",
    b"\n",
    b"\r\n",
    b"\r",
    b"a",
    b"log line text ",
    "é".as_bytes(),
    "€".as_bytes(),
    "😀".as_bytes(),
    b"\xE2\x82",
    b"\xFF",
    b"\x00",
];

fn build(pieces: &[usize]) -> Vec<u8> {
    pieces
        .iter()
        .flat_map(|&p| PIECES[p].iter().copied())
        .collect()
}

#[test]
fn chunks_of_every_size_give_the_records_of_the_whole() {
    let data = build(
        &(0..4000)
            .map(|i| (i * 7 + i / 13) % PIECES.len())
            .collect::<Vec<_>>(),
    );
    for sizes in [
        &[1usize][..],
        &[2, 0, 3],
        &[7],
        &[64],
        &[4095, 1, 0, 63],
        &[1 << 20],
    ] {
        for delimiter in [b'\n', 0] {
            let framing = if delimiter == b'\n' {
                Framing::lines()
            } else {
                Framing::split(delimiter).unwrap()
            };
            assert_eq!(
                read_all(&data, sizes, framing),
                reference(&data, delimiter, usize::MAX, false),
                "sizes {sizes:?}, delimiter {delimiter:#04X}"
            );
        }
    }
}

#[test]
fn records_over_the_cap_are_reported_or_cut_and_the_stream_goes_on() {
    let mut data = Vec::new();
    for len in [0usize, 3, 4, 5, 9, 10, 11, 40, 200, 70_000] {
        data.extend("é".repeat(len / 2).as_bytes());
        data.extend_from_slice(if len % 3 == 0 { b"\r\n" } else { b"\n" });
        data.extend_from_slice(b"ok\n");
    }
    data.extend_from_slice("€".repeat(30).as_bytes()); // a last record over the cap
    for max in [0usize, 1, 2, 3, 4, 9, 10, 11, 64, 1000] {
        for cut in [false, true] {
            for sizes in [&[1usize][..], &[3, 0, 5], &[4096], &[1 << 20]] {
                let framing = Framing::lines().max_record(max).cut_long_records(cut);
                assert_eq!(
                    read_all(&data, sizes, framing),
                    reference(&data, b'\n', max, cut),
                    "max {max}, cut {cut}, sizes {sizes:?}"
                );
            }
        }
    }
}

/// The cap asked for is the cap used and the cap reported, from 0 to `usize::MAX`.
#[test]
fn every_cap_is_the_cap_used_and_reported() {
    for max in [0, 1, 2, 3, 4, 5, 1 << 20, usize::MAX - 1, usize::MAX] {
        assert_eq!(Framing::lines().max_record(max).max(), max);
        let split = Framing::split(0).unwrap().max_record(max);
        assert_eq!(split.max(), max);
    }
    // Each length around the small caps, `\r\n` ends included (not counted).
    let data = b"\n1\n12\r\n123\n1234\r\n12345\n\xC3\xA9\n\xE2\x82\xAC\r\n";
    for max in 0..=6 {
        for cut in [false, true] {
            for sizes in [&[1usize][..], &[2], &[64]] {
                let framing = Framing::lines().max_record(max).cut_long_records(cut);
                assert_eq!(
                    read_all(data, sizes, framing),
                    reference(data, b'\n', max, cut),
                    "max {max}, cut {cut}, sizes {sizes:?}"
                );
            }
        }
    }
}

/// A cap of `usize::MAX` caps nothing: a record split across reads is one record (no
/// overflow where the cap and the `\r` of a line end are added up).
#[test]
fn a_cap_of_usize_max_keeps_records_split_across_reads() {
    let data = b"hello world\nnext\r\nlast \xE2\x82\xAC";
    for delimiter in [b'\n', b'\r', 0] {
        let framing = if delimiter == b'\n' {
            Framing::lines()
        } else {
            Framing::split(delimiter).unwrap()
        };
        for cut in [false, true] {
            for sizes in [&[1usize][..], &[6], &[3, 0, 5]] {
                let framing = framing.max_record(usize::MAX).cut_long_records(cut);
                assert_eq!(
                    read_all(data, sizes, framing),
                    reference(data, delimiter, usize::MAX, false),
                    "delimiter {delimiter:#04X}, cut {cut}, sizes {sizes:?}"
                );
            }
        }
    }
}

#[test]
fn memory_stays_bounded_on_one_endless_line() {
    // 64 MiB without a line end, then one line: read through a cap of 4 KiB. The reader's
    // buffer never holds more than the cap and one read, so this takes no memory to speak
    // of; the record is reported with its full length.
    struct Endless(u64);
    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Ok(0);
            }
            let n = (buf.len() as u64).min(self.0) as usize;
            buf[..n].fill(b'x');
            self.0 -= n as u64;
            if self.0 == 0 {
                buf[n - 1] = b'\n';
            }
            Ok(n)
        }
    }
    let mut reader = Framing::lines().max_record(4096).reader(Endless(64 << 20));
    let frame = reader.next_frame().unwrap().unwrap();
    assert_eq!(
        frame,
        Frame::TooLong {
            number: 1,
            offset: 0,
            len: (64 << 20) - 1,
            head: &[b'x'; 4096],
        }
    );
    assert!(reader.next_frame().unwrap().is_none());
    assert_eq!(
        (reader.counts().records(), reader.counts().too_long()),
        (1, 1)
    );
}

#[test]
fn a_non_ascii_delimiter_is_refused() {
    assert!(Framing::split(0xC3).is_err());
    assert!(Framing::split(0x1E).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn random_streams_and_chunkings(
        pieces in prop::collection::vec(0..PIECES.len(), 0..1500),
        sizes in prop::collection::vec(0usize..300, 1..8),
        max in 0usize..64,
        cut in any::<bool>(),
    ) {
        let data = build(&pieces);
        let sizes: Vec<usize> = if sizes.iter().all(|&s| s == 0) { vec![1] } else { sizes };
        let framing = Framing::lines().max_record(max).cut_long_records(cut);
        prop_assert_eq!(read_all(&data, &sizes, framing), reference(&data, b'\n', max, cut));
        prop_assert_eq!(
            read_all(&data, &sizes, Framing::lines()),
            reference(&data, b'\n', usize::MAX, false)
        );
    }
}

/// A reader of a growing file: each item of `reads` is what one read returns (an empty one
/// is a read of 0 bytes: the end, for now).
struct Growing {
    reads: std::collections::VecDeque<Vec<u8>>,
}

impl Read for Growing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(mut next) = self.reads.pop_front() else {
            return Ok(0);
        };
        let n = next.len().min(buf.len());
        buf[..n].copy_from_slice(&next[..n]);
        if n < next.len() {
            self.reads.push_front(next.split_off(n));
        }
        Ok(n)
    }
}

/// After a read of 0 bytes the reader yields the records it holds (a last one without a
/// line end whole) and `None`, and the next call reads again: records after it are numbered
/// and placed in the stream as if nothing had stopped.
#[test]
fn the_reader_goes_on_after_a_read_of_nothing() {
    let reads = [
        &b"one\ntw"[..],
        b"",
        b"o\nthr\xE9e\n",
        b"",
        b"",
        b"four\r\n",
    ];
    let mut reader = Framing::lines().reader(Growing {
        reads: reads.iter().map(|r| r.to_vec()).collect(),
    });
    let mut seen = Vec::new();
    for _round in 0..4 {
        while let Some(frame) = reader.next_frame().unwrap() {
            let Frame::Record(r) = frame else {
                panic!("no record is too long here")
            };
            seen.push((r.number(), r.offset(), r.bytes().to_vec(), r.is_valid()));
        }
        seen.push((0, 0, b"<none>".to_vec(), true));
    }
    let want: Vec<(u64, u64, Vec<u8>, bool)> = vec![
        (1, 0, b"one".to_vec(), true),
        (2, 4, b"tw".to_vec(), true),
        (0, 0, b"<none>".to_vec(), true),
        (3, 6, b"o".to_vec(), true),
        (4, 8, b"thr\xE9e".to_vec(), false),
        (0, 0, b"<none>".to_vec(), true),
        (0, 0, b"<none>".to_vec(), true),
        (5, 14, b"four".to_vec(), true),
        (0, 0, b"<none>".to_vec(), true),
    ];
    assert_eq!(seen, want);
    let counts = reader.counts();
    assert_eq!(
        (counts.records(), counts.valid(), counts.invalid()),
        (5, 4, 1)
    );
}
