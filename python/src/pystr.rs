//! Python `str` objects made in their final PEP 393 form: the caller says the kind (ASCII,
//! Latin-1, UCS-2 or UCS-4, as CPython would choose it for the text) and the length, gets
//! the string's own buffer to fill ([`Out`]), and hands the string over.
//!
//! Two ways, one result:
//!
//! - **Direct** (Linux and macOS, where the layout probe below passes): `PyUnicode_New`
//!   makes the string, and the characters are written into its buffer, which lies right
//!   after the object's header. `PyUnicode_New` is a public function of every CPython 3
//!   but outside the limited API, and so is the header's size, which changed in 3.12
//!   (`wstr` went away). At module start [`init`] therefore checks the size it expects
//!   for the running version: it reads four strings that CPython made (one of each kind)
//!   at that offset, and only if all four read back right does it write four strings of
//!   its own and compare them with CPython's. If any check fails (a future CPython with
//!   another header), the portable way is used.
//! - **Portable** (Windows, whose abi3 import library has no `PyUnicode_New`, and any
//!   interpreter the probe does not recognise): the characters go into a buffer of ours,
//!   then through `PyUnicode_DecodeLatin1`, `PyUnicode_DecodeUTF16` or
//!   `PyUnicode_DecodeUTF32` of the stable ABI, which copy them into a string of the same
//!   kind (one more pass over memory).
//!
//! A string must be *canonical*: its kind the narrowest that holds its widest character
//! (CPython compares and hashes strings assuming so). The callers compute the kind from
//! the text they will write, never wider.

use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use pyo3::exceptions::PyMemoryError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The storage of a string's characters (PEP 393), narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Every character below U+0080, one byte each.
    Ascii,
    /// Every character below U+0100, one byte each.
    Latin1,
    /// Every character below U+10000, two bytes each.
    Ucs2,
    /// Four bytes each.
    Ucs4,
}

impl Kind {
    /// The kind of valid UTF-8 text whose largest byte is `max_byte`: lead bytes `C2` and
    /// `C3` encode U+0080 to U+00FF, `C4` to `EF` start the other characters of the BMP,
    /// `F0` to `F4` those above it.
    #[inline]
    pub fn of_max_byte(max_byte: u8) -> Kind {
        match max_byte {
            0..=0x7F => Kind::Ascii,
            0x80..=0xC3 => Kind::Latin1,
            0xC4..=0xEF => Kind::Ucs2,
            _ => Kind::Ucs4,
        }
    }

    /// The kind of a string whose widest character is `c`.
    #[inline]
    pub fn of_char(c: u32) -> Kind {
        match c {
            0..=0x7F => Kind::Ascii,
            0x80..=0xFF => Kind::Latin1,
            0x100..=0xFFFF => Kind::Ucs2,
            _ => Kind::Ucs4,
        }
    }

    /// The largest character of this kind (`PyUnicode_New`'s `maxchar`).
    fn max_char(self) -> u32 {
        match self {
            Kind::Ascii => 0x7F,
            Kind::Latin1 => 0xFF,
            Kind::Ucs2 => 0xFFFF,
            Kind::Ucs4 => 0x10_FFFF,
        }
    }

    /// Bytes per character.
    pub fn width(self) -> usize {
        match self {
            Kind::Ascii | Kind::Latin1 => 1,
            Kind::Ucs2 => 2,
            Kind::Ucs4 => 4,
        }
    }
}

#[cfg(not(windows))]
extern "C" {
    /// CPython's constructor of a compact string of `size` characters, none above
    /// `maxchar` (Include/cpython/unicodeobject.h; every CPython 3).
    fn PyUnicode_New(size: ffi::Py_ssize_t, maxchar: ffi::Py_UCS4) -> *mut ffi::PyObject;
}

/// Where the characters of a compact string lie, in bytes from the object's address.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// An ASCII string (after `PyASCIIObject`).
    ascii: usize,
    /// Any other kind (after `PyCompactUnicodeObject`).
    compact: usize,
}

/// The layout of this interpreter's strings, once the probe has passed; `None`: the
/// portable way.
static LAYOUT: OnceLock<Option<Layout>> = OnceLock::new();

/// Whether the portable way is forced (for the tests of both ways: `_vutf8._portable`).
static FORCE_PORTABLE: AtomicBool = AtomicBool::new(false);

/// Forces the portable way (`true`) or lets the probe decide (`false`); returns the
/// previous setting.
pub fn force_portable(on: bool) -> bool {
    FORCE_PORTABLE.swap(on, Ordering::Relaxed)
}

