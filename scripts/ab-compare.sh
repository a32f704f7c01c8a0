#!/usr/bin/env bash
# A/B: this working tree's `vutf8::is_valid` against the same function at an earlier commit,
# side by side in one process, with simdutf8 `basic` as the fixed point. Timing both versions
# in one run removes most of a shared machine's drift, which moves the corpus benchmark's
# ratios by 5-10 % from run to run (docs/PERFORMANCE.md, "What each optimisation bought").
#
# Usage: scripts/ab-compare.sh [--base REV] [--rounds N] [--aa] [--no-avx512] FILE...
#   REV: the commit to compare with (default HEAD: uncommitted changes against the last
#   commit). N: rounds (default 9); the figures are the medians of the rounds. --aa: "new"
#   is a second copy of REV instead of the working tree: the ratios then show what the
#   harness cannot tell apart, which should be within about 1 %. --no-avx512: both sides
#   built without vutf8's `avx512` feature (the path of an AVX2-only CPU). Every FILE
#   must be valid UTF-8. Two tables: batches (each round times the three validators on each
#   file in turn, 3 ms each, after one call not timed), and text not seen before (each round
#   walks all the files, one call per validator and file, each file read into the cache
#   just before: docs/PERFORMANCE.md, "Text not seen before"). The validators' order
#   changes from round to round so that each runs first, and after each other, equally
#   often: who ran just before moved a large file's figures by up to a third, whatever the
#   code ("Who runs before whom").
#
# It builds in target/ab/: a `git worktree` of REV whose package is renamed `vutf8_base`,
# and a small binary that depends on both trees and on simdutf8, with every loop aligned to
# 64 bytes (`-C llvm-args=-align-loops=64`; AB_RUSTFLAGS replaces it). Without that, where
# the link happens to put each copy's loops decides up to 8 % per file on the Zen 3, more
# than most changes are worth: two copies of the same commit measured 0.92-1.04x each
# other (geometric means), depending only on the harness's source; with it, 0.99-1.01x
# (docs/PERFORMANCE.md, "Two copies of the same code").
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
base=HEAD
rounds=9
aa=0
features=""
while [ $# -gt 0 ]; do
    case "$1" in
        --base) base=${2:?--base needs a commit}; shift 2 ;;
        --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
        --aa) aa=1; shift ;;
        --no-avx512) features=', default-features = false, features = ["std"]'; shift ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: scripts/ab-compare.sh [--base REV] [--rounds N] [--aa] [--no-avx512] FILE..." >&2; exit 2; }
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args[1].parse().expect("rounds");
    let sides: [Side; 3] = [
        ("new", vutf8::is_valid),
        ("base", vutf8_base::is_valid),
        ("simdutf8", |b| simdutf8::basic::from_utf8(b).is_ok()),
    ];
    println!("backends: new {}, base {}", vutf8::Backend::selected(), vutf8_base::Backend::selected());
    let mut names = Vec::new();
    let mut bufs = Vec::new();
    for path in &args[2..] {
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
    cargo run -q --release --manifest-path "$out/harness/Cargo.toml" --target-dir "$out/target" -- "$rounds" "${files[@]}"
