//! `Reader` and `StrChunks` over readers that misbehave in every allowed way: one byte at
//! a time, short reads, `Interrupted` errors, EOF inside a character.
#![cfg(feature = "std")]

use std::io::{self, BufRead, BufReader, Read};

use vutf8::{Reader, StrChunks, Utf8Error};
use vutf8_corpus::{generate, with_error, Corruption, Rng, Script};

/// A reader over `data` that returns reads of the lengths `sizes` gives (cycled, at least
/// 1), and an `Interrupted` error instead of every `interrupt_every`-th read (0: never; 1
/// would never make progress).
struct Awkward {
    data: Vec<u8>,
    pos: usize,
    sizes: Vec<usize>,
    calls: usize,
    interrupt_every: usize,
}

impl Awkward {
    fn new(data: &[u8], sizes: &[usize], interrupt_every: usize) -> Self {
        Awkward {
            data: data.to_vec(),
            pos: 0,
            sizes: sizes.to_vec(),
            calls: 0,
            interrupt_every,
        }
    }
}

impl Read for Awkward {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.interrupt_every != 0 && self.calls.is_multiple_of(self.interrupt_every) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "signal"));
        }
        let want = self.sizes[self.calls % self.sizes.len()].max(1);
        let n = want.min(buf.len()).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The `Utf8Error` inside an `io::Error`, which must be of kind `InvalidData`.
fn utf8_error(e: &io::Error) -> Utf8Error {
    assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
    *e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Utf8Error>())
        .expect("the inner error is a vutf8::Utf8Error")
}

/// Reads everything through a `Reader` with caller buffers of the given sizes (cycled),
/// retrying `Interrupted`. Checks that every read returns whole characters, and returns
/// the bytes read and the final error.
fn read_all(inner: impl Read, bufs: &[usize]) -> (Vec<u8>, Option<Utf8Error>) {
    let mut r = Reader::new(inner);
    let mut out = Vec::new();
    let mut buf = vec![0u8; bufs.iter().copied().max().unwrap_or(1)];
    let mut i = 0;
    assert!(bufs.iter().any(|&b| b > 0));
    loop {
        let len = bufs[i % bufs.len()];
        i += 1;
        match r.read(&mut buf[..len]) {
            Ok(0) if len == 0 => continue,
            Ok(0) => return (out, None),
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                // Buffers of 4 bytes or more end on a character boundary (after a shorter
                // one that got part of a character, they get the rest of it first).
                if len >= 4 {
                    assert!(std::str::from_utf8(&out).is_ok(), "{:02X?}", &buf[..n]);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let err = utf8_error(&e);
                // Sticky: the next read fails the same way.
                let again = r.read(&mut buf[..len.max(1)]).unwrap_err();
                assert_eq!(utf8_error(&again), err);
                return (out, Some(err));
            }
        }
    }
}

/// What a reader must produce for `input`: its valid prefix, then the one-shot error.
fn expected(input: &[u8]) -> (Vec<u8>, Option<Utf8Error>) {
    match vutf8::from_utf8(input) {
        Ok(_) => (input.to_vec(), None),
        Err(e) => (input[..e.valid_up_to()].to_vec(), Some(e)),
    }
}

fn inputs() -> Vec<Vec<u8>> {
    let mut out = vec![
        Vec::new(),
        b"a".to_vec(),
        b"\xF0".to_vec(),
        b"\xC0".to_vec(),
    ];
    for (k, script) in Script::ALL.into_iter().enumerate() {
        let text = generate(script, 600 + 11 * k, k as u64 + 100);
        for c in Corruption::ALL {
            for at in [0, 5, 300] {
                out.push(with_error(&text, at, c).0);
            }
        }
        for cut in 1..=3 {
            out.push(text[..text.len() - cut].to_vec()); // EOF inside a character
        }
        out.push(text);
    }
    out
}

#[test]
fn one_byte_at_a_time() {
    for input in inputs() {
        for bufs in [&[1usize][..], &[4], &[1, 2, 3], &[4096]] {
            let got = read_all(Awkward::new(&input, &[1], 0), bufs);
            assert_eq!(got, expected(&input), "bufs {bufs:?}");
        }
    }
}

#[test]
fn short_reads_interrupts_and_small_buffers() {
    let mut rng = Rng::new(7);
    for input in inputs() {
        for round in 0..12 {
            let sizes: Vec<usize> = (0..17).map(|_| 1 + rng.below(70)).collect();
            let bufs: Vec<usize> = (0..13)
                .map(|_| rng.below(if round % 2 == 0 { 9 } else { 200 }))
                .collect();
            let inner = Awkward::new(&input, &sizes, [0, 2, 3, 5][round % 4]);
            let got = read_all(inner, &bufs);
            assert_eq!(got, expected(&input), "sizes {sizes:?} bufs {bufs:?}");
        }
    }
}

