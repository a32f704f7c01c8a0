"""The 100-byte cases of `bench.py --only decode` with nothing but vutf8 installed (no pyarrow,
no Polars), and A/B of builds: `b.decode('utf-8', 'strict')` time ÷ `vutf8.decode(b, 'strict')` time per
case (bench.py's calls), the median of the rounds.

    python python/bench_short.py [--corpus DIR | --cases FILE] [--save FILE] [--rounds N] [PKG ...]

The cases are bench.py's (bench_texts.py): 100 bytes from the middle of each real text
(target/real-corpus, from scripts/real-corpus.sh), cut at a character boundary. `--save FILE`
writes them to a JSON file and `--cases FILE` reads them from one, for a machine without the
corpus. Each PKG is a folder with a `vutf8` package in it (`pip install --no-deps --target PKG
WHEEL`); every round times each in a process of its own, in turn. Without PKG: the installed
vutf8.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import timeit
from pathlib import Path

from bench_texts import DECODE_TEXTS, cpu_model, middle, valid_prefix

ROOT = Path(__file__).resolve().parents[1]


def ratios(cases: dict[str, bytes]) -> dict[str, float]:
    """`b.decode('utf-8', 'strict')` time ÷ `vutf8.decode(b, 'strict')` time per case, in this
    process."""
    import vutf8

    out = {}
    for name, data in cases.items():
        assert vutf8.decode(data) == data.decode(), name
        ours = min(timeit.repeat(lambda: vutf8.decode(data, "strict"), number=50_000, repeat=5))
        theirs = min(timeit.repeat(lambda: data.decode("utf-8", "strict"), number=50_000, repeat=5))
        out[name] = theirs / ours
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "target" / "real-corpus")
    parser.add_argument("--cases", type=Path, help="read the cases from this JSON file")
    parser.add_argument("--save", type=Path, help="write the cases to this JSON file")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("pkg", nargs="*", type=Path)
    args = parser.parse_args()
    if args.cases:
        cases = {k: bytes.fromhex(v) for k, v in json.loads(args.cases.read_text()).items()}
    else:
        cases = {}
        for name, rel in DECODE_TEXTS:
            whole = (args.corpus / rel).read_bytes()
            cases[name] = valid_prefix(whole[middle(whole) :], 100)
    if args.save:
        args.save.write_text(json.dumps({k: v.hex() for k, v in cases.items()}))
    if args.child is not None:
        if args.child:
            sys.path.insert(0, args.child)
        print(json.dumps(ratios(cases)))
        return
    print(f"{cpu_model()}; Python {sys.version.split()[0]}; vutf8.decode ÷ bytes.decode, "
          f"median of {args.rounds} rounds (above 1: vutf8 faster)")
    builds = [str(p.resolve()) for p in args.pkg] or [""]
    found: dict[str, dict[str, list[float]]] = {b: {} for b in builds}
    for _ in range(args.rounds):
        for build in builds:
            cmd = [sys.executable, __file__, "--child", build, "--corpus", str(args.corpus)]
            if args.cases:
                cmd += ["--cases", str(args.cases)]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            for name, r in json.loads(done.stdout).items():
                found[build].setdefault(name, []).append(r)
    for build, per_case in found.items():
        medians = {name: statistics.median(rs) for name, rs in per_case.items()}
        cells = "  ".join(f"{name}: {r:.2f}" for name, r in medians.items())
        print(f"{build or 'installed'}: {cells}  (lowest {min(medians.values()):.2f})")


if __name__ == "__main__":
    main()
