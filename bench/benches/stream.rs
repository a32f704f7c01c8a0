//! Streaming and parallel throughput against one-shot `is_valid`.
//!
//! - `stream/<script>`: one 8 MiB text, validated by `is_valid` in one call (the baseline)
//!   and by `Validator` in chunks of 1 KiB, 64 KiB and 1 MiB.
//! - `parallel/<size>`: `is_valid` against `par_is_valid` and
//!   `par_from_utf8` from 256 KiB (below `PAR_THRESHOLD`) to 256 MiB, on rayon's global
//!   pool (all cores; `RAYON_NUM_THREADS` sets it).
//!
//! Every run asserts its result. `cargo bench -p vutf8-bench --bench stream`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;
use vutf8_corpus::{generate, Script};

fn streaming(c: &mut Criterion) {
    for script in [Script::Ascii, Script::Mixed, Script::Cjk] {
        let text = generate(script, 8 << 20, 1);
        let mut g = c.benchmark_group(format!("stream/{script:?}"));
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        g.bench_function("is_valid", |b| {
            b.iter(|| assert!(vutf8::is_valid(black_box(&text))))
        });
        for chunk in [1usize << 10, 64 << 10, 1 << 20] {
            g.bench_with_input(
                BenchmarkId::new("Validator", format!("{} KiB", chunk >> 10)),
                &chunk,
                |b, &chunk| {
                    b.iter(|| {
                        let mut v = vutf8::Validator::new();
                        for piece in text.chunks(chunk) {
                            v.update(black_box(piece)).unwrap();
                        }
                        v.finish().unwrap();
                    })
                },
            );
        }
        g.finish();
    }
}

fn parallel(c: &mut Criterion) {
    let text = generate(Script::Mixed, 256 << 20, 1);
    for size in [
        256usize << 10,
        1 << 20,
        2 << 20,
        4 << 20,
        16 << 20,
        (256 << 20) - 1,
    ] {
        let mut end = size;
        while text[end] & 0xC0 == 0x80 {
            end -= 1; // end on a character boundary
        }
        let input = &text[..end];
        let mut g = c.benchmark_group(format!("parallel/{} KiB", size >> 10));
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        g.bench_function("is_valid", |b| {
            b.iter(|| assert!(vutf8::is_valid(black_box(input))))
        });
        g.bench_function("par_is_valid", |b| {
            b.iter(|| assert!(vutf8::par_is_valid(black_box(input))))
        });
        g.bench_function("par_from_utf8", |b| {
            b.iter(|| assert!(vutf8::par_from_utf8(black_box(input)).is_ok()))
        });
        g.finish();
    }
}

criterion_group!(benches, streaming, parallel);
criterion_main!(benches);
