#!/usr/bin/env bash
# A/B: this working tree's `vutf8::is_valid` against the same function at an earlier commit,
# side by side in one process, with simdutf8 `basic` as the fixed point. Timing both versions
# in one run removes most of a shared machine's drift, which moves the corpus benchmark's
# ratios from run to run by more than most changes are worth (docs/PERFORMANCE.md#method-ab).
#
# Usage: scripts/ab-compare.sh [--base REV] [--rounds N] [--aa] [--no-avx512]
#                              [--messages MIN:MAX:STEP] FILE...
#   REV: the commit to compare with (default HEAD: uncommitted changes against the last
#   commit). N: rounds (default 9); the figures are the medians of the rounds. --aa: "new"
#   is a second copy of REV instead of the working tree: the ratios then show what the
#   harness cannot tell apart (docs/PERFORMANCE.md#method-ab). --no-avx512: both sides
#   built without vutf8's `avx512` feature (the path of an AVX2-only CPU). Every FILE
#   must be valid UTF-8. Two tables: batches (each round times the three validators on each
#   file in turn, 3 ms each, after one call not timed), and text not seen before (each round
#   walks all the files, one call per validator and file, each file read into the cache
#   just before: docs/PERFORMANCE.md#method-unseen). --messages: per call instead
#   of whole files: for every size from MIN to MAX bytes every STEP, each round cuts fresh
#   messages of exactly that size from each FILE (at character boundaries, padded with
#   spaces, each 8 bytes past a 64-byte boundary, as the per-call sweep places them) and
#   times one call per message and side; it prints new/base per size and their geometric
#   mean per file. A first look: two versions taking turns in one process disturb each
#   other's short calls, and read some differences larger than the sweep does
#   (docs/PERFORMANCE.md#method-ab); confirm with two sweep builds run in alternating order
#   (run always in the same order, the second of two copies of one sweep binary reads
#   faster: docs/PERFORMANCE.md#method-sweep). The validators' order changes from round to
#   round so that each runs first, and after each other, equally often: who ran just before
#   moves a large file's figures, whatever the code (docs/PERFORMANCE.md#method-order).
#
# It builds in target/ab/: a `git worktree` of REV whose package is renamed `vutf8_base`,
# and a small binary that depends on both trees and on simdutf8, with every loop aligned to
# 64 bytes (`-C llvm-args=-align-loops=64`; AB_RUSTFLAGS replaces it). Without that, where
# the link happens to put each copy's loops decides more per file than most changes are
# worth: two copies of the same commit read apart, depending only on the harness's source
# (docs/PERFORMANCE.md#method-layout).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
base=HEAD
rounds=9
aa=0
features=""
messages=""
while [ $# -gt 0 ]; do
    case "$1" in
        --base) base=${2:?--base needs a commit}; shift 2 ;;
        --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
        --aa) aa=1; shift ;;
        --no-avx512) features=', default-features = false, features = ["std"]'; shift ;;
        --messages) messages=${2:?--messages needs MIN:MAX:STEP}; shift 2 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: scripts/ab-compare.sh [--base REV] [--rounds N] [--aa] [--no-avx512] [--messages MIN:MAX:STEP] FILE..." >&2; exit 2; }
if [ -n "$messages" ] && ! [[ "$messages" =~ ^[0-9]+:[0-9]+:[0-9]+$ ]]; then
    echo "ab-compare: --messages wants MIN:MAX:STEP, e.g. 64:4096:64" >&2; exit 2
fi
files=()
for f in "$@"; do files+=("$(realpath "$f")"); done

out=$root/target/ab
mkdir -p "$out"
rev=$(git rev-parse "$base")
if [ -d "$out/base" ]; then
    git worktree remove --force "$out/base"
fi
git worktree add --force --detach "$out/base" "$rev" -q
sed -i '0,/^name = "vutf8"$/s//name = "vutf8_base"/' "$out/base/Cargo.toml"
# "new": the working tree, or with --aa a second copy of REV.
new=$root
if [ -d "$out/new" ]; then
    git worktree remove --force "$out/new"
fi
if [ "$aa" = 1 ]; then
    git worktree add --force --detach "$out/new" "$rev" -q
    new=$out/new
fi

