//! `vutf8.decode(data, errors="strict")`: exactly `bytes(data).decode('utf-8', errors)`,
//! the `str` made in its final PEP 393 form straight from the bytes (`pystr.rs`).
//!
//! Valid input (any handler): pure ASCII is one scan and one copy. Other text takes one
//! pass over the bytes in pieces that stay in the L1 cache, each validated by vutf8 and,
//! while it is there, measured (its largest byte gives the string's kind, its
//! non-continuation bytes the number of characters); then the string of that kind and
//! length is made and its buffer filled: into UCS-2 (and, without simdutf's AVX-512 kernel,
//! UCS-4) by the AVX2 conversions of `wide.rs`, else by simdutf (UTF-8 to Latin-1, UTF-16,
//! UTF-32), or, for mostly-ASCII text that needs no UCS-2 there, by this file's own loop
//! ([`decode_text`]), which is faster there (docs/PYTHON.md has the measurements).
//!
//! Invalid input: `strict` raises `vutf8.Utf8Error`, the `UnicodeDecodeError` that
//! `bytes.decode` raises (`errors.rs`). The other handlers of CPython that the package
//! implements itself ([`Handler`]) take one pass of [`decode_text`], which decodes each
//! sequence and replaces each ill-formed part (the maximal subpart, which CPython's decoder
//! reports as one error) as the handler says, straight into the string. Any other handler
//! name is CPython's own decoder (`PyUnicode_DecodeUTF8`), which looks the handler up
//! (`codecs.lookup_error`) and calls it, as `bytes.decode` does.
//!
//! A `bytes` is read in place; any other buffer is first copied (one `memcpy`, without the
//! GIL from `DETACH_MIN` on): the transcoder trusts the validation before it, and a buffer
//! that another thread or process can write (a `bytearray`, an `mmap`) could change
//! between the two, making the text longer than the string made for it.
//!
//! `vutf8.decode` is a C function of CPython's fastest calling convention ([`DECODE`]),
//! not a PyO3 function, for the speed of short calls.
//!
//! Next: `pystr.rs` for how strings are made; `wide.rs` for the AVX2 conversions;
//! `errors.rs` for the exception.

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::buffer::{run, Input};
use crate::errors::Span;
use crate::pystr::{Kind, NewStr, Out};

/// Pieces of this many bytes are validated and measured while they are in the L1 cache.
const PIECE: usize = 16 * 1024;

/// Runs shorter than this are measured a byte at a time (a call of the vector code costs
/// more than it saves on a few bytes).
const SCALAR_BELOW: usize = 32;

/// The handlers of `bytes.decode` that vutf8 implements itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handler {
    /// Raise `UnicodeDecodeError` at the first error.
    Strict,
    /// Each ill-formed part becomes U+FFFD.
    Replace,
    /// Each byte of each ill-formed part becomes `\xNN`.
    BackslashReplace,
    /// Each byte `b` of each ill-formed part becomes the lone surrogate U+DC00 + `b`.
    SurrogateEscape,
    /// Ill-formed parts are left out.
    Ignore,
}

/// The names of [`Handler`]'s handlers (`vutf8.ERROR_HANDLERS`).
pub const HANDLER_NAMES: [&str; 5] = [
    "strict",
    "replace",
    "backslashreplace",
    "surrogateescape",
    "ignore",
];

impl Handler {
    /// The handler CPython calls `name`, if it is one of these.
    pub fn named(name: &str) -> Option<Handler> {
        Some(match name {
            "strict" => Handler::Strict,
            "replace" => Handler::Replace,
            "backslashreplace" => Handler::BackslashReplace,
            "surrogateescape" => Handler::SurrogateEscape,
            "ignore" => Handler::Ignore,
            _ => return None,
        })
    }

    /// The kind of the text the handler writes for an error.
    fn kind(self) -> Kind {
        match self {
            Handler::Replace | Handler::SurrogateEscape => Kind::Ucs2,
            _ => Kind::Ascii,
        }
    }
}

/// The text of `data` (any object with the buffer protocol) decoded as UTF-8: the same
/// `str` as `bytes(data).decode('utf-8', errors)`, or the same `UnicodeDecodeError` (a
/// `vutf8.Utf8Error`, with vutf8's `kind` and `code_point` added). `errors` is the name of
/// a handler: "strict", "replace", "backslashreplace", "surrogateescape" and "ignore" run
/// in vutf8; any other is looked up and called by CPython, as `bytes.decode` does.
/// `short_tried`: the caller found that [`short_str`] does not take these bytes.
pub fn decode<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    errors: &str,
    short_tried: bool,
) -> PyResult<Bound<'py, PyString>> {
    let input = Input::new(data)?;
    let copy;
    let bytes = match &input {
        Input::Bytes(bytes) => *bytes,
        Input::Buffer(_) => {
            copy = run(py, input.bytes(), <[u8]>::to_vec)?;
            copy.as_slice()
        }
    };
    if bytes.is_empty() {
        return Ok(PyString::new(py, ""));
    }
    // ASCII: one scan, then a copy, as CPython does.
    if run(py, bytes, <[u8]>::is_ascii)? {
        return make(py, bytes, Kind::Ascii, bytes.len(), |out, b| {
            // SAFETY: `out` holds `b.len()` characters of one byte.
            unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), out.ptr, b.len()) };
            b.len()
        });
    }
    if !short_tried && bytes.len() < SHORT_DECODE_BELOW {
        if let Some(text) = short_str(py, bytes)? {
            return Ok(text);
        }
    }
    // The first `PROBE` bytes' shape chooses the way for text that is not ASCII.
    let look = bytes.len().min(PROBE);
    let head = Shape::of_any(&bytes[..look]);
    let sparse = head.is_sparse(look);
    if sparse && bytes.len() >= SPARSE_MIN && loop_takes_sparse(head.kind()) {
        if let Some(text) = optimistic(py, bytes, head)? {
            return Ok(text);
        }
    }
    if let Some(shape) = run(py, bytes, shape_of_valid)? {
        return str_of_shape(py, bytes, shape);
    }
    match Handler::named(errors) {
        Some(Handler::Strict) => Err(strict_error(&input, data, bytes)),
        // Text that is mostly ASCII (Latin-1 text) is decoded by vutf8's loop, which
        // writes each part as it goes; other text (random bytes, binary junk, CJK text with
        // an error) as UTF-8 first, each part written as the handler says, then transcoded
        // (docs/PYTHON.md, `decode`).
        Some(handler) if sparse => damaged(py, bytes, handler),
        Some(handler) => by_utf8(py, bytes, handler),
        None => cpython_decode(py, bytes, errors),
    }
}

/// Below this many bytes, text that is not ASCII is first tried in one pass on the stack:
/// [`latin1_short`], then [`short_ucs2`] (`vutf8._vutf8._SHORT_DECODE_BELOW`, for the tests).
const SHORT_DECODE_BELOW: usize = 256;

/// Short `bytes` (under [`SHORT_DECODE_BELOW`]) that are not ASCII, decoded in one pass on the
/// stack: Latin-1 text by [`latin1_short`], then UCS-2 text by [`short_ucs2`]; `None` for
/// the rest (an error, a character above U+FFFF), which the measuring paths take.
fn short_str<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Option<Bound<'py, PyString>>> {
    let mut staged = [0u8; SHORT_DECODE_BELOW];
    let Some(chars) = latin1_short(bytes, &mut staged) else {
        return short_ucs2(py, bytes);
    };
    let staged = &staged[..chars];
    if let Some(made) = crate::pystr::latin1(staged) {
        // SAFETY: a new reference to a `str`, or null with an exception set.
        let text = unsafe { Bound::from_owned_ptr_or_err(py, made)?.cast_into_unchecked() };
        return Ok(Some(text));
    }
    let new = NewStr::new(py, Kind::Latin1, chars)?;
    // SAFETY: `new` has room for `chars` characters of one byte, the bytes of `staged`.
    unsafe { std::ptr::copy_nonoverlapping(staged.as_ptr(), new.out().ptr, chars) };
    new.finish().map(Some)
}

