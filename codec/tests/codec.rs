//! `LogLines` against the reference: the frames of a stream fed in chunks of every size
//! equal those of `vutf8::records::lines` (or `split`) on the whole input under the same
//! policy and framing (numbers, offsets, bytes, line ends, verdicts, texts, errors, heads of
//! lines over the cap, cut lines), and its counts equal counts made from std's verdicts;
//! end to end through tokio's `FramedRead` over a file, where `LinesCodec`'s stream ends at
//! a line over its cap and this one goes on.

// The reference kind of an error, from std's error (shared with the library's tests).
#[path = "../../tests/common/mod.rs"]
mod common;

use bytes::BytesMut;
use proptest::prelude::*;
use tokio_util::codec::Decoder;
use vutf8::grammar::floor_boundary;
use vutf8_codec::{Counts, Frame, Framing, LogLines, Policy};

/// What a frame says, owned.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    /// Number, offset, bytes, end, verdict, cut, text, original.
    Line(
        u64,
        u64,
        Vec<u8>,
        Vec<u8>,
        bool,
        bool,
        String,
        Option<Vec<u8>>,
    ),
    /// Number, offset, bytes, end, the error's `valid_up_to` and `error_len`.
    Invalid(u64, u64, Vec<u8>, Vec<u8>, usize, Option<usize>),
    /// Number, offset, length, head.
    TooLong(u64, u64, u64, Vec<u8>),
}

fn seen(frame: Frame) -> Seen {
    match frame {
        Frame::Line(l) => Seen::Line(
            l.number(),
            l.offset(),
            l.bytes().to_vec(),
            l.end().to_vec(),
            l.is_valid(),
            l.is_cut(),
            l.text().to_owned(),
            l.original().map(|b| b.to_vec()),
        ),
        Frame::Invalid(l, e) => Seen::Invalid(
            l.number(),
            l.offset(),
            l.bytes().to_vec(),
            l.end().to_vec(),
            e.valid_up_to(),
            e.error_len(),
        ),
        Frame::TooLong {
            number,
            offset,
            len,
            head,
        } => Seen::TooLong(number, offset, len, head.to_vec()),
    }
}

/// What a decoder gave: the frames, its counts, `repaired()` and `dropped()`.
type Decoded = (Vec<Seen>, Counts, u64, u64);

/// Feeds `data` in chunks of the planned sizes (cycled; 0 is skipped), decoding after each.
fn decode_in_chunks(data: &[u8], sizes: &[usize], mut codec: LogLines) -> Decoded {
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    let mut at = 0;
    let mut i = 0;
    while at < data.len() {
        let n = sizes[i % sizes.len()].min(data.len() - at);
        i += 1;
        buf.extend_from_slice(&data[at..at + n]);
        at += n;
        while let Some(frame) = codec.decode(&mut buf).unwrap() {
            out.push(seen(frame));
        }
    }
    while let Some(frame) = codec.decode_eof(&mut buf).unwrap() {
        out.push(seen(frame));
    }
    assert!(buf.is_empty(), "everything is consumed at the end");
    (out, codec.counts(), codec.repaired(), codec.dropped())
}

/// The reference: the records of the whole input (`lines` for `\n`, else `split`),
/// numbered, each with the bytes up to the next record as its end, the cap and the policy
/// applied; the counts from std's verdicts and kinds.
fn reference(data: &[u8], policy: Policy, framing: Framing, delimiter: u8, cut: bool) -> Decoded {
    let max = framing.max();
    let records: Vec<_> = if delimiter == b'\n' {
        vutf8::records::lines(data).collect()
    } else {
        vutf8::records::split(data, delimiter).unwrap().collect()
    };
    let (mut out, mut counts) = (Vec::new(), Counts::new());
    for (i, r) in records.iter().enumerate() {
        let (number, offset) = (i as u64 + 1, r.offset() as u64);
        let next = records.get(i + 1).map_or(data.len(), |n| n.offset());
        let mut bytes = r.bytes();
        let mut end = &data[r.offset() + bytes.len()..next];
        if bytes.len() > max && !cut {
            counts.add_too_long();
            out.push(Seen::TooLong(
                number,
                offset,
                bytes.len() as u64,
                bytes[..max].to_vec(),
            ));
            continue;
        }
        let is_cut = bytes.len() > max;
        if is_cut {
            counts.add_cut();
            bytes = &bytes[..floor_boundary(bytes, max)];
            end = b"";
        }
        let Some(kind) = common::std_error_kind(bytes) else {
            counts.add_valid();
            let text = std::str::from_utf8(bytes).unwrap().to_owned();
            out.push(Seen::Line(
                number,
                offset,
                bytes.to_vec(),
                end.to_vec(),
                true,
                is_cut,
                text,
                None,
            ));
            continue;
        };
        counts.add_invalid(kind);
        match policy.text(bytes) {
            Some(text) => {
                counts.add_repaired();
                out.push(Seen::Line(
                    number,
                    offset,
                    bytes.to_vec(),
                    end.to_vec(),
                    false,
                    is_cut,
                    text.into_owned(),
                    Some(bytes.to_vec()),
                ));
            }
            None if policy == Policy::Strict => {
                counts.add_refused();
                let e = std::str::from_utf8(bytes).unwrap_err();
                out.push(Seen::Invalid(
                    number,
                    offset,
                    bytes.to_vec(),
                    end.to_vec(),
                    e.valid_up_to(),
                    e.error_len(),
                ));
            }
            None => counts.add_dropped(),
        }
    }
    let dropped = counts.dropped() + counts.refused() + counts.too_long();
    (out, counts, counts.repaired(), dropped)
}

