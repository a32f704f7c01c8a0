//! Reading the bytes of one input and handing them to the check engine: a large regular
//! file is memory-mapped and checked on all cores ([`slicing`]), everything else is read
//! in constant memory ([`streams`]); [`reading`] chooses between them and skips binary
//! files. For `vutf8 repair`: input that says when it is about to wait ([`waiting`]), and
//! a growing file followed as `tail -F` does ([`follow`]).
//!
//! Imports only the layers below: the inputs (`inputs/`) and the check engine
//! ([`crate::scan`]), whose [`crate::scan::findings::Emit`] and
//! [`crate::scan::findings::Meter`] are the only way out, so this layer never knows how
//! a finding is written or how progress is shown. The commands (`commands/`) call
//! [`reading::Reading::check`] next.

pub mod follow;
pub mod reading;
pub mod slicing;
pub mod streams;
pub mod waiting;

#[cfg(test)]
mod agreement;
