//! The check engine, the lowest layer: which validator runs over a run of bytes
//! ([`engine`]), what a leading UTF-8 signature means ([`bom`]), what a check produces
//! ([`findings`]: each error, the verdict, why a check stopped) and where an error is
//! ([`position`]: line and column).
//!
//! Nothing here reads a file or writes a line, and nothing here imports another layer:
//! the read layer above (`read/`) hands bytes in and takes findings out, through
//! [`findings::Emit`] and [`findings::Meter`]; the report layer (`report/`) turns findings
//! into text. Start with [`engine::Settings`], which every scan takes; go up to `read/`
//! next.

pub mod bom;
pub mod engine;
pub mod findings;
pub mod position;
