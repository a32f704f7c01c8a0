"""vutf8: fast, strict UTF-8 validation with exact error positions, and decoding to str.

Any object with the buffer protocol (bytes, bytearray, memoryview, mmap, array.array,
NumPy arrays of bytes) is read in place, without a copy::

    >>> import vutf8
    >>> vutf8.is_valid(b"caf\\xc3\\xa9")
    True
    >>> vutf8.decode(b"caf\\xe9", "backslashreplace")    # bytes.decode('utf-8', ...), faster
    'caf\\\\xe9'
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

import errno
import mmap
import os
import stat
from typing import IO

from vutf8._vutf8 import (
    DETACH_MIN,
    ArrowArray,
    ArrowChunkedArray,
    ERROR_HANDLERS,
    __version__,
    POLICIES,
    Utf8Error,
    Validator,
    backend,
    decode,
    invalid_lines,
    is_valid,
    line_verdicts,
    repair,
    validate,
)

__all__ = [
    "DETACH_MIN",
    "ArrowArray",
    "ArrowChunkedArray",
    "ERROR_HANDLERS",
    "__version__",
    "POLICIES",
    "Utf8Error",
    "Validator",
    "arrow",
    "backend",
    "decode",
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

    Raises `Utf8Error` at the first error, as `Validator` does: its `object`, `start` and
    `end` are those of the chunk it was found in (as CPython's incremental decoder reports
    them), and `stream_offset` is where `start` is from where reading began.
    """
    validator = Validator()
    while chunk := stream.read(chunk_size):
        validator.update(chunk)
    validator.finish()
    return validator.bytes_seen


def validate_file(path: str | os.PathLike[str] | int) -> int:
    """Validate the file at `path` (or the open file descriptor `path`, which is left
    open); return its size in bytes.

    A regular file with a size is mapped into memory (no copy, the GIL released from
    DETACH_MIN bytes on); its `Utf8Error` is `validate`'s, whose `object` is a copy of the
    whole file. Anything whose size the file system does not tell (a pipe, a socket, a
    character device such as /dev/stdin, a /proc or /sys file, which say 0 or 4096 bytes
    whatever they hold) is read as a stream, as `validate_stream` does. A socket is read
    through its descriptor: as an int, or as /dev/stdin, /dev/fd/N or /proc/self/fd/N
    (which Linux does not let `open` reopen).
    """
    with _open(path) as file:
        info = os.fstat(file.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > 0 and not _pseudo_file_system(path):
            try:
                mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):
                pass  # a file system that cannot map it (some FUSE ones): read it
            else:
                with mapped:
                    validate(mapped)
                    return len(mapped)
        return validate_stream(file)


def _open(path: str | os.PathLike[str] | int) -> IO[bytes]:
    """`path` opened for reading bytes; a descriptor (an int, or a path that names one of
    this process's descriptors and cannot be reopened, as a socket's cannot) without
    closing it afterwards."""
    if isinstance(path, int):
        return open(path, "rb", closefd=False)
    try:
        return open(path, "rb")
    except OSError as e:
        name = os.fspath(path)
        for prefix in ("/dev/fd/", "/proc/self/fd/"):
            if name.startswith(prefix) and name[len(prefix) :].isdigit():
                fd: int | None = int(name[len(prefix) :])
                break
        else:
            fd = 0 if name == "/dev/stdin" else None
        if e.errno != errno.ENXIO or fd is None:
            raise
        return open(fd, "rb", closefd=False)


def _pseudo_file_system(path: str | os.PathLike[str] | int) -> bool:
    """Whether `path` is on a file system whose sizes are not those of the contents
    (procfs, sysfs, debugfs, ...): such files are read, not mapped."""
    if isinstance(path, int):
        return False
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root + os.sep) for root in ("/proc", "/sys"))


from vutf8 import arrow  # noqa: E402,F401  (after the names it uses)
