//! The validation engine: the public entry points of validation and what they share. Every
//! input goes to the backend this CPU runs best (`crate::arch`, chosen once; which path it
//! takes by its length: `crate::tiers`); when that reports an error, `is_valid` says no at
//! once, and the exact-error functions ask the backend's cold `locate` for the block and
//! [`exact_error`] (cold) backs up to the start of the character and lets the scalar
//! decoder ([`crate::scalar`]) say exactly where and why. Also here: what a
//! [`Backend`] can do on this CPU, and running a particular one.
//!
//! Everything above this module (streams, error iterators, repair, the parallel split, and
//! the character count of [`count`], beside it) calls these functions; nothing here calls
//! upward. Next: `crate::arch` for the
//! backends and their dispatch, `crate::arch::generic` for the algorithm.

pub(crate) mod count;

use crate::arch;
use crate::backend::Backend;
use crate::reference::error::Utf8Error;
use crate::reference::scalar;
use crate::reference::word;
use crate::tiers;

/// Whether `input` is valid UTF-8. The fastest check this crate has. (Which input lengths
/// take which path: see `src/tiers.rs`.)
#[inline]
pub fn is_valid(input: &[u8]) -> bool {
    is_valid_at(input, 0)
}

/// [`is_valid`] for a piece of a longer text that starts `at` bytes into it (a chunk of a
/// stream, a piece of a parallel validation): the same answer, with the main loop's rule
/// for far into a text (`tiers::DENSE_AFTER`) applied where it would be in one call.
#[inline]
pub(crate) fn is_valid_at(input: &[u8], at: u64) -> bool {
    let at = usize::try_from(at).unwrap_or(usize::MAX);
    // The backend's yes-or-no column: the call ends in a jump to the backend.
    entry(input, |input| {
        arch::is_valid(input, at).then_some(()).ok_or(0)
    })
    .is_ok()
}

/// The one way into a validator: inputs shorter than `tiers::WORD_BELOW` are checked by
/// [`word`] here, before any backend is called (the same code for every backend, with no
/// call through the dispatch); longer ones by `run`, a backend's validator. An error below
/// the word says `Err(0)`.
#[inline(always)]
fn entry(input: &[u8], run: impl FnOnce(&[u8]) -> Result<(), usize>) -> Result<(), usize> {
    if input.len() < tiers::WORD_BELOW {
        word::is_valid(input).then_some(()).ok_or(0)
    } else {
        run(input)
    }
}

/// Checks `input` and returns the first error, if any, with the exact position.
///
/// Below `tiers::MEDIUM_BELOW` every path of every vector backend reports an error as `Err(0)` (the
/// main loop alone says where its failed group starts), so there the yes-or-no column
/// (`arch::is_valid`, which [`is_valid_at`] calls) gives the same `from`, and costs less to call: a
/// `Result` entry loses its jumps to the paths to the compiler, which sees that they always say
/// `Err(0)` and changes what they return (docs/PERFORMANCE.md#from-utf8-entry). (Without a vector
/// backend the scalar fallback's exact position is lost, and found again from the start, on the
/// cold path.) The lengths from `tiers::WORD_BELOW` to `MEDIUM_BELOW` are tested first, as one
/// range (one compare, not the word's and the medium path's bounds in turn, inlined into every
/// caller); the rest go through [`entry`].
#[inline]
pub(crate) fn validate(input: &[u8]) -> Result<(), Utf8Error> {
    let checked = if (tiers::WORD_BELOW..tiers::MEDIUM_BELOW).contains(&input.len()) {
        arch::is_valid(input, 0).then_some(()).ok_or(0)
    } else {
        entry(input, |input| arch::validate(input, 0))
    };
    match checked {
        Ok(()) => Ok(()),
        Err(from) => Err(first_error(input, from)),
    }
}

/// The exact first error of `input`, after the selected backend said `Err(from)`: its cold
/// `locate` narrows the search down to a few bytes, except where fewer than
/// `tiers::LOCATE_SCALAR_BELOW` bytes are left after `from`, which the scalar decoder
/// reads faster than `locate` starts up.
#[cold]
#[inline(never)]
fn first_error(input: &[u8], from: usize) -> Utf8Error {
    let from = from.min(input.len());
    if input.len() - from < tiers::LOCATE_SCALAR_BELOW {
        exact_error(input, from)
    } else {
        exact_error(input, arch::locate(input, from))
    }
}

/// Finds the exact first error, given a backend's `locate` report that it starts at or
/// after the character containing byte `pos - 1` (see `arch`).
/// (Inlined into its cold callers, with the scalar decoder: the error is then built once,
/// where it is returned, rather than stored by one function and loaded by the next, which
/// stalls on the store.)
#[inline(always)]
pub(crate) fn exact_error(input: &[u8], pos: usize) -> Utf8Error {
    // Back up over at most 3 continuation bytes to the start of the character that may be
    // left open before `pos`; everything before that character is valid.
    let mut start = pos.min(input.len());
    for _ in 0..3 {
        if start == 0 || input[start - 1] & 0xC0 != 0x80 {
            break;
        }
        start -= 1;
    }
    if start > 0 && input[start - 1] >= 0xC0 {
        start -= 1;
    }
    match scalar::validate_until(input, start, input.len()) {
        Err(e) => e,
        Ok(_) => unreachable!("vutf8: a vector backend reported an error the scalar decoder does not see (input length {}, position {pos})", input.len()),
    }
}