/// Short `bytes` (under [`SHORT_DECODE_BELOW`]) that are not ASCII, decoded in one pass into
/// `out` where every character is below U+0100: ASCII (8 bytes at a time where it runs on)
/// and two-byte sequences of `C2` or `C3` and a continuation byte, which is all such text can
/// hold when it is valid UTF-8. The number of characters written, or `None` at the first
/// other byte (a wider character, or an error), where the measuring paths take over. Short
/// text of Latin scripts (a few accented letters, no-break spaces) then costs one pass, not
/// the validation, the measure and the transcoder's call (docs/PYTHON.md, `decode`).
fn latin1_short(bytes: &[u8], out: &mut [u8; SHORT_DECODE_BELOW]) -> Option<usize> {
    let n = bytes.len();
    debug_assert!(n < SHORT_DECODE_BELOW);
    let (mut i, mut o) = (0, 0);
    while i < n {
        if let Some(word) = bytes.get(i..i + 8) {
            if u64::from_le_bytes(word.try_into().ok()?) & 0x8080_8080_8080_8080 == 0 {
                out[o..o + 8].copy_from_slice(word);
                i += 8;
                o += 8;
                continue;
            }
        }
        let b = bytes[i];
        if b < 0x80 {
            out[o] = b;
            i += 1;
        } else if matches!(b, 0xC2 | 0xC3) && bytes.get(i + 1).is_some_and(|&c| is_continuation(c))
        {
            // U+0080..U+00FF: the lead's low 2 bits, then the continuation's 6.
            out[o] = (b << 6) | (bytes[i + 1] & 0x3F);
            i += 2;
        } else {
            return None;
        }
        o += 1;
    }
    Some(o)
}

/// Short `bytes` (under [`SHORT_DECODE_BELOW`]) that [`latin1_short`] does not take,
/// decoded to UTF-16 on the stack in one pass that validates (where the measuring paths
/// validate, measure and convert): mostly ASCII (fewer continuation bytes than 1 in
/// [`SPARSE`]) by vutf8's loop, else by simdutf's validating conversion (whose AVX2 kernel
/// is slow on short mostly-ASCII text: docs/PYTHON.md, "Short text"). The UCS-2 string, or
/// `None` where the text is invalid or not of UCS-2 (the measuring paths take over).
fn short_ucs2<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Option<Bound<'py, PyString>>> {
    debug_assert!(!bytes.is_empty() && bytes.len() < SHORT_DECODE_BELOW);
    // Only text with a character from U+0100 to U+FFFF: a lead byte from `C4` to `EF`
    // (Latin-1 text is [`latin1_short`]'s; a lead of `F0` or more is a character above
    // U+FFFF, a surrogate pair in UTF-16, or an error).
    let shape = Shape::of_any(bytes);
    if !(0xC4..0xF0).contains(&shape.max_byte) {
        return Ok(None);
    }
    let mut units = [0u16; SHORT_DECODE_BELOW + BLOCK];
    let n = if shape.is_sparse(bytes.len()) {
        // Mostly ASCII: vutf8's loop, which validates as it decodes.
        let mut at = Cursor::default();
        let out = Out {
            ptr: units.as_mut_ptr().cast(),
            kind: Kind::Ucs2,
            len: units.len(),
        };
        // SAFETY: `units` has room for a character per byte and `BLOCK` more.
        match unsafe { decode_damaged(out, bytes, Handler::Strict, &mut at) } {
            None => at.o,
            Some(_) => 0,
        }
    } else {
        // SAFETY: `bytes` is valid for its length, and `units` has room for as many UTF-16
        // units as it has bytes, the most the conversion writes.
        unsafe { simdutf::convert_utf8_to_utf16(bytes.as_ptr(), bytes.len(), units.as_mut_ptr()) }
    };
    let units = &units[..n.min(SHORT_DECODE_BELOW)];
    if units.is_empty() {
        return Ok(None);
    }
    let new = NewStr::new(py, Kind::Ucs2, units.len())?;
    // SAFETY: `new` has room for `units.len()` characters of two bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(units.as_ptr(), new.out().ptr.cast::<u16>(), units.len())
    };
    new.finish().map(Some)
}

/// Damaged text that is not mostly ASCII, under `handler` (not `Strict`): written as UTF-8
/// first by vutf8's writers of damaged text (each ill-formed part as the handler says; for
/// `surrogateescape` in WTF-8, each byte as the three bytes of U+DC00 + the byte, which
/// simdutf's transcoder of valid text decodes by their bits as any character of three
/// bytes), then transcoded as valid text is.
fn by_utf8<'py>(py: Python<'py>, bytes: &[u8], handler: Handler) -> PyResult<Bound<'py, PyString>> {
    let (text, shape) = run(py, bytes, |b| {
        let text = written(b, handler);
        let shape = Shape::of_any(&text);
        (text, shape)
    })?;
    make(py, &text, shape.kind(), shape.chars, |out, b| {
        // SAFETY: `b` is UTF-8 (lone surrogates allowed) of `shape.chars` characters whose
        // widest is of `shape.kind()`, the kind and length of `out`.
        unsafe { fill_valid(out, b) }
    })
}

/// `bytes` with each ill-formed part written as `handler` says, as UTF-8 (WTF-8 for
/// `surrogateescape`: [`by_utf8`]).
fn written(bytes: &[u8], handler: Handler) -> Vec<u8> {
    match handler {
        Handler::Replace => vutf8::from_utf8_lossy(bytes).into_owned().into_bytes(),
        Handler::SurrogateEscape => vutf8::to_wtf8_surrogateescape(bytes).into_owned(),
        Handler::BackslashReplace => {
            let mut text = String::with_capacity(bytes.len());
            vutf8::records::Policy::Escape.append_text(bytes, &mut text);
            text.into_bytes()
        }
        Handler::Ignore | Handler::Strict => without_parts(bytes),
    }
}

/// `bytes` without their ill-formed parts (`ignore`).
fn without_parts(bytes: &[u8]) -> Vec<u8> {
    // Room for the valid bytes, and 16 more for the copies of short runs.
    let mut out = Vec::<u8>::with_capacity(bytes.len() + BLOCK);
    let src = bytes.as_ptr();
    let dst = out.as_mut_ptr();
    let mut o = 0;
    let mut from = 0;
    vutf8::errors(bytes).for_each(|error| {
        let at = error.valid_up_to();
        if at - from <= BLOCK && from + BLOCK <= bytes.len() {
            // A short run (random bytes' are) by one copy of 16 bytes: those past the run
            // are written over next, or left past the end.
            // SAFETY: 16 bytes from `from` are in `bytes`; `o <= from`, so `o + 16` is
            // within the room.
            unsafe { std::ptr::copy_nonoverlapping(src.add(from), dst.add(o), BLOCK) };
        } else {
            // SAFETY: the run is in `bytes`; `o + at - from <= at` is within the room.
            unsafe { std::ptr::copy_nonoverlapping(src.add(from), dst.add(o), at - from) };
        }
        o += at - from;
        from = error.error_len().map_or(bytes.len(), |n| at + n);
    });
    // SAFETY: the last run is in `bytes`; `o + bytes.len() - from <= bytes.len()`.
    unsafe { std::ptr::copy_nonoverlapping(src.add(from), dst.add(o), bytes.len() - from) };
    // SAFETY: the first `o + bytes.len() - from` bytes are written.
    unsafe { out.set_len(o + bytes.len() - from) };
    out
}

/// The `str` of `bytes`, valid UTF-8 of `shape`: by the sparse transcoder where a wide
/// string has few bytes that are not characters of their own ([`SPARSE`]), else in one pass.
fn str_of_shape<'py>(
    py: Python<'py>,
    bytes: &[u8],
    shape: Shape,
) -> PyResult<Bound<'py, PyString>> {
    if shape.kind() >= Kind::Ucs2 && loop_takes_sparse(shape.kind()) && shape.is_sparse(bytes.len())
    {
        if bytes.len() >= SPARSE_MIN {
            return sparse(py, bytes, shape);
        }
        return sparse_short(py, bytes, shape);
    }
    make(py, bytes, shape.kind(), shape.chars, |out, b| {
        // SAFETY: `b` is valid UTF-8 of `shape.chars` characters whose widest is of
        // `shape.kind()`, the kind and length of `out`.
        unsafe { fill_valid(out, b) }
    })
}

