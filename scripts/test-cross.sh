#!/usr/bin/env bash
# Runs the whole test suite of the `vutf8` package (lib unit tests and every integration
# test in tests/, not the doctests) on another architecture, executed for real on this
# x86-64 machine, and checks that exactly the same tests ran as on the host.
#
# Usage: scripts/test-cross.sh TARGET...
#   aarch64         aarch64-unknown-linux-gnu, NEON backend, run by qemu-aarch64-static
#   wasm32-simd128  wasm32-wasip1 with +simd128 (simd128 backend), run by Node.js
#   wasm32-scalar   wasm32-wasip1 without simd128 (only the scalar backend), run by Node.js
#   wasm32          wasm32-simd128, then wasm32-scalar
#   all             aarch64, wasm32-simd128, wasm32-scalar
# Several targets run one after the other; the first failure stops the run.
#
# What it does, per target:
#  1. Installs what it needs with apt-get (as root; nothing is done when all is installed):
#     Debian's Rust 1.96 (`rustc-web`) with, for aarch64, its arm64 standard library
#     (multiarch), the cross linker and qemu; for wasm32, the Rust sources (`rust-web-src`,
#     the standard library is built with -Zbuild-std) and wasi-libc. See docs/CROSS.md.
#  2. Lists the tests of the vutf8 package's test binaries on the host, as built by the
#     README's test command (`cargo test --all-features`: the workspace's default members,
#     not vutf8-datafusion; rustup's toolchain; not run), names prefixed by binary. Target directory: target/cross-host, or
#     $VUTF8_HOST_TARGET_DIR (CI sets it to `target`, where that command already ran).
#  3. Builds the same test binaries for the target (Debian's rustc, target/cross-aarch64 or
#     target/cross-wasm32), lists their tests under the runner, and fails unless the list
#     equals the host's list minus the exclusions declared below (printed with their
#     reasons).
#  4. Runs every binary under the runner with VUTF8_EXHAUSTIVE=reduced (see
#     tests/exhaustive.rs), prints each binary's result and time, and fails if a test
#     fails, if a binary does not report, or if the number of tests that passed differs
#     from the number listed (minus ignored ones).
#  5. Checks which backend the vector tests ran with (neon / simd128 / none).
# Features: --all-features, as on the host (rayon included; on wasm32-wasip1 it runs on
# the calling thread, see docs/CROSS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

usage() {
    sed -n '6,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
[ $# -ge 1 ] || usage
targets=()
for t in "$@"; do
    case "$t" in
        all) targets+=(aarch64 wasm32-simd128 wasm32-scalar) ;;
        wasm32) targets+=(wasm32-simd128 wasm32-scalar) ;;
        aarch64 | wasm32-simd128 | wasm32-scalar) targets+=("$t") ;;
        *) usage ;;
    esac
done
if [ ${#targets[@]} -gt 1 ]; then
    for t in "${targets[@]}"; do "$0" "$t"; done
    exit 0
fi
kind=${targets[0]}
case "$kind" in
    aarch64) triple=aarch64-unknown-linux-gnu ;;
    wasm32-*) triple=wasm32-wasip1 ;;
esac

start=$(date +%s)
say() { echo "=== [test-cross $kind, $(( $(date +%s) - start ))s] $*"; }
die() { echo "test-cross $kind: FAILED: $*" >&2; exit 1; }

# Features: the same as the host's README command (`cargo test --all-features`).
features=(--all-features)

# Tests that exist on the host but cannot run on a target, as "binary::test|reason". The
# tests themselves are cfg'd out on that target (with the same reason in the source); the
# list here makes them visible and counted. A test that is excluded but still present, or
# missing but not excluded, fails the run.
excluded=()
case "$kind" in
    wasm32-*)
        excluded=(
            "guard_pages::*|inputs next to PROT_NONE pages need mmap/mprotect, and the self-test a child process: WASI has neither (#![cfg(all(unix, feature = \"std\"))] in tests/guard_pages.rs)"
            "architecture::*|reads the workspace's source and docs/ARCHITECTURE.md: WASI has no file system without preopened folders (#![cfg(not(target_os = \"wasi\"))] in tests/architecture.rs)"
            "parallel::errors_around_every_cut|builds rayon pools of 2..8 threads: WASI cannot start threads, so ThreadPoolBuilder::build fails (cfg in tests/parallel.rs; the_global_pool_gives_the_same_answers runs instead)"
            "parallel::the_first_error_wins_even_if_a_later_piece_finishes_first|as above"
            "parallel::inputs_around_the_threshold_and_at_the_end|as above"
            "parallel::continuation_runs_longer_than_three_bytes_at_a_cut|as above"
            "vutf8::streams::parallel::tests::the_first_piece_starts_at_the_start|builds a rayon pool of 2 threads, as above (cfg in src/streams/parallel.rs)"
        )
        ;;
