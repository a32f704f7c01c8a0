//! Shared by the benchmarks: inputs placed 8 bytes past a 64-byte boundary (a realistic
//! worst case for alignment), the sizes and corpora the issue asks for, and a timer that
//! takes the median of interleaved rounds.
#![allow(dead_code)]

pub mod peers;
pub mod real;

use std::hint::black_box;
use std::time::{Duration, Instant};

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
    if n >= 1 << 20 && n % (1 << 20) == 0 {
        format!("{}M", n >> 20)
    } else if n >= 1 << 10 && n % (1 << 10) == 0 {
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

/// The order in which `n` contenders run in round `round`: the rows of a Williams design
/// (a Latin square balanced for first-order carry-over), so that over `n` rounds (`2n` when
/// `n` is odd) every contender runs first equally often and follows each other contender
/// equally often.
///
/// Who runs just before matters. On this project's shared Zen 3, a validator that followed
/// std on a 10 MB file (10 ms of scalar decoding per call) ran its next two calls up to a
/// third slower, whichever validator it was; a 10 ms busy loop that reads no memory did the
/// same, a loop of vector arithmetic did not slow down (docs/PERFORMANCE.md, "Who runs
/// before whom"). A plain rotation keeps the cyclic order, so the contender listed after
/// std, vutf8, followed it in three rounds out of four.
pub fn balanced_order(n: usize, round: usize) -> Vec<usize> {
    let period = if n % 2 == 0 { n } else { 2 * n };
    let r = round % period.max(1);
    // The first row: 0, 1, n-1, 2, n-2, ...; row r adds r to each entry (mod n); for odd
    // n, rows n..2n are rows 0..n reversed.
    let mut row: Vec<usize> = (0..n)
        .map(|j| match j {
            0 => 0,
            _ if j % 2 == 1 => j.div_ceil(2),
            _ => n - j / 2,
        })
        .map(|x| (x + r) % n)
        .collect();
    if n % 2 == 1 && r >= n {
        row.reverse();
    }
    row
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