/// Converts a slice of bytes to a string slice, like [`core::str::from_utf8`], with the
/// reason for an error in [`Utf8Error::kind`].
#[inline]
pub fn from_utf8(input: &[u8]) -> Result<&str, Utf8Error> {
    validate(input)?;
    // SAFETY: `validate` just checked that the bytes are valid UTF-8.
    Ok(unsafe { core::str::from_utf8_unchecked(input) })
}

/// Converts a mutable slice of bytes to a mutable string slice, like
/// [`core::str::from_utf8_mut`].
#[inline]
pub fn from_utf8_mut(input: &mut [u8]) -> Result<&mut str, Utf8Error> {
    validate(input)?;
    // SAFETY: `validate` just checked that the bytes are valid UTF-8.
    Ok(unsafe { core::str::from_utf8_unchecked_mut(input) })
}

/// What a [`Backend`] can do on this CPU and in this build, and running it.
impl Backend {
    /// The backend that [`crate::from_utf8`] and [`crate::is_valid`] use on this CPU, for
    /// every input.
    pub fn selected() -> Backend {
        arch::selected()
    }

    /// Every backend this CPU can run, in the order of [`Backend::ALL`].
    pub fn available() -> impl Iterator<Item = Backend> {
        Self::ALL.into_iter().filter(|b| b.is_available())
    }

    /// Whether this CPU (and this build) can run this backend.
    pub fn is_available(self) -> bool {
        arch::is_available(self)
    }

    /// Whether this build has the backend's code at all, whatever the CPU: the right target
    /// architecture, and for [`Backend::Avx512`] the cargo feature `avx512`. A built backend
    /// is [available](Backend::is_available) where the CPU has its instructions.
    pub fn is_built(self) -> bool {
        arch::is_built(self)
    }

    /// Why this backend cannot run here, in words (`None` when it
    /// [can](Backend::is_available)): `"not built: it needs the cargo feature avx512"`,
    /// `"not built: it is for another target"`, or `"this CPU lacks its instructions"`.
    /// For messages such as the CLI's `--backend` errors and the test suite's list of
    /// backends not run.
    pub fn unavailable_reason(self) -> Option<&'static str> {
        if self.is_available() {
            None
        } else if !self.is_built() {
            Some(arch::not_built_reason(self))
        } else {
            Some("this CPU lacks its instructions")
        }
    }

    /// Which code this backend runs on this CPU (`None` where it
    /// [cannot run](Backend::is_available)), for reports of what was measured or used:
    /// a backend with one code for every CPU answers its module's name (`"scalar"`,
    /// `"sse42"`, `"avx2"`, `"avx512"`, `"neon"`, `"simd128"`); one with a code for some
    /// CPUs answers that code's where this CPU is one of them: `"avx2units128"` (AVX2's
    /// schedule for CPUs whose AVX2 runs on 128-bit units, AMD Zen 1 and Zen+; the same
    /// lookup algorithm, other size tiers: `src/tiers.rs`), `"avx2zen5"` (AVX2's schedule
    /// for the AMD Zen 5, which checks inputs up to 64 bytes whole) and `"avx512vbmi"`
    /// (AVX-512 on a CPU with VBMI, whose nibble lookups use it). Every variant gives the
    /// same answers.
    pub fn variant(self) -> Option<&'static str> {
        arch::variant(self)
    }

    /// Validates `input` with this backend, whatever its length (the paths of
    /// `src/tiers.rs`, as [`crate::from_utf8`] takes them on the selected backend), with
    /// the same result as [`crate::from_utf8`].
    ///
    /// # Panics
    /// If this CPU cannot run the backend (see [`Backend::is_available`]).
    pub fn validate(self, input: &[u8]) -> Result<(), Utf8Error> {
        let Some(raw) = arch::raw(self) else {
            panic!(
                "vutf8: the {} backend cannot run on this CPU or target (available: see Backend::available())",
                self.name()
            )
        };
        // SAFETY: `arch::raw` returns only validators that this CPU can run.
        match entry(input, |input| unsafe { raw(input, 0) }) {
            Ok(()) => Ok(()),
            // Always through the backend's own `locate`, even where `first_error` would
            // leave it out for a short rest: the differential tests reach each backend's
            // `locate` on every length through here.
            Err(from) => Err(exact_error(input, arch::locate_with(self, input, from))),
        }
    }

    /// Like [`validate`](Backend::validate) but only says whether the input is valid, by
    /// the same code as [`crate::is_valid`] on this backend.
    ///
    /// # Panics
    /// If this CPU cannot run the backend.
    pub fn is_valid(self, input: &[u8]) -> bool {
        let Some(valid) = arch::valid(self) else {
            panic!(
                "vutf8: the {} backend cannot run on this CPU or target",
                self.name()
            )
        };
        entry(input, |input| {
            // SAFETY: `arch::valid` returns only validators that this CPU can run.
            unsafe { valid(input, 0) }.then_some(()).ok_or(0)
        })
        .is_ok()
    }
}
