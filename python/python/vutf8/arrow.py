"""vutf8 over Arrow columns: a verdict, an error and a string per row, without copying the
values.

Every function takes any object that exports the Arrow PyCapsule interface
(`__arrow_c_array__` or `__arrow_c_stream__`): a pyarrow Array or ChunkedArray, a Polars
Series, a DuckDB or nanoarrow array, ... holding `binary`, `large_binary` or `binary_view`
data (or one of the string types, checked as the bytes they are). The result is of the
input's library: a pyarrow Array for a pyarrow Array, a pyarrow ChunkedArray for a
ChunkedArray, a Polars Series (same name) for a Series; for anything else, a
`vutf8.ArrowArray` or `vutf8.ArrowChunkedArray`, which export the same interface.

    >>> import pyarrow as pa, vutf8.arrow
    >>> col = pa.array([b"ok", b"caf\\xe9", None], pa.binary())
    >>> vutf8.arrow.is_valid(col).to_pylist()
    [True, False, None]
    >>> vutf8.arrow.to_string(col, "escape").to_pylist()
    ['ok', 'caf\\\\xe9', None]
"""

from __future__ import annotations

import sys
from typing import Any

from vutf8 import _vutf8

__all__ = ["error_offsets", "error_reasons", "is_valid", "to_string"]


def is_valid(column: Any) -> Any:
    """Each row valid UTF-8 (True) or not (False); null rows stay null. A boolean column of
    the input's library."""
    return _like(_vutf8.arrow_is_valid(column), column)


def error_offsets(column: Any) -> Any:
    """For each invalid row, the byte offset of its first error (the `start` that
    `value.decode('utf-8')` reports); null for valid and null rows. An int64 column."""
    return _like(_vutf8.arrow_error_offsets(column), column)


def error_reasons(column: Any) -> Any:
    """For each invalid row, vutf8's reason ('overlong encoding', 'encoded surrogate', ...,
    the `kind` of `vutf8.Utf8Error`); null for valid and null rows. A string column."""
    return _like(_vutf8.arrow_error_reasons(column), column)


def to_string(column: Any, policy: str = "strict") -> Any:
    """The column as strings, sharing the input's values where rows are valid (binary gives
    string, large_binary large_string, binary_view string_view).

    An invalid row becomes what `policy` says: "strict" raises `vutf8.Utf8Error` for the
    first one (as `value.decode('utf-8')` would, with its `row` added); "drop" makes it null
    (the column keeps its length); "replace" (U+FFFD), "escape" (`\\xNN`) and
    "windows-1252" write it as that text.
    """
    return _like(_vutf8.arrow_to_string(column, policy), column)


def _like(result: Any, column: Any) -> Any:
    """`result` as an object of `column`'s library, if that is pyarrow or Polars (both
    already imported, since `column` is one of theirs); else `result` as it is."""
    pa = sys.modules.get("pyarrow")
    if pa is not None and isinstance(column, pa.Array):
        return pa.array(result)
    if pa is not None and isinstance(column, pa.ChunkedArray):
        return pa.chunked_array(result)
    pl = sys.modules.get("polars")
    if pl is not None and isinstance(column, pl.Series):
        return pl.Series(column.name, result)
    return result
