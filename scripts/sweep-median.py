#!/usr/bin/env python3
"""The per-call sweep's CSVs of several runs, read together: for each kind of text, the
median over the runs of each size's vutf8 time and of its ratio to the fastest peer, and
from them the per-call marks (docs/PERFORMANCE.md#method-sweep).

Usage: scripts/sweep-median.py [--exclude NAME,...] [--smooth N] CSV...

  CSV        the sweep's outputs (target/sweep/<build>.csv, or scripts/sweep-cores.sh's
             NAME-KIND.csv): give every run of one build, never two builds at once. A kind
             found in several files counts once per file.
  --exclude  peers that do not count as "the fastest peer" (`--exclude simdutf` for runs of
             the AVX2 build on an AVX-512 CPU from before the benches held simdutf to AVX2,
             as those sweeps themselves did)
  --smooth N also list the cliffs of the times smoothed over N sizes (each size's median
             time replaced by the median of the N sizes around it; default 9). On a
             machine whose timer is noisy below about 100 B, single sizes there differ by
             1.5x from run to run and the plain list holds hundreds of them.

Each ratio here is the fastest peer's median time over vutf8's at one size in one run
(the sweep's own summary takes the median over its rounds of the ratio within a round),
then the median over the runs. Sizes are listed as ranges.
"""
import csv
import math
import statistics
import sys

CLIFF = 1.15  # as `CLIFF` in bench/benches/sweep.rs


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def ranges(sizes):
    out = []
    for s in sizes:
        if out and s == out[-1][1] + 1:
            out[-1][1] = s
        else:
            out.append([s, s])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in out) or "none"


def cliffs(times):
    """(size, cheapest larger size, ratio) where a size from 8 B costs > CLIFF x a larger one."""
    found, best = [], None
    for s in sorted(times, reverse=True):
        if best and s >= 8 and times[s] > CLIFF * best[1]:
            found.append((s, best[0], times[s] / best[1]))
        if best is None or times[s] < best[1]:
            best = (s, times[s])
    return sorted(found)


def describe(found):
    if not found:
        return "none"
    worst = max(found, key=lambda c: c[2])
    return (f"{len(found)} sizes ({ranges([c[0] for c in found])}); "
            f"worst {worst[0]} B at {worst[2]:.2f}x {worst[1]} B")


def main(argv):
    exclude, smooth, files = set(), 9, []
    args = iter(argv)
    for a in args:
        if a == "--exclude":
            exclude |= set(next(args).split(","))
        elif a == "--smooth":
            smooth = int(next(args))
        elif a.startswith("--"):
            sys.exit(f"sweep-median: unknown option {a}")
        else:
            files.append(a)
    if not files:
        sys.exit(__doc__)
    runs = {}  # kind -> list of {size: {contender: ns}}, one per file that has the kind
    for f in files:
        per_kind = {}
        with open(f, newline="") as fh:
            for row in csv.DictReader(fh):
                ns = {c: float(v) for c, v in row.items() if c not in ("kind", "size")}
                per_kind.setdefault(row["kind"], {})[int(row["size"])] = ns
        for kind, sizes in per_kind.items():
            runs.setdefault(kind, []).append(sizes)
    for kind, data in runs.items():
        sizes = sorted(set.intersection(*(set(d) for d in data)))
        peers = [c for c in data[0][sizes[0]] if not c.startswith("vutf8") and c not in exclude]
        med = statistics.median
        vt = {s: med(d[s]["vutf8 is_valid"] for d in data) for s in sizes}
        ratio = {s: med(min(d[s][p] for p in peers) / d[s]["vutf8 is_valid"] for d in data)
                 for s in sizes}
        mid = [s for s in sizes if 64 <= s <= 4096]
        print(f"### {kind} ({len(data)} runs; peers: {', '.join(peers)})")
        if mid:
            below = [s for s in mid if ratio[s] < 1.0]
            worst = min(mid, key=lambda s: ratio[s])
            fu = geomean([med(d[s]["vutf8 from_utf8"] / d[s]["vutf8 is_valid"] for d in data)
                          for s in mid])
            # Each inlined into the caller's loop (bench/benches/sweep.rs, `pass`);
            # Older CSVs have the control `is_valid called` instead.
            pair = (("vutf8 from_utf8 inlined", "vutf8 is_valid inlined")
                    if "vutf8 is_valid inlined" in data[0][mid[0]]
                    else ("vutf8 from_utf8", "vutf8 is_valid called"))
            ctl = geomean([med(d[s][pair[0]] / d[s][pair[1]] for d in data) for s in mid])
            print(f"- 64 B - 4 KiB ({len(mid)} sizes): vutf8 ÷ fastest peer, geometric mean "
                  f"{geomean([ratio[s] for s in mid]):.3f}, worst {ratio[worst]:.3f} at "
                  f"{worst} B; {len(below)} sizes below 1.0 ({ranges(below)})")
            print(f"- `from_utf8` ÷ `is_valid`: {fu:.3f}; {pair[0]} ÷ {pair[1]}: {ctl:.3f}")
        for lo, hi in ((8, 63), (1, 7)):
            vs_std = {s: med(d[s]["std"] / d[s]["vutf8 is_valid"] for d in data)
                      for s in sizes if lo <= s <= hi}
            if vs_std:
                least = min(vs_std, key=vs_std.get)
                print(f"- {lo}-{hi} B: at least {vs_std[least]:.2f}x std's speed ({least} B)")
        print(f"- cliffs: {describe(cliffs(vt))}")
        if smooth > 1:
            half = smooth // 2
            sm = {s: med(vt[t] for t in sizes[max(0, i - half):i + half + 1])
                  for i, s in enumerate(sizes)}
            print(f"- cliffs, smoothed over {smooth} sizes: {describe(cliffs(sm))}")
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