/// A framing by its delimiter, cap and cut.
fn framing(delimiter: u8, max: usize, cut: bool) -> Framing {
    let framing = match delimiter {
        b'\n' => Framing::lines(),
        d => Framing::split(d).unwrap(),
    };
    framing.max_record(max).cut_long_records(cut)
}

/// Checks `LogLines` on `data` fed in chunks of `sizes` against the reference.
fn check(data: &[u8], sizes: &[usize], policy: Policy, delimiter: u8, max: usize, cut: bool) {
    let framing = framing(delimiter, max, cut);
    let want = reference(data, policy, framing, delimiter, cut);
    let got = decode_in_chunks(data, sizes, LogLines::with_framing(policy, framing));
    let what =
        format!("{policy}, delimiter {delimiter:#04X}, max {max}, cut {cut}, sizes {sizes:?}");
    let first = got.0.iter().zip(&want.0).position(|(g, w)| g != w);
    assert_eq!(first.map(|i| (&got.0[i], &want.0[i])), None, "{what}");
    assert_eq!(
        (got.0.len(), got.1, got.2, got.3),
        (want.0.len(), want.1, want.2, want.3),
        "{what}"
    );
}

const PIECES: [&[u8]; 13] = [
    b"\n",
    b"\n",
    b"\r\n",
    b"\r",
    b"\0",
    b"log text ",
    "é".as_bytes(),
    "€".as_bytes(),
    "😀".as_bytes(),
    b"\xE2\x82",
    b"\xFF",
    b"\xE9",
    b"\xED\xA0\x80",
];

fn damaged_log(n: usize, step: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| PIECES[(i * step + i / 11) % PIECES.len()].iter().copied())
        .collect()
}

#[test]
fn every_policy_and_chunking_on_a_damaged_log() {
    let data = damaged_log(6000, 7);
    let all = reference(&data, Policy::Drop, Framing::lines(), b'\n', false).1;
    assert!(all.invalid() > 100, "the log has invalid lines: {all:?}");
    for &policy in Policy::ALL {
        for max in [0usize, 3, 8, 40, 1 << 20, usize::MAX] {
            for sizes in [&[1usize][..], &[3, 0, 17], &[64], &[4096, 1], &[1 << 20]] {
                check(&data, sizes, policy, b'\n', max, false);
            }
        }
    }
}

/// Records at other delimiters (NUL, `\r`, RS), and long records cut to the cap.
#[test]
fn any_delimiter_and_cut_records() {
    let data = damaged_log(6000, 5);
    for &policy in Policy::ALL {
        for delimiter in [b'\n', 0, b'\r', 0x1E] {
            for max in [0usize, 5, 40, usize::MAX] {
                for sizes in [&[1usize][..], &[3, 0, 17], &[1 << 20]] {
                    check(&data, sizes, policy, delimiter, max, true);
                    if delimiter != b'\n' {
                        check(&data, sizes, policy, delimiter, max, false);
                    }
                }
            }
        }
    }
}

