//! Algorithms written once, generic over [`Vector`](super::vector::Vector): the lookup
//! algorithm ([`lookup`]: tables and checks) and its schedule ([`schedule`]: which
//! registers are checked when, for inputs up to a few KiB and on AVX-512 for every length,
//! and where an error is; [`main_loop`]: long inputs on the other backends); and the search
//! for record delimiters ([`marks`]).

pub(crate) mod lookup;
pub(crate) mod main_loop;
pub(crate) mod marks;
pub(crate) mod schedule;
