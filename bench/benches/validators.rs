//! Criterion benchmarks: throughput of every backend this CPU has, of `is_valid` and
//! `from_utf8`, of the `simdutf8` crate (`basic` and `compat`) and of
//! `core::str::from_utf8`, for every corpus at every size of the comparison (1 B … 1 MiB).
//! Inputs start 8 bytes past a 64-byte boundary; each iteration asserts the result.
//!
//! `cargo bench -p vutf8-bench --bench validators -- cjk/64K` runs one group; the plain table with
//! ratios comes from `cargo bench -p vutf8-bench --bench compare`.

mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use support::{size_label, Placed, SIZES};
use vutf8::Backend;
use vutf8_corpus::{generate, Script};

fn validators(c: &mut Criterion) {
    for script in Script::ALL {
        let text = generate(script, 1 << 20, 42);
        for &size in SIZES {
            let bytes = support::sized(&text, size);
            let placed = Placed::new(&bytes);
            let input = placed.bytes();
            let mut g = c.benchmark_group(format!("{}/{}", script.name(), size_label(size)));
            g.throughput(Throughput::Bytes(size as u64));
            g.warm_up_time(Duration::from_millis(300));
            g.measurement_time(Duration::from_secs(1));
            g.bench_function("vutf8::is_valid", |b| {
                b.iter(|| assert!(vutf8::is_valid(black_box(input))))
            });
            g.bench_function("vutf8::from_utf8", |b| {
                b.iter(|| assert!(vutf8::from_utf8(black_box(input)).is_ok()))
            });
            for backend in Backend::available() {
                g.bench_with_input(
                    BenchmarkId::new("backend", backend.name()),
                    input,
                    |b, i| b.iter(|| assert!(backend.is_valid(black_box(i)))),
                );
            }
            g.bench_function("simdutf8::basic", |b| {
                b.iter(|| assert!(simdutf8::basic::from_utf8(black_box(input)).is_ok()))
            });
            g.bench_function("simdutf8::compat", |b| {
                b.iter(|| assert!(simdutf8::compat::from_utf8(black_box(input)).is_ok()))
            });
            g.bench_function("core::str::from_utf8", |b| {
                b.iter(|| assert!(core::str::from_utf8(black_box(input)).is_ok()))
            });
            g.finish();
        }
    }
}

criterion_group!(benches, validators);
criterion_main!(benches);
