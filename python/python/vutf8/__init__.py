"""vutf8: fast, strict UTF-8 validation with exact error positions.

Any object with the buffer protocol (bytes, bytearray, memoryview, mmap, array.array,
NumPy arrays) is read in place, without a copy::

    >>> import vutf8
    >>> vutf8.is_valid(b"caf\\xc3\\xa9")
    True
    >>> vutf8.validate(b"path/\\xc0\\xaf")
    Traceback (most recent call last):
    ...
    vutf8.Utf8Error: 'utf-8' codec can't decode byte 0xc0 in position 5: invalid start byte

`Utf8Error` is a `UnicodeDecodeError` with the fields `bytes.decode('utf-8')` gives, plus
vutf8's own reason (`kind`, `code_point`). Lines: `line_verdicts`, `invalid_lines` and
`repair`; streams: `Validator`, `validate_stream`, `validate_file`; Arrow columns (pyarrow,
Polars, anything with the Arrow PyCapsule interface): the `vutf8.arrow` module.

The native functions live in `vutf8._vutf8` (Rust, PyO3); docs/PYTHON.md in the repository
has the decisions.
"""

from __future__ import annotations

import mmap
import os
from typing import IO

from vutf8._vutf8 import (
    DETACH_MIN,
    __version__,
    POLICIES,
    Utf8Error,
    Validator,
    backend,
    invalid_lines,
    is_valid,
    line_verdicts,
    repair,
    validate,
)

__all__ = [
    "DETACH_MIN",
    "__version__",
    "POLICIES",
    "Utf8Error",
    "Validator",
    "arrow",
    "backend",
    "invalid_lines",
    "is_valid",
    "line_verdicts",
    "repair",
    "validate",
    "validate_file",
    "validate_stream",
]

#: The size of the chunks `validate_stream` reads: 1 MiB.
CHUNK_SIZE = 1 << 20


def validate_stream(stream: IO[bytes], chunk_size: int = CHUNK_SIZE) -> int:
    """Validate everything `stream` (a binary file object) yields, `chunk_size` bytes at a
    time, in constant memory; return the number of bytes read.

    Raises `Utf8Error` at the first error, with `start` and `end` counted from where
    reading began (its `object` holds the bytes at fault only, see `Validator`).
    """
    validator = Validator()
    while chunk := stream.read(chunk_size):
        validator.update(chunk)
    validator.finish()
    return validator.bytes_seen


def validate_file(path: str | os.PathLike[str]) -> int:
    """Validate the file at `path`, mapped into memory (no copy, the GIL released for files
    of DETACH_MIN bytes and more); return its size in bytes.

    Raises `Utf8Error` at the first error; its `object` is a copy of the whole file.
    """
    with open(path, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size == 0:
            return 0
        with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            validate(mapped)
    return size


from vutf8 import arrow  # noqa: E402,F401  (after the names it uses)
