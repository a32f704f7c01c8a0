//! Shared code of the fuzz targets: the oracle checks, and the two structured input formats
//! (`mutate_valid`'s edit script and `stream_chunks`' chunking header) with their encoders,
//! which `make_seeds` uses to write the seed corpus. See `docs/RELIABILITY.md`.

use std::borrow::Cow;
use std::sync::OnceLock;

use vutf8::{Backend, ErrorKind, Utf8Error, Validator};

/// Every backend this CPU runs (computed once).
pub fn backends() -> &'static [Backend] {
    static LIST: OnceLock<Vec<Backend>> = OnceLock::new();
    LIST.get_or_init(|| Backend::available().collect())
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// The number of bytes a lead byte announces, ignoring the RFC 3629 limits (the
/// `sequence_len` of an error); 1 for bytes that announce nothing.
fn announced(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// Checks the reason, code point and sequence length of the error `e` in `data` from the
/// definitions in `ErrorKind`'s documentation, independently of the decoder that made it.
/// (Position and length are checked against std by the caller.)
pub fn check_error_details(data: &[u8], e: &Utf8Error) {
    let rest = &data[e.valid_up_to()..];
    let b0 = rest[0];
    let n = announced(b0);
    let next_cont = rest.get(1).is_some_and(|&b| is_continuation(b));
    let kind = match e.error_len() {
        None => {
            // Ends inside a sequence that more bytes could complete.
            assert!(
                rest.len() < n,
                "Incomplete with {} bytes of {n}",
                rest.len()
            );
            ErrorKind::Incomplete
        }
        Some(len) => match b0 {
            0x80..=0xBF => ErrorKind::UnexpectedContinuation,
            0xC0 | 0xC1 if next_cont => ErrorKind::Overlong,
            0xF5..=0xF7 if next_cont => ErrorKind::TooLarge,
            0xC0 | 0xC1 | 0xF5..=0xFF => ErrorKind::InvalidByte,
            0xC2..=0xF4 if next_cont && len == 1 => match b0 {
                // A continuation byte outside the lead's range for the second byte.
                0xE0 | 0xF0 => ErrorKind::Overlong,
                0xED => ErrorKind::Surrogate,
                0xF4 => ErrorKind::TooLarge,
                _ => panic!("{b0:02X} followed by a continuation byte is not an error of length 1"),
            },
            0xC2..=0xF4 => {
                assert!(
                    rest.get(len).is_some_and(|&b| !is_continuation(b)),
                    "TooShort must end at a non-continuation byte"
                );
                ErrorKind::TooShort
            }
            _ => panic!("an ASCII byte {b0:02X} cannot start an error"),
        },
    };
    let code_point = match kind {
        ErrorKind::Overlong | ErrorKind::Surrogate | ErrorKind::TooLarge
            if rest.len() >= n && rest[1..n].iter().all(|&b| is_continuation(b)) =>
        {
            let lead = u32::from(b0) & (0x7F >> n);
            Some(
                rest[1..n]
                    .iter()
                    .fold(lead, |acc, &b| (acc << 6) | u32::from(b & 0x3F)),
            )
        }
        _ => None,
    };
    assert_eq!(
        (e.kind(), e.code_point(), e.sequence_len()),
        (kind, code_point, n),
        "details of {e:?} at {:02X?}",
        &rest[..rest.len().min(4)]
    );
    // Display must not panic and must name the position.
    assert!(e
        .to_string()
        .ends_with(&format!(" at byte {}", e.valid_up_to())));
}

/// The scalar reference's verdict on `data`, checked against `core::str::from_utf8`
/// (verdict, `valid_up_to`, `error_len`) and, for an error, against
/// [`check_error_details`].
pub fn reference(data: &[u8]) -> Result<(), Utf8Error> {
    let want = vutf8::scalar::validate(data);
    let std = core::str::from_utf8(data)
        .map(|_| ())
        .map_err(|e| (e.valid_up_to(), e.error_len()));
    assert_eq!(
        want.map_err(|e| (e.valid_up_to(), e.error_len())),
        std,
        "scalar reference vs std"
    );
    if let Err(e) = &want {
        check_error_details(data, e);
    }
    want
}

/// Feeds `data` to a [`Validator`] in chunks of the sizes `sizes` yields (0: an empty
/// chunk; at least one size must be positive), then finishes. Checks the invariants on the
/// way: offsets and pending bytes, sticky errors, and that an error is reported by the
/// update that feeds the byte deciding it (see [`decided_after`]). Returns the stream's
/// result.
pub fn stream(
    data: &[u8],
    sizes: &mut dyn Iterator<Item = usize>,
    want: Result<(), Utf8Error>,
) -> Result<(), Utf8Error> {
    let mut v = Validator::new();
    let mut fed = 0;
    let mut found: Option<Utf8Error> = None;
    let decided = want.err().and_then(|e| decided_after(data, &e));
    while fed < data.len() {
        let size = sizes
            .next()
            .expect("sizes run forever")
            .min(data.len() - fed);
        let chunk = &data[fed..fed + size];
        fed += size;
        match v.update(chunk) {
            Ok(()) => {
                assert!(found.is_none(), "an error must be sticky");
                assert_eq!(v.bytes_seen(), fed as u64);
                let pending = v.pending().len();
                assert!(pending <= 3);
                assert_eq!(v.valid_up_to() + pending as u64, fed as u64);
                assert_eq!(v.pending(), &data[fed - pending..fed]);
                if let Some(at) = decided {
                    assert!(fed < at, "error {want:?} not reported after {fed} bytes");
                }
                if let Err(e) = want {
                    assert!(v.valid_up_to() <= e.valid_up_to() as u64);
                }
            }
            Err(e) => {
                if let Some(first) = found {
                    assert_eq!(e, first, "an error must be sticky");
                }
                assert!(
                    e.valid_up_to() < fed,
                    "error reported before its bytes were fed"
                );
                assert_eq!(v.error(), Some(e));
                assert_eq!(v.valid_up_to(), e.valid_up_to() as u64);
                found = Some(e);
            }
        }
    }
    let end = v.check_end();
    let result = v.clone().finish();
    assert_eq!(result.err(), end);
    if let Some(first) = found {
        assert_eq!(
            result,
            Err(first),
            "finish must return the error update returned"
        );
    }
    result
}

/// The number of bytes of `data` after which error `e` (of the whole input) is certain in
/// every detail, so that a [`Validator`] must have reported it: the byte that breaks a
/// sequence for [`ErrorKind::TooShort`], the whole announced sequence for the kinds whose
/// code point depends on it, the byte itself for the others. `None` when `e` is only
/// certain at the end of the input.
pub fn decided_after(data: &[u8], e: &Utf8Error) -> Option<usize> {
    let at = e.valid_up_to()
        + match e.kind() {
            ErrorKind::Incomplete => return None,
            ErrorKind::TooShort => e.error_len()? + 1,
            ErrorKind::UnexpectedContinuation => 1,
            _ => e.sequence_len(),
        };
    (at <= data.len()).then_some(at)
}

/// The fixed chunkings every input is streamed with by [`check_all`].
const CHUNKINGS: &[&[usize]] = &[
    &[usize::MAX],
    &[5, 0, 7],
    &[16],
    &[31, 1, 0, 33],
    &[64],
    &[1, 63, 2, 127, 3],
];

/// More chunkings for inputs of up to [`SHORT`] bytes: on longer ones they would cost
/// most of the time of an execution (the `stream_chunks` target covers them there).
const SHORT_CHUNKINGS: &[&[usize]] = &[&[1], &[2], &[3]];
const SHORT: usize = 256;

/// Checks `data` with everything the library has, against the scalar reference, which is
/// itself checked against `core::str::from_utf8`: every available backend
/// (`validate`, `is_valid`), `from_utf8`, `from_utf8_mut`, `is_valid`, the [`Validator`]
/// over [`CHUNKINGS`] (and [`SHORT_CHUNKINGS`]), `par_from_utf8`, `par_is_valid`, `from_utf8_lossy` (against std's),
/// `validate_and_count` and `count_chars`, and `legacy::validate` (against its scalar
/// reference). Returns the reference's verdict.
pub fn check_all(data: &[u8]) -> Result<(), Utf8Error> {
    let want = reference(data);
    for &b in backends() {
        assert_eq!(b.validate(data), want, "backend {b}");
        assert_eq!(b.is_valid(data), want.is_ok(), "backend {b} is_valid");
    }
    assert_eq!(vutf8::from_utf8(data).map(|_| ()), want, "from_utf8");
    let mut copy = data.to_vec();
    assert_eq!(
        vutf8::from_utf8_mut(&mut copy).map(|_| ()),
        want,
        "from_utf8_mut"
    );
    assert_eq!(vutf8::is_valid(data), want.is_ok(), "is_valid");
    let short: &[&[usize]] = if data.len() <= SHORT {
        SHORT_CHUNKINGS
    } else {
        &[]
    };
    for sizes in CHUNKINGS.iter().chain(short) {
        let got = stream(data, &mut sizes.iter().copied().cycle(), want);
        assert_eq!(got, want, "Validator in chunks of {sizes:?}");
    }
    assert_eq!(
        vutf8::par_from_utf8(data).map(|_| ()),
        want,
        "par_from_utf8"
    );
    assert_eq!(vutf8::par_is_valid(data), want.is_ok(), "par_is_valid");
    let lossy = vutf8::from_utf8_lossy(data);
    assert_eq!(lossy, String::from_utf8_lossy(data), "from_utf8_lossy");
    assert_eq!(matches!(lossy, Cow::Borrowed(_)), want.is_ok());
    let count = vutf8::validate_and_count(data);
    match want {
        Ok(()) => {
            let text = core::str::from_utf8(data).expect("valid");
            let chars = text.chars().count();
            assert_eq!(count, Ok(chars), "validate_and_count");
            assert_eq!(vutf8::count_chars(text), chars, "count_chars");
        }
        Err(e) => assert_eq!(count, Err(e), "validate_and_count"),
    }
    let legacy = vutf8::legacy::validate(data);
    assert_eq!(
        legacy,
        vutf8::legacy::validate_scalar(data),
        "legacy::validate"
    );
    if want.is_ok() {
        assert_eq!(legacy, Ok(()), "strict UTF-8 is legacy UTF-8");
    }
    assert_eq!(vutf8::legacy::is_valid(data), legacy.is_ok());
    // NET-UTF has no second implementation to compare with: it must just not fail.
    let _ = vutf8::netutf::validate(data);
    want
}

/// A buffer just over `par_from_utf8`'s threshold: ASCII, so that everything but the
/// spliced input is quick to check.
const PAR_LEN: usize = vutf8::PAR_THRESHOLD + (64 << 10);
/// Where the spliced input goes: around 1 MiB, a piece boundary for every piece size
/// `par_from_utf8` can choose on a machine with up to 4 threads (256 KiB, 512 KiB, 1 MiB).
const PAR_CUT: usize = 1 << 20;

/// `data` (up to 4 KiB) written into a 2 MiB ASCII buffer, at its very start (where the
/// first piece begins) and across a piece boundary of `par_from_utf8` (starting up to 4
/// bytes before it, by its length), where `par_from_utf8` and `par_is_valid` must agree
/// with `from_utf8` on the whole buffer. Slow (a few hundred microseconds), so the targets
/// call it for a fraction of inputs.
pub fn check_parallel_splice(data: &[u8]) {
    use std::cell::RefCell;
    thread_local! {
        static BUF: RefCell<Vec<u8>> = RefCell::new(vec![b'x'; PAR_LEN]);
    }
    let data = &data[..data.len().min(4096)];
    let reference = reference(data);
    BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        for start in [0, PAR_CUT - data.len() % 5] {
            buf[start..start + data.len()].copy_from_slice(data);
            let want = vutf8::from_utf8(&buf).map(|_| ());
            if let Err(e) = reference {
                // An error in `data` is the buffer's first error (the ASCII after `data`
                // can only turn "ends inside a sequence" into "cut short").
                let w = want.expect_err("an invalid input spliced into ASCII is valid");
                assert_eq!(w.valid_up_to(), start + e.valid_up_to());
            }
            assert_eq!(
                vutf8::par_from_utf8(&buf).map(|_| ()),
                want,
                "par_from_utf8, spliced at {start}"
            );
            assert_eq!(
                vutf8::par_is_valid(&buf),
                want.is_ok(),
                "par_is_valid, spliced at {start}"
            );
            buf[start..start + data.len()].fill(b'x');
        }
    });
}

