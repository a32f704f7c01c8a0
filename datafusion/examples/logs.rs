//! Log lines in a Parquet file, some with invalid bytes, checked and repaired with SQL.
//!
//! ```text
//! cargo run -p vutf8-datafusion --profile engine --example logs   # writes and queries sample logs
//! cargo run -p vutf8-datafusion --profile engine --example logs -- FILE.parquet COLUMN
//! ```

use datafusion::error::Result;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};

#[tokio::main]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, column) = match args.as_slice() {
        [] => (write_sample()?, "msg".to_string()),
        [path, column] => (path.clone(), column.clone()),
        _ => {
            eprintln!("usage: logs [FILE.parquet COLUMN]");
            std::process::exit(2);
        }
    };
    let ctx = SessionContext::new();
    vutf8_datafusion::register(&ctx);
    ctx.register_parquet("logs", &path, ParquetReadOptions::default())
        .await?;
    let show = |title: &'static str, sql: String| {
        let ctx = ctx.clone();
        async move {
            println!("\n{title}\n  {sql}");
            ctx.sql(&sql).await?.show().await
        }
    };
    let c = &column;
    show(
        "How many lines are not valid UTF-8:",
        format!("SELECT count(*) AS lines, count(*) FILTER (WHERE NOT is_valid_utf8({c})) AS damaged FROM logs"),
    )
    .await?;
    show(
        "Why:",
        format!(
            "SELECT utf8_error_reason({c}) AS reason, count(*) AS lines FROM logs \
             WHERE NOT is_valid_utf8({c}) GROUP BY 1 ORDER BY 2 DESC, 1"
        ),
    )
    .await?;
    // Line numbers in file order: one partition reads the file front to back.
    let in_order = SessionContext::new_with_config(SessionConfig::new().with_target_partitions(1));
    vutf8_datafusion::register(&in_order);
    in_order
        .register_parquet("logs", &path, ParquetReadOptions::default())
        .await?;
    let sql = format!(
        "SELECT line, utf8_error_offset({c}) AS at, utf8_error_reason({c}) AS reason, \
         make_valid_utf8({c}) AS repaired \
         FROM (SELECT row_number() OVER () AS line, {c} FROM logs) \
         WHERE NOT is_valid_utf8({c}) ORDER BY line LIMIT 8"
    );
    println!("\nThe first offending lines, where and why, and repaired:\n  {sql}");
    in_order.sql(&sql).await?.show().await?;
    ctx.sql(&format!(
        "CREATE TABLE clean AS SELECT * EXCEPT ({c}), make_valid_utf8({c}) AS {c} FROM logs"
    ))
    .await?
    .collect()
    .await?;
    show(
        "A clean table: every line that is not NULL is valid UTF-8, in a string column:",
        format!(
            "SELECT count(*) AS lines, count({c}) AS not_null, \
             count(*) FILTER (WHERE is_valid_utf8({c})) AS valid, \
             arrow_typeof(first_value({c})) AS type FROM clean"
        ),
    )
    .await?;
    show(
        "validate_utf8 stops a query at the first bad line; try_validate_utf8 makes it NULL:",
        format!("SELECT count(try_validate_utf8({c})) AS kept, count({c}) AS not_null FROM logs"),
    )
    .await?;
    match ctx
        .sql(&format!("SELECT validate_utf8({c}) FROM logs"))
        .await?
        .collect()
        .await
    {
        Ok(_) => println!("validate_utf8: every line is valid"),
        Err(e) => println!("validate_utf8 failed as it should: {e}"),
    }
    Ok(())
}

/// Writes 200,000 sample log lines, about one in 40 damaged, and returns the file's path.
fn write_sample() -> Result<String> {
    let dir = std::env::temp_dir().join("vutf8-datafusion-example");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("logs.parquet");
    let file = std::fs::File::create(&path)?;
    let mut writer = ArrowWriter::try_new(file, vutf8_datafusion::demo::schema(), None)?;
    for part in 0..20 {
        writer.write(&vutf8_datafusion::demo::log_lines(
            part * 10_000,
            10_000,
            40,
        ))?;
    }
    writer.close()?;
    println!("wrote 200000 log lines to {}", path.display());
    Ok(path.to_string_lossy().into_owned())
}
