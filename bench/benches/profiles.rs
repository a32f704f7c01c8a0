//! Speed of the profiles and tools against their baselines, side by side in one run:
//!
//! - `legacy`: `vutf8::legacy::validate` against strict `vutf8::from_utf8` (target: legacy
//!   >= 0.8x strict on text without 5-/6-octet forms), and on text with legacy forms;
//! - `lossy`: `vutf8::from_utf8_lossy` against `String::from_utf8_lossy` (targets: >= 5x
//!   on valid non-ASCII text, no slower on all-bad input);
//! - `count`: `vutf8::count_chars` against `str::chars().count()` (target: >= 10x on
//!   non-ASCII text), and `validate_and_count` against `from_utf8` + `chars().count()`.
//!
//! Inputs are 64 KiB, placed 8 bytes past a 64-byte boundary. Run with
//! `cargo bench -p vutf8-bench --bench profiles`; add a filter (`-- lossy`) to run one group.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;
use vutf8_corpus::{generate, Rng, Script};

const LEN: usize = 64 * 1024;

/// `bytes` copied to an address 8 bytes past a 64-byte boundary; the returned range.
fn misaligned(bytes: &[u8]) -> (Vec<u8>, std::ops::Range<usize>) {
    let mut buf = vec![0u8; bytes.len() + 128];
    let start = (64 - buf.as_ptr() as usize % 64) % 64 + 8;
    buf[start..start + bytes.len()].copy_from_slice(bytes);
    (buf, start..start + bytes.len())
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1200))
        .sample_size(30)
}

fn legacy(c: &mut Criterion) {
    let mut g = c.benchmark_group("legacy");
    g.throughput(Throughput::Bytes(LEN as u64));
    for script in [Script::Latin, Script::Cjk, Script::Emoji, Script::Mixed] {
        let (buf, r) = misaligned(&generate(script, LEN, 1));
        let input = &buf[r];
        let name = format!("{script:?}");
        g.bench_with_input(BenchmarkId::new("strict", &name), input, |b, i| {
            b.iter(|| assert!(vutf8::from_utf8(black_box(i)).is_ok()))
        });
        g.bench_with_input(BenchmarkId::new("legacy", &name), input, |b, i| {
            b.iter(|| assert!(vutf8::legacy::validate(black_box(i)).is_ok()))
        });
    }
    // Text with a 5- or 6-octet form about every 100 bytes: the slower path.
    let mut rng = Rng::new(5);
    let mut text = Vec::with_capacity(LEN + 64);
    while text.len() < LEN {
        text.extend_from_slice("Ünïcödé ".repeat(8).as_bytes());
        let v = 0x20_0000 + (rng.next_u64() as u32 % 0x7FDF_FFFF);
        text.extend_from_slice(&vutf8::legacy::encode(&[v]).unwrap());
    }
    g.bench_with_input(
        BenchmarkId::new("legacy", "with-6-octet-forms"),
        &text,
        |b, i| b.iter(|| assert!(vutf8::legacy::validate(black_box(i)).is_ok())),
    );
    g.finish();
}

fn lossy(c: &mut Criterion) {
    let mut g = c.benchmark_group("lossy");
    g.throughput(Throughput::Bytes(LEN as u64));
    let mut rng = Rng::new(9);
    let cjk = generate(Script::Cjk, LEN, 1);
    let mut corrupted = cjk.clone();
    for _ in 0..LEN / 1024 {
        let i = rng.below(corrupted.len());
        corrupted[i] = 0xFF;
    }
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        ("cjk-valid", cjk),
        ("cyrillic-valid", generate(Script::Cyrillic, LEN, 1)),
        ("cjk-1-error-per-KiB", corrupted),
        ("all-FF", vec![0xFF; LEN]),
        (
            "random-bytes",
            (0..LEN).map(|_| rng.next_u64() as u8).collect(),
        ),
    ];
    for (name, bytes) in &inputs {
        let (buf, r) = misaligned(bytes);
        let input = &buf[r];
        let want = String::from_utf8_lossy(input);
        assert_eq!(vutf8::from_utf8_lossy(input), want);
        g.bench_with_input(BenchmarkId::new("std", name), input, |b, i| {
            b.iter(|| String::from_utf8_lossy(black_box(i)).len())
        });
        g.bench_with_input(BenchmarkId::new("vutf8", name), input, |b, i| {
            b.iter(|| vutf8::from_utf8_lossy(black_box(i)).len())
        });
    }
    g.finish();
}

fn count(c: &mut Criterion) {
    let mut g = c.benchmark_group("count");
    g.throughput(Throughput::Bytes(LEN as u64));
    for script in [Script::Latin, Script::Cyrillic, Script::Cjk, Script::Mixed] {
        let bytes = generate(script, LEN, 1);
        let (buf, r) = misaligned(&bytes);
        let text = std::str::from_utf8(&buf[r]).unwrap();
        assert_eq!(vutf8::count_chars(text), text.chars().count());
        let name = format!("{script:?}");
        g.bench_with_input(BenchmarkId::new("std-chars-count", &name), text, |b, t| {
            b.iter(|| black_box(t).chars().count())
        });
        g.bench_with_input(BenchmarkId::new("count_chars", &name), text, |b, t| {
            b.iter(|| vutf8::count_chars(black_box(t)))
        });
        g.bench_with_input(
            BenchmarkId::new("std-from_utf8+count", &name),
            text,
            |b, t| {
                b.iter(|| {
                    std::str::from_utf8(black_box(t.as_bytes()))
                        .unwrap()
                        .chars()
                        .count()
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("validate_and_count", &name),
            text,
            |b, t| b.iter(|| vutf8::validate_and_count(black_box(t.as_bytes())).unwrap()),
        );
    }
    // A text that fits in L1 cache.
    let small = generate(Script::Cjk, 16 * 1024, 1);
    let small = std::str::from_utf8(&small).unwrap();
    g.throughput(Throughput::Bytes(small.len() as u64));
    g.bench_with_input(
        BenchmarkId::new("std-chars-count", "Cjk-16KiB"),
        small,
        |b, t| b.iter(|| black_box(t).chars().count()),
    );
    g.bench_with_input(
        BenchmarkId::new("count_chars", "Cjk-16KiB"),
        small,
        |b, t| b.iter(|| vutf8::count_chars(black_box(t))),
    );
    g.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = legacy, lossy, count
}
criterion_main!(benches);
