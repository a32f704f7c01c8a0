//! `vutf8-ballista-scheduler`: Ballista's scheduler, whose sessions know the vutf8
//! functions. Run one, then executors (`vutf8-ballista-executor`), then connect a client to
//! `df://HOST:PORT` and call `vutf8_datafusion::register` on its context.

use std::net::SocketAddr;
use std::sync::Arc;

use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::SchedulerConfig;
use ballista_scheduler::scheduler_process::start_server;
use clap::Parser;

/// Ballista's scheduler, with the vutf8 functions.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind_host: String,
    /// Port to listen on (gRPC, for clients and executors).
    #[arg(long, default_value_t = 50050)]
    port: u16,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    vutf8_datafusion::cluster::init_logging();
    let addr: SocketAddr = format!("{}:{}", args.bind_host, args.port).parse()?;
    let config = SchedulerConfig {
        bind_host: args.bind_host.clone(),
        bind_port: args.port,
        external_host: args.bind_host,
        ..SchedulerConfig::default()
    }
    .with_override_session_builder(vutf8_datafusion::cluster::session_builder());
    let cluster = BallistaCluster::new_from_config(&config).await?;
    eprintln!("vutf8-ballista-scheduler: listening on {addr}");
    start_server(cluster, addr, Arc::new(config)).await?;
    Ok(())
}
