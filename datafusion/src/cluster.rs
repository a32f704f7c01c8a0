//! A Ballista cluster that knows the vutf8 functions (feature `ballista`).
//!
//! In Ballista the client plans the query and sends the logical plan to the scheduler,
//! which names each function by its name only; the scheduler plans stages and sends
//! physical plans to the executors, again naming functions. So all three must know the six
//! functions:
//!
//! - the client: [`crate::register`] on its `SessionContext` (from `SessionContext::remote`);
//! - the scheduler: [`session_state`] as its session builder (the binary
//!   `vutf8-ballista-scheduler`);
//! - each executor: [`function_registry`] as its function registry (the binary
//!   `vutf8-ballista-executor`).
//!
//! Everything else is Ballista's own code, started as separate processes.

use std::sync::Arc;

use ballista_core::registry::BallistaFunctionRegistry;
use datafusion::execution::SessionState;
use datafusion::prelude::SessionConfig;

/// Ballista's default executor function registry with the six functions added (replacing
/// any of the same names).
pub fn function_registry() -> BallistaFunctionRegistry {
    let mut registry = BallistaFunctionRegistry::default();
    for udf in crate::udfs() {
        registry
            .scalar_functions
            .insert(udf.name().to_string(), udf);
    }
    registry
}

/// Ballista's default scheduler session state for `config`, with the six functions.
pub fn session_state(config: SessionConfig) -> datafusion::error::Result<SessionState> {
    let mut state = ballista_core::utils::default_session_builder(config)?;
    crate::register_in(&mut state)?;
    Ok(state)
}

/// [`session_state`] as the scheduler's session builder.
pub fn session_builder() -> ballista_scheduler::SessionBuilder {
    Arc::new(session_state)
}

/// Sends Ballista's log (`info` and above unless `RUST_LOG` says otherwise) to stderr, as
/// Ballista's own binaries do; the executor logs each task it receives and runs.
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_ansi(false)
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .init();
}
