//! `vutf8-ballista-executor`: Ballista's executor, whose function registry holds the vutf8
//! functions. Start it after the scheduler (`vutf8-ballista-scheduler`); start as many as
//! you like, each with its own ports.

use std::sync::Arc;

use ballista_executor::executor_process::{start_executor_process, ExecutorProcessConfig};
use clap::Parser;

/// Ballista's executor, with the vutf8 functions.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// The scheduler's host.
    #[arg(long, default_value = "localhost")]
    scheduler_host: String,
    /// The scheduler's port.
    #[arg(long, default_value_t = 50050)]
    scheduler_port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind_host: String,
    /// Port for Arrow Flight (the results and shuffle data this executor serves).
    #[arg(long, default_value_t = 50051)]
    port: u16,
    /// Port for the scheduler's gRPC calls.
    #[arg(long, default_value_t = 50052)]
    grpc_port: u16,
    /// Directory for shuffle files (a temporary one if not given).
    #[arg(long)]
    work_dir: Option<String>,
    /// Tasks run at once (all cores if not given).
    #[arg(long)]
    concurrent_tasks: Option<usize>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    vutf8_datafusion::cluster::init_logging();
    let defaults = ExecutorProcessConfig::default();
    let config = ExecutorProcessConfig {
        bind_host: args.bind_host.clone(),
        external_host: Some(args.bind_host),
        port: args.port,
        grpc_port: args.grpc_port,
        scheduler_host: args.scheduler_host,
        scheduler_port: args.scheduler_port,
        work_dir: args.work_dir,
        vcores: args.concurrent_tasks.unwrap_or(defaults.vcores),
        override_function_registry: Some(Arc::new(vutf8_datafusion::cluster::function_registry())),
        ..defaults
    };
    eprintln!(
        "vutf8-ballista-executor: flight on port {}, gRPC on port {}, scheduler {}:{}",
        config.port, config.grpc_port, config.scheduler_host, config.scheduler_port
    );
    start_executor_process(Arc::new(config)).await?;
    Ok(())
}
