#!/usr/bin/env python3
"""Which missed mutants of the lookup tables are equivalent (docs/RELIABILITY.md, "Mutation
testing"): a mutant of an operator inside the constants of src/arch/generic/lookup.rs (the
error flags and the three nibble tables) is equivalent when every constant evaluates to the
same value with it (the compiled tables are the same bytes). Rust's precedence of `<<`,
`>>`, `&`, `^` and `|` is Python's, so each constant is evaluated here as a Python
expression.

    scripts/mutants-equivalent.py [MISSED_TXT]   # default target/mutants/mutants.out/missed.txt

Prints EQUIVALENT, DIFFERS (a constant changes: a real miss) or OTHER (not a table
constant: judge it by hand) for each line; exits 1 if any line DIFFERS."""
import re
import sys

SRC = "src/arch/generic/lookup.rs"


def constants(lines):
    """The value of each constant, and the lines (1-based) each one spans."""
    src = re.sub(r"//[^\n]*", "", "\n".join(lines))
    env, spans = {}, []
    for m in re.finditer(r"const (\w+): (u8|\[u8; \d+\]) = (.*?);", src, re.S):
        name, ty, expr = m.groups()
        first = src.count("\n", 0, m.start()) + 1
        spans.append(range(first, first + m.group(0).count("\n") + 1))
        expr = " ".join(expr.split())
        if ty != "u8":
            expr = "(" + expr.strip()[1:-1].rstrip().rstrip(",") + ",)"
        env[name] = eval(expr, {}, dict(env))
    return env, spans


def main():
    missed = sys.argv[1] if len(sys.argv) > 1 else "target/mutants/mutants.out/missed.txt"
    text = open(SRC).read().split("\n")
    base, spans = constants(text)
    differs = False
    for line in open(missed).read().splitlines():
        m = re.match(r"(\S+):(\d+):(\d+): replace (\S+) with (\S+)$", line.strip())
        if not m or m.group(1) != SRC:
            print("OTHER     ", line)
            continue
        ln, col, old, new = int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)
        if not any(ln in span for span in spans):
            print("OTHER     ", line)
            continue
        mutated = list(text)
        at = mutated[ln - 1]
        if at[col - 1 : col - 1 + len(old)] != old:
            print("OTHER     ", line, "(the source has changed since)")
            continue
        mutated[ln - 1] = at[: col - 1] + new + at[col - 1 + len(old) :]
        after, _ = constants(mutated)
        changed = [k for k in base if base[k] != after.get(k)]
        if changed:
            differs = True
            print("DIFFERS   ", line, "->", ", ".join(changed))
        else:
            print("EQUIVALENT", line)
    sys.exit(1 if differs else 0)


main()
