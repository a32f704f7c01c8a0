//! Fast, strict UTF-8 validation with exact error positions.
//!
//! `vutf8` checks whether bytes are well-formed UTF-8 as defined by RFC 3629 (code points
//! U+0000..U+10FFFF, no surrogates, no overlong forms), with SIMD on x86 (SSE4.2, AVX2,
//! chosen at run time), aarch64 (NEON) and wasm32 (`simd128`), and a scalar reference
//! decoder everywhere else.
//!
//! ```
//! assert!(vutf8::is_valid("grüße, 世界 🌍".as_bytes()));
//!
//! let err = vutf8::from_utf8(b"path/\xC0\xAF/etc").unwrap_err();
//! assert_eq!(err.valid_up_to(), 5);
//! assert_eq!(err.error_len(), Some(1));
//! assert_eq!(err.kind(), vutf8::ErrorKind::Overlong);
//! assert_eq!(err.to_string(), "overlong encoding of U+002F at byte 5");
//! ```
//!
//! - [`is_valid`] is the fastest answer: yes or no.
//! - [`from_utf8`] and [`from_utf8_mut`] are drop-in replacements for
//!   [`core::str::from_utf8`]: the same `valid_up_to` and `error_len`, plus
//!   [`Utf8Error::kind`] saying why. They cost the same as [`is_valid`] on valid input: the
//!   vector code only finds the 64-byte block with the error, and the scalar decoder then
//!   finds the exact position.
//! - [`Backend`] names each implementation, says which this CPU can run, and runs one.
//! - [`errors`] yields *every* error of an input (each with its position and reason),
//!   resuming after each ill-formed part as `String::from_utf8_lossy` does, at the speed
//!   of [`is_valid`] on valid input; [`ErrorScanner`] does the same on a stream.
//! - [`scalar`] is the plain reference decoder the vector code is tested against.
//! - [`grammar`] is the UTF-8 grammar written once: lead bytes, sequence lengths, the
//!   continuation test, the table of well-formed sequences, character boundaries.
//! - Profiles and tools on the same engine: [`legacy`] (the original 1-to-6-octet UTF-8),
//!   [`netutf`] (the 1992 "UTF", later UTF-1), [`strip_bom`], [`from_utf8_lossy`] and
//!   [`Repairer`] (lossy decoding), [`count_chars`] and [`validate_and_count`]. See
//!   `docs/PROFILES.md`.
//! - [`Validator`] checks a stream that arrives in chunks of any size, with error offsets
//!   counted from the start of the stream; `Reader` and `StrChunks` (feature `std`)
//!   validate while reading from an `std::io::Read` / `std::io::BufRead`.
//! - `par_from_utf8` and `par_is_valid` (feature `rayon`) check one large input on all
//!   cores, with the same result as [`from_utf8`] / [`is_valid`].
//!
//! See `docs/ARCHITECTURE.md` for how the pieces fit.

#![cfg_attr(not(any(feature = "std", test)), no_std)]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod arch;
mod backend;
mod bom;
mod count;
mod error;
mod errors;
pub mod grammar;
pub mod legacy;
#[cfg(feature = "alloc")]
mod lossy;
pub mod netutf;
#[cfg(feature = "rayon")]
mod parallel;
#[cfg(feature = "std")]
mod reader;
pub mod scalar;
mod stream;
#[doc(hidden)]
pub mod tiers;

/// The README's examples, compiled and run as doctests.
#[cfg(all(doctest, feature = "rayon"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use backend::Backend;
pub use bom::{has_bom, strip_bom, strip_bom_str, UTF8_BOM};
pub use count::{count_chars, validate_and_count};
pub use error::{ErrorKind, Utf8Error};
pub use errors::{errors, ErrorScanner, Errors};
#[cfg(feature = "alloc")]
pub use lossy::{from_utf8_lossy, Repairer};
#[cfg(feature = "rayon")]
pub use parallel::{par_from_utf8, par_is_valid, PAR_THRESHOLD};
#[cfg(feature = "std")]
pub use reader::{Reader, StrChunks};
pub use stream::Validator;

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
    let len = input.len();
    if len < tiers::STD_BELOW {
        return core::str::from_utf8(input).is_ok();
    }
    if len <= tiers::ASCII_WORDS_MAX && arch::ascii_words_first() && input.is_ascii() {
        return true;
    }
    arch::validate(input, usize::try_from(at).unwrap_or(usize::MAX)).is_ok()
}

/// Checks `input` and returns the first error, if any, with the exact position.
#[inline]
pub(crate) fn validate(input: &[u8]) -> Result<(), Utf8Error> {
    let len = input.len();
    if len < tiers::STD_BELOW {
        return match core::str::from_utf8(input) {
            Ok(_) => Ok(()),
            Err(e) => Err(exact_error(input, e.valid_up_to())),
        };
    }
    if len <= tiers::ASCII_WORDS_MAX && arch::ascii_words_first() && input.is_ascii() {
        return Ok(());
    }
    match arch::validate(input, 0) {
        Ok(()) => Ok(()),
        Err(pos) => Err(exact_error(input, pos)),
    }
}

/// Finds the exact first error, given a raw validator's report that it starts at or after
/// the character containing byte `pos - 1` (see `arch`).
#[cold]
#[inline(never)]
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
    match scalar::validate_from(input, start) {
        Err(e) => e,
        Ok(()) => unreachable!("vutf8: a vector backend reported an error the scalar decoder does not see (input length {}, position {pos})", input.len()),
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
