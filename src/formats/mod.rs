//! The older encodings of the Universal Character Set, each over the error iterators and the
//! decoder written once: original UTF-8 of 1 to 6 octets ([`legacy`]) and NET-UTF, later
//! UTF-1 ([`netutf`], on `legacy`'s encoder).
//!
//! Next: `crate::damaged` for the error iterators, `crate::reference::decode` for the
//! decoder.

pub mod legacy;
pub mod netutf;
