//! The records of `vutf8::records` against the reference. The first byte of the input
//! picks the cut: even, `lines` (at `\n`, without a `\r` before it); odd, `split` at the
//! byte `first >> 1` (ASCII, which may be `\n`, `\r` or NUL). The rest is the buffer. Each
//! record's offset and bytes must equal those of `std::io::BufRead::split` (with the `\r`
//! rule of `BufRead::lines` for `lines`), and its verdict and first error those of
//! `core::str::from_utf8` on the record alone. Records by offsets: the same records, cut
//! by their offsets, must have the same verdicts.
#![no_main]

use std::io::BufRead;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&how, buffer)) = data.split_first() else {
        return;
    };
    let (delimiter, crlf) = if how % 2 == 0 {
        (b'\n', true)
    } else {
        (how >> 1, false)
    };
    let got: Vec<vutf8::records::Record<'_>> = if crlf {
        vutf8::records::lines(buffer).collect()
    } else {
        vutf8::records::split(buffer, delimiter)
            .expect("an ASCII delimiter")
            .collect()
    };
    let mut offset = 0;
    let mut count = 0;
    let mut offsets = vec![];
    for (i, piece) in BufRead::split(buffer, delimiter).enumerate() {
        let mut piece = piece.expect("reading a slice");
        let next = offset + piece.len() + 1;
        if crlf && offset + piece.len() < buffer.len() && piece.last() == Some(&b'\r') {
            piece.pop();
        }
        let r = got.get(i).expect("as many records as the reference");
        assert_eq!((r.offset(), r.bytes()), (offset, &piece[..]), "record {i}");
        let want = std::str::from_utf8(&piece).map_err(|e| (e.valid_up_to(), e.error_len()));
        let ours = r.to_str().map_err(|e| (e.valid_up_to(), e.error_len()));
        assert_eq!(r.is_valid(), want.is_ok(), "record {i}: verdict");
        assert_eq!(ours, want, "record {i}: to_str");
        offsets.extend([offset, offset + piece.len()]);
        offset = next;
        count += 1;
    }
    assert_eq!(got.len(), count, "number of records");
    // The same ranges as records by offsets (every other one is the gap: the delimiter).
    let by_offsets: Vec<_> = vutf8::records::offsets(buffer, &offsets)
        .expect("offsets in order")
        .step_by(2)
        .collect();
    assert_eq!(by_offsets.len(), got.len());
    for (a, b) in by_offsets.iter().zip(&got) {
        assert_eq!(a, b, "by offsets");
    }
});