/// A cheap hash of the input, to pick the fraction of inputs that get the slow checks.
pub fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

pub mod mutate {
    //! `mutate_valid`'s input format: valid generated text, then a script of edits.
    //!
    //! ```text
    //! byte 0       script: vutf8_corpus::Script::ALL[byte % 6]
    //! bytes 1..3   length, u16 little-endian, modulo MAX_LEN + 1
    //! bytes 3..7   seed of the generator, u32 little-endian
    //! then         up to MAX_EDITS edits of 4 bytes: op, position (u16 LE), value
    //! ```
    //!
    //! Missing bytes read as zero. Positions are taken modulo the current text length (plus
    //! one for insertions), so every edit lands somewhere.

    use vutf8_corpus::Script;

    /// The longest generated text.
    pub const MAX_LEN: usize = 4096;
    /// The most edits applied.
    pub const MAX_EDITS: usize = 16;
    const HEADER: usize = 7;

    /// Byte sequences that the "insert / overwrite with a sequence" edits write: every
    /// class of error, the ends of the valid ranges, and lone leads.
    pub const SEQUENCES: &[&[u8]] = &[
        b"\x80",
        b"\xBF",
        b"\xC0",
        b"\xC1",
        b"\xC0\xAF",
        b"\xC1\xBF",
        b"\xC2",
        b"\xDF",
        b"\xC2\x80",
        b"\xE0",
        b"\xE0\x80",
        b"\xE0\x9F\xBF",
        b"\xE0\xA0",
        b"\xE0\xA0\x80",
        b"\xED\x9F\xBF",
        b"\xED\xA0\x80",
        b"\xED\xBF\xBF",
        b"\xEF\xBF\xBF",
        b"\xE2\x82",
        b"\xF0",
        b"\xF0\x8F\xBF\xBF",
        b"\xF0\x90\x80",
        b"\xF0\x90\x80\x80",
        b"\xF0\x9F\x98",
        b"\xF4\x8F\xBF\xBF",
        b"\xF4\x90\x80\x80",
        b"\xF5\x80\x80\x80",
        b"\xF7\xBF\xBF\xBF",
        b"\xF8\x88\x80\x80\x80",
        b"\xFE",
        b"\xFF",
        b"\x00",
    ];