/// Probes the interpreter's string layout (see the module's documentation); called once
/// at module start. Returns whether the direct way is on.
pub fn init(py: Python<'_>) -> bool {
    LAYOUT.get_or_init(|| probe(py)).is_some()
}

/// The layout strings are made with now, if the direct way is on.
fn layout() -> Option<Layout> {
    match LAYOUT.get() {
        Some(Some(layout)) if !FORCE_PORTABLE.load(Ordering::Relaxed) => Some(*layout),
        _ => None,
    }
}

/// Whether strings are made directly in their buffers.
pub fn direct() -> bool {
    layout().is_some()
}

/// The layout this interpreter is expected to have, if it passes both checks.
#[cfg(not(windows))]
fn probe(py: Python<'_>) -> Option<Layout> {
    // The header of PyASCIIObject: refcount, type, length, hash, state (padded to 8) and,
    // before 3.12, `wstr`; PyCompactUnicodeObject adds utf8_length, utf8 and, before 3.12,
    // wstr_length (64-bit platforms: the only ones the wheels are built for).
    if std::mem::size_of::<usize>() != 8 {
        return None;
    }
    let layout = if py.version_info() >= (3, 12) {
        Layout {
            ascii: 40,
            compact: 56,
        }
    } else {
        Layout {
            ascii: 48,
            compact: 72,
        }
    };
    // 40 characters each: reading them at the offset expected stays inside the object
    // even if its header were up to 40 bytes longer.
    let samples: [(Kind, String); 4] = [
        (
            Kind::Ascii,
            "layout probe: 0123456789 abcdefghijklmn".into(),
        ),
        (Kind::Latin1, "é".repeat(20) + &"\u{80}x".repeat(10)),
        (Kind::Ucs2, "\u{100}\u{ffff}".repeat(10) + &"é".repeat(20)),
        (
            Kind::Ucs4,
            "\u{1f600}\u{10ffff}".repeat(10) + &"\u{100}".repeat(20),
        ),
    ];
    for (kind, text) in &samples {
        let theirs = PyString::new(py, text);
        let chars: Vec<u32> = text.chars().map(u32::from).collect();
        if read_back(theirs.as_ptr(), &layout, *kind, &chars) != Some(true) {
            return None;
        }
    }
    for (kind, text) in &samples {
        let theirs = PyString::new(py, text);
        let chars: Vec<u32> = text.chars().map(u32::from).collect();
        let ours = unsafe_new(py, &layout, *kind, &chars)?;
        // SAFETY: both are live str objects.
        if unsafe { ffi::PyUnicode_Compare(ours.as_ptr(), theirs.as_ptr()) } != 0 {
            return None;
        }
    }
    Some(layout)
}

#[cfg(windows)]
fn probe(_py: Python<'_>) -> Option<Layout> {
    None
}

/// Whether the string `obj` holds `chars` at `layout`'s offset for `kind`, as that kind
/// stores them; `None` if it has another length.
#[cfg(not(windows))]
fn read_back(obj: *mut ffi::PyObject, layout: &Layout, kind: Kind, chars: &[u32]) -> Option<bool> {
    // SAFETY: `obj` is a live str.
    let len = unsafe { ffi::PyUnicode_GetLength(obj) };
    if usize::try_from(len).ok()? != chars.len() {
        return None;
    }
    let offset = if kind == Kind::Ascii {
        layout.ascii
    } else {
        layout.compact
    };
    let base = obj.cast::<u8>();
    Some(chars.iter().enumerate().all(|(i, &c)| {
        // SAFETY: a compact string of `len` characters of at least this width lies after
        // a header of at least 40 bytes; the samples have 40 characters, so every read
        // at `offset` (at most 40 past the true start for the sizes expected) stays inside
        // the object's allocation. Reads are unaligned-safe.
        let found = unsafe {
            let at = base.add(offset + i * kind.width());
            match kind.width() {
                1 => u32::from(at.read()),
                2 => u32::from(at.cast::<u16>().read_unaligned()),
                _ => at.cast::<u32>().read_unaligned(),
            }
        };
        found == c
    }))
}

