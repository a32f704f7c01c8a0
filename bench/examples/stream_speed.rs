//! Prints the throughput of the streaming and parallel validators against one-shot
//! `is_valid`, as medians of repeated runs (the criterion benches in `benches/stream.rs`
//! measure the same, slower and more carefully). Used to choose `PAR_THRESHOLD`.
//!
//! ```text
//! cargo run --release -p vutf8-bench --example stream_speed -- stream   # chunk sizes
//! cargo run --release -p vutf8-bench --example stream_speed -- par      # 256 MiB
//! cargo run --release -p vutf8-bench --example stream_speed -- sizes    # threshold
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

/// `is_valid` on the two halves of `text` on two plain threads.
fn halves(text: &[u8]) -> bool {
    let mut mid = text.len() / 2;
    while text[mid] & 0xC0 == 0x80 {
        mid -= 1;
    }
    let (l, r) = text.split_at(mid);
    std::thread::scope(|s| {
        let h = s.spawn(|| vutf8::is_valid(l));
        vutf8::is_valid(r) & h.join().unwrap()
    })
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "stream".into());
    let reps = 21;
    match mode.as_str() {
        "stream" => {
            // Alternate one-shot and streaming runs; report the median per-pair ratio.
            for script in [Script::Ascii, Script::Mixed, Script::Cjk] {
                let text = generate(script, 16 << 20, 1);
                print!("{script:?} 16 MiB:");
                for chunk in [1 << 10, 64 << 10, 1 << 20] {
                    let mut ratio: Vec<f64> = (0..reps)
                        .map(|_| {
                            let one = gbps(text.len(), 1, || vutf8::is_valid(&text));
                            gbps(text.len(), 1, || stream(&text, chunk)) / one
                        })
                        .collect();
                    ratio.sort_by(f64::total_cmp);
                    let one = gbps(text.len(), reps, || vutf8::is_valid(&text));
                    print!(
                        " | {} KiB {:.3}x (is_valid {one:.1} GB/s)",
                        chunk >> 10,
                        ratio[reps / 2]
                    );
                }
                println!();
            }
        }
        "par" => {
            // Alternate single-threaded and parallel runs and take the median of the
            // per-pair ratios: the load of a shared machine changes from second to second.
            for script in [Script::Mixed, Script::Cjk, Script::Ascii] {
                let text = generate(script, 256 << 20, 1);
                let (mut one, mut par, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
                let mut control = Vec::new();
                for _ in 0..15 {
                    let a = gbps(text.len(), 1, || vutf8::is_valid(&text));
                    let b = gbps(text.len(), 1, || vutf8::par_from_utf8(&text).is_ok());
                    // Control: two plain threads on the two halves (cut on a character
                    // boundary), what the machine gives two threads at best.
                    let c = gbps(text.len(), 1, || halves(&text));
                    one.push(a);
                    par.push(b);
                    ratio.push(b / a);
                    control.push(c / a);
                }
                for v in [&mut one, &mut par, &mut ratio, &mut control] {
                    v.sort_by(f64::total_cmp);
                }
                println!(
                    "256 MiB {script:?}, {} threads: is_valid {:.2} GB/s, par_from_utf8 {:.2} GB/s, ratio median {:.2}x (min {:.2}, max {:.2})",
                    rayon::current_num_threads(),
                    one[7],
                    par[7],
                    ratio[7],
                    ratio[0],
                    ratio[14]
                );
                println!(
                    "  control: 2 std threads on the halves: ratio median {:.2}x",
                    control[7]
                );
            }
        }
        "sizes" => {
            let text = generate(Script::Mixed, 16 << 20, 1);
            for kib in [64, 128, 256, 512, 768, 1024, 1536, 2048, 4096, 8192] {
                let mut n = kib << 10;
                while text[n] & 0xC0 == 0x80 {
                    n -= 1; // end on a character boundary
                }
                let t = &text[..n];
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