#[test]
fn read_to_end_hands_out_only_valid_bytes() {
    for input in inputs() {
        let mut out = Vec::new();
        let r = Reader::new(Awkward::new(&input, &[3, 1, 64, 7], 5)).read_to_end(&mut out);
        let (want_bytes, want_err) = expected(&input);
        assert_eq!(out, want_bytes);
        match (r, want_err) {
            (Ok(n), None) => assert_eq!(n, input.len()),
            (Err(e), Some(want)) => assert_eq!(utf8_error(&e), want),
            (r, want) => panic!("{r:?} but expected {want:?}"),
        }
    }
}

#[test]
fn eof_inside_a_character() {
    let mut r = Reader::new(Awkward::new(b"abc\xE2\x82", &[1], 0));
    let mut s = String::new();
    let e = r.read_to_string(&mut s).unwrap_err();
    let e = utf8_error(&e);
    assert_eq!((e.valid_up_to(), e.error_len()), (3, None));
    assert_eq!(e.kind(), vutf8::ErrorKind::Incomplete);
    assert_eq!(s, "abc");
    assert_eq!(r.validator().pending(), b"\xE2\x82");
}

#[test]
fn inner_errors_pass_through_and_lose_nothing() {
    struct FailOnce(bool, &'static [u8]);
    impl Read for FailOnce {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if !self.0 {
                self.0 = true;
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.1.len());
            buf[..n].copy_from_slice(&self.1[..n]);
            self.1 = &self.1[n..];
            Ok(n)
        }
    }
    let mut r = Reader::new(FailOnce(false, "ünï".as_bytes()));
    let mut buf = [0u8; 16];
    let e = r.read(&mut buf).unwrap_err();
    assert_eq!(e.to_string(), "disk on fire");
    let n = r.read(&mut buf).unwrap();
    assert_eq!(&buf[..n], "ünï".as_bytes());
    assert_eq!(r.read(&mut buf).unwrap(), 0);
    assert!(r.get_ref().0);
    assert_eq!(r.into_inner().1, b"");
}

#[test]
fn error_display_and_position_through_io_error() {
    let mut out = Vec::new();
    let e = Reader::new(&b"1234\xED\xA0\x80"[..])
        .read_to_end(&mut out)
        .unwrap_err();
    assert_eq!(e.to_string(), "surrogate U+D800 at byte 4");
    let inner = e.into_inner().unwrap().downcast::<Utf8Error>().unwrap();
    assert_eq!(inner.valid_up_to(), 4);
    assert_eq!(out, b"1234");
}

/// Collects the pieces of `StrChunks`; checks each one is non-empty.
fn all_pieces<R: BufRead>(mut chunks: StrChunks<R>) -> (String, Option<Utf8Error>, usize) {
    let mut text = String::new();
    let mut count = 0;
    loop {
        match chunks.next_str() {
            Ok(Some(piece)) => {
                assert!(!piece.is_empty());
                text.push_str(piece);
                count += 1;
            }
            Ok(None) => return (text, None, count),
            Err(e) => {
                let err = utf8_error(&e);
                assert_eq!(utf8_error(&chunks.next_str().unwrap_err()), err, "sticky");
                return (text, Some(err), count);
            }
        }
    }
}

#[test]
fn str_chunks_over_awkward_readers_and_buffer_sizes() {
    let mut rng = Rng::new(3);
    for input in inputs() {
        let (want_bytes, want_err) = expected(&input);
        for cap in [1, 2, 3, 4, 5, 7, 64, 4096] {
            let sizes: Vec<usize> = (0..11).map(|_| 1 + rng.below(9)).collect();
            let inner = Awkward::new(&input, &sizes, (cap % 3) + 2);
            let (text, err, _) = all_pieces(StrChunks::new(BufReader::with_capacity(cap, inner)));
            assert_eq!(text.as_bytes(), &want_bytes[..], "cap {cap}");
            assert_eq!(err, want_err, "cap {cap}");
        }
    }
}

#[test]
fn str_chunks_lends_large_pieces_without_splitting_characters() {
    let text = generate(Script::Cjk, 1 << 20, 5);
    let chunks = StrChunks::new(BufReader::with_capacity(65536, &text[..]));
    let (got, err, count) = all_pieces(chunks);
    assert_eq!(err, None);
    assert_eq!(got.as_bytes(), &text[..]);
    // About one piece per fill, plus one for each character cut by a fill.
    assert!(count <= 2 * (text.len() / 65536 + 1), "{count} pieces");
    let mut chunks = StrChunks::new(&b"\xC3"[..]);
    let e = utf8_error(&chunks.next_str().unwrap_err());
    assert_eq!((e.valid_up_to(), e.error_len()), (0, None));
    assert_eq!(chunks.validator().valid_up_to(), 0);
    assert!(chunks.get_ref().is_empty());
    let _ = chunks.into_inner();
}
