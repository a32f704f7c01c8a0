//! The ways in for text that does not arrive as one slice on one thread, over the engine:
//! a stream in chunks of any size ([`validator`]), a reader validated while it is read
//! ([`reader`], with `std`), one large input on all cores ([`parallel`], with `rayon`).
//!
//! Next: `crate::engine` for the validation they all call.

#[cfg(feature = "rayon")]
pub(crate) mod parallel;
#[cfg(feature = "std")]
pub(crate) mod reader;
pub(crate) mod validator;