/// The `Utf8Error` of invalid input, as `validate` raises it.
fn strict_error(input: &Input<'_>, data: &Bound<'_, PyAny>, bytes: &[u8]) -> PyErr {
    match vutf8::from_utf8(bytes) {
        Err(error) => Span::in_data(error, bytes).to_pyerr(input.to_py_bytes(data)),
        // Only reached if the bytes were valid after all: a bug.
        Ok(_) => PyValueError::new_err(format!(
            "vutf8: internal error: {} bytes found invalid, then valid",
            bytes.len()
        )),
    }
}

/// CPython's UTF-8 decoder with the handler `errors` (`bytes.decode` itself).
fn cpython_decode<'py>(
    py: Python<'py>,
    bytes: &[u8],
    errors: &str,
) -> PyResult<Bound<'py, PyString>> {
    let errors = std::ffi::CString::new(errors)
        .map_err(|_| PyValueError::new_err("embedded null character"))?;
    let len = ffi::Py_ssize_t::try_from(bytes.len())
        .map_err(|_| PyValueError::new_err("vutf8: input too long"))?;
    // SAFETY: `bytes` is valid for `len` bytes and `errors` is a C string; the call returns
    // a new reference or null with an exception set.
    let made = unsafe { ffi::PyUnicode_DecodeUTF8(bytes.as_ptr().cast(), len, errors.as_ptr()) };
    // SAFETY: as above.
    Ok(unsafe { Bound::from_owned_ptr_or_err(py, made) }?.cast_into::<PyString>()?)
}

/// Valid text whose continuation bytes are fewer than 1 in `SPARSE` (mostly ASCII: German,
/// French, English, logs) is decoded by vutf8's own loop ([`decode_text`]: 16 ASCII bytes at
/// a time), which is faster there than simdutf, whose UTF-16 transcoder in particular is
/// slow on such text; denser text by simdutf (docs/PYTHON.md has the measurements behind the
/// choice). The look at the first 4 KiB ([`optimistic`]) decides; text it sends to simdutf
/// that turns out sparse and UCS-2 overall goes to the loop after all ([`sparse`]).
const SPARSE: usize = 16;

/// Whether valid sparse text whose widest character is of `kind` is decoded by vutf8's
/// loop: not UCS-2 text where the AVX2 conversion into UCS-2 runs (`wide.rs`), which is
/// faster than the loop at any density (docs/PYTHON.md, "The transcoder").
fn loop_takes_sparse(kind: Kind) -> bool {
    kind != Kind::Ucs2 || !crate::wide::active()
}

/// Shorter sparse inputs are decoded on the stack ([`sparse_short`]): [`sparse`] makes
/// its string 16 characters longer and gives them back (`PyUnicode_Resize`), which costs
/// more than the loop saves on a few hundred bytes.
const SPARSE_MIN: usize = 1024;

/// Valid `bytes` of `shape` decoded by [`decode_text`] into a string of the shape's kind.
fn sparse<'py>(py: Python<'py>, bytes: &[u8], shape: Shape) -> PyResult<Bound<'py, PyString>> {
    // The loop stores 16 characters at a time: room for them past the end, given back.
    let new = NewStr::new(py, shape.kind(), shape.chars + BLOCK)?;
    let out = new.out();
    let mut at = Cursor::default();
    let cursor = &mut at;
    let wider = run(py, bytes, move |b| {
        let out: Out = out;
        // SAFETY: `b` is valid UTF-8 of `shape.chars` characters of the kind of `out`, which
        // has room for them and 16 more.
        unsafe { decode_damaged(out, b, Handler::Strict, cursor) }
    })?;
    assert!(
        wider.is_none() && at.o == shape.chars,
        "vutf8: the text is not the shape measured"
    );
    new.finish_len(shape.chars)
}

/// [`sparse`] for text shorter than [`SPARSE_MIN`]: decoded into a buffer on the stack,
/// then copied into a string of the exact length (no slack to give back).
fn sparse_short<'py>(
    py: Python<'py>,
    bytes: &[u8],
    shape: Shape,
) -> PyResult<Bound<'py, PyString>> {
    debug_assert!(bytes.len() < SPARSE_MIN);
    let mut buffer = [std::mem::MaybeUninit::<u32>::uninit(); SPARSE_MIN + BLOCK];
    let kind = shape.kind();
    let staged = Out {
        ptr: buffer.as_mut_ptr().cast::<u8>(),
        kind,
        len: shape.chars + BLOCK,
    };
    let mut at = Cursor::default();
    // SAFETY: `bytes` is valid UTF-8 of `shape.chars` characters (fewer than its length,
    // under `SPARSE_MIN`) of `kind`; the buffer has room for them and 16 more, of any width.
    let wider = unsafe { decode_damaged(staged, bytes, Handler::Strict, &mut at) };
    assert!(
        wider.is_none() && at.o == shape.chars,
        "vutf8: the text is not the shape measured"
    );
    let new = NewStr::new(py, kind, shape.chars)?;
    // SAFETY: the first `shape.chars` characters of `staged` are written, and `new` has room
    // for as many of the same width.
    unsafe {
        std::ptr::copy_nonoverlapping(staged.ptr, new.out().ptr, shape.chars * kind.width());
    }
    new.finish()
}

/// Makes a string of `chars` characters of `kind` and has `fill` write them from `bytes`
/// (without the GIL for long inputs).
fn make<'py, F>(
    py: Python<'py>,
    bytes: &[u8],
    kind: Kind,
    chars: usize,
    fill: F,
) -> PyResult<Bound<'py, PyString>>
where
    F: FnOnce(Out, &[u8]) -> usize + Send,
{
    let new = NewStr::new(py, kind, chars)?;
    let out = new.out();
    let written = run(py, bytes, move |b| fill(out, b))?;
    // Every character written, none past the end: checked before the string is used.
    assert_eq!(written, chars, "vutf8: the text is not the length measured");
    new.finish()
}

/// What valid text looks like: its number of characters and its largest byte.
#[derive(Clone, Copy, Debug, Default)]
struct Shape {
    chars: usize,
    max_byte: u8,
}

impl Shape {
    /// The kind of the text.
    fn kind(self) -> Kind {
        Kind::of_max_byte(self.max_byte)
    }

    /// The shape of UTF-8 `bytes` (lone surrogates allowed), not validated: in one pass,
    /// each 64 bytes' continuation bytes and largest byte at once, counted in bytes, which
    /// the compiler vectorizes well (a count straight into a `usize` widens every byte to
    /// 64 bits).
    fn of_any(bytes: &[u8]) -> Shape {
        let (continuation, max_byte) = bytes.chunks(64).fold((0, 0), |(count, max), chunk| {
            let (c, m) = chunk.iter().fold((0u8, 0u8), |(c, m), &b| {
                (c + u8::from(is_continuation(b)), m.max(b))
            });
            (count + usize::from(c), max.max(m))
        });
        Shape {
            chars: bytes.len() - continuation,
            max_byte,
        }
    }

    /// Whether the `len` bytes of this shape ([`Shape::of_any`]'s) have fewer continuation
    /// bytes than 1 in [`SPARSE`]: mostly ASCII, text vutf8's loop decodes faster than
    /// simdutf.
    fn is_sparse(self, len: usize) -> bool {
        (len - self.chars) * SPARSE < len
    }

    /// Adds valid UTF-8 `run` to the shape.
    #[inline]
    fn add(&mut self, run: &[u8]) {
        if run.len() < SCALAR_BELOW {
            for &b in run {
                self.max_byte = self.max_byte.max(b);
                self.chars += usize::from(!is_continuation(b));
            }
            return;
        }
        let max = largest(run);
        self.max_byte = self.max_byte.max(max);
        self.chars += if max < 0x80 {
            run.len()
        } else {
            // SAFETY: the callers add valid UTF-8 only.
            vutf8::count_chars(unsafe { std::str::from_utf8_unchecked(run) })
        };
    }
}

