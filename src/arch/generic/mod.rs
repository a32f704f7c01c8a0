//! Algorithms written once, generic over [`Vector`](vector::Vector): the lookup
//! algorithm ([`lookup`]: tables and checks) and its schedule ([`schedule`]: which
//! registers are checked when, for inputs up to a few KiB and on AVX-512 for every length,
//! and where an error is; [`main_loop`]: long inputs on the other backends); and the search
//! for record delimiters ([`marks`]); and the search for ill-formed parts in damaged text
//! ([`subparts`]). The trait itself, [`vector`], is the one thing a
//! backend implements: its primitives, each one instruction or a few.

pub(crate) mod lookup;
pub(crate) mod main_loop;
pub(crate) mod marks;
pub(crate) mod schedule;
pub(crate) mod subparts;
pub(crate) mod tuning;
pub(crate) mod vector;
