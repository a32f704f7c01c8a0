//! A stream cut where the fuzzer says (see `vutf8_fuzz::chunks`, empty chunks included),
//! fed to `Validator`, read through `Reader` from an inner reader that returns those short
//! reads (an empty chunk is an `Interrupted` error) into caller buffers of chosen sizes,
//! lent by `StrChunks` from a `BufReader` of chosen capacity, and repaired by `Repairer`.
//! The error, with its absolute offset, must equal one-shot `from_utf8`'s, and the bytes
//! handed out must be exactly the valid prefix; the repairs (streamed, and whole by
//! `from_utf8_lossy` and `to_wtf8_surrogateescape`) equal std's parts written out.
#![no_main]

use std::io::{self, BufRead, BufReader, Read};

use libfuzzer_sys::fuzz_target;
use vutf8::{Reader, Repairer, StrChunks, Utf8Error};

/// A reader that returns reads of the planned sizes, in turn; a size of 0 is an
/// `Interrupted` error.
struct Scripted<'a> {
    data: &'a [u8],
    sizes: &'a [usize],
    calls: usize,
}

impl Read for Scripted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.calls % self.sizes.len()];
        self.calls += 1;
        if size == 0 {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "empty chunk"));
        }
        let n = size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The `Utf8Error` inside an `InvalidData` `io::Error`.
fn utf8_error(e: &io::Error) -> Utf8Error {
    assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
    *e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Utf8Error>())
        .expect("the inner error is a vutf8::Utf8Error")
}

fuzz_target!(|data: &[u8]| {
    let plan = vutf8_fuzz::chunks::parse(data);
    let stream = plan.stream;
    let want = vutf8_fuzz::reference(stream);
    assert_eq!(vutf8::from_utf8(stream).map(|_| ()), want, "one-shot");
    let valid = want.err().map_or(stream.len(), |e| e.valid_up_to());

    // The Validator.
    let got = vutf8_fuzz::stream(stream, &mut plan.sizes.iter().copied().cycle(), want);
    assert_eq!(got, want, "Validator");

    // Reader over short reads and Interrupted errors, into buffers of the planned sizes.
    let mut reader = Reader::new(Scripted {
        data: stream,
        sizes: &plan.sizes,
        calls: 0,
    });
    let mut out = Vec::new();
    let mut buf = [0u8; 256];
    let mut error = None;
    for &size in plan.buffers.iter().cycle() {
        let at_boundary = out.len() == stream.len() || stream[out.len()] & 0xC0 != 0x80;
        match reader.read(&mut buf[..size]) {
            Ok(0) => break,
            Ok(n) => {
                let piece = &buf[..n];
                assert!(out.len() + n <= valid, "Reader handed out invalid bytes");
                assert_eq!(piece, &stream[out.len()..out.len() + n]);
                if at_boundary && size >= 4 {
                    assert!(
                        core::str::from_utf8(piece).is_ok(),
                        "Reader split a character"
                    );
                }
                out.extend_from_slice(piece);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let e = utf8_error(&e);
                let again = reader.read(&mut buf[..size]).unwrap_err();
                assert_eq!(utf8_error(&again), e, "Reader errors are sticky");
                error = Some(e);
                break;
            }
        }
    }
    assert_eq!(out.len(), valid, "Reader output");
    assert_eq!(error, want.err(), "Reader error");

    // StrChunks over a BufReader of the planned capacity.
    let inner = Scripted {
        data: stream,
        sizes: &plan.sizes,
        calls: 0,
    };
    let mut chunks = StrChunks::new(BufReader::with_capacity(plan.capacity, inner));
    let mut text = String::new();
    let error = loop {
        match chunks.next_str() {
            Ok(Some(piece)) => {
                assert!(!piece.is_empty());
                text.push_str(piece);
            }
            Ok(None) => break None,
            Err(e) => {
                let e = utf8_error(&e);
                assert_eq!(utf8_error(&chunks.next_str().unwrap_err()), e, "sticky");
                break Some(e);
            }
        }
    };
    assert_eq!(text.as_bytes(), &stream[..valid], "StrChunks output");
    assert_eq!(error, want.err(), "StrChunks error");
    let _ = chunks.into_inner().fill_buf();

    // Repairer over the same chunks.
    let mut repairer = Repairer::new();
    let mut repaired = String::new();
    let mut rest = stream;
    for &size in plan.sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (chunk, after) = rest.split_at(size.min(rest.len()));
        repairer.push(chunk, &mut repaired);
        rest = after;
    }
    repairer.finish(&mut repaired);
    assert_eq!(repaired, String::from_utf8_lossy(stream), "Repairer");

    // The whole-input writers of damaged text: lossy, and the surrogates of
    // `surrogateescape` (std's parts, each invalid byte as U+DC00 + byte in WTF-8).
    assert_eq!(
        vutf8::from_utf8_lossy(stream),
        String::from_utf8_lossy(stream),
        "from_utf8_lossy"
    );
    let mut wtf8 = Vec::new();
    for chunk in stream.utf8_chunks() {
        wtf8.extend_from_slice(chunk.valid().as_bytes());
        for &b in chunk.invalid() {
            let c = 0xDC00 | u32::from(b);
            wtf8.extend([
                0xE0 | (c >> 12) as u8,
                0x80 | (c >> 6 & 0x3F) as u8,
                0x80 | (c & 0x3F) as u8,
            ]);
        }
    }
    assert_eq!(
        &vutf8::to_wtf8_surrogateescape(stream)[..],
        &wtf8[..],
        "surrogateescape"
    );
});
