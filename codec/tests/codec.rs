//! `LogLines` against the reference: the frames of a stream fed in chunks of every size
//! equal those of `vutf8::records::lines` on the whole input under the same policy and cap
//! (numbers, offsets, bytes, verdicts, texts, errors); and end to end through tokio's
//! `FramedRead` over a file.

use bytes::BytesMut;
use proptest::prelude::*;
use tokio_util::codec::Decoder;
use vutf8_codec::{Frame, LogLines, Policy};

/// What a frame says, owned.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Line(u64, u64, Vec<u8>, bool, String, Option<Vec<u8>>),
    Invalid(u64, u64, Vec<u8>, usize, Option<usize>),
    TooLong(u64, u64, u64),
}

fn seen(frame: Frame) -> Seen {
    match frame {
        Frame::Line(l) => Seen::Line(
            l.number(),
            l.offset(),
            l.bytes().to_vec(),
            l.is_valid(),
            l.text().to_owned(),
            l.original().map(|b| b.to_vec()),
        ),
        Frame::Invalid(l, e) => Seen::Invalid(
            l.number(),
            l.offset(),
            l.bytes().to_vec(),
            e.valid_up_to(),
            e.error_len(),
        ),
        Frame::TooLong {
            number,
            offset,
            len,
        } => Seen::TooLong(number, offset, len),
    }
}

/// Feeds `data` in chunks of the planned sizes (cycled; 0 is skipped), decoding after each.
fn decode_in_chunks(data: &[u8], sizes: &[usize], mut codec: LogLines) -> (Vec<Seen>, u64, u64) {
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
    (out, codec.repaired(), codec.dropped())
}

/// The reference: the records of the whole input, numbered, the cap and the policy applied.
fn reference(data: &[u8], policy: Policy, max: usize) -> (Vec<Seen>, u64, u64) {
    let (mut out, mut repaired, mut dropped) = (Vec::new(), 0, 0);
    for (i, r) in vutf8::records::lines(data).enumerate() {
        let (number, offset, bytes) = (i as u64 + 1, r.offset() as u64, r.bytes());
        if bytes.len() > max {
            dropped += 1;
            out.push(Seen::TooLong(number, offset, bytes.len() as u64));
            continue;
        }
        match (std::str::from_utf8(bytes), policy.text(bytes)) {
            (Ok(s), _) => out.push(Seen::Line(
                number,
                offset,
                bytes.to_vec(),
                true,
                s.to_owned(),
                None,
            )),
            (Err(_), Some(text)) => {
                repaired += 1;
                out.push(Seen::Line(
                    number,
                    offset,
                    bytes.to_vec(),
                    false,
                    text.into_owned(),
                    Some(bytes.to_vec()),
                ));
            }
            (Err(e), None) if policy == Policy::Strict => {
                dropped += 1;
                out.push(Seen::Invalid(
                    number,
                    offset,
                    bytes.to_vec(),
                    e.valid_up_to(),
                    e.error_len(),
                ))
            }
            (Err(_), None) => dropped += 1,
        }
    }
    (out, repaired, dropped)
}

const PIECES: [&[u8]; 11] = [
    b"\n",
    b"\n",
    b"\r\n",
    b"\r",
    b"log text ",
    "é".as_bytes(),
    "€".as_bytes(),
    "😀".as_bytes(),
    b"\xE2\x82",
    b"\xFF",
    b"\xE9",
];

#[test]
fn every_policy_and_chunking_on_a_damaged_log() {
    let data: Vec<u8> = (0..6000usize)
        .flat_map(|i| PIECES[(i * 7 + i / 11) % PIECES.len()].iter().copied())
        .collect();
    for &policy in Policy::ALL {
        for max in [0usize, 3, 8, 40, 1 << 20, usize::MAX] {
            let want = reference(&data, policy, max);
            assert!(want.1 + want.2 > 10, "{policy}: the log has invalid lines");
            for sizes in [&[1usize][..], &[3, 0, 17], &[64], &[4096, 1], &[1 << 20]] {
                let got = decode_in_chunks(&data, sizes, LogLines::with_max_length(policy, max));
                let what = format!("{policy}, max {max}, sizes {sizes:?}");
                let first = got.0.iter().zip(&want.0).position(|(g, w)| g != w);
                assert_eq!(first.map(|i| (&got.0[i], &want.0[i])), None, "{what}");
                assert_eq!(
                    (got.0.len(), got.1, got.2),
                    (want.0.len(), want.1, want.2),
                    "{what}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn random_streams_and_chunkings(
        pieces in prop::collection::vec(0..PIECES.len(), 0..800),
        sizes in prop::collection::vec(1usize..200, 1..6),
        max in 0usize..80,
        policy in 0..Policy::ALL.len(),
    ) {
        let data: Vec<u8> = pieces.iter().flat_map(|&p| PIECES[p].iter().copied()).collect();
        let policy = Policy::ALL[policy];
        prop_assert_eq!(
            decode_in_chunks(&data, &sizes, LogLines::with_max_length(policy, max)),
            reference(&data, policy, max)
        );
    }
}

/// End to end: a file of damaged logs through tokio's `FramedRead` (what the example does).
#[tokio::test(flavor = "current_thread")]
async fn a_file_of_damaged_logs_through_framed_read() {
    use futures_util::StreamExt;
    let data: Vec<u8> = (0..20_000usize)
        .flat_map(|i| PIECES[(i * 5 + i / 7) % PIECES.len()].iter().copied())
        .collect();
    let dir = std::env::temp_dir().join(format!("vutf8-codec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("damaged.log");
    std::fs::write(&path, &data).unwrap();
    let file = tokio::fs::File::open(&path).await.unwrap();
    let mut frames = tokio_util::codec::FramedRead::new(file, LogLines::new(Policy::Escape));
    let mut got = Vec::new();
    while let Some(frame) = frames.next().await {
        got.push(seen(frame.unwrap()));
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(got, reference(&data, Policy::Escape, 1 << 20).0);
}
