//! Algorithms written once, generic over [`Vector`](super::vector::Vector).

pub(crate) mod lookup;
