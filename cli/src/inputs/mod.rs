//! Which inputs a run checks: the paths on the command line, directories walked, become a
//! list of [`walk::Item`]s in a fixed order ([`walk`]).
//!
//! This layer imports no other. The read layer (`read/`) opens each item next.

pub mod walk;
