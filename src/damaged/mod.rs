//! Text that is not all valid: every error, not just the first ([`every_error`]: `errors`
//! over a slice; [`scanner`]: `ErrorScanner` over a stream), and lossy decoding and repair on them
//! ([`lossy`], with `alloc`), after a first error found by the engine.
//!
//! Next: `crate::engine` for the first error, `crate::arch` for the backends' search for
//! ill-formed parts.

pub(crate) mod every_error;
#[cfg(feature = "alloc")]
pub(crate) mod lossy;
pub(crate) mod scanner;