esac

# ---------------------------------------------------------------------------------------
# 1. Tools.

install_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' \
            || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing ${missing[*]}"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "need root (or sudo) to install ${missing[*]}"
        sudo=(sudo)
    fi
    if printf '%s\n' "${missing[@]}" | grep -q ':arm64$' \
        && ! dpkg --print-foreign-architectures | grep -qx arm64; then
        "${sudo[@]}" dpkg --add-architecture arm64
    fi
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
        --no-install-recommends "${missing[@]}" >/dev/null
}

case "$kind" in
    aarch64)
        install_packages rustc-web libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu \
            libc6-dev-arm64-cross qemu-user-static
        ;;
    wasm32*)
        install_packages rustc-web rust-web-src wasi-libc
        command -v node >/dev/null || install_packages nodejs
        ;;
esac

# Debian's compiler for the target (rustup's cannot read its standard library); the
# host's cargo, as on the host.
debian_rustc=/usr/bin/rustc
"$debian_rustc" -V | grep -q '^rustc 1\.9[6-9]\|^rustc 1\.[1-9][0-9][0-9]' \
    || die "$debian_rustc is $("$debian_rustc" -V), want Debian's rustc-web >= 1.96"
command -v cargo >/dev/null || die "cargo (rustup's) is not on PATH"

# The host's list (step 2) is read from the README's test command as the caller built it:
# CI builds it with clippy-driver as the workspace wrapper (.ci/run), so the same wrapper
# and flags, or cargo would build the workspace's crates again.
host_wrapper=()
[ -z "${RUSTC_WORKSPACE_WRAPPER:-}" ] \
    || host_wrapper=(RUSTC_WORKSPACE_WRAPPER="$RUSTC_WORKSPACE_WRAPPER" CLIPPY_ARGS="${CLIPPY_ARGS:-}")
# Everything the target build sees is set here; nothing leaks in from the caller.
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER RUSTC_BOOTSTRAP
export CARGO_TERM_COLOR=never
# No debug info: builds and links faster (backtraces still name functions).
target_env=(RUSTC="$debian_rustc" RUSTDOC=/usr/bin/rustdoc CARGO_PROFILE_TEST_DEBUG=false
    CARGO_TARGET_DIR="$root/target/cross-${kind%-*}") # (the wasm32 variants share one)
build_flags=(-p vutf8 "${features[@]}" --lib --tests --target "$triple")
case "$kind" in
    aarch64)
        [ -d /usr/lib/rustlib/aarch64-unknown-linux-gnu/lib ] \
            || die "the arm64 standard library (libstd-rust-web-dev:arm64) is missing"
        target_env+=(CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc)
        # No `-L /usr/aarch64-linux-gnu` for qemu: mixing the cross glibc with the multiarch
        # one makes every program that starts a thread hang (see docs/CROSS.md).
        runner=(qemu-aarch64-static)
        vector=neon
        # tests/guard_pages.rs starts its own test binary as a child process: under
        # qemu-user, executing an aarch64 program needs the kernel's binfmt_misc to hand it
        # to qemu. Register qemu-user-static's entry (as a normal Debian install does
        # through systemd-binfmt or binfmt-support) when it is not registered yet.
        binfmt=/proc/sys/fs/binfmt_misc
        if [ ! -e "$binfmt/qemu-aarch64" ]; then
            say "registering qemu-aarch64 with binfmt_misc (for tests that start child processes)"
            [ -e "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt" \
                || die "cannot mount binfmt_misc (needs root and kernel support)"
            cat /usr/lib/binfmt.d/qemu-aarch64.conf >"$binfmt/register" \
                || die "cannot register qemu-aarch64 with binfmt_misc"
        fi
        head -n 1 "$binfmt/qemu-aarch64" | grep -qx enabled \
            || die "the binfmt_misc entry qemu-aarch64 is disabled"
        ;;
    wasm32*)
        lld="$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
        [ -x "$lld" ] || die "rustup's rust-lld not found at $lld"
        [ -f /usr/lib/rustlib/src/rust/library/Cargo.lock ] || die "rust-web-src is missing"
        [ -f /usr/lib/wasm32-wasi/crt1-command.o ] || die "wasi-libc is missing"
        # Panics unwind (WebAssembly exception handling, which Node.js runs), as on the
        # host: a failing test is reported like there, and catch_unwind works.
        flags="-C target-feature=+exception-handling -C panic=unwind"
        flags+=" -C linker=$lld -C link-self-contained=no"
        flags+=" -L /usr/lib/wasm32-wasi -C link-arg=/usr/lib/wasm32-wasi/crt1-command.o"
        flags+=" -C link-arg=--allow-undefined"
        target_env+=(RUSTC_BOOTSTRAP=1 RUSTFLAGS="$flags")
        build_flags+=(-Zbuild-std=std,panic_unwind)
        # The standard library (built here from source, once per variant) and the other
        # dependencies at opt-level 1, vutf8 itself at the test profile's 3: the build was
        # most of this target's time.
        build_flags+=(--config 'profile.test.package."*".opt-level=1')
        # The two variants share one target directory: the standard library and the other
        # dependencies are built once, with simd128. wasm32-scalar turns simd128 off for the
        # vutf8 package alone (its library and test binaries), which is all that its
        # `cfg(target_feature = "simd128")` reads. Both through the profile's `rustflags`
        # (unstable, as -Zbuild-std is): cargo passes them before RUSTFLAGS, which would
        # win. Built apart, the second variant took as long as the first (docs/CROSS.md).
        build_flags+=(-Zprofile-rustflags
            --config 'profile.test.rustflags=["-C", "target-feature=+simd128"]')
        if [ "$kind" = wasm32-simd128 ]; then
            vector=simd128
        else
            vector=
            build_flags+=(--config 'profile.test.package.vutf8.rustflags=[]')
        fi
        runner=(node --no-warnings "$root/scripts/wasi-runner.mjs")
        ;;
