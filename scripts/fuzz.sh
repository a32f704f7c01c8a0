#!/usr/bin/env bash
# Fuzzes vutf8 with cargo-fuzz (libFuzzer, AddressSanitizer, debug assertions): builds the
# targets in fuzz/, writes the seed corpus (fuzz/corpus/<target>/, from corpus/samples and
# generated text; kept between runs, gitignored), then runs each target for
# SECONDS_PER_TARGET seconds on one core. Fails if any target finds anything (a failed
# check, a crash, a sanitizer report, a timeout, running out of memory): the input is then
# in fuzz/artifacts/<target>/ and the log's tail is printed.
#
# Usage: scripts/fuzz.sh SECONDS_PER_TARGET [TARGET...]
#        (targets: differential mutate_valid stream_chunks records; default: all)
#        VUTF8_FUZZ_JOBS=N runs N targets at a time, each on a core of its own (default 1).
# Needs the nightly toolchain (for -Zsanitizer); installs cargo-fuzz and a C++ compiler
# (for libFuzzer) if missing. See docs/RELIABILITY.md.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:?usage: scripts/fuzz.sh SECONDS_PER_TARGET [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(differential mutate_valid stream_chunks records)

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

# Fuzzes target $1 for $secs seconds (one process, one core); its report goes to
# $logs/$1.report, its verdict (the summary line) to $logs/$1.summary, FAILED or not.
fuzz_target() {
    local t=$1 max_len log=$logs/$1.log before after rc=0 execs rate corpus
    case $t in
        mutate_valid) max_len=128 ;; # 7 header bytes and up to 16 edits of 4 bytes
        stream_chunks) max_len=4200 ;; # the chunking header and up to 4 KiB of stream
        records) max_len=12400 ;; # three 4 KiB windows of records and more (records::lines carries a record's state across windows)
        *) max_len=4096 ;;
    esac
    mkdir -p "fuzz/artifacts/$t"
    before=$(find "fuzz/artifacts/$t" -type f | wc -l)
    cargo +nightly fuzz run "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$secs" -max_len="$max_len" -timeout=30 -rss_limit_mb=4096 \
        -print_final_stats=1 >"$log" 2>&1 || rc=$?
    after=$(find "fuzz/artifacts/$t" -type f | wc -l)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    corpus=$(find "fuzz/corpus/$t" -type f | wc -l)
    if [ "$rc" -ne 0 ] || [ "$after" -ne "$before" ] || [ -z "$execs" ]; then
        {
            echo "fuzz: $t FAILED (exit $rc, $((after - before)) new artifacts in fuzz/artifacts/$t):"
            tail -n 60 "$log"
        } >"$logs/$t.report"
        echo "$t: FAILED" >"$logs/$t.summary"
    else
        { grep -E '^#[0-9]+[[:space:]]+DONE' "$log" || true; } >"$logs/$t.report"
        echo "$t: ${secs}s, $execs executions ($rate/s), corpus $corpus inputs, no finding" \
            >"$logs/$t.summary"
    fi
}

# VUTF8_FUZZ_JOBS targets at a time (default 1), each a process on a core of its own: on a
# machine with that many idle cores, each target gets the same SECONDS_PER_TARGET of a core
# as when they run one after the other. The reports are printed in the targets' order.
jobs=${VUTF8_FUZZ_JOBS:-1}
pids=()
for t in "${targets[@]}"; do
    rm -f "$logs/$t.report" "$logs/$t.summary"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    echo "fuzz: $t for ${secs}s (log: $logs/$t.log)"
    fuzz_target "$t" &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done

status=0
summary=()
for t in "${targets[@]}"; do
    echo
    echo "fuzz: $t"
    cat "$logs/$t.report" 2>/dev/null || echo "fuzz: $t FAILED (no report)"
    line=$(cat "$logs/$t.summary" 2>/dev/null || echo "$t: FAILED (no report)")
    case $line in *FAILED*) status=1 ;; esac
    summary+=("$line")
done

echo
printf 'fuzz: %s\n' "${summary[@]}"
exit $status