/// The shape of `bytes` if it is valid UTF-8, in one pass of pieces of [`PIECE`] bytes:
/// each is validated, then measured while it is in the cache.
fn shape_of_valid(bytes: &[u8]) -> Option<Shape> {
    let mut shape = Shape::default();
    let mut pos = 0;
    while pos < bytes.len() {
        // Cut at a character boundary (at most 3 bytes back): if every piece is valid on
        // its own, the whole is.
        let end = if bytes.len() - pos <= PIECE {
            bytes.len()
        } else {
            vutf8::grammar::floor_boundary(bytes, pos + PIECE)
        };
        let piece = &bytes[pos..end];
        if !vutf8::is_valid(piece) {
            return None;
        }
        shape.add(piece);
        pos = end;
    }
    Some(shape)
}

/// The largest byte of `bytes` (a max reduction the compiler vectorizes).
#[inline]
fn largest(bytes: &[u8]) -> u8 {
    bytes.chunks(64).fold(0, |max, chunk| {
        max.max(chunk.iter().copied().fold(0, u8::max))
    })
}

/// Whether `b` is a continuation byte (`80..BF`).
#[inline(always)]
fn is_continuation(b: u8) -> bool {
    (b as i8) < -0x40
}

/// A character type of a string's buffer, and simdutf's transcoder into it.
trait Unit: Copy + Send {
    /// The character `c`, which fits.
    fn of(c: u32) -> Self;
    /// Transcodes the valid UTF-8 `src` to `dst`; returns the characters written.
    ///
    /// # Safety
    /// `src` is valid UTF-8, not empty, of characters that fit; `dst` has room for them.
    unsafe fn transcode(src: &[u8], dst: *mut Self) -> usize;
    /// Stores the 16 bytes at `src` as 16 characters at `dst`.
    ///
    /// # Safety
    /// `src` is valid for 16 bytes, `dst` for 16 characters.
    unsafe fn widen16(src: *const u8, dst: *mut Self);
    /// The loop of [`decode_text`] over ASCII and isolated damage (`marked`: the handler
    /// writes one character for each such part, U+DC00 + the byte if `surrogate`, else
    /// U+FFFD), `STEP` bytes at a time from byte `i` of `src` (`n` bytes) and character `o`
    /// of `dst`, with wider vectors than [`decode_text`]'s own where the CPU has them; returns
    /// where it stopped (before the first `STEP` bytes it does not take). By default it
    /// takes none.
    ///
    /// # Safety
    /// As [`decode_text`]: `dst` has room for as many characters as bytes from `i`, and
    /// [`BLOCK`] more.
    #[inline(always)]
    unsafe fn wide_steps(
        src: *const u8,
        n: usize,
        dst: *mut Self,
        at: (usize, usize),
        marked: bool,
        surrogate: bool,
    ) -> (usize, usize) {
        let _ = (src, n, dst, marked, surrogate);
        at
    }
    /// [`widen16`](Unit::widen16) where each byte that is not ASCII is an ill-formed part of
    /// its own and becomes one character: U+DC00 + the byte if `surrogate`
    /// (`surrogateescape`), else U+FFFD (`replace`). Only for a unit that holds them.
    ///
    /// # Safety
    /// As [`widen16`](Unit::widen16).
    #[inline(always)]
    unsafe fn widen16_marked(src: *const u8, dst: *mut Self, surrogate: bool) {
        // SAFETY: by the caller's promise.
        unsafe {
            Self::widen16(src, dst);
            for k in 0..16 {
                let b = src.add(k).read();
                if b >= 0x80 {
                    let c = if surrogate {
                        0xDC00 | u32::from(b)
                    } else {
                        0xFFFD
                    };
                    dst.add(k).write(Self::of(c));
                }
            }
        }
    }
}

impl Unit for u8 {
    #[inline(always)]
    fn of(c: u32) -> u8 {
        c as u8
    }
    #[inline]
    unsafe fn transcode(src: &[u8], dst: *mut u8) -> usize {
        // SAFETY: by the caller's promise.
        unsafe { simdutf::convert_valid_utf8_to_latin1(src.as_ptr(), src.len(), dst) }
    }
    #[inline(always)]
    unsafe fn widen16(src: *const u8, dst: *mut u8) {
        // SAFETY: by the caller's promise.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, 16) }
    }
}

