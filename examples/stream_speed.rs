//! Prints the throughput of the streaming and parallel validators against one-shot
//! `is_valid`, as medians of repeated runs (the criterion benches in `benches/stream.rs`
//! measure the same, slower and more carefully). Used to choose `PAR_THRESHOLD`.
//!
//! ```text
//! cargo run --release --features rayon --example stream_speed -- stream   # chunk sizes
//! cargo run --release --features rayon --example stream_speed -- par      # 256 MiB
//! cargo run --release --features rayon --example stream_speed -- sizes    # threshold
//! ```

use std::hint::black_box;
use std::time::Instant;

use vutf8_corpus::{generate, Script};

/// Median GB/s of `reps` runs of `f` over `bytes` bytes.
fn gbps(bytes: usize, reps: usize, mut f: impl FnMut() -> bool) -> f64 {
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            assert!(black_box(f()));
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    bytes as f64 / times[reps / 2] / 1e9
}

fn stream(text: &[u8], chunk: usize) -> bool {
    let mut v = vutf8::Validator::new();
    for c in text.chunks(chunk) {
        if v.update(black_box(c)).is_err() {
            return false;
        }
    }
    v.finish().is_ok()
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "stream".into());
    let reps = 21;
    match mode.as_str() {
        "stream" => {
            for script in [Script::Ascii, Script::Mixed, Script::Cjk] {
                let text = generate(script, 16 << 20, 1);
                let one = gbps(text.len(), reps, || vutf8::is_valid(&text));
                print!("{script:?}: is_valid {one:.2} GB/s");
                for chunk in [1 << 10, 64 << 10, 1 << 20] {
                    let s = gbps(text.len(), reps, || stream(&text, chunk));
                    print!(" | {} KiB {s:.2} ({:.3})", chunk >> 10, s / one);
                }
                println!();
            }
        }
        "par" => {
            let text = generate(Script::Mixed, 256 << 20, 1);
            let one = gbps(text.len(), 9, || vutf8::is_valid(&text));
            let par = gbps(text.len(), 9, || vutf8::par_is_valid(&text));
            let par_from = gbps(text.len(), 9, || vutf8::par_from_utf8(&text).is_ok());
            println!(
                "256 MiB Mixed, {} threads: is_valid {one:.2} GB/s, par_is_valid {par:.2} ({:.2}x), par_from_utf8 {par_from:.2} ({:.2}x)",
                rayon::current_num_threads(),
                par / one,
                par_from / one
            );
        }
        "sizes" => {
            let text = generate(Script::Mixed, 16 << 20, 1);
            for kib in [64, 128, 256, 512, 768, 1024, 1536, 2048, 4096, 16384] {
                let t = &text[..kib << 10];
                let one = gbps(t.len(), 101, || vutf8::is_valid(t));
                let par = gbps(t.len(), 101, || vutf8::par_is_valid(t));
                println!(
                    "{kib:>6} KiB: is_valid {one:.2} GB/s, par_is_valid {par:.2} GB/s ({:.2}x)",
                    par / one
                );
            }
        }
        _ => eprintln!("modes: stream, par, sizes"),
    }
}
