#!/usr/bin/env bash
# Times `vutf8 FILE` beside `isutf8 FILE` (moreutils), interleaved run by run so that both
# see the same machine load, with the file in the page cache; prints each median and the
# ratio, and the peak RSS of each (from /usr/bin/time). Needs: moreutils, time (apt).
#
#   cargo build --release -p vutf8-cli
#   cargo run --release -p vutf8-cli --example multilingual -- /tmp/multi.txt 269000000
#   cli/compare-isutf8.sh /tmp/multi.txt [RUNS]
set -euo pipefail
file=${1:?usage: compare-isutf8.sh FILE [RUNS]}
runs=${2:-21}
vutf8=${VUTF8:-target/release/vutf8}
cat "$file" > /dev/null # into the page cache
ns() { date +%s%N; }
declare -a tv ti
for ((i = 0; i < runs; i++)); do
    t0=$(ns); "$vutf8" "$file"; t1=$(ns)
    isutf8 "$file"; t2=$(ns)
    tv+=($(( (t1 - t0) / 1000 ))); ti+=($(( (t2 - t1) / 1000 )))
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mv=$(median "${tv[@]}"); mi=$(median "${ti[@]}")
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
echo "file: $file ($(stat -c %s "$file") bytes), $runs interleaved runs each, $(nproc) cores"
echo "vutf8  median $((mv / 1000)).$(( (mv % 1000) / 100 )) ms, peak RSS $(rss "$vutf8" "$file") KiB"
echo "isutf8 median $((mi / 1000)).$(( (mi % 1000) / 100 )) ms, peak RSS $(rss isutf8 "$file") KiB"
awk -v a="$mi" -v b="$mv" 'BEGIN { printf "vutf8 is %.1fx faster than isutf8\n", a / b }'