esac
export VUTF8_EXHAUSTIVE=reduced

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The test executables of a `cargo test --no-run --message-format=json` build, one a line.
executables() {
    grep -o '"executable":"[^"]*"' | sed 's/^"executable":"//; s/"$//'
}
# The binary's name without cargo's hash and extension: vutf8, exhaustive, ...
binary_name() {
    basename "$1" | sed -E 's/-[0-9a-f]{16}(\.wasm)?$//'
}
# `name: test` lines of `--list` output, prefixed with the binary's name, sorted.
list_tests() {
    local name=$1
    shift
    "$@" --list 2>/dev/null | sed -n "s/^\(.*\): test\$/$name::\1/p"
}

# ---------------------------------------------------------------------------------------
# 2. The host's list.

host_dir=${VUTF8_HOST_TARGET_DIR:-$root/target/cross-host}
say "host test list (rustup's toolchain, target dir $host_dir)"
# The README's test command, built (not run): in CI, VUTF8_HOST_TARGET_DIR=target reuses
# its build. Only the vutf8 package's lib and integration test binaries are listed.
# No --workspace: the default members, as in that command (vutf8-datafusion is not one; a
# debug build of DataFusion and Ballista is large and slow, and lists none of vutf8's tests).
host_build=(cargo test --no-run "${features[@]}")
if ! env -u RUSTC -u RUSTDOC CARGO_TARGET_DIR="$host_dir" "${host_wrapper[@]}" \
    "${host_build[@]}" -q --message-format=json >"$work/host.json"; then
    env -u RUSTC -u RUSTDOC CARGO_TARGET_DIR="$host_dir" "${host_wrapper[@]}" "${host_build[@]}" || true
    die "host build"
fi
: >"$work/host.list"
while read -r exe; do
    list_tests "$(binary_name "$exe")" "$exe" >>"$work/host.list"
done < <(grep -F "\"manifest_path\":\"$root/Cargo.toml\"" "$work/host.json" \
    | grep -E '"kind":\["(lib|test)"\]' | executables)
sort -o "$work/host.list" "$work/host.list"
[ -s "$work/host.list" ] || die "no host tests listed"

# ---------------------------------------------------------------------------------------
# 3. Build for the target and compare the lists.

say "build for $triple ($debian_rustc)"
build_start=$(date +%s)
# Once for the log (progress, warnings, errors), once more (nothing left to do) for the
# paths of the test binaries.
env "${target_env[@]}" cargo test --no-run "${build_flags[@]}" || die "build for $triple"
env "${target_env[@]}" cargo test --no-run -q --message-format=json "${build_flags[@]}" \
    >"$work/target.json" || die "build for $triple"
