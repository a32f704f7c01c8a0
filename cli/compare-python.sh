#!/usr/bin/env bash
# Times `vutf8 repair` (replace, and escape) beside CPython's `bytes.decode('utf-8',
# errors=...)` of the same file, as whole processes (python3 -c reading the file, decoding,
# writing the text to /dev/null), on 64 MiB of real Latin-1 text and 64 MiB of 0xFF; checks
# first that both write the same bytes; prints each median (hyperfine) and the ratios of
# wall time and of CPU time, and the peak RSS of vutf8 (/usr/bin/time). Needs: hyperfine,
# time (apt), python3, and target/real-corpus (scripts/real-corpus.sh).
#
#   cargo build --release -p vutf8-cli
#   cli/compare-python.sh [RUNS]
#
# The Latin-1 text is the Debian Reference in French, German, Spanish, Italian and
# Portuguese (target/real-corpus/text), transcoded to ISO-8859-1 (the few characters it
# lacks become `?`) and repeated to 64 MiB. Escape on 0xFF runs with `--max-line` above the
# file's size: otherwise the file, one line longer than the cap, is left out, and nothing
# is compared.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
vutf8=${VUTF8:-$PWD/target/release/vutf8}
dir=target/compare-python
mkdir -p "$dir"
cd "$dir"
python3 - <<'EOF'
import pathlib
size = 64 << 20
text = pathlib.Path("../real-corpus/text")
blob = b"".join((text / f"debian-reference.{lang}.txt").read_text("utf-8")
                .encode("iso-8859-1", errors="replace") for lang in "fr de es it pt".split())
pathlib.Path("latin1.txt").write_bytes((blob * (size // len(blob) + 1))[:size])
pathlib.Path("ff.bin").write_bytes(b"\xff" * size)
EOF
py='import sys; d=open(sys.argv[1],"rb").read(); open(sys.argv[2],"w",encoding="utf-8",newline="").write(d.decode("utf-8",sys.argv[3]))'
cases=(
    "latin1.txt replace"
    "latin1.txt backslashreplace --policy escape"
    "ff.bin replace"
    "ff.bin backslashreplace --policy escape --max-line 100000000"
)
commands=()
for case in "${cases[@]}"; do
    read -r file errors options <<<"$case"
    # shellcheck disable=SC2086
    "$vutf8" repair $options "$file" -o vutf8.out || true
    python3 -c "$py" "$file" python.out "$errors"
    cmp -s vutf8.out python.out || { echo "vutf8 and python differ on $case" >&2; exit 1; }
    commands+=("$vutf8 repair $options $file -o /dev/null" "python3 -c '$py' $file /dev/null $errors")
done
rm -f vutf8.out python.out
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N -i --style none --warmup 1 --runs "$runs" --export-json times.json "${commands[@]}" >/dev/null 2>&1
python3 - <<'EOF'
import json
r = json.load(open("times.json"))["results"]
cpu = lambda x: x["user"] + x["system"]  # means over the runs
for v, p in zip(r[::2], r[1::2]):
    print(f'{v["command"].split("repair ", 1)[1].replace(" -o /dev/null", ""):58} '
          f'vutf8 {v["median"] * 1e3:6.0f} ms (CPU {cpu(v) * 1e3:5.0f}), '
          f'python {p["median"] * 1e3:6.0f} ms (CPU {cpu(p) * 1e3:6.0f}): '
          f'{p["median"] / v["median"]:5.1f}x wall, {cpu(p) / cpu(v):5.1f}x CPU')
EOF
for case in "${cases[@]}"; do
    read -r file errors options <<<"$case"
    # shellcheck disable=SC2086
    echo "peak RSS of vutf8 repair $options $file: $(/usr/bin/time -f %M "$vutf8" repair $options "$file" -o /dev/null 2>&1 | tail -1) KiB"
done
