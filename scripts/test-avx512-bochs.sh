#!/usr/bin/env bash
# Runs vutf8's tests on an emulated AVX-512 CPU (Bochs), so that the AVX-512 backend
# (cargo feature `avx512`, src/arch/x86/avx512.rs) is executed by the test suite on a
# machine whose own CPU lacks AVX-512 (this project's machines: AMD Zen 3).
#
# Why: the backend is chosen at run time only where the CPU has AVX512F and AVX512BW; on
# other CPUs the tests say "not run: avx512 (this CPU lacks its instructions)". qemu's TCG
# cannot emulate AVX-512 and Intel SDE cannot be installed here, but Debian's Bochs 2.7 is built
# with EVEX (AVX-512) support and has CPU models that have it.
#
# What it does:
#   1. Builds the vutf8 package's test executables (the lib's unit tests and tests/*.rs)
#      with --all-features (avx512, rayon, ...), statically linked (glibc, crt-static),
#      for x86_64-unknown-linux-gnu (so build scripts and proc-macros are not), into
#      target/bochs/cargo, with rustup's default toolchain (`cargo`).
#   2. Packs the selected ones (debug info stripped) with busybox into an initramfs (cpio
#      newc, gzip) whose /init mounts proc, sys and dev, prints the guest's avx512 CPU
#      flags, runs each binary with VUTF8_EXHAUSTIVE=reduced (the tier meant for
#      emulation) and `--test-threads=1 --nocapture` (so the tests' "backends under test"
#      lines reach the console) between BEGIN/END markers with its exit status, then
#      powers off. tests/ is copied to /vutf8/tests, the working directory, so that
#      proptest finds and replays tests/*.proptest-regressions.
#   3. Boots Debian's kernel (vmlinuz taken out of the linux-image package of
#      linux-image-amd64, which is downloaded, not installed) with it from an isolinux
#      El Torito ISO in Bochs: headless (Debian's Bochs has no `nogui`: the `term`
#      display library, its screen written to target/bochs/bochs.out, stdin /dev/null;
#      the debugger Debian's Bochs is built with is told to `continue`); the guest's
#      console on the serial port (console=ttyS0; com1 -> target/bochs/serial.log),
#      shown live; CPU model corei7_skylake_x (AVX512F, CD, BW, DQ, VL: the first and
#      smallest AVX-512 set, enough for the backend's F+BW), one CPU, 1.5 GiB; Bochs
#      panics are fatal (no questions); a wall-clock limit. Kernel options noxsaves and
#      clearcpuid=xsavec work around a Bochs CPUID bug that would make Linux turn AVX and
#      AVX-512 off (see the ISO's config below).
#   4. Exits 0 only if every selected binary reached its END marker with status 0, AND
#      the tests say the avx512 backend was under test: each "backends under test: ..."
#      line (tests/common/mod.rs) lists avx512 and says "(selected: avx512)", each
#      "primitive test ran for: [...]" line (src/arch/primitive_tests.rs) has "avx512",
#      and there is at least one such line. The other binaries use the dispatching API,
#      which selects avx512 there. Prints per binary: ok/FAIL, wall-clock seconds, the
#      libtest summary, the failed tests.
#
# Needs: Debian bookworm with apt-get; root the first time, to install what is missing
# (bochs bochs-term bochsbios vgabios busybox-static cpio isolinux syslinux-common
# xorriso jq binutils, --no-install-recommends) and the kernel package's download
# (kept as target/bochs/kernel/vmlinuz); rustup's toolchain with the
# x86_64-unknown-linux-gnu target and a C toolchain, as for `cargo test`. Work files:
# target/bochs/ (bochsrc, boot.iso, serial.log = the guest's console, bochs.log,
# markers.txt = the host's clock at each marker). Nothing outside target/ is written.
#
# Usage:
#   scripts/test-avx512-bochs.sh [TEST-BINARY-NAME...] [-- LIBTEST-ARGS...]
#     TEST-BINARY-NAME: `vutf8` (the lib's unit tests) or the name of a file in tests/
#       (differential, boundary_sweep, ...), or `all`. Default: the default set below.
#     LIBTEST-ARGS: a filter, --exact, --skip X, ... given to each binary after
#       `--test-threads=1 --nocapture`. A filter that leaves no test printing its
#       backends fails the run (nothing would show that avx512 ran).
#   e.g. scripts/test-avx512-bochs.sh vutf8 -- primitive     (about 2.5 minutes)
#        scripts/test-avx512-bochs.sh differential guard_pages
#        VUTF8_BOCHS_TIMEOUT=14400 scripts/test-avx512-bochs.sh boundary_sweep
#   Environment:
#     VUTF8_BOCHS_TIMEOUT  wall-clock limit of the emulation, seconds (default 3000)
#     VUTF8_BOCHS_CPU      Bochs CPU model (default corei7_skylake_x; corei7_icelake_u
#                          and tigerlake have AVX-512 too)
#     VUTF8_BOCHS_MEGS     guest memory, MiB (default 1536)
#     VUTF8_BOCHS_TIER     VUTF8_EXHAUSTIVE in the guest (default reduced)
#
# Times (wall-clock, on this project's 2-core Zen 3 machine while a CI run used the cores,
# so inflated; Bochs emulates one CPU on one host core, some 200 to 400 times slower than
# the tests run natively): boot to /init 2 minutes; vutf8 2 s, count 4 s, reader 6 s,
# lossy 22 s, netutf 33 s, stream 71 s, legacy 96 s, differential 78 s, errors 200 s,
# guard_pages 596 s: the default set (DEFAULT_SET below) took 21 minutes, build not
# counted (33 minutes with a second Bochs run beside it). Left out of it, by name or
# `all` only: parallel (33 minutes, partly beside a second Bochs run); exhaustive (did
# not finish in 36 minutes: only 2 of its 4 tests, the 3-byte one is the longest);
# boundary_sweep (its first test did not finish in 55 minutes beside another Bochs run):
# each needs VUTF8_BOCHS_TIMEOUT raised, and `all` takes hours; exhaustive_u32 has
# ignored tests only.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$ROOT/target/bochs"
TARGET=x86_64-unknown-linux-gnu
TIMEOUT="${VUTF8_BOCHS_TIMEOUT:-3000}"
CPU_MODEL="${VUTF8_BOCHS_CPU:-corei7_skylake_x}"
MEGS="${VUTF8_BOCHS_MEGS:-1536}"
TIER="${VUTF8_BOCHS_TIER:-reduced}"