mapfile -t exes < <(executables <"$work/target.json" | sort)
[ ${#exes[@]} -gt 0 ] || die "no test executables built"
say "built ${#exes[@]} test binaries in $(( $(date +%s) - build_start ))s"

: >"$work/target.list"
for exe in "${exes[@]}"; do
    list_tests "$(binary_name "$exe")" "${runner[@]}" "$exe" >>"$work/target.list"
done
sort -o "$work/target.list" "$work/target.list"

: >"$work/excluded.list"
if [ ${#excluded[@]} -gt 0 ]; then
    say "excluded on $kind:"
    for e in "${excluded[@]}"; do
        pattern=${e%%|*}
        # `binary::test`, or `binary::*` for every test of a binary.
        regex="^$(sed 's/[][\.^$]/\\&/g; s/\*/.*/g' <<<"$pattern")\$"
        matches=$(grep -c -- "$regex" "$work/host.list" || true)
        [ "$matches" -gt 0 ] || die "exclusion $pattern matches no host test"
        grep -- "$regex" "$work/host.list" >>"$work/excluded.list"
        echo "    $pattern ($matches tests): ${e#*|}"
        if grep -q -- "$regex" "$work/target.list"; then
            die "excluded on $kind but present there: $pattern"
        fi
    done
fi
sort -u -o "$work/excluded.list" "$work/excluded.list"
comm -23 "$work/host.list" "$work/excluded.list" >"$work/expected.list"
if ! diff -u --label "host minus excluded" --label "$kind" \
    "$work/expected.list" "$work/target.list"; then
    die "the tests on $kind differ from the host's (minus the exclusions above)"
fi
host_count=$(wc -l <"$work/host.list")
target_count=$(wc -l <"$work/target.list")

# ---------------------------------------------------------------------------------------
# 4. Run every binary.

# Two binaries at a time (VUTF8_CROSS_JOBS, default: the number of cores): under Node.js a
# binary runs on one thread, and under qemu most binaries spend most of their time in one
# long test. The slowest start first; each binary's output is kept apart and reported in
# the usual order.
jobs=${VUTF8_CROSS_JOBS:-$(nproc)}
slow_first=(boundary_sweep exhaustive parallel guard_pages)
ordered=()
for slow in "${slow_first[@]}"; do
    for exe in "${exes[@]}"; do
        [ "$(binary_name "$exe")" = "$slow" ] && ordered+=("$exe")
    done
done
for exe in "${exes[@]}"; do
    printf '%s\n' "${slow_first[@]}" | grep -qx "$(binary_name "$exe")" || ordered+=("$exe")
done
say "running ${#exes[@]} test binaries, $jobs at a time (VUTF8_EXHAUSTIVE=$VUTF8_EXHAUSTIVE, runner: ${runner[*]})"
run_binary() { # writes $work/NAME.out, .status and .secs
    local exe=$1 name t0 status=0
    name=$(binary_name "$exe")
    t0=$(date +%s)
    # A hung binary (under qemu, see docs/CROSS.md) must not hang CI: 20 minutes each.
    timeout "${VUTF8_CROSS_TIMEOUT:-1200}" "${runner[@]}" "$exe" -q >"$work/$name.out" 2>&1 \
        || status=$?
    echo "$status" >"$work/$name.status"
    echo $(( $(date +%s) - t0 )) >"$work/$name.secs"
}
running=0
for exe in "${ordered[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    run_binary "$exe" &
    running=$((running + 1))
done
wait
passed_total=0
ignored_total=0
failed=()
for exe in "${exes[@]}"; do
    name=$(binary_name "$exe")
    status=$(cat "$work/$name.status")
    secs=$(cat "$work/$name.secs")
    result=$(grep '^test result: ' "$work/$name.out" | tail -n 1 || true)
    if [ "$status" -ne 0 ] || [ -z "$result" ] || ! grep -q '^test result: ok\.' <<<"$result"; then
        cat "$work/$name.out"
        printf '    %-14s FAILED (exit status %d) %6ds\n' "$name" "$status" "$secs"
        failed+=("$name")
        continue
    fi
    passed=$(sed -E 's/.* ([0-9]+) passed;.*/\1/' <<<"$result")
    ignored=$(sed -E 's/.* ([0-9]+) ignored;.*/\1/' <<<"$result")
    listed=$(grep -c "^$name::" "$work/target.list" || true)
    [ $((passed + ignored)) -eq "$listed" ] \
        || die "$name: $passed passed + $ignored ignored, but $listed tests listed"
    printf '    %-14s %4d passed %3d ignored %6ds\n' "$name" "$passed" "$ignored" "$secs"
    passed_total=$((passed_total + passed))
    ignored_total=$((ignored_total + ignored))
done

[ ${#failed[@]} -eq 0 ] || die "test binaries that failed: ${failed[*]} (output above)"

# ---------------------------------------------------------------------------------------
# 5. Which vector backend ran.

lib=$(printf '%s\n' "${exes[@]}" | grep -E '/vutf8-[0-9a-f]{16}(\.wasm)?$' | head -n 1)
probe=$("${runner[@]}" "$lib" --exact arch::primitive_tests::prev1_prev2_prev3 --nocapture 2>&1 \
    | grep 'primitive test ran for' || true)
case "$vector" in
    "") want='primitive test ran for: \[\]' ;;
    *) want="primitive test ran for: \[\"$vector\"\]" ;;
esac
grep -q "$want" <<<"$probe" || die "vector backend: want ${vector:-none}, got: $probe"

say "passed: $passed_total tests passed, $ignored_total ignored, on $kind ($triple);" \
    "host lists $host_count, excluded $(wc -l <"$work/excluded.list"), $kind lists $target_count;" \
    "vector backend: ${vector:-none (scalar only)}; doctests not run (on neither side)"
