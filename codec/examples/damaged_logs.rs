//! Reads a file of logs with tokio, line by line through `vutf8_codec::LogLines`, and prints
//! each repaired line's number, its original bytes and its text, then the counts.
//!
//! `cargo run -p vutf8-codec --example damaged_logs -- FILE [POLICY]` (POLICY: escape,
//! replace, windows-1252, utf8-or-windows-1252, drop or strict; default escape). Without
//! FILE it reads
//! `target/real-logs/damaged.log` (`scripts/real-logs.sh`).

use futures_util::StreamExt;
use tokio_util::codec::FramedRead;
use vutf8_codec::{Frame, LogLines, Policy};

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../target/real-logs/damaged.log"
        )
        .to_string()
    });
    let policy = match args.next() {
        Some(name) => Policy::from_name(&name).unwrap_or_else(|| {
            eprintln!("unknown policy {name:?}");
            std::process::exit(2)
        }),
        None => Policy::Escape,
    };
    let file = tokio::fs::File::open(&path).await?;
    let mut frames = FramedRead::new(file, LogLines::new(policy));
    let (mut lines, mut shown) = (0u64, 0);
    while let Some(frame) = frames.next().await {
        lines += 1;
        match frame? {
            Frame::Line(line) if !line.is_valid() && shown < 5 => {
                shown += 1;
                let original = line.original().map(|b| b.escape_ascii().to_string());
                println!("line {}: {}", line.number(), original.unwrap_or_default());
                println!("  -> {}", line.text());
            }
            Frame::Invalid(line, error) if shown < 5 => {
                shown += 1;
                println!("line {}: refused: {error}", line.number());
            }
            Frame::TooLong {
                number, len, head, ..
            } => println!(
                "line {number}: {len} bytes, skipped: {}...",
                head.escape_ascii()
            ),
            _ => {}
        }
    }
    let counts = frames.decoder().counts();
    println!(
        "{path}: {lines} frames, {} lines: {} valid, {} invalid ({} repaired, {} dropped, {} refused), {} too long ({policy})",
        counts.records(),
        counts.valid(),
        counts.invalid(),
        counts.repaired(),
        counts.dropped(),
        counts.refused(),
        counts.too_long(),
    );
    for (kind, n) in counts.by_kind().filter(|&(_, n)| n > 0) {
        println!("  first error {kind}: {n} lines");
    }
    Ok(())
}