# The default set (see the header), cheapest first. `all` is every test binary of the
# package, in this order and then the heavy ones and any other.
DEFAULT_SET=(vutf8 count reader lossy netutf stream legacy differential errors guard_pages)
ALL_ORDER=("${DEFAULT_SET[@]}" parallel exhaustive boundary_sweep exhaustive_u32)

say() { printf '=== test-avx512-bochs: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# ---- arguments ------------------------------------------------------------------------
names=()
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (libtest arguments go after --)" ;;
    *) names+=("$1"); shift ;;
    esac
done
[ ${#names[@]} -gt 0 ] || names=("${DEFAULT_SET[@]}")
case "$TIMEOUT" in '' | *[!0-9]*) die "VUTF8_BOCHS_TIMEOUT must be a number of seconds" ;; esac

# ---- packages -------------------------------------------------------------------------
PKGS=(bochs bochs-term bochsbios vgabios busybox-static cpio isolinux syslinux-common
    xorriso jq binutils)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
        missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || die "missing packages (${missing[*]}): run as root to install them"
    say "installing ${missing[*]}"
    apt-get update -q
    # --no-install-recommends, and bochs-term named: it satisfies bochs's need of a
    # display library, instead of the wxWidgets one.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

mkdir -p "$WORK"

# ---- kernel ---------------------------------------------------------------------------
KDIR="$WORK/kernel"
VMLINUZ="$KDIR/vmlinuz"
if [ ! -s "$VMLINUZ" ]; then
    kpkg="$(apt-cache depends linux-image-amd64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n1)"
    if [ -z "$kpkg" ]; then
        [ "$(id -u)" = 0 ] || die "no apt lists: run as root (apt-get update)"
        apt-get update -q
        kpkg="$(apt-cache depends linux-image-amd64 |
            sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n1)"
    fi
    [ -n "$kpkg" ] || die "cannot find the kernel package of linux-image-amd64"
    say "downloading $kpkg (not installed: only its vmlinuz is used)"
    rm -rf "$KDIR"
    mkdir -p "$KDIR"
    # apt's sandbox user must be able to write there, else apt warns and downloads as root.
    chmod 777 "$KDIR" 2>/dev/null || true
    (cd "$KDIR" && apt-get download -q "$kpkg")
    deb="$(ls "$KDIR"/linux-image-*.deb | head -n1)"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$KDIR" --wildcards './boot/vmlinuz-*'
    mv "$KDIR"/boot/vmlinuz-* "$VMLINUZ.tmp"
    rm -rf "${KDIR:?}/boot" "$deb"
    mv "$VMLINUZ.tmp" "$VMLINUZ"