mkdir -p "$out/harness/src"
# (The peer's version is the benchmarks' own.)
simdutf8=$(grep -m1 '^simdutf8 = ' bench/Cargo.toml)
cat >"$out/harness/Cargo.toml" <<EOF
[package]
name = "ab-harness"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
vutf8 = { path = "$new"$features }
vutf8_base = { path = "$out/base"$features }
$simdutf8

[workspace]
EOF
cat >"$out/harness/src/main.rs" <<'EOF'
use std::hint::black_box;
use std::time::{Duration, Instant};

type Side = (&'static str, fn(&[u8]) -> bool);

/// Nanoseconds per call of `f` on `b`, over calls for `batch`, after one call not timed.
fn ns(f: fn(&[u8]) -> bool, b: &[u8], batch: Duration) -> f64 {
    assert!(f(black_box(b)), "a validator rejected valid text");
    let mut n = 0u64;
    let t = Instant::now();
    while t.elapsed() < batch {
        assert!(f(black_box(b)), "a validator rejected valid text");
        n += 1;
    }
    t.elapsed().as_nanos() as f64 / n as f64
}

/// Reads `b` with no branch on its bytes, to bring it into the cache.
fn touch(b: &[u8]) -> u64 {
    b.chunks_exact(8)
        .fold(0, |a, c| a ^ u64::from_le_bytes(c.try_into().unwrap()))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn report(title: &str, names: &[String], lens: &[usize], ns: &mut [Vec<Vec<f64>>]) {
    println!("{title}");
    let mut logs = Vec::new();
    for (f, per) in ns.iter_mut().enumerate() {
        let m: Vec<f64> = per.iter_mut().map(|s| median(s)).collect();
        let gbs = |i: usize| lens[f] as f64 / m[i];
        println!(
            "{:36} GB/s new {:6.2} base {:6.2} simdutf8 {:6.2}   new/base {:.3}  new/simdutf8 {:.2}  base/simdutf8 {:.2}",
            names[f], gbs(0), gbs(1), gbs(2), m[1] / m[0], m[2] / m[0], m[2] / m[1]
        );
        logs.push((m[1] / m[0]).ln());
    }
    let n = logs.len() as f64;
    println!("geometric mean new/base over {n} files: {:.3}", (logs.iter().sum::<f64>() / n).exp());
}

/// A message of exactly `size` bytes of valid text cut from `text` at a random character
/// boundary (ending at one, padded with spaces), from the generator `next`.
fn message(text: &[u8], size: usize, next: &mut impl FnMut() -> u64) -> Vec<u8> {
    let boundary = |i: usize| i >= text.len() || text[i] & 0xC0 != 0x80;
    let mut start = (next() % (text.len() - size) as u64) as usize;
    while !boundary(start) {
        start += 1;
    }
    let mut end = (start + size).min(text.len());
    while !boundary(end) {
        end -= 1;
    }
    let mut m = text[start..end].to_vec();
    m.resize(size, b' ');
    m
}

/// Per call: every size of `sizes`, fresh messages of each file in each round, one call per
/// message and side; prints new/base per size and its geometric mean per file.
fn per_call(sides: &[Side], rounds: usize, sizes: (usize, usize, usize), names: &[String], texts: &[&[u8]]) {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (min, max, step) = sizes;
    for (f, text) in texts.iter().enumerate() {
        assert!(text.len() > max + 4, "{} is shorter than the longest message", names[f]);
        let mut line = Vec::new();
        let mut logs = Vec::new();
        let (mut worst, mut best) = ((0, 0.0f64), (0, f64::MAX));
        for size in (min.max(1)..=max).step_by(step.max(1)) {
            let count = ((256 << 10) / size).clamp(64, 4096);
            let mut per = vec![Vec::new(); sides.len()];
            for r in 0..rounds {
                // Each message 8 bytes past a 64-byte boundary of the arena.
                let stride = (size + 8).div_ceil(64) * 64 + 64;
                let mut arena = vec![0u8; count * stride + 64];
                let base = (64 - arena.as_ptr() as usize % 64) % 64 + 8;
                for k in 0..count {
                    let at = base + k * stride;
                    arena[at..at + size].copy_from_slice(&message(text, size, &mut next));
                }
                for i in order::balanced_order(sides.len(), r) {
                    let t = Instant::now();
                    for k in 0..count {
                        let at = base + k * stride;
                        assert!(sides[i].1(black_box(&arena[at..at + size])), "a validator rejected valid text");
                    }
                    per[i].push(t.elapsed().as_nanos() as f64 / count as f64);
                }
            }
            let m: Vec<f64> = per.iter_mut().map(|s| median(s)).collect();
            let ratio = m[0] / m[1];
            logs.push(ratio.ln());
            if ratio > worst.1 { worst = (size, ratio); }
            if ratio < best.1 { best = (size, ratio); }
            line.push(format!("{size}:{ratio:.3}"));
        }
        let g = (logs.iter().sum::<f64>() / logs.len() as f64).exp();
        println!("{:36} new/base time: geometric mean {g:.3}, most {:.3} at {} B, least {:.3} at {} B", names[f], worst.1, worst.0, best.1, best.0);
        println!("    {}", line.join(" "));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args[1].parse().expect("rounds");
    let sizes: Option<(usize, usize, usize)> = (!args[2].is_empty()).then(|| {
        let v: Vec<usize> = args[2].split(':').map(|x| x.parse().expect("MIN:MAX:STEP")).collect();
        (v[0], v[1], v[2])
    });
    let sides: [Side; 3] = [
        ("new", vutf8::is_valid),
        ("base", vutf8_base::is_valid),
        ("simdutf8", |b| simdutf8::basic::from_utf8(b).is_ok()),
    ];
    println!("backends: new {}, base {}", vutf8::Backend::selected(), vutf8_base::Backend::selected());
    let mut names = Vec::new();
    let mut bufs = Vec::new();
    for path in &args[3..] {
        let raw = std::fs::read(path).expect("read a file");
        // 8 bytes past a 64-byte boundary, as the corpus benchmark places its inputs.
        let mut buf = vec![0u8; raw.len() + 128];
        let at = (64 - buf.as_ptr() as usize % 64) % 64 + 8;
        buf[at..at + raw.len()].copy_from_slice(&raw);
        names.push(std::path::Path::new(path).file_name().unwrap().to_string_lossy().into_owned());
        bufs.push((buf, at, raw.len()));
    }
    let texts: Vec<&[u8]> = bufs.iter().map(|(buf, at, len)| &buf[*at..*at + *len]).collect();
    let lens: Vec<usize> = texts.iter().map(|b| b.len()).collect();
    if let Some(sizes) = sizes {
        println!("per call, time per call (> 1: new slower), medians of {rounds} rounds:");
        per_call(&sides, rounds, sizes, &names, &texts);
        return;
    }
    let empty = || vec![vec![Vec::new(); sides.len()]; texts.len()];
    let (mut walk, mut batch) = (empty(), empty());
    for r in 0..rounds {
        // Text not seen before: one call per side and file, each file read in just before.
        for (f, &b) in texts.iter().enumerate() {
            for i in order::balanced_order(sides.len(), r) {
                black_box(touch(black_box(b)));
                let t = Instant::now();
                assert!(sides[i].1(black_box(b)), "a validator rejected valid text");
                walk[f][i].push(t.elapsed().as_nanos() as f64);
            }
        }
        // Batches: the same file again and again, 3 ms per side.
        for (f, &b) in texts.iter().enumerate() {
            for i in order::balanced_order(sides.len(), r) {
                batch[f][i].push(ns(sides[i].1, b, Duration::from_millis(3)));
            }
        }
    }
    report("batches (each file validated again and again):", &names, &lens, &mut batch);
    report("text not seen before (each round walks the files, one call per side and file):", &names, &lens, &mut walk);
}
EOF
# The rounds' order is the benchmarks' own (bench/benches/support/order.rs), included by path.
printf '\n#[path = "%s/bench/benches/support/order.rs"]\nmod order;\n' "$root" >>"$out/harness/src/main.rs"
if [ "$aa" = 1 ]; then
    echo "ab-compare --aa: two copies of $(git rev-parse --short "$rev"), $rounds rounds" >&2
else
    echo "ab-compare: $(git rev-parse --short HEAD)+working tree against $(git rev-parse --short "$rev"), $rounds rounds" >&2
fi
grep -m1 'model name' /proc/cpuinfo >&2 || true
RUSTFLAGS="${AB_RUSTFLAGS--C llvm-args=-align-loops=64}" \
    cargo run -q --release --manifest-path "$out/harness/Cargo.toml" --target-dir "$out/target" -- "$rounds" "$messages" "${files[@]}"