impl Unit for u16 {
    #[inline(always)]
    fn of(c: u32) -> u16 {
        c as u16
    }
    #[inline]
    unsafe fn transcode(src: &[u8], dst: *mut u16) -> usize {
        // SAFETY: by the caller's promise (no character above U+FFFF: no surrogate pair).
        unsafe { simdutf::convert_valid_utf8_to_utf16(src.as_ptr(), src.len(), dst) }
    }
    #[inline(always)]
    unsafe fn widen16(src: *const u8, dst: *mut u16) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            // SAFETY: SSE2 is in every x86-64 CPU; by the caller's promise.
            unsafe {
                let v = _mm_loadu_si128(src.cast());
                let zero = _mm_setzero_si128();
                _mm_storeu_si128(dst.cast(), _mm_unpacklo_epi8(v, zero));
                _mm_storeu_si128(dst.add(8).cast(), _mm_unpackhi_epi8(v, zero));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        for k in 0..16 {
            // SAFETY: by the caller's promise.
            unsafe { dst.add(k).write(u16::from(src.add(k).read())) };
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn wide_steps(
        src: *const u8,
        n: usize,
        dst: *mut u16,
        at: (usize, usize),
        marked: bool,
        surrogate: bool,
    ) -> (usize, usize) {
        if WIDE_STEPS.load(std::sync::atomic::Ordering::Relaxed)
            && std::is_x86_feature_detected!("avx2")
        {
            // SAFETY: the CPU has AVX2; the rest by the caller's promise.
            unsafe { ucs2_steps_avx2(src, n, dst, at, marked, surrogate) }
        } else {
            at
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn widen16_marked(src: *const u8, dst: *mut u16, surrogate: bool) {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is in every x86-64 CPU; by the caller's promise.
        unsafe {
            let v = _mm_loadu_si128(src.cast());
            let zero = _mm_setzero_si128();
            let high = _mm_cmplt_epi8(v, zero);
            let halves = [
                (_mm_unpacklo_epi8(v, zero), _mm_unpacklo_epi8(high, high)),
                (_mm_unpackhi_epi8(v, zero), _mm_unpackhi_epi8(high, high)),
            ];
            for (k, (chars, marked)) in halves.into_iter().enumerate() {
                let (add, with) = (_mm_set1_epi16(0xDC00u16 as i16), _mm_set1_epi16(-3));
                let out = mark(chars, marked, surrogate, add, with);
                _mm_storeu_si128(dst.add(8 * k).cast(), out);
            }
        }
    }
}

impl Unit for u32 {
    #[inline(always)]
    fn of(c: u32) -> u32 {
        c
    }
    #[inline]
    unsafe fn transcode(src: &[u8], dst: *mut u32) -> usize {
        // SAFETY: by the caller's promise.
        unsafe { simdutf::convert_valid_utf8_to_utf32(src.as_ptr(), src.len(), dst) }
    }
    #[inline(always)]
    unsafe fn widen16(src: *const u8, dst: *mut u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            // SAFETY: SSE2 is in every x86-64 CPU; by the caller's promise.
            unsafe {
                let v = _mm_loadu_si128(src.cast());
                let zero = _mm_setzero_si128();
                let lo = _mm_unpacklo_epi8(v, zero);
                let hi = _mm_unpackhi_epi8(v, zero);
                _mm_storeu_si128(dst.cast(), _mm_unpacklo_epi16(lo, zero));
                _mm_storeu_si128(dst.add(4).cast(), _mm_unpackhi_epi16(lo, zero));
                _mm_storeu_si128(dst.add(8).cast(), _mm_unpacklo_epi16(hi, zero));
                _mm_storeu_si128(dst.add(12).cast(), _mm_unpackhi_epi16(hi, zero));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        for k in 0..16 {
            // SAFETY: by the caller's promise.
            unsafe { dst.add(k).write(u32::from(src.add(k).read())) };
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn widen16_marked(src: *const u8, dst: *mut u32, surrogate: bool) {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is in every x86-64 CPU; by the caller's promise.
        unsafe {
            let v = _mm_loadu_si128(src.cast());
            let zero = _mm_setzero_si128();
            let high = _mm_cmplt_epi8(v, zero);
            let (lo, hi) = (_mm_unpacklo_epi8(v, zero), _mm_unpackhi_epi8(v, zero));
            let (mlo, mhi) = (_mm_unpacklo_epi8(high, high), _mm_unpackhi_epi8(high, high));
            let quarters = [
                (_mm_unpacklo_epi16(lo, zero), _mm_unpacklo_epi16(mlo, mlo)),
                (_mm_unpackhi_epi16(lo, zero), _mm_unpackhi_epi16(mlo, mlo)),
                (_mm_unpacklo_epi16(hi, zero), _mm_unpacklo_epi16(mhi, mhi)),
                (_mm_unpackhi_epi16(hi, zero), _mm_unpackhi_epi16(mhi, mhi)),
            ];
            for (k, (chars, marked)) in quarters.into_iter().enumerate() {
                let (add, with) = (_mm_set1_epi32(0xDC00), _mm_set1_epi32(0xFFFD));
                let out = mark(chars, marked, surrogate, add, with);
                _mm_storeu_si128(dst.add(4 * k).cast(), out);
            }
        }
    }
}

/// [`Unit::wide_steps`] into UCS-2 with AVX2: 32 bytes a register, each widened to 16-bit
/// characters by one instruction, the parts of isolated damage marked by their bytes' sign.
///
/// # Safety
/// The CPU has AVX2; as [`Unit::wide_steps`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn ucs2_steps_avx2(
    src: *const u8,
    n: usize,
    dst: *mut u16,
    (mut i, mut o): (usize, usize),
    marked: bool,
    surrogate: bool,
) -> (usize, usize) {
    use std::arch::x86_64::*;
    const HALF: usize = STEP / 2;
    let surrogate_bits = _mm256_set1_epi16(0xDC00u16 as i16);
    let replacement = _mm256_set1_epi16(-3); // U+FFFD
    while i + STEP <= n {
        // SAFETY: `i + STEP <= n`.
        let halves = unsafe {
            [
                _mm256_loadu_si256(src.add(i).cast()),
                _mm256_loadu_si256(src.add(i + HALF).cast()),
            ]
        };
        let high = halves.iter().enumerate().fold(0u64, |m, (k, &v)| {
            m | u64::from(_mm256_movemask_epi8(v) as u32) << (k * HALF)
        });
        if !isolated(high, STEP, marked) {
            break;
        }
        for (k, v) in halves.into_iter().enumerate() {
            for (j, part) in [_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)]
                .into_iter()
                .enumerate()
            {
                let mut chars = _mm256_cvtepu8_epi16(part);
                if marked {
                    // All ones in the characters of bytes that are not ASCII.
                    let mask = _mm256_srai_epi16::<15>(_mm256_cvtepi8_epi16(part));
                    chars = if surrogate {
                        _mm256_or_si256(chars, _mm256_and_si256(mask, surrogate_bits))
                    } else {
                        _mm256_blendv_epi8(chars, replacement, mask)
                    };
                }
                // SAFETY: there is room for `STEP` more characters (as many as bytes read).
                unsafe { _mm256_storeu_si256(dst.add(o + k * HALF + j * 16).cast(), chars) };
            }
        }
        i += STEP;
        o += STEP;
    }
    (i, o)
}

/// A block of ASCII or isolated damage ([`isolated`]) at `src` written to `dst`: its parts
/// marked by [`Unit::widen16_marked`] where the handler writes a character for each
/// (`marked`), else the bytes widened (ASCII).
///
/// # Safety
/// As [`Unit::widen16`].
#[inline(always)]
unsafe fn widen_block<T: Unit>(src: *const u8, dst: *mut T, marked: bool, surrogate: bool) {
    // SAFETY: by the caller's promise.
    unsafe {
        if marked {
            T::widen16_marked(src, dst, surrogate);
        } else {
            T::widen16(src, dst);
        }
    }
}

/// Whether the `width` bytes whose non-ASCII bytes are the bits of `high` are ASCII, or
/// (where the handler writes one character for each part of one byte, `marked`) isolated
/// damage: every such byte between ASCII bytes, none last, so each is an ill-formed part of
/// one byte ([`decode_text`]).
#[inline(always)]
fn isolated(high: u64, width: usize, marked: bool) -> bool {
    high == 0 || (marked && high >> (width - 1) == 0 && high & (high >> 1) == 0)
}

/// The characters `chars` (bytes widened) with those where `marked` is all ones replaced:
/// OR-ed with `surrogate_bits` if `surrogate`, else by `replacement` (both a lane's
/// character in every lane).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn mark(
    chars: std::arch::x86_64::__m128i,
    marked: std::arch::x86_64::__m128i,
    surrogate: bool,
    surrogate_bits: std::arch::x86_64::__m128i,
    replacement: std::arch::x86_64::__m128i,
) -> std::arch::x86_64::__m128i {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is in every x86-64 CPU.
    unsafe {
        if surrogate {
            _mm_or_si128(chars, _mm_and_si128(marked, surrogate_bits))
        } else {
            let with = _mm_and_si128(marked, replacement);
            _mm_or_si128(_mm_andnot_si128(marked, chars), with)
        }
    }
}

/// Writes valid `bytes` into `out`; returns the characters written.
///
/// # Safety
/// `bytes` is valid UTF-8 whose characters are exactly `out.len` and fit `out.kind`.
unsafe fn fill_valid(out: Out, bytes: &[u8]) -> usize {
    // SAFETY: by the caller's promise (every arm).
    unsafe {
        match out.kind {
            Kind::Ascii => {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.ptr, bytes.len());
                bytes.len()
            }
            Kind::Latin1 => u8::transcode(bytes, out.ptr),
            Kind::Ucs2 => crate::wide::ucs2(bytes, out.ptr.cast(), out.len)
                .unwrap_or_else(|| u16::transcode(bytes, out.ptr.cast())),
            Kind::Ucs4 => crate::wide::ucs4(bytes, out.ptr.cast(), out.len)
                .unwrap_or_else(|| u32::transcode(bytes, out.ptr.cast())),
        }
    }
}

/// Decodes damaged `bytes` under `handler` (not `Strict`), straight into the string.
///
/// The string is made for the most characters the text can have (`per_byte` per input
/// byte), of the narrowest kind the handler's own characters allow (ASCII for `ignore` and
/// `backslashreplace`, UCS-2 for the others), and [`decode_damaged`] fills it. When a
/// character comes that does not fit, a string of the kind that fits it is made, the
/// characters so far are copied into it widened, and decoding goes on there; at the end the
/// string is cut to its length (`PyUnicode_Resize`, which gives the tail back in place).
fn damaged<'py>(py: Python<'py>, bytes: &[u8], handler: Handler) -> PyResult<Bound<'py, PyString>> {
    let made = decode_into(py, bytes, handler, handler.kind())?;
    Ok(made.expect("only `strict` stops at an error"))
}

/// The loop of [`damaged`], from a string of `kind`: `None` if `handler` is `Strict` and
/// the text has an error (valid text with `Strict` is how [`optimistic`] decodes; a
/// character of a kind the loop does not take hands the rest to [`converted_rest`]).
fn decode_into<'py>(
    py: Python<'py>,
    bytes: &[u8],
    handler: Handler,
    mut kind: Kind,
) -> PyResult<Option<Bound<'py, PyString>>> {
    let per_byte = if handler == Handler::BackslashReplace {
        4
    } else {
        1
    };
    let room = bytes
        .len()
        .checked_mul(per_byte)
        .and_then(|n| n.checked_add(BLOCK))
        .ok_or_else(|| PyValueError::new_err("vutf8: input too long"))?;
    let mut new = NewStr::new(py, kind, room)?;
    let mut at = Cursor::default();
    loop {
        let out = new.out();
        let cursor = &mut at;
        let step = run(py, &bytes[cursor.i..], move |_| {
            let out: Out = out;
            if handler == Handler::Strict && out.kind == Kind::Latin1 {
                // Valid Latin-1 text ahead of the loop, in one AVX2 pass.
                // SAFETY: `out` is a string of `out.len` one-byte characters.
                let (i, o) = unsafe {
                    crate::latin1::fast_forward(bytes, out.ptr, out.len, (cursor.i, cursor.o))
                };
                *cursor = Cursor { i, o };
            }
            // SAFETY: `out` has room for every character of the text from `cursor`, and
            // the characters before `cursor.o` are written.
            unsafe { decode_damaged(out, bytes, handler, cursor) }
        })?;
        let Some(c) = step else {
            return new.finish_len(at.o).map(Some);
        };
        if c == INVALID {
            return Ok(None);
        }
        let mut wider = Kind::of_char(c).max(kind);
        if handler == Handler::Strict && !loop_takes_sparse(wider) {
            // Valid text so far, then a character of a kind the loop does not take: the
            // rest measured, and converted if it is of that kind; if wider (a character
            // above U+FFFF later), the loop goes on in a string of that kind.
            let rest = &bytes[at.i..];
            let Some(shape) = run(py, rest, shape_of_valid)? else {
                return Ok(None);
            };
            if !loop_takes_sparse(shape.kind()) {
                return converted_rest(py, rest, shape, new, at.o).map(Some);
            }
            wider = shape.kind();
        }
        let next = NewStr::new(py, wider, room)?;
        // SAFETY: `new` holds `at.o` characters of `kind`, and `next` has room for them.
        unsafe { widen(new.out(), next.out(), at.o) };
        new = next;
        kind = wider;
    }
}