    /// One edit of the text.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Edit {
        /// Flip bit `bit % 8` of the byte at `at`.
        FlipBit { at: u16, bit: u8 },
        /// Insert `byte` before position `at`.
        Insert { at: u16, byte: u8 },
        /// Delete the byte at `at`.
        Delete { at: u16 },
        /// Cut the text at `at`.
        Truncate { at: u16 },
        /// Replace the byte at `at` with `byte`.
        Overwrite { at: u16, byte: u8 },
        /// Insert `SEQUENCES[which % len]` before `at`.
        InsertSequence { at: u16, which: u8 },
        /// Write `SEQUENCES[which % len]` over the bytes from `at` (as far as they go).
        OverwriteSequence { at: u16, which: u8 },
        /// Drop the first `count % 64` bytes: moves everything to another alignment.
        DropFront { count: u8 },
    }

    impl Edit {
        fn encode(self) -> [u8; 4] {
            let (op, at, value) = match self {
                Edit::FlipBit { at, bit } => (0, at, bit),
                Edit::Insert { at, byte } => (1, at, byte),
                Edit::Delete { at } => (2, at, 0),
                Edit::Truncate { at } => (3, at, 0),
                Edit::Overwrite { at, byte } => (4, at, byte),
                Edit::InsertSequence { at, which } => (5, at, which),
                Edit::OverwriteSequence { at, which } => (6, at, which),
                Edit::DropFront { count } => (7, 0, count),
            };
            let [lo, hi] = at.to_le_bytes();
            [op, lo, hi, value]
        }

        fn decode(b: [u8; 4]) -> Edit {
            let at = u16::from_le_bytes([b[1], b[2]]);
            let value = b[3];
            match b[0] % 8 {
                0 => Edit::FlipBit { at, bit: value },
                1 => Edit::Insert { at, byte: value },
                2 => Edit::Delete { at },
                3 => Edit::Truncate { at },
                4 => Edit::Overwrite { at, byte: value },
                5 => Edit::InsertSequence { at, which: value },
                6 => Edit::OverwriteSequence { at, which: value },
                _ => Edit::DropFront { count: value },
            }
        }

        /// Applies the edit to `text`.
        pub fn apply(self, text: &mut Vec<u8>) {
            let len = text.len();
            let pos = |at: u16| usize::from(at) % len.max(1);
            let ins = |at: u16| usize::from(at) % (len + 1);
            match self {
                Edit::Insert { at, byte } => text.insert(ins(at), byte),
                Edit::InsertSequence { at, which } => {
                    let seq = SEQUENCES[usize::from(which) % SEQUENCES.len()];
                    let p = ins(at);
                    text.splice(p..p, seq.iter().copied());
                }
                Edit::DropFront { count } => {
                    text.drain(..(usize::from(count) % 64).min(len));
                }
                _ if len == 0 => {}
                Edit::FlipBit { at, bit } => text[pos(at)] ^= 1 << (bit % 8),
                Edit::Delete { at } => {
                    text.remove(pos(at));
                }
                Edit::Truncate { at } => text.truncate(pos(at)),
                Edit::Overwrite { at, byte } => text[pos(at)] = byte,
                Edit::OverwriteSequence { at, which } => {
                    let seq = SEQUENCES[usize::from(which) % SEQUENCES.len()];
                    let p = pos(at);
                    let n = seq.len().min(len - p);
                    text[p..p + n].copy_from_slice(&seq[..n]);
                }
            }
        }
    }

    /// The text an input describes: generated, then edited.
    pub fn build(data: &[u8]) -> Vec<u8> {
        let byte = |i: usize| data.get(i).copied().unwrap_or(0);
        let script = Script::ALL[usize::from(byte(0)) % Script::ALL.len()];
        let len = usize::from(u16::from_le_bytes([byte(1), byte(2)])) % (MAX_LEN + 1);
        let seed = u32::from_le_bytes([byte(3), byte(4), byte(5), byte(6)]);
        let mut text = vutf8_corpus::generate(script, len, u64::from(seed));
        let edits = data.get(HEADER..).unwrap_or(&[]);
        for e in edits.chunks_exact(4).take(MAX_EDITS) {
            Edit::decode([e[0], e[1], e[2], e[3]]).apply(&mut text);
        }
        text
    }

    /// The input that describes `script`'s text of `len` bytes from `seed`, then `edits`.
    pub fn encode(script: Script, len: u16, seed: u32, edits: &[Edit]) -> Vec<u8> {
        let index = Script::ALL.iter().position(|&s| s == script).unwrap_or(0) as u8;
        let mut out = vec![index];
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&seed.to_le_bytes());
        for e in edits {
            out.extend_from_slice(&e.encode());
        }
        out
    }
}

