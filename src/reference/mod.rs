//! The bottom layer of the library's logic: UTF-8 itself, with no vector code. The facts of
//! the encoding ([`grammar`]), the decoder written once over a table of sequences
//! ([`decode`]), the reference decoder that is every backend's oracle ([`scalar`]), the
//! error type ([`error`]), and the shift DFA of inputs under one word ([`word`], the first
//! step of every call, below the backends since their packed loads use it too).
//!
//! Next: `crate::arch` for the backends built on these, `crate::engine` for the calls.

pub(crate) mod decode;
pub(crate) mod error;
pub mod grammar;
pub mod scalar;
pub(crate) mod word;
