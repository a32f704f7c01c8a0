//! The vutf8 SQL functions on a Ballista cluster, and the same queries on this machine.
//!
//! Start a scheduler and two executors first (three terminals, or `&`):
//!
//! ```text
//! cargo run --release -p vutf8-datafusion --features ballista --bin vutf8-ballista-scheduler -- --port 50050
//! cargo run --release -p vutf8-datafusion --features ballista --bin vutf8-ballista-executor -- --scheduler-port 50050 --port 50051 --grpc-port 50052
//! cargo run --release -p vutf8-datafusion --features ballista --bin vutf8-ballista-executor -- --scheduler-port 50050 --port 50061 --grpc-port 50062
//! cargo run --release -p vutf8-datafusion --features ballista --example cluster     # df://127.0.0.1:50050
//! ```
//!
//! The example writes sample log lines to 4 Parquet files in the temporary directory (the
//! executors read them from there: on one machine that is the same directory), runs the
//! queries on the cluster and locally, prints the cluster's answers and says whether the
//! two agree. `cluster URL [DIR]` names another scheduler and a directory every executor
//! can read.

use ballista::prelude::SessionContextExt;
use datafusion::error::{DataFusionError, Result};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::prelude::{ParquetReadOptions, SessionContext};

const QUERIES: [&str; 3] = [
    "SELECT count(*) AS lines, count(*) FILTER (WHERE NOT is_valid_utf8(msg)) AS damaged FROM logs",
    "SELECT utf8_error_reason(msg) AS reason, count(*) AS lines FROM logs \
     WHERE NOT is_valid_utf8(msg) GROUP BY 1 ORDER BY 2 DESC, 1",
    "SELECT id, utf8_error_offset(msg) AS at, make_valid_utf8(msg) AS repaired FROM logs \
     WHERE NOT is_valid_utf8(msg) ORDER BY id LIMIT 5",
];

#[tokio::main]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (url, dir) = match args.as_slice() {
        [] => ("df://127.0.0.1:50050".to_string(), None),
        [url] => (url.clone(), None),
        [url, dir] => (url.clone(), Some(dir.clone())),
        _ => {
            eprintln!("usage: cluster [df://HOST:PORT [DIR]]");
            std::process::exit(2);
        }
    };
    let dir = match dir {
        Some(dir) => std::path::PathBuf::from(dir),
        None => std::env::temp_dir().join("vutf8-datafusion-cluster"),
    };
    let data = write_sample(&dir)?;

    let remote = SessionContext::remote(&url).await.map_err(|e| {
        DataFusionError::Execution(format!(
            "cannot reach the scheduler at {url} (started? see the example's docs): {e}"
        ))
    })?;
    let local = SessionContext::new();
    for ctx in [&remote, &local] {
        vutf8_datafusion::register(ctx);
        ctx.register_parquet("logs", &data, ParquetReadOptions::default())
            .await?;
    }
    let mut agree = true;
    for sql in QUERIES {
        println!("\n{sql}");
        let on_cluster = remote.sql(sql).await?.collect().await?;
        let here = local.sql(sql).await?.collect().await?;
        let text = arrow::util::pretty::pretty_format_batches(&on_cluster)?.to_string();
        println!("{text}");
        agree &= text == arrow::util::pretty::pretty_format_batches(&here)?.to_string();
    }
    let failed = remote
        .sql("SELECT validate_utf8(msg) FROM logs")
        .await?
        .collect()
        .await;
    match failed {
        Err(e) => println!("\nvalidate_utf8 on the cluster fails as it should: {e}"),
        Ok(_) => println!("\nvalidate_utf8 on the cluster: every line is valid"),
    }
    println!(
        "\nthe cluster's answers and this machine's {}",
        if agree { "agree" } else { "DIFFER" }
    );
    if !agree {
        std::process::exit(1);
    }
    Ok(())
}

/// Writes 4 Parquet files of 25,000 sample log lines each to `dir`, and returns the
/// directory as a table path.
fn write_sample(dir: &std::path::Path) -> Result<String> {
    std::fs::create_dir_all(dir)?;
    for part in 0..4 {
        let file = std::fs::File::create(dir.join(format!("part-{part}.parquet")))?;
        let mut writer = ArrowWriter::try_new(file, vutf8_datafusion::demo::schema(), None)?;
        writer.write(&vutf8_datafusion::demo::log_lines(
            part * 25_000,
            25_000,
            30,
        ))?;
        writer.close()?;
    }
    println!("wrote 100000 log lines to {}", dir.display());
    Ok(format!("{}/", dir.display()))
}
