//! Fast, strict UTF-8 validation with exact error positions.
//!
//! `vutf8` checks whether bytes are well-formed UTF-8 as defined by RFC 3629 (code points
//! U+0000..U+10FFFF, no surrogates, no overlong forms), with SIMD on x86 (SSE4.2, AVX2 and
//! AVX-512, chosen at run time), aarch64 (NEON) and wasm32 (`simd128`), and a scalar
//! reference decoder everywhere else.
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
//! - [`errors()`] yields *every* error of an input (each with its position and reason),
//!   resuming after each ill-formed part as `String::from_utf8_lossy` does, at the speed
//!   of [`is_valid`] on valid input; [`ErrorScanner`] does the same on a stream.
//! - [`scalar`] is the plain reference decoder the vector code is tested against.
//! - [`grammar`] is the UTF-8 grammar written once: lead bytes, sequence lengths, the
//!   continuation test, the table of well-formed sequences, character boundaries.
//! - Profiles and tools on the same engine: [`legacy`] (the original 1-to-6-octet UTF-8),
//!   [`netutf`] (the 1992 "UTF", later UTF-1), [`strip_bom`], [`from_utf8_lossy`] and
//!   [`Repairer`] (lossy decoding), [`to_wtf8_surrogateescape`] (Python's `surrogateescape`),
//!   [`count_chars`] and [`validate_and_count`]. See
//!   `docs/PROFILES.md`.
//! - [`Validator`] checks a stream that arrives in chunks of any size, with error offsets
//!   counted from the start of the stream; `Reader` and `StrChunks` (feature `std`)
//!   validate while reading from an `std::io::Read` / `std::io::BufRead`.
//! - [`records`] cuts a buffer into records (log lines: [`records::lines`]; any ASCII
//!   delimiter: [`records::split`]) and gives each its verdict, from one pass over the
//!   buffer rather than a call per record.
//! - `par_from_utf8` and `par_is_valid` (feature `rayon`) check one large input on all
//!   cores, with the same result as [`from_utf8`] / [`is_valid`].
//!
//! This file is the crate's front door only: the public API's modules, re-exports and
//! documentation. It computes nothing and no module imports from it. Where things are:
//! `engine` (the entry points of validation: length tiers, dispatch, exact errors on the
//! cold path), `arch` (the backends, one table per target), `arch::generic` (the lookup
//! algorithm, written once), [`grammar`] (the facts of UTF-8) and `decode` (the reference
//! decoder over them). `docs/ARCHITECTURE.md` is the map of the whole workspace.

#![cfg_attr(not(any(feature = "std", test)), no_std)]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod arch;
mod backend;
mod bom;
mod damaged;
mod engine;
mod formats;
pub mod records;
mod reference;
mod streams;
#[doc(hidden)]
pub mod tiers;

/// The README's examples, compiled and run as doctests.
#[cfg(all(doctest, feature = "rayon"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The examples of docs/RECORDS.md, compiled and run as doctests.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../docs/RECORDS.md")]
pub struct RecordsDoctests;

pub use backend::Backend;
pub use bom::{has_bom, strip_bom, strip_bom_str, UTF8_BOM};
pub use damaged::every_error::{errors, Errors};
#[cfg(feature = "alloc")]
pub use damaged::lossy::{from_utf8_lossy, to_wtf8_surrogateescape, Repairer};
pub use damaged::scanner::ErrorScanner;
pub use engine::count::{count_chars, validate_and_count};
pub use engine::{from_utf8, from_utf8_mut, is_valid};
pub use formats::{legacy, netutf};
pub use reference::error::{ErrorKind, Utf8Error};
pub use reference::{grammar, scalar};
#[cfg(feature = "rayon")]
pub use streams::parallel::{par_from_utf8, par_is_valid, PAR_THRESHOLD};
#[cfg(feature = "std")]
pub use streams::reader::{Reader, StrChunks};
pub use streams::validator::Validator;