/// A string made by `PyUnicode_New` and filled at `layout`'s offset: only called once
/// the layout has read back right.
#[cfg(not(windows))]
fn unsafe_new<'py>(
    py: Python<'py>,
    layout: &Layout,
    kind: Kind,
    chars: &[u32],
) -> Option<Bound<'py, PyAny>> {
    let len = ffi::Py_ssize_t::try_from(chars.len()).ok()?;
    // SAFETY: a plain call; the result is a new reference or null with an exception set.
    let ptr = unsafe { PyUnicode_New(len, kind.max_char()) };
    if ptr.is_null() {
        // (The exception is dropped: the probe falls back to the portable way.)
        let _ = PyErr::take(py);
        return None;
    }
    // SAFETY: `ptr` is a new reference.
    let obj = unsafe { Bound::from_owned_ptr(py, ptr) };
    let offset = if kind == Kind::Ascii {
        layout.ascii
    } else {
        layout.compact
    };
    // SAFETY: the layout read back right on CPython's own strings, so the buffer of
    // `chars.len()` characters of this kind lies at `offset`.
    unsafe { write_chars(ptr.cast::<u8>().add(offset), kind, chars) };
    Some(obj)
}

/// Writes `chars` as `kind` stores them at `at`.
///
/// # Safety
/// `at` must be valid for `chars.len()` characters of `kind`'s width and aligned for it.
#[cfg(not(windows))]
unsafe fn write_chars(at: *mut u8, kind: Kind, chars: &[u32]) {
    for (i, &c) in chars.iter().enumerate() {
        // SAFETY: by the caller's promise.
        unsafe {
            match kind.width() {
                1 => at.add(i).write(c as u8),
                2 => at.cast::<u16>().add(i).write(c as u16),
                _ => at.cast::<u32>().add(i).write(c),
            }
        }
    }
}

/// The buffer of a string being made: `len` characters of `kind`, at `ptr`, to be written
/// (possibly without the GIL: the string is not visible to any other code yet).
#[derive(Clone, Copy, Debug)]
pub struct Out {
    /// The first character's first byte, aligned for the kind's width.
    pub ptr: *mut u8,
    /// How the characters are stored.
    pub kind: Kind,
    /// The number of characters.
    pub len: usize,
}

// SAFETY: `Out` is the address of a buffer that no other code can see until the string is
// handed over (`NewStr::finish`), which needs the GIL and happens after the writing.
unsafe impl Send for Out {}

/// The ASCII string of `bytes` (all ASCII), made directly when the probe has passed, in
/// as few steps as CPython's own decoder takes (the common call on short text, where any
/// step more shows): a new reference, or null with an exception set; `None` on the
/// portable way.
#[inline]
pub fn ascii(bytes: &[u8]) -> Option<*mut ffi::PyObject> {
    one_byte(bytes, Kind::Ascii)
}

/// The string of the Latin-1 characters `chars` (one byte each, at least one of them
/// `>= 0x80`), made as [`ascii`] makes its own.
#[inline]
pub fn latin1(chars: &[u8]) -> Option<*mut ffi::PyObject> {
    debug_assert!(!chars.is_ascii());
    one_byte(chars, Kind::Latin1)
}

/// [`ascii`] and [`latin1`]: a string of `kind` (one byte a character) holding `chars`.
#[inline]
fn one_byte(chars: &[u8], kind: Kind) -> Option<*mut ffi::PyObject> {
    debug_assert!(kind.width() == 1);
    #[cfg(not(windows))]
    if let Some(layout) = layout() {
        let len = ffi::Py_ssize_t::try_from(chars.len()).ok()?;
        // SAFETY: a plain call; a new reference or null with an exception set.
        let ptr = unsafe { PyUnicode_New(len, kind.max_char()) };
        if !ptr.is_null() {
            let offset = if kind == Kind::Ascii {
                layout.ascii
            } else {
                layout.compact
            };
            // SAFETY: the probe checked that a string of this kind keeps its `len`
            // characters at `offset`, one byte each.
            unsafe {
                let data = ptr.cast::<u8>().add(offset);
                std::ptr::copy_nonoverlapping(chars.as_ptr(), data, chars.len());
            }
        }
        return Some(ptr);
    }
    let _ = (chars, kind);
    None
}

/// The error handler that lets lone surrogates through CPython's UTF-16 and UTF-32 decoders.
const SURROGATEPASS: *const std::ffi::c_char = c"surrogatepass".as_ptr();

/// Where the characters of a [`NewStr`] are written.
enum Storage<'py> {
    /// The string itself.
    Direct(Bound<'py, PyAny>),
    /// A buffer of ours (`u32` for the alignment of every kind), copied by CPython at the
    /// end.
    Portable(Vec<u32>),
}

/// A string being made: see the module's documentation.
pub struct NewStr<'py> {
    py: Python<'py>,
    storage: Storage<'py>,
    out: Out,
}