fi

# ---- build ----------------------------------------------------------------------------
say "building the test binaries (static, --all-features) into target/bochs/cargo"
cd "$ROOT"
json="$WORK/build.json"
RUSTFLAGS="-C target-feature=+crt-static" CARGO_TARGET_DIR="$WORK/cargo" \
    cargo test --no-run -p vutf8 --all-features --target "$TARGET" \
    --message-format=json-render-diagnostics >"$json"
# name<TAB>executable, for the lib's unit tests and each integration test of this package.
mapfile -t built < <(jq -r --arg m "$ROOT/Cargo.toml" '
    select(.reason == "compiler-artifact" and .manifest_path == $m
        and .profile.test and .executable != null
        and any(.target.kind[]; . == "lib" or . == "test"))
    | "\(.target.name)\t\(.executable)"' "$json")
declare -A exe=()
for line in "${built[@]}"; do exe["${line%%$'\t'*}"]="${line#*$'\t'}"; done
[ ${#exe[@]} -gt 0 ] || die "cargo built no test executable"
# `all`: every binary, in ALL_ORDER and then any other; names given twice run once.
all=("${ALL_ORDER[@]}")
for n in $(printf '%s\n' "${!exe[@]}" | LC_ALL=C sort); do
    case " ${ALL_ORDER[*]} " in *" $n "*) ;; *) all+=("$n") ;; esac
done
wanted=()
for n in "${names[@]}"; do
    if [ "$n" = all ]; then
        for a in "${all[@]}"; do [ -z "${exe[$a]:-}" ] || wanted+=("$a"); done
    else
        [ -n "${exe[$n]:-}" ] || die "no test binary '$n' (there are: ${!exe[*]})"
        wanted+=("$n")
    fi
done
names=()
for n in "${wanted[@]}"; do
    case " ${names[*]:-} " in *" $n "*) ;; *) names+=("$n") ;; esac
done

# ---- initramfs ------------------------------------------------------------------------
say "packing ${names[*]} into an initramfs"
IRD="$WORK/initramfs"
rm -rf "$IRD"
mkdir -p "$IRD"/{bin,proc,sys,dev,tmp,tests}
cp /bin/busybox "$IRD/bin/busybox"
ln -s busybox "$IRD/bin/sh"
for n in "${names[@]}"; do
    strip --strip-debug -o "$IRD/tests/$n" "${exe[$n]}"
