//! The records of `vutf8::records` against the reference. The first byte of the input
//! picks the cut: even, `lines` (at `\n`, without a `\r` before it); odd, `split` at the
//! byte `first >> 1` (ASCII, which may be `\n`, `\r` or NUL). The rest is the buffer. Each
//! record's offset and bytes must equal those of `std::io::BufRead::split` (with the `\r`
//! rule of `BufRead::lines` for `lines`), and its verdict and first error those of
//! `core::str::from_utf8` on the record alone. Records by offsets: the same records, cut
//! by their offsets, must have the same verdicts. And the same buffer read as a stream in
//! chunks (`records::Framing`) must give the same records.
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
    // The same buffer as a stream, read in chunks whose sizes come from the first byte
    // and the buffer's length: the records of the stream equal those of the whole.
    let framing = if crlf {
        vutf8::records::Framing::lines()
    } else {
        vutf8::records::Framing::split(delimiter).expect("an ASCII delimiter")
    };
    let sizes = [1 + usize::from(how % 7), 1 + buffer.len() % 61, 4096];
    let mut reader = framing.reader(Chunked {
        data: buffer,
        sizes,
        calls: 0,
    });
    let mut i = 0;
    while let Some(frame) = reader.next_frame().expect("reading a slice") {
        let vutf8::records::Frame::Record(r) = frame else {
            panic!("no record of a fuzz input is over the default cap");
        };
        let want = got.get(i).expect("no more records from the stream");
        assert_eq!(
            (r.offset(), r.bytes(), r.is_valid(), r.number()),
            (
                want.offset() as u64,
                want.bytes(),
                want.is_valid(),
                i as u64 + 1
            ),
            "stream record {i}"
        );
        i += 1;
    }
    assert_eq!(i, got.len(), "records of the stream");
});

/// A reader that hands out `data` in reads of the planned sizes, in turn.
struct Chunked<'a> {
    data: &'a [u8],
    sizes: [usize; 3],
    calls: usize,
}

impl std::io::Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.sizes[self.calls % 3]
            .min(buf.len())
            .min(self.data.len());
        self.calls += 1;
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}
