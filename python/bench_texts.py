"""What `bench.py` and `bench_short.py` share: the real texts they measure (paths under the
corpus of scripts/real-corpus.sh), how a piece of one is cut, and the CPU's name. Nothing
here imports more than the standard library, so that `bench_short.py` runs with only
vutf8 installed."""

from __future__ import annotations

import platform
from pathlib import Path

# Real text files: (name in the table, path under the corpus).
TEXTS = [
    ("ru man pages", "man/manpages-ru.man"),
    ("ja text", "text/debian-reference.ja.txt"),
    ("zh-cn text", "text/debian-reference.zh-cn.txt"),
    ("de text", "text/debian-reference.de.txt"),
]
# The texts `decode` is measured on: those, and English.
DECODE_TEXTS = TEXTS + [("en text (ASCII)", "text/debian-reference.en.txt")]


def cpu_model() -> str:
    """The CPU's model name, with its family and model numbers (a virtual machine may name
    only the vendor: "AMD EPYC" is Zen 3 at family 25, Zen 5 at family 26)."""
    fields: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    if "model name" not in fields:
        return platform.processor() or "unknown CPU"
    return f"{fields['model name']} (family {fields.get('cpu family', '?')}, model {fields.get('model', '?')})"


def valid_prefix(data: bytes, n: int) -> bytes:
    """The longest prefix of at most `n` bytes that ends on a character boundary."""
    n = min(n, len(data))
    while n < len(data) and 0x80 <= data[n] < 0xC0:
        n -= 1
    return data[:n]


def middle(data: bytes) -> int:
    """The first character boundary from the middle of `data` on (the start of a file is
    often an ASCII header: 100 bytes of text are taken from its middle)."""
    at = len(data) // 2
    while at < len(data) and 0x80 <= data[at] < 0xC0:
        at += 1
    return at
