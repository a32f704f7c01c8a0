//! Everything that depends on the target: the vector backends, their schedules, and how one
//! is chosen. A map of the files:
//!
//! - [`backends`]: the table, one row per backend of each target (vector type, schedule,
//!   module of entry points, counter, target features, detection): the one place where
//!   the rows of a target are spelled out. The target modules it draws from are declared
//!   here, each under the `cfg` of its branch of the table.
//! - [`rows`]: what a row holds and the macros that write rows (`entry_points!`,
//!   `entry_and_paths!`, `backends!`), once for every target.
//! - [`dispatch`]: the choice of a backend (at compile time where it can be made, else
//!   once, at run time) and the functions that run the chosen one, re-exported here.
//! - [`generic`]: the algorithms written once over the vector trait, the trait itself and
//!   the schedules; `x86`, `aarch64`, `wasm32`: each target's vector types; [`portable`]:
//!   what every target has; [`cpuid`]: which AVX2 schedule an x86 CPU takes.
//! - `test_text`, `tests`, `primitive_tests` (tests only): the text the scans' tests draw
//!   from; the table's rows against std and models; each primitive against a scalar model.
//!
//! A raw validator returns `Err(from)` when the input is invalid, and only says yes or no
//! as fast as it can: `from` is where its backend's `locate` starts looking ([`rows`] has
//! the contract). The caller ([`crate::engine::exact_error`]) backs up to the start of a
//! character and lets the scalar decoder find the exact error.

// The algorithm written once, with its vector trait. Declared here, not inside `backends!`,
// so that tools that walk the module tree (cargo-mutants: scripts/mutants.sh) see it;
// where a target's table is empty (the condition is the negation of the tables' cfgs
// below) nothing calls it.
#[cfg_attr(
    not(any(
        target_arch = "x86",
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon"),
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    allow(dead_code)
)]
pub(crate) mod cpuid;
pub(crate) mod generic;
pub(crate) mod portable;
#[cfg(test)]
mod primitive_tests;
pub(crate) mod window;
#[macro_use]
mod rows;
mod backends;
mod dispatch;
#[cfg(test)]
pub(crate) mod test_text;
#[cfg(all(test, feature = "std"))]
mod tests;

// Each target's vector types, under the `cfg` of its branch in the table (`backends`).
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) mod aarch64;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm32;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod x86;

pub(crate) use dispatch::{
    count_non_continuation, is_available, is_built, is_valid, locate, locate_with,
    not_built_reason, raw, scan, selected, subparts, valid, validate, variant,
};
#[cfg(all(test, feature = "std"))]
pub(crate) use {dispatch::runnable_scans, rows::ScanFn};
