//! # vutf8-datafusion: vutf8 inside Arrow, DataFusion and Ballista
//!
//! When one machine's loop over files is no longer enough, UTF-8 checks run in a query
//! engine over columnar data. This crate brings vutf8 there:
//!
//! - [`kernels`] (re-exported from `vutf8-arrow`, the crate that holds them without
//!   DataFusion): Arrow kernels over `Binary`, `LargeBinary` and `BinaryView` arrays.
//! - [`functions`]: Spark 4's `is_valid_utf8`, `make_valid_utf8`, `validate_utf8` and
//!   `try_validate_utf8`, and vutf8's `utf8_error_offset` and `utf8_error_reason`, as
//!   DataFusion scalar functions; [`register`] adds them to a `SessionContext`.
//! - With the `ballista` feature, the binaries `vutf8-ballista-scheduler` and
//!   `vutf8-ballista-executor`: a Ballista cluster whose scheduler and executors know the
//!   functions, so the same SQL runs on many machines ([`cluster`]).
//!
//! ```
//! use datafusion::prelude::SessionContext;
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> datafusion::error::Result<()> {
//! let ctx = SessionContext::new();
//! vutf8_datafusion::register(&ctx);
//! let df = ctx
//!     .sql("SELECT is_valid_utf8(X'C0AF') AS ok, make_valid_utf8(X'61FF62') AS fixed")
//!     .await?;
//! let batches = df.collect().await?;
//! let text = arrow::util::pretty::pretty_format_batches(&batches)?.to_string();
//! assert!(text.contains("| false | a\u{FFFD}b "), "{text}");
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

#[cfg(feature = "ballista")]
pub mod cluster;
pub mod demo;
pub mod functions;

use std::sync::Arc;

use datafusion::execution::FunctionRegistry;
use datafusion::logical_expr::ScalarUDF;
use datafusion::prelude::SessionContext;

pub use functions::{Utf8Function, Utf8Udf};
pub use vutf8_arrow::{kernels, RowError, Utf8ArrayError};

/// The six functions as UDFs: `is_valid_utf8`, `make_valid_utf8`, `validate_utf8`,
/// `try_validate_utf8`, `utf8_error_offset`, `utf8_error_reason`.
pub fn udfs() -> Vec<Arc<ScalarUDF>> {
    functions::all()
}

/// Registers the six functions on `ctx`, replacing any of the same names (such as
/// `datafusion-spark`'s `is_valid_utf8` and `make_valid_utf8`).
pub fn register(ctx: &SessionContext) {
    for udf in udfs() {
        ctx.register_udf(udf.as_ref().clone());
    }
}

/// Registers the six functions on any DataFusion function registry (a `SessionState`
/// being built, Ballista's executor registry), replacing any of the same names.
pub fn register_in(registry: &mut dyn FunctionRegistry) -> datafusion::error::Result<()> {
    for udf in udfs() {
        registry.register_udf(udf)?;
    }
    Ok(())
}