impl<'py> NewStr<'py> {
    /// A string of `len` characters of `kind`, to be filled through [`NewStr::out`].
    pub fn new(py: Python<'py>, kind: Kind, len: usize) -> PyResult<Self> {
        let size = len
            .checked_mul(kind.width())
            .filter(|&n| ffi::Py_ssize_t::try_from(n).is_ok())
            .ok_or_else(|| PyMemoryError::new_err("vutf8: the string would be too long"))?;
        match layout() {
            #[cfg(not(windows))]
            Some(layout) => {
                // SAFETY: a plain call; a new reference or null with an exception set.
                let ptr = unsafe { PyUnicode_New(len as ffi::Py_ssize_t, kind.max_char()) };
                if ptr.is_null() {
                    return Err(PyErr::fetch(py));
                }
                // SAFETY: `ptr` is a new reference.
                let obj = unsafe { Bound::from_owned_ptr(py, ptr) };
                let offset = if kind == Kind::Ascii {
                    layout.ascii
                } else {
                    layout.compact
                };
                // SAFETY: the probe checked that a compact string of this kind keeps its
                // characters at `offset` (aligned: the offsets are multiples of 8).
                let data = unsafe { ptr.cast::<u8>().add(offset) };
                Ok(NewStr {
                    py,
                    storage: Storage::Direct(obj),
                    out: Out {
                        ptr: data,
                        kind,
                        len,
                    },
                })
            }
            _ => {
                let mut buffer = vec![0u32; size.div_ceil(4)];
                let ptr = buffer.as_mut_ptr().cast::<u8>();
                Ok(NewStr {
                    py,
                    storage: Storage::Portable(buffer),
                    out: Out { ptr, kind, len },
                })
            }
        }
    }

    /// The buffer to fill: every one of its characters must be written before
    /// [`NewStr::finish`].
    pub fn out(&self) -> Out {
        self.out
    }

    /// The string, once every character of [`NewStr::out`] has been written.
    pub fn finish(self) -> PyResult<Bound<'py, PyString>> {
        let len = self.out.len;
        self.finish_len(len)
    }

    /// The string of the first `len` characters of [`NewStr::out`], once they have been
    /// written (`len` at most the length it was made with).
    pub fn finish_len(self, len: usize) -> PyResult<Bound<'py, PyString>> {
        assert!(
            len <= self.out.len,
            "vutf8: a string cut longer than it was made"
        );
        let kind = self.out.kind;
        match self.storage {
            Storage::Direct(obj) if len == self.out.len => Ok(obj.cast_into::<PyString>()?),
            Storage::Direct(obj) => {
                let mut ptr = obj.into_ptr();
                // SAFETY: `ptr` is the only reference to a new string (its hash not yet
                // computed, not interned), which `PyUnicode_Resize` may move; on failure
                // it leaves `ptr` as it was.
                if unsafe { ffi::PyUnicode_Resize(&mut ptr, len as ffi::Py_ssize_t) } < 0 {
                    // SAFETY: `ptr` is still our reference.
                    unsafe { ffi::Py_DECREF(ptr) };
                    return Err(PyErr::fetch(self.py));
                }
                // SAFETY: `ptr` is a new reference to the string.
                Ok(unsafe { Bound::from_owned_ptr(self.py, ptr) }.cast_into::<PyString>()?)
            }
            Storage::Portable(buffer) => {
                let py_len = (len * kind.width()) as ffi::Py_ssize_t;
                let ptr = buffer.as_ptr().cast::<std::ffi::c_char>();
                // Native byte order: -1 little-endian, 1 big-endian.
                let mut order: c_int = if cfg!(target_endian = "little") {
                    -1
                } else {
                    1
                };
                // SAFETY: `buffer` holds `len` characters of `kind` (py_len bytes); the
                // calls copy them and return a new reference or null with an exception.
                let made = unsafe {
                    match kind {
                        Kind::Ascii | Kind::Latin1 => {
                            ffi::PyUnicode_DecodeLatin1(ptr, py_len, std::ptr::null())
                        }
                        // (Lone surrogates, which `surrogateescape` writes, pass as they are;
                        // only low ones are written, so none pairs with its neighbour.)
                        Kind::Ucs2 => {
                            ffi::PyUnicode_DecodeUTF16(ptr, py_len, SURROGATEPASS, &mut order)
                        }
                        Kind::Ucs4 => {
                            ffi::PyUnicode_DecodeUTF32(ptr, py_len, SURROGATEPASS, &mut order)
                        }
                    }
                };
                // SAFETY: a new reference or null with an exception set.
                let obj = unsafe { Bound::from_owned_ptr_or_err(self.py, made) }?;
                Ok(obj.cast_into::<PyString>()?)
            }
        }
    }
}
