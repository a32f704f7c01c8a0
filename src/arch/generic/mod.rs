//! Algorithms written once, generic over [`Vector`](vector::Vector) and, where lengths
//! choose paths, over a [`Schedule`](tuning::Schedule): the lookup algorithm ([`lookup`]:
//! tables and checks) and its schedule ([`schedule`]: which path each length takes, for
//! inputs up to a few KiB and on AVX-512 for every length; its paths [`short`] and
//! [`groups`] over the helpers of [`blocks`]; [`locate`]: where an error is; [`main_loop`]:
//! long inputs on the other backends); the search for record delimiters ([`delimiters`]); and
//! the search for ill-formed parts in damaged text ([`subparts`]). The trait [`vector`] is
//! what a backend implements: its primitives, each one instruction or a few; [`tuning`]
//! holds the schedules, one per family of CPUs.

pub(crate) mod blocks;
pub(crate) mod delimiters;
pub(crate) mod groups;
pub(crate) mod locate;
pub(crate) mod lookup;
pub(crate) mod main_loop;
pub(crate) mod schedule;
pub(crate) mod short;
pub(crate) mod subparts;
pub(crate) mod tuning;
pub(crate) mod vector;
