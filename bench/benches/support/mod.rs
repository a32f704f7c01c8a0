//! Shared by the benchmarks: inputs placed 8 bytes past a 64-byte boundary (a realistic
//! worst case for alignment), the sizes and corpora of the comparison, and a timer that
//! takes the median of interleaved rounds.
#![allow(dead_code)]

mod order;
pub mod peers;
pub mod real;

pub use order::balanced_order;

use std::hint::black_box;
use std::time::{Duration, Instant};

/// The workspace's root folder: where `target/` (the real corpora) and `docs/` (the plots)
/// are, and what relative paths given to a benchmark start from (cargo runs benchmarks in
/// their package's folder, `bench/`).
pub const WORKSPACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The sizes every benchmark runs at.
pub const SIZES: &[usize] = &[
    1,
    8,
    16,
    32,
    64,
    65,
    128,
    256,
    512,
    4 << 10,
    64 << 10,
    1 << 20,
];

/// A copy of some bytes that starts 8 bytes past a 64-byte boundary.
pub struct Placed {
    storage: Vec<u8>,
    start: usize,
    len: usize,
}

impl Placed {
    /// Copies `bytes` to an address that is 8 bytes past a multiple of 64.
    pub fn new(bytes: &[u8]) -> Placed {
        let mut storage = vec![0u8; bytes.len() + 128];
        let addr = storage.as_ptr() as usize;
        let start = (64 - addr % 64) % 64 + 8;
        storage[start..start + bytes.len()].copy_from_slice(bytes);
        Placed {
            storage,
            start,
            len: bytes.len(),
        }
    }
    /// The placed bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }
}

/// The first `size` bytes of `text` cut back to a character boundary, padded with ASCII
/// spaces to exactly `size` bytes (`text` must hold at least `size` bytes).
pub fn sized(text: &[u8], size: usize) -> Vec<u8> {
    let mut cut = size;
    while cut > 0 && cut < text.len() && text[cut] & 0xC0 == 0x80 {
        cut -= 1;
    }
    let mut bytes = text[..cut].to_vec();
    bytes.resize(size, b' ');
    bytes
}

/// A human label for a size: `64`, `4K`, `1M`.
pub fn size_label(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{}M", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{}K", n >> 10)
    } else {
        n.to_string()
    }
}

/// Nanoseconds per call of `f`, timed over a batch of calls that lasts about `target`.
pub fn ns_per_call(target: Duration, mut f: impl FnMut() -> bool) -> f64 {
    // Calibrate the batch size.
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            black_box(f());
        }
        let e = t.elapsed();
        if e >= target / 4 || n >= 1 << 30 {
            let per = e.as_nanos() as f64 / n as f64;
            let want = (target.as_nanos() as f64 / per.max(0.01)).max(1.0) as u64;
            let t = Instant::now();
            for _ in 0..want {
                black_box(f());
            }
            return t.elapsed().as_nanos() as f64 / want as f64;
        }
        n *= 4;
    }
}

/// The geometric mean of `xs` (which must not be empty).
pub fn geomean(xs: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = xs
        .into_iter()
        .fold((0.0, 0usize), |(s, n), x| (s + x.ln(), n + 1));
    (sum / n as f64).exp()
}

/// The median of `xs` (which must not be empty).
pub fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Reads every byte of `bytes` (an XOR of its 8-byte words, with no branch on the data): it
/// brings them into the cache without teaching the branch predictor anything about them.
pub fn touch(bytes: &[u8]) -> u64 {
    bytes
        .chunks_exact(8)
        .fold(0, |acc, w| acc ^ u64::from_le_bytes(w.try_into().unwrap()))
}

/// Draws the legend of a plot's chart: the series' labels in a framed box at the upper left,
/// as every plot of the benchmarks has it.
pub fn draw_legend<'a, DB, CT>(
    chart: &mut plotters::chart::ChartContext<'a, DB, CT>,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB: plotters::prelude::DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: plotters::coord::CoordTranslate,
{
    use plotters::prelude::*;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    Ok(())
}
