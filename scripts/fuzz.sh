#!/usr/bin/env bash
# Fuzzes vutf8 with cargo-fuzz (libFuzzer, AddressSanitizer, debug assertions): builds the
# targets in fuzz/, writes the seed corpus (fuzz/corpus/<target>/, from corpus/samples and
# generated text; kept between runs, gitignored), then runs each target for
# SECONDS_PER_TARGET seconds on one core. Fails if any target finds anything (a failed
# check, a crash, a sanitizer report, a timeout, running out of memory): the input is then
# in fuzz/artifacts/<target>/ and the log's tail is printed.
#
# Usage: scripts/fuzz.sh SECONDS_PER_TARGET [TARGET...]
#        (targets: differential mutate_valid stream_chunks; default: all)
# Needs the nightly toolchain (for -Zsanitizer); installs cargo-fuzz and a C++ compiler
# (for libFuzzer) if missing. See docs/RELIABILITY.md.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:?usage: scripts/fuzz.sh SECONDS_PER_TARGET [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(differential mutate_valid stream_chunks)

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal
fi
if ! command -v c++ >/dev/null; then
    apt-get update -qq && apt-get install -y -qq g++
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
echo "fuzz: $(cargo fuzz --version), $(rustup run nightly rustc --version)"

# One build for every target (and the seed writer, built with them).
cargo +nightly fuzz build
triple=$(rustup run nightly rustc -vV | sed -n 's/^host: //p')
bin=fuzz/target/$triple/release
"$bin/make_seeds" fuzz/corpus

logs=fuzz/target/logs
mkdir -p "$logs"
status=0
summary=()
for t in "${targets[@]}"; do
    case $t in
        mutate_valid) max_len=128 ;; # 7 header bytes and up to 16 edits of 4 bytes
        stream_chunks) max_len=4200 ;; # the chunking header and up to 4 KiB of stream
        *) max_len=4096 ;;
    esac
    mkdir -p "fuzz/artifacts/$t"
    before=$(find "fuzz/artifacts/$t" -type f | wc -l)
    log=$logs/$t.log
    echo
    echo "fuzz: $t for ${secs}s (log: $log)"
    rc=0
    cargo +nightly fuzz run "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$secs" -max_len="$max_len" -timeout=30 -rss_limit_mb=4096 \
        -print_final_stats=1 >"$log" 2>&1 || rc=$?
    after=$(find "fuzz/artifacts/$t" -type f | wc -l)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    corpus=$(find "fuzz/corpus/$t" -type f | wc -l)
    if [ "$rc" -ne 0 ] || [ "$after" -ne "$before" ] || [ -z "$execs" ]; then
        echo "fuzz: $t FAILED (exit $rc, $((after - before)) new artifacts in fuzz/artifacts/$t):"
        tail -n 60 "$log"
        status=1
        summary+=("$t: FAILED")
    else
        grep -E '^#[0-9]+[[:space:]]+DONE' "$log" || true
        summary+=("$t: ${secs}s, $execs executions ($rate/s), corpus $corpus inputs, no finding")
    fi
done

echo
printf 'fuzz: %s\n' "${summary[@]}"
exit $status
