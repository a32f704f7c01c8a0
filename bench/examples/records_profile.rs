//! Runs `vutf8::records::lines` over one log file again and again, for profiling.
//! Usage: `records_profile FILE [SECONDS]`.
use std::hint::black_box;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let secs: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let buf = std::fs::read(&path).expect("read FILE");
    let t = Instant::now();
    let mut calls = 0u64;
    let (mut lines, mut valid) = (0usize, 0usize);
    while t.elapsed() < Duration::from_secs_f64(secs) {
        for r in vutf8::records::lines(black_box(&buf)) {
            lines += 1;
            valid += usize::from(r.is_valid());
        }
        calls += 1;
    }
    let per = t.elapsed().as_secs_f64() / calls as f64;
    println!(
        "{path}: {:.2} GB/s, {:.1} ns per line ({} lines, {} valid per call)",
        buf.len() as f64 / per / 1e9,
        per * 1e9 / (lines as f64 / calls as f64),
        lines as u64 / calls,
        valid as u64 / calls
    );
}