/// [`decode_into`]'s `Strict` text from where the loop met a character it is not to take
/// (UCS-2 where the AVX2 conversion runs): `rest`, valid, of `shape`, converted after the
/// `written` characters the loop wrote into `so_far`, widened, in a string of the rest's
/// kind.
fn converted_rest<'py>(
    py: Python<'py>,
    rest: &[u8],
    shape: Shape,
    so_far: NewStr<'py>,
    written: usize,
) -> PyResult<Bound<'py, PyString>> {
    let kind = shape.kind();
    let chars = written
        .checked_add(shape.chars)
        .ok_or_else(|| PyValueError::new_err("vutf8: input too long"))?;
    let next = NewStr::new(py, kind, chars)?;
    let out = next.out();
    // SAFETY: `so_far` holds `written` characters of a narrower kind, and `next` has room
    // for them.
    unsafe { widen(so_far.out(), out, written) };
    let tail = Out {
        // SAFETY: `written <= chars`: within the string, after the characters widened into
        // it.
        ptr: unsafe { out.ptr.add(written * kind.width()) },
        kind,
        len: shape.chars,
    };
    // SAFETY: `rest` is valid UTF-8 of `shape.chars` characters of `kind`, the length and
    // kind of `tail`.
    let converted = run(py, rest, move |b| unsafe { fill_valid(tail, b) })?;
    assert_eq!(
        converted, shape.chars,
        "vutf8: the text is not the length measured"
    );
    next.finish()
}

/// What [`decode_text`] returns when `Strict` meets an ill-formed sequence (above every
/// character, so never a character that does not fit).
const INVALID: u32 = u32::MAX;

/// Text that is not ASCII, of [`SPARSE_MIN`] bytes or more, decoded without measuring it
/// first, when a look at its start says vutf8's loop is the faster transcoder for it
/// (the shape of its first [`PROBE`] bytes, `head`). The loop validates as it decodes, and
/// widens the string when a character needs it (or hands the rest over where the loop does
/// not take its kind: [`loop_takes_sparse`]); `None` if the text turns out to be invalid,
/// and the caller goes on as for any other text.
fn optimistic<'py>(
    py: Python<'py>,
    bytes: &[u8],
    head: Shape,
) -> PyResult<Option<Bound<'py, PyString>>> {
    // Not ASCII (the caller checked), so valid text is Latin-1 at least; wider when the look
    // (`head`, the shape of the first `PROBE` bytes) has a lead byte of a character beyond
    // Latin-1 (C4 and above, or an invalid byte: then the text is invalid and the kind does
    // not matter).
    let kind = if head.max_byte >= 0xC4 {
        Kind::Ucs2
    } else {
        Kind::Latin1
    };
    decode_into(py, bytes, Handler::Strict, kind)
}

/// The bytes whose shape chooses [`decode`]'s way for text that is not ASCII.
const PROBE: usize = 4096;

/// Where [`decode_damaged`] is: the next byte to read, the next character to write.
#[derive(Clone, Copy, Debug, Default)]
struct Cursor {
    i: usize,
    o: usize,
}

/// The characters a vector step reads and writes at once.
const BLOCK: usize = 16;

/// The bytes [`decode_text`] tests at once for ASCII or isolated damage (4 blocks;
/// `vutf8._vutf8._DECODE_STEP`, for the tests).
const STEP: usize = 64;

/// Copies the first `len` characters of `from` into `to`, of a kind at least as wide.
///
/// # Safety
/// `from` holds `len` written characters, `to` has room for them.
unsafe fn widen(from: Out, to: Out, len: usize) {
    // SAFETY: by the caller's promise (every arm reads and writes `len` units).
    unsafe {
        fn copy<S: Copy, D>(from: *const S, to: *mut D, len: usize, f: impl Fn(S) -> D) {
            for k in 0..len {
                // SAFETY: by `widen`'s caller's promise.
                unsafe { to.add(k).write(f(from.add(k).read())) };
            }
        }
        let (src, dst) = (from.ptr, to.ptr);
        match (from.kind.width(), to.kind.width()) {
            (1, 1) => std::ptr::copy_nonoverlapping(src, dst, len),
            (1, 2) => copy(src, dst.cast::<u16>(), len, u16::from),
            (1, _) => copy(src, dst.cast::<u32>(), len, u32::from),
            (2, 2) => std::ptr::copy_nonoverlapping(src.cast::<u16>(), dst.cast::<u16>(), len),
            (2, _) => copy(src.cast::<u16>(), dst.cast::<u32>(), len, u32::from),
            _ => std::ptr::copy_nonoverlapping(src.cast::<u32>(), dst.cast::<u32>(), len),
        }
    }
}

/// [`decode_text`] into `out`, whose kind says the character type and the widest
/// character that fits.
///
/// # Safety
/// As [`decode_text`].
unsafe fn decode_damaged(out: Out, bytes: &[u8], handler: Handler, at: &mut Cursor) -> Option<u32> {
    // SAFETY: by the caller's promise (every arm).
    unsafe {
        match out.kind {
            Kind::Ascii => decode_text::<u8>(out.ptr, 0x7F, bytes, handler, at),
            Kind::Latin1 => decode_text::<u8>(out.ptr, 0xFF, bytes, handler, at),
            Kind::Ucs2 => decode_text::<u16>(out.ptr.cast(), 0xFFFF, bytes, handler, at),
            Kind::Ucs4 => decode_text::<u32>(out.ptr.cast(), 0x10_FFFF, bytes, handler, at),
        }
    }
}