pub mod chunks {
    //! `stream_chunks`' input format: how to cut the stream, then the stream.
    //!
    //! ```text
    //! byte 0            n = byte % 16 + 1: the number of chunk sizes
    //! n bytes           chunk sizes: 0..=239 as they are (0: an empty chunk, which the
    //!                   reader turns into an `Interrupted` error), 240..=255 as
    //!                   64 * (byte - 239), up to 1 KiB
    //! 1 byte            m = byte % 8 + 1: the number of caller buffer sizes for `Reader`
    //! m bytes           buffer sizes 1..=256 (byte + 1)
    //! 1 byte            the BufReader capacity for `StrChunks`, 1..=256 (byte + 1)
    //! the rest          the stream
    //! ```
    //!
    //! The sizes are used in turn, cyclically. If every chunk size is 0, the stream is fed
    //! as one chunk after them.

    /// A parsed input.
    #[derive(Debug)]
    pub struct Plan<'a> {
        /// Chunk sizes (the `Validator`'s chunks and the inner reader's reads).
        pub sizes: Vec<usize>,
        /// Caller buffer sizes for `Reader::read`.
        pub buffers: Vec<usize>,
        /// The `BufReader` capacity for `StrChunks`.
        pub capacity: usize,
        /// The stream.
        pub stream: &'a [u8],
    }

    fn chunk_size(b: u8) -> usize {
        if b < 240 {
            usize::from(b)
        } else {
            64 * usize::from(b - 239)
        }
    }

    /// Parses an input; missing header bytes read as zero.
    pub fn parse(data: &[u8]) -> Plan<'_> {
        let mut pos = 0;
        let mut next = || {
            let b = data.get(pos).copied().unwrap_or(0);
            pos += 1;
            b
        };
        let n = usize::from(next() % 16) + 1;
        let mut sizes: Vec<usize> = (0..n).map(|_| chunk_size(next())).collect();
        if sizes.iter().all(|&s| s == 0) {
            sizes.push(usize::MAX);
        }
        let m = usize::from(next() % 8) + 1;
        let buffers = (0..m).map(|_| usize::from(next()) + 1).collect();
        let capacity = usize::from(next()) + 1;
        Plan {
            sizes,
            buffers,
            capacity,
            stream: data.get(pos..).unwrap_or(&[]),
        }
    }

    /// The input for the given header bytes (chunk sizes as raw header bytes, see the
    /// module documentation) and stream.
    pub fn encode(sizes: &[u8], buffers: &[u8], capacity: u8, stream: &[u8]) -> Vec<u8> {
        assert!((1..=16).contains(&sizes.len()) && (1..=8).contains(&buffers.len()));
        let mut out = vec![(sizes.len() - 1) as u8];
        out.extend_from_slice(sizes);
        out.push((buffers.len() - 1) as u8);
        out.extend_from_slice(buffers);
        out.push(capacity);
        out.extend_from_slice(stream);
        out
    }
}