done
# The tests' sources, for proptest: it finds tests/NAME.proptest-regressions (the saved
# failing cases, replayed first) next to tests/NAME.rs below the working directory.
mkdir -p "$IRD/vutf8"
cp -r "$ROOT/tests" "$IRD/vutf8/tests"
printf '%s\n' "${names[@]}" >"$IRD/tests.list"
: >"$IRD/args.list"
[ ${#extra[@]} -eq 0 ] || printf '%s\n' "${extra[@]}" >"$IRD/args.list"
cat >"$IRD/init" <<EOF
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp TMPDIR=/tmp VUTF8_EXHAUSTIVE=$TIER
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/null >/dev/console 2>&1
echo "=== vutf8-bochs: guest up: \$(uname -r), \$(grep -c ^processor /proc/cpuinfo) cpu(s)"
echo "=== vutf8-bochs: model: \$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)"
dmesg | grep -E 'x86/fpu: Enabled|XSAVE consistency'
echo "=== vutf8-bochs: avx512 flags: \$(sed -n 's/^flags[^:]*://p' /proc/cpuinfo | head -n1 | tr ' ' '\n' | grep avx512 | tr '\n' ' ')"
set --
while IFS= read -r a; do set -- "\$@" "\$a"; done </args.list
cd /vutf8
while IFS= read -r t; do
    echo "=== vutf8-bochs: BEGIN \$t"
    /tests/\$t --test-threads=1 --nocapture "\$@"
    echo "=== vutf8-bochs: END \$t status=\$?"
done </tests.list
echo "=== vutf8-bochs: ALL DONE"
# Let the serial port send what is still in the kernel's buffer before the power goes.
sleep 5
poweroff -f
EOF
chmod +x "$IRD/init"
(cd "$IRD" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) \
    >"$WORK/initrd.gz"

# ---- boot ISO -------------------------------------------------------------------------
ISO="$WORK/iso"
rm -rf "$ISO"
mkdir -p "$ISO/isolinux"
cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 "$ISO/isolinux/"
cp "$VMLINUZ" "$ISO/vmlinuz"
cp "$WORK/initrd.gz" "$ISO/initrd.gz"
# noxsaves clearcpuid=xsavec: Bochs 2.7 reports the standard-format XSAVE size (2688)
# in CPUID 0xD.1:EBX, where the compacted format (XSAVES/XSAVEC) needs 2432 with AVX-512;
# Linux sees the mismatch ("XSAVE consistency problem"), turns XSAVE off, and with it AVX
# and AVX-512. Without XSAVES and XSAVEC it uses the standard format, whose size is right.
cat >"$ISO/isolinux/isolinux.cfg" <<'EOF'
DEFAULT linux
PROMPT 0
TIMEOUT 0
LABEL linux
  KERNEL /vmlinuz
  APPEND initrd=/initrd.gz console=ttyS0,115200 noxsaves clearcpuid=xsavec mitigations=off panic=-1 rdinit=/init
EOF
xorriso -as mkisofs -quiet -o "$WORK/boot.iso" -b isolinux/isolinux.bin \
    -c isolinux/boot.cat -no-emul-boot -boot-load-size 4 -boot-info-table "$ISO"

# ---- Bochs ----------------------------------------------------------------------------
SERIAL="$WORK/serial.log"
rm -f "$SERIAL" "$WORK/bochs.log" "$WORK/bochs.out"
cat >"$WORK/bochsrc" <<EOF
# Written by scripts/test-avx512-bochs.sh.
config_interface: textconfig
display_library: term
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
cpu: model=$CPU_MODEL, count=1, ips=100000000, reset_on_triple_fault=0
memory: guest=$MEGS, host=$MEGS
pci: enabled=1, chipset=i440fx
clock: sync=realtime, time0=local
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-master: type=cdrom, path="$WORK/boot.iso", status=inserted
boot: cdrom
floppy_bootsig_check: disabled=1
com1: enabled=1, mode=file, dev="$SERIAL"
mouse: enabled=0
sound: driver=dummy
speaker: enabled=0
log: $WORK/bochs.log
panic: action=fatal
error: action=report
info: action=report
debug: action=ignore
EOF

# Debian's Bochs has the internal debugger, which stops at the first instruction: its
# commands come from this file (continue; quit if it ever stops again).
printf 'continue\nquit\n' >"$WORK/bochs-debugger.rc"

say "booting in Bochs (CPU $CPU_MODEL, $MEGS MiB, limit ${TIMEOUT}s); guest console:"
start=$(date +%s)
# stdin from /dev/null and the term display's screen into a file: nothing interactive.
TERM=vt100 bochs-bin -q -f "$WORK/bochsrc" -rc "$WORK/bochs-debugger.rc" </dev/null >"$WORK/bochs.out" 2>&1 &
bochs_pid=$!
touch "$SERIAL"
# The guest's console, live; tail ends by itself once Bochs has exited.
tail -n +1 -F --pid="$bochs_pid" "$SERIAL" 2>/dev/null | sed -u 's/\r$//' &
tail_pid=$!
# The host's clock at each marker of the guest (the guest's own clock, driven by Bochs's
# emulated instruction count, is not wall-clock time): "SECONDS-SINCE-START MARKER".
STAMPS="$WORK/markers.txt"
: >"$STAMPS"
stamp_markers() {
    local now seen
    now=$(($(date +%s) - start))
    seen=$(wc -l <"$STAMPS")
    grep -a '^=== vutf8-bochs: \(guest up\|BEGIN \|END \|ALL DONE\)' "$SERIAL" 2>/dev/null |
        tr -d '\r' | tail -n +$((seen + 1)) | sed "s/^=== vutf8-bochs: /$now /" >>"$STAMPS" || true
}
stop_bochs() {
    kill "$bochs_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$bochs_pid" 2>/dev/null || return 0; sleep 1; done
    kill -9 "$bochs_pid" 2>/dev/null || true
}
timed_out=0
done_at=
while kill -0 "$bochs_pid" 2>/dev/null; do
    sleep 2
    stamp_markers
    now=$(date +%s)
    if [ $((now - start)) -ge "$TIMEOUT" ]; then
        timed_out=1
        say "timed out after ${TIMEOUT}s: stopping Bochs"
        stop_bochs
        break
    fi
    # The guest powers off after its last test; Bochs exits then. In case it does not.
    if grep -q '^ALL DONE' <(cut -d' ' -f2- "$STAMPS"); then
        [ -n "$done_at" ] || done_at=$now
        if [ $((now - done_at)) -ge 60 ]; then
            say "the guest finished but Bochs did not exit: stopping it"
            stop_bochs
            break
        fi
    fi
done
bochs_rc=0
wait "$bochs_pid" 2>/dev/null || bochs_rc=$?
wait "$tail_pid" 2>/dev/null || true
stamp_markers
wall=$(($(date +%s) - start))
boot=$(sed -n 's/^\([0-9]*\) guest up.*/\1/p' "$STAMPS" | head -n1)
say "Bochs exited (status $bochs_rc) after ${wall}s wall-clock (guest up after ${boot:-?}s)"

# ---- verdict --------------------------------------------------------------------------
log="$(tr -d '\r' <"$SERIAL")"
fail=0
proof=0
say "CPU: $CPU_MODEL; guest $(grep -m1 '=== vutf8-bochs: avx512 flags:' <<<"$log" |
    sed 's/^=== vutf8-bochs: //' || echo 'avx512 flags: (not printed)')"
for n in "${names[@]}"; do
    # The binary's part of the log: from its BEGIN marker to its END marker (or the end).
    part="$(awk -v b="=== vutf8-bochs: BEGIN $n" -v e="=== vutf8-bochs: END $n " '
        $0 == b { on = 1 } on { print } on && index($0, e) == 1 { exit }' <<<"$log")"
    end="$(grep "^=== vutf8-bochs: END $n " <<<"$part" || true)"
    result="$(grep -E '^test result:' <<<"$part" | tail -n1 | sed 's/^test result: //' || true)"
    # "backends under test: A, B (selected: X); not run: ..." may follow "test t ... ".
    bad=""
    saw=0
    while IFS= read -r l; do
        [ -n "$l" ] || continue
        saw=1
        case "$l" in
        *"backends under test:"*)
            list="${l#*backends under test: }"
            sel="${list#*(selected: }"; sel="${sel%%)*}"
            list="${list%% (selected:*}"
            case ", $list," in *", avx512,"*) ;; *) bad="$l" ;; esac
            [ "$sel" = avx512 ] || bad="$l"
            ;;
        *"primitive test ran for:"*)
            case "$l" in *'"avx512"'*) ;; *) bad="$l" ;; esac
            ;;
        esac
    done < <(grep -E 'backends under test:|primitive test ran for:' <<<"$part" || true)
    proof=$((proof + saw))
    # Wall-clock seconds from the host's stamps (to the few seconds of its polling).
    t0="$(awk -v n="$n" '$2 == "BEGIN" && $3 == n { print $1; exit }' "$STAMPS")"
    t1="$(awk -v n="$n" '$2 == "END" && $3 == n { print $1; exit }' "$STAMPS")"
    if [ -z "$part" ]; then
        say "FAIL $n: never started"; fail=1; continue
    elif [ -z "$end" ]; then
        say "FAIL $n: did not finish in $((wall - ${t0:-0}))s (no END marker)"; fail=1; continue
    fi
    status="$(sed -n 's/.* status=\([0-9]*\).*/\1/p' <<<"$end")"
    secs="~$((${t1:-0} - ${t0:-0}))"
    if [ "$status" != 0 ]; then
        say "FAIL $n: exit status $status after ${secs}s (${result:-no test result line})"
        # libtest's last "failures:" list: the names of the failed tests.
        failed="$(awk '/^failures:$/ { n = "" } /^    [^ ]+$/ { n = n " " $1 } END { print n }' \
            <<<"$part")"
        [ -z "$failed" ] || say "     failed:$failed"
        fail=1
    elif [ -n "$bad" ]; then
        say "FAIL $n: avx512 was not under test: ${bad#*... }"
        fail=1
    else
        what="avx512 under test"
        [ "$saw" = 1 ] || what="prints no backend list"
        say "ok   $n: ${secs}s, ${result:-no test result line} ($what)"
    fi
done
if [ "$proof" = 0 ]; then
    say "FAIL: no test printed its backends (\"backends under test\" or \"primitive test ran" \
        "for\"), so nothing shows that avx512 ran: include e.g. vutf8 -- primitive"
    fail=1
fi
[ "$timed_out" = 0 ] || fail=1
if [ "$fail" = 0 ]; then
    say "PASS: ${names[*]} on Bochs $CPU_MODEL, avx512 under test (${wall}s)"
else
    say "FAILED (serial log: $SERIAL, Bochs log: $WORK/bochs.log)"
fi
exit "$fail"