/// The cap asked for is the cap used and reported; `usize::MAX` caps nothing, a line split
/// across reads included.
#[test]
fn every_cap_is_the_cap_used() {
    for max in [0, 1, 3, 4, 1 << 20, usize::MAX] {
        assert_eq!(
            LogLines::with_max_length(Policy::Escape, max).max_length(),
            max
        );
    }
    let mut codec = LogLines::with_max_length(Policy::Escape, usize::MAX);
    let mut buf = BytesMut::from(&b"hello "[..]);
    assert_eq!(codec.decode(&mut buf).unwrap(), None);
    buf.extend_from_slice(b"world\nnext\n");
    let mut texts = Vec::new();
    while let Some(Frame::Line(line)) = codec.decode(&mut buf).unwrap() {
        texts.push(line.text().to_owned());
    }
    assert_eq!(texts, ["hello world", "next"]);
    // A cap below 4 is kept as it is: a line of 3 bytes is over a cap of 2.
    let mut codec = LogLines::with_max_length(Policy::Escape, 2);
    let mut buf = BytesMut::from(&b"ok\nabc\n"[..]);
    let frames: Vec<Seen> = std::iter::from_fn(|| codec.decode(&mut buf).unwrap())
        .map(seen)
        .collect();
    assert_eq!(frames[1], Seen::TooLong(2, 3, 3, b"ab".to_vec()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn random_streams_and_chunkings(
        pieces in prop::collection::vec(0..PIECES.len(), 0..800),
        sizes in prop::collection::vec(1usize..200, 1..6),
        max in 0usize..80,
        policy in 0..Policy::ALL.len(),
        delimiter in prop::sample::select(vec![b'\n', 0, b'\r']),
        cut in any::<bool>(),
    ) {
        let data: Vec<u8> = pieces.iter().flat_map(|&p| PIECES[p].iter().copied()).collect();
        let policy = Policy::ALL[policy];
        let framing = framing(delimiter, max, cut);
        prop_assert_eq!(
            decode_in_chunks(&data, &sizes, LogLines::with_framing(policy, framing)),
            reference(&data, policy, framing, delimiter, cut)
        );
    }
}

/// Runs `data` through tokio's `FramedRead` with `LogLines` (from a file).
async fn framed_read(data: &[u8], codec: LogLines) -> (Vec<Seen>, Counts) {
    use futures_util::StreamExt;
    let dir = std::env::temp_dir().join(format!("vutf8-codec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{:x}.log", data.len()));
    std::fs::write(&path, data).unwrap();
    let file = tokio::fs::File::open(&path).await.unwrap();
    let mut frames = tokio_util::codec::FramedRead::new(file, codec);
    let mut got = Vec::new();
    while let Some(frame) = frames.next().await {
        got.push(seen(frame.unwrap()));
    }
    std::fs::remove_file(&path).unwrap();
    let _ = std::fs::remove_dir(&dir);
    (got, frames.decoder().counts())
}

/// End to end: a file of damaged logs through tokio's `FramedRead` (what the example does).
#[tokio::test(flavor = "current_thread")]
async fn a_file_of_damaged_logs_through_framed_read() {
    let data = damaged_log(20_000, 5);
    let got = framed_read(&data, LogLines::new(Policy::Escape)).await;
    let want = reference(&data, Policy::Escape, Framing::lines(), b'\n', false);
    assert_eq!(got, (want.0, want.1));
}

/// tokio_util's `LinesCodec` ends the stream at a line over its cap (`FramedRead` ends
/// after any error of its decoder); `LogLines` reports the line and goes on.
#[tokio::test(flavor = "current_thread")]
async fn lines_codec_ends_at_a_long_line_and_log_lines_goes_on() {
    use futures_util::StreamExt;
    let data = b"short\na line longer than the cap\nafter\n";
    let mut lines = tokio_util::codec::FramedRead::new(
        &data[..],
        tokio_util::codec::LinesCodec::new_with_max_length(8),
    );
    let mut seen_lines = Vec::new();
    while let Some(line) = lines.next().await {
        seen_lines.push(line.map_err(|e| e.to_string()));
    }
    assert_eq!(
        seen_lines,
        [
            Ok("short".to_owned()),
            Err("max line length exceeded".to_owned())
        ]
    );
    let (frames, counts) = framed_read(data, LogLines::with_max_length(Policy::Escape, 8)).await;
    assert_eq!(frames.len(), 3);
    assert_eq!(frames[1], Seen::TooLong(2, 6, 26, b"a line l".to_vec()));
    assert_eq!((counts.valid(), counts.too_long()), (2, 1));
}

/// The damaged real logs (`scripts/real-logs.sh`) through `FramedRead` under every policy,
/// against the reference. Ignored: the logs are downloaded, not committed.
#[tokio::test(flavor = "current_thread")]
#[ignore = "needs target/real-logs (scripts/real-logs.sh)"]
async fn the_damaged_real_logs_through_framed_read() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/real-logs/damaged.log"
    );
    let data =
        std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e} (run scripts/real-logs.sh)"));
    for &policy in Policy::ALL {
        for max in [200, usize::MAX] {
            let framing = Framing::lines().max_record(max);
            let got = framed_read(&data, LogLines::with_framing(policy, framing)).await;
            let want = reference(&data, policy, framing, b'\n', false);
            assert!(got == (want.0, want.1), "{policy}, max {max}");
            assert!(got.1.invalid() > 500, "{:?}", got.1);
        }
    }
}
