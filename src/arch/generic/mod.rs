//! Algorithms written once, generic over [`Vector`](super::vector::Vector): the lookup
//! algorithm ([`lookup`]: tables and checks) and its schedule ([`schedule`]: which
//! registers are checked when, for every input length); and the search for record
//! delimiters ([`marks`]).

pub(crate) mod lookup;
pub(crate) mod marks;
pub(crate) mod schedule;