/// Decodes `bytes` from `at` as `bytes.decode('utf-8', handler)` does into `dst`, up to
/// the end (`None`) or to a character above `limit` (returned, `at` left before its
/// sequence). ASCII goes 16 bytes at a time; at each other byte one sequence is decoded, or
/// one ill-formed part (its maximal subpart: what CPython's decoder reports as one error)
/// is replaced as `handler` says.
///
/// # Safety
/// `dst` has room for every character of the text from `at` on, plus [`BLOCK`], after the
/// `at.o` characters already written.
unsafe fn decode_text<T: Unit>(
    dst: *mut T,
    limit: u32,
    bytes: &[u8],
    handler: Handler,
    at: &mut Cursor,
) -> Option<u32> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let n = bytes.len();
    let src = bytes.as_ptr();
    let Cursor { mut i, mut o } = *at;
    // Writes one character.
    macro_rules! put {
        ($c:expr) => {{
            // SAFETY: there is room for every character (the caller's promise).
            unsafe { dst.add(o).write(T::of($c)) };
            o += 1;
        }};
    }
    // Isolated damage (Latin-1 text read as UTF-8): every byte that is not ASCII lies between
    // ASCII bytes, none last in its block, so each is an ill-formed part of one byte (a lead
    // whose next byte is ASCII, or a byte that leads nothing), and for `replace` and
    // `surrogateescape` one character, written by `widen16_marked` with the block's ASCII.
    // (Decoding starts afresh at `i`, so the byte before it does not matter.)
    let one_char_parts =
        limit >= 0xFFFF && matches!(handler, Handler::Replace | Handler::SurrogateEscape);
    let surrogate = handler == Handler::SurrogateEscape;
    let isolated = |high: u64, width: usize| isolated(high, width, one_char_parts);
    let result = loop {
        // ASCII or isolated damage, `STEP` bytes at a time (one branch for 4 blocks), with
        // wider vectors where the unit and the CPU have them, then 16 at a time, then the
        // ASCII before the first other byte.
        // SAFETY: by the caller's promise.
        (i, o) = unsafe { T::wide_steps(src, n, dst, (i, o), one_char_parts, surrogate) };
        while i + STEP <= n {
            // SAFETY: `i + STEP <= n`.
            let high = unsafe {
                (0..STEP / BLOCK).fold(0, |m, k| {
                    m | u64::from(high_bits(src.add(i + k * BLOCK))) << (k * BLOCK)
                })
            };
            if !isolated(high, STEP) {
                break;
            }
            for k in (0..STEP).step_by(BLOCK) {
                // SAFETY: as above; there is room for `STEP` more characters (as many as
                // bytes read).
                unsafe { widen_block(src.add(i + k), dst.add(o + k), one_char_parts, surrogate) };
            }
            i += STEP;
            o += STEP;
        }
        while i + BLOCK <= n {
            // SAFETY: `i + 16 <= n`; there is room for 16 more characters (the slack).
            let high = unsafe { high_bits(src.add(i)) };
            if isolated(u64::from(high), BLOCK) {
                // SAFETY: as above.
                unsafe { widen_block(src.add(i), dst.add(o), one_char_parts, surrogate) };
                i += BLOCK;
                o += BLOCK;
                continue;
            }
            let ascii = high.trailing_zeros() as usize;
            // SAFETY: as above (the 16 are written, `ascii` of them kept).
            unsafe { T::widen16(src.add(i), dst.add(o)) };
            i += ascii;
            o += ascii;
            break;
        }
        if i >= n {
            break None;
        }
        let b0 = bytes[i];
        if b0 < 0x80 {
            put!(u32::from(b0));
            i += 1;
            continue;
        }
        let (c, len) = sequence(&bytes[i..]);
        match c {
            Some(c) if c > limit => break Some(c),
            Some(c) => put!(c),
            None => match handler {
                Handler::Replace => put!(0xFFFD),
                Handler::SurrogateEscape => {
                    for &b in &bytes[i..i + len] {
                        put!(0xDC00 + u32::from(b));
                    }
                }
                Handler::BackslashReplace => {
                    for &b in &bytes[i..i + len] {
                        put!(u32::from(b'\\'));
                        put!(u32::from(b'x'));
                        put!(u32::from(HEX[usize::from(b >> 4)]));
                        put!(u32::from(HEX[usize::from(b & 15)]));
                    }
                }
                Handler::Ignore => {}
                Handler::Strict => break Some(INVALID),
            },
        }
        i += len;
    };
    *at = Cursor { i, o };
    result
}

/// The bytes of the 16 at `src` that are not ASCII, as a mask (bit `k`: byte `k`).
///
/// # Safety
/// `src` is valid for 16 bytes.
#[inline(always)]
unsafe fn high_bits(src: *const u8) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_loadu_si128, _mm_movemask_epi8};
        // SAFETY: SSE2 is in every x86-64 CPU; `src` is valid for 16 bytes.
        unsafe { _mm_movemask_epi8(_mm_loadu_si128(src.cast())) as u32 }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // SAFETY: `src` is valid for 16 bytes.
        let block = unsafe { src.cast::<[u8; 16]>().read_unaligned() };
        block
            .iter()
            .enumerate()
            .fold(0, |mask, (k, &b)| mask | (u32::from(b >> 7) << k))
    }
}

