"""Type stubs of the package vutf8 (the native names come from vutf8._vutf8)."""

import os
from typing import IO, Final

from vutf8 import arrow as arrow
from vutf8._vutf8 import DETACH_MIN as DETACH_MIN
from vutf8._vutf8 import ArrowArray as ArrowArray
from vutf8._vutf8 import ArrowChunkedArray as ArrowChunkedArray
from vutf8._vutf8 import ERROR_HANDLERS as ERROR_HANDLERS
from vutf8._vutf8 import __version__ as __version__
from vutf8._vutf8 import POLICIES as POLICIES
from vutf8._vutf8 import Utf8Error as Utf8Error
from vutf8._vutf8 import Validator as Validator
from vutf8._vutf8 import backend as backend
from vutf8._vutf8 import decode as decode
from vutf8._vutf8 import invalid_lines as invalid_lines
from vutf8._vutf8 import is_valid as is_valid
from vutf8._vutf8 import line_verdicts as line_verdicts
from vutf8._vutf8 import repair as repair
from vutf8._vutf8 import validate as validate

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

CHUNK_SIZE: Final[int]

def validate_stream(stream: IO[bytes], chunk_size: int = ...) -> int:
    """Validate a binary stream in chunks; return the number of bytes read."""

def validate_file(path: str | os.PathLike[str] | int) -> int:
    """Validate a file (mapped, or read as a stream); return its size."""