/// The sequence at the start of `bytes` (not empty, its first byte not ASCII): its
/// character and length, or `None` and the length of its maximal subpart (1 to 3 bytes),
/// which is what CPython's decoder reports as one error (Unicode Table 3-7).
#[inline]
fn sequence(bytes: &[u8]) -> (Option<u32>, usize) {
    let b0 = bytes[0];
    let cont = |k: usize| bytes.get(k).is_some_and(|&b| is_continuation(b));
    let (len, lo, hi) = match b0 {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xE1..=0xEF => (3, 0x80, 0xBF),
        0xF0 => (4, 0x90, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        _ => return (None, 1),
    };
    match bytes.get(1) {
        Some(&b1) if (lo..=hi).contains(&b1) => {}
        _ => return (None, 1),
    }
    for k in 2..len {
        if !cont(k) {
            return (None, k);
        }
    }
    let c = match len {
        2 => (u32::from(b0 & 0x1F) << 6) | u32::from(bytes[1] & 0x3F),
        3 => {
            (u32::from(b0 & 0x0F) << 12)
                | (u32::from(bytes[1] & 0x3F) << 6)
                | u32::from(bytes[2] & 0x3F)
        }
        _ => {
            (u32::from(b0 & 0x07) << 18)
                | (u32::from(bytes[1] & 0x3F) << 12)
                | (u32::from(bytes[2] & 0x3F) << 6)
                | u32::from(bytes[3] & 0x3F)
        }
    };
    (Some(c), len)
}

/// `bytes` without their ill-formed parts, as `bytes.decode('utf-8', 'ignore')` leaves
/// them, as a Rust string: the records' `ignore` repair.
pub fn ignored(bytes: &[u8]) -> String {
    // SAFETY: what is left is the valid runs between the ill-formed parts, whole characters.
    unsafe { String::from_utf8_unchecked(without_parts(bytes)) }
}

/// For the tests of both ways of making strings (`pystr.rs`): `_portable(True)` forces the
/// portable way, `_portable(False)` lets the probe decide; returns whether the portable way
/// is in effect after the call.
#[pyfunction]
#[pyo3(signature = (on = None))]
pub fn _portable(on: Option<bool>) -> bool {
    if let Some(on) = on {
        crate::pystr::force_portable(on);
    }
    !crate::pystr::direct()
}

/// Whether [`Unit::wide_steps`] may use the CPU's wider vectors (`_wide_steps`).
static WIDE_STEPS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// For the tests of the loop over damaged text on CPUs without AVX2: `_wide_steps(False)`
/// keeps [`Unit::wide_steps`] off the wider vectors, `_wide_steps(True)` lets it use them;
/// returns whether it may after the call.
#[pyfunction]
#[pyo3(signature = (on = None))]
pub fn _wide_steps(on: Option<bool>) -> bool {
    if let Some(on) = on {
        WIDE_STEPS.store(on, std::sync::atomic::Ordering::Relaxed);
    }
    WIDE_STEPS.load(std::sync::atomic::Ordering::Relaxed)
}

/// `vutf8.decode` as CPython sees it: a function of the fastest calling convention
/// (`METH_FASTCALL | METH_KEYWORDS`) with its own reading of the arguments. A call of
/// PyO3's own functions costs some 30 ns more than `bytes.decode`'s (its generic argument
/// parsing, and the interpreter-state counter it keeps in thread-local storage), as much as
/// decoding 100 bytes: for the 100-byte target of docs/PYTHON.md, `decode` does without.
struct MethodDef(std::cell::UnsafeCell<ffi::PyMethodDef>);

// SAFETY: CPython only reads the definition, with the GIL held.
unsafe impl Sync for MethodDef {}

/// The definition of `vutf8.decode` (its docstring starts with the signature that
/// `inspect.signature` reads).
static DECODE: MethodDef = MethodDef(std::cell::UnsafeCell::new(ffi::PyMethodDef {
    ml_name: c"decode".as_ptr(),
    ml_meth: ffi::PyMethodDefPointer {
        PyCFunctionFastWithKeywords: decode_fast,
    },
    ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
    ml_doc: c"decode($module, /, data, errors='strict')
--

The text of `data` (any object with the buffer protocol) decoded as UTF-8: the same `str`
as `bytes(data).decode('utf-8', errors)`, or the same UnicodeDecodeError (a
vutf8.Utf8Error, with vutf8's `kind` and `code_point` added). `errors` is the name of a
handler: 'strict', 'replace', 'backslashreplace', 'surrogateescape' and 'ignore' run in
vutf8; any other is looked up and called by CPython, as bytes.decode does."
        .as_ptr(),
}));

/// The C function of `vutf8.decode`: `decode(data, errors='strict')`, positional or by
/// keyword.
///
/// # Safety
/// Called by CPython with the GIL held: `args` holds `nargs` positional arguments and then
/// one value per name of the tuple `kwnames` (or null).
unsafe extern "C" fn decode_fast(
    _module: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // `decode(b)` or `decode(b, "name")` of a short ASCII `bytes`, or of a shorter one of
    // Latin-1 or UCS-2 text ([`latin1_short`], [`short_ucs2`]): straight to the string (valid
    // text: the handler is not used, but must be a `str`, as for `bytes.decode`).
    // SAFETY: `args` holds `nargs` borrowed references.
    let named =
        nargs == 1 || (nargs == 2 && unsafe { ffi::PyUnicode_CheckExact(*args.add(1)) } != 0);
    let mut short_tried = false;
    if named && kwnames.is_null() {
        // SAFETY: `args` holds at least one borrowed reference.
        let data = unsafe { *args };
        // SAFETY: `data` is a live object; `PyBytes_AsString` of a `bytes` (checked
        // exactly: no subclass) is its buffer of `PyBytes_Size` bytes.
        unsafe {
            if ffi::PyBytes_CheckExact(data) != 0 {
                let len = usize::try_from(ffi::PyBytes_Size(data)).unwrap_or(0);
                let bytes =
                    std::slice::from_raw_parts(ffi::PyBytes_AsString(data).cast::<u8>(), len);
                if len < crate::buffer::DETACH_MIN && bytes.is_ascii() {
                    if let Some(text) = crate::pystr::ascii(bytes) {
                        return text;
                    }
                } else if len < SHORT_DECODE_BELOW {
                    short_tried = true;
                    // SAFETY: CPython calls this with the GIL held.
                    let py = Python::assume_attached();
                    match short_str(py, bytes) {
                        Ok(Some(text)) => return text.into_ptr(),
                        Ok(None) => {}
                        Err(e) => {
                            e.restore(py);
                            return std::ptr::null_mut();
                        }
                    }
                }
            }
        }
    }
    // SAFETY: CPython calls this with the GIL held.
    let py = unsafe { Python::assume_attached() };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if named && kwnames.is_null() {
            // SAFETY: `args` holds `nargs` borrowed references, the second a `str`.
            let data = unsafe { Bound::from_borrowed_ptr(py, *args) };
            if nargs == 1 {
                return decode(py, &data, "strict", short_tried);
            }
            // SAFETY: as above.
            let errors = unsafe { Bound::from_borrowed_ptr(py, *args.add(1)) };
            return decode(
                py,
                &data,
                errors.cast_into::<PyString>()?.to_str()?,
                short_tried,
            );
        }
        // SAFETY: by this function's contract.
        let (data, errors) = unsafe { arguments(py, args, nargs, kwnames) }?;
        let errors = match errors {
            Some(errors) => Some(errors.cast_into::<PyString>().map_err(|e| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "decode() argument 'errors' must be str, not {}",
                    crate::buffer::type_name(e.into_inner().as_any())
                ))
            })?),
            None => None,
        };
        let errors = match &errors {
            Some(errors) => errors.to_str()?,
            None => "strict",
        };
        decode(py, &data, errors, false)
    }));
    match result {
        Ok(Ok(text)) => text.into_ptr(),
        Ok(Err(e)) => {
            e.restore(py);
            std::ptr::null_mut()
        }
        Err(_) => {
            pyo3::exceptions::PyRuntimeError::new_err("vutf8: internal error in decode (a panic)")
                .restore(py);
            std::ptr::null_mut()
        }
    }
}

/// The arguments of a call of `decode`: `data` and, if given, `errors`.
///
/// # Safety
/// As [`decode_fast`].
unsafe fn arguments<'py>(
    py: Python<'py>,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> {
    use pyo3::exceptions::PyTypeError;
    use pyo3::types::PyTuple;
    let positional = usize::try_from(nargs).unwrap_or(0);
    if positional > 2 {
        return Err(PyTypeError::new_err(format!(
            "decode() takes at most 2 arguments ({positional} given)"
        )));
    }
    // SAFETY: `args` holds `positional` borrowed references, then one per keyword.
    let arg = |k: usize| unsafe { Bound::from_borrowed_ptr(py, *args.add(k)) };
    let mut slots: [Option<Bound<'py, PyAny>>; 2] = [None, None];
    for (k, slot) in slots.iter_mut().enumerate().take(positional) {
        *slot = Some(arg(k));
    }
    if !kwnames.is_null() {
        // SAFETY: `kwnames` is a tuple of str.
        let names = unsafe { Bound::from_borrowed_ptr(py, kwnames) };
        let names = names.cast::<PyTuple>()?;
        for (k, name) in names.iter().enumerate() {
            let name: String = name.extract()?;
            let at = match name.as_str() {
                "data" => 0,
                "errors" => 1,
                other => {
                    return Err(PyTypeError::new_err(format!(
                        "decode() got an unexpected keyword argument '{other}'"
                    )))
                }
            };
            if slots[at].is_some() {
                return Err(PyTypeError::new_err(format!(
                    "decode() got multiple values for argument '{name}'"
                )));
            }
            slots[at] = Some(arg(positional + k));
        }
    }
    let [data, errors] = slots;
    let data = data
        .ok_or_else(|| PyTypeError::new_err("decode() missing required argument 'data' (pos 1)"))?;
    Ok((data, errors))
}

/// For the measurement behind the choice of transcoder (docs/PYTHON.md): valid `data`
/// decoded by vutf8's own loop of [`decode_text`] (16 ASCII bytes at a time with SSE2, one
/// character at a time otherwise) instead of simdutf. The same `str` as `decode`.
#[pyfunction]
pub fn _decode_own<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyString>> {
    let input = Input::new(data)?;
    damaged(py, input.bytes(), Handler::Ignore)
}

/// For the same measurement: valid `data` decoded by simdutf whatever its density (what
/// `decode` does for dense text). The same `str` as `decode`.
#[pyfunction]
pub fn _decode_simdutf<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyString>> {
    let input = Input::new(data)?;
    let bytes = input.bytes();
    let shape = run(py, bytes, shape_of_valid)?
        .ok_or_else(|| PyValueError::new_err("_decode_simdutf takes valid UTF-8 only"))?;
    make(py, bytes, shape.kind(), shape.chars, |out, b| {
        // SAFETY: `b` is valid UTF-8 of `shape.chars` characters of `shape.kind()`.
        unsafe { fill_valid(out, b) }
    })
}

/// Adds `decode` to `m`, after probing how strings are made.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::pystr::init(m.py());
    // SAFETY: `DECODE` lives as long as the process, and `m` is a live module.
    let function = unsafe {
        let made = ffi::PyCFunction_NewEx(DECODE.0.get(), m.as_ptr(), std::ptr::null_mut());
        Bound::from_owned_ptr_or_err(m.py(), made)?
    };
    m.add("decode", function)?;
    m.add_function(wrap_pyfunction!(_portable, m)?)?;
    m.add_function(wrap_pyfunction!(_wide_steps, m)?)?;
    m.add_function(wrap_pyfunction!(_decode_own, m)?)?;
    m.add_function(wrap_pyfunction!(_decode_simdutf, m)?)?;
    m.add_function(wrap_pyfunction!(crate::wide::_convert_avx2, m)?)?;
    m.add("_SHORT_DECODE_BELOW", SHORT_DECODE_BELOW)?;
    m.add("_DECODE_STEP", STEP)
}
