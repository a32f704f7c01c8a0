"""Type stubs of the native module vutf8._vutf8 (python/src/); `vutf8` re-exports it."""

from typing import Final, Literal, TypeAlias, final

from typing_extensions import Buffer, CapsuleType

from vutf8.arrow import ArrowData

#: The package's version (the Rust crate's).
__version__: Final[str]
#: Inputs of at least this many bytes are read with the GIL released.
DETACH_MIN: Final[int]
#: Below this many bytes `decode` first tries text that is not ASCII in one pass (tests).
_SHORT_DECODE_BELOW: Final[int]
#: The bytes `decode`'s loop over damaged text tests at once (tests).
_DECODE_STEP: Final[int]
#: vutf8's repair policies: ("replace", "escape", "windows-1252", "utf8-or-windows-1252",
#: "drop", "strict").
POLICIES: Final[tuple[str, ...]]
#: CPython's error handlers that `decode` runs itself: ("strict", "replace",
#: "backslashreplace", "surrogateescape", "ignore").
ERROR_HANDLERS: Final[tuple[str, ...]]

#: What `repair` takes: vutf8's policies and CPython's handlers that write UTF-8.
Policy: TypeAlias = Literal[
    "replace",
    "escape",
    "backslashreplace",
    "ignore",
    "windows-1252",
    "utf8-or-windows-1252",
    "drop",
    "strict",
]
#: What `arrow_to_string` takes.
ArrowPolicy: TypeAlias = Literal[
    "replace",
    "escape",
    "backslashreplace",
    "windows-1252",
    "utf8-or-windows-1252",
    "drop",
    "strict",
]
Delimiter: TypeAlias = int | bytes

class Utf8Error(UnicodeDecodeError):
    """The input is not valid UTF-8: a UnicodeDecodeError whose encoding, object, start,
    end and reason are those of bytes(data).decode('utf-8'), plus vutf8's own reason."""

    #: vutf8's reason, e.g. "overlong encoding", "encoded surrogate".
    kind: str
    #: The value an overlong, surrogate or too-large sequence encodes, else None.
    code_point: int | None
    #: The invalid row of an Arrow column, from 0 (`vutf8.arrow.to_string`, strict); else None.
    row: int | None
    #: Where `start` is in the whole stream (`Validator`); else `start` itself.
    stream_offset: int

def is_valid(data: Buffer) -> bool:
    """Whether `data` (any buffer) is valid UTF-8."""

def validate(data: Buffer) -> None:
    """Raise Utf8Error if `data` (any buffer) is not valid UTF-8."""

def decode(data: Buffer, errors: str = "strict") -> str:
    """`bytes(data).decode('utf-8', errors)`: the same str, or the same error."""

def _portable(on: bool | None = None) -> bool:
    """Tests only: force (True) or release (False) the portable way of making strings."""

def _wide_steps(on: bool | None = None) -> bool:
    """Tests only: let (True) or keep (False) decode's loop off AVX2's wider vectors."""

def _convert_avx2(on: bool | None = None) -> bool | None:
    """Tests only: convert into UCS-2 and UCS-4 by vutf8's AVX2 conversions wherever the
    CPU has AVX2 (True), never (False), or as the CPU decides (None, the default)."""

def _decode_own(data: Buffer) -> str:
    """Measurements only: valid `data` decoded by vutf8's own loop instead of simdutf."""

def _decode_simdutf(data: Buffer) -> str:
    """Measurements only: valid `data` decoded by simdutf whatever its density."""

def backend() -> str:
    """The implementation chosen for this CPU: "avx512", "avx2", "sse4.2", "neon",
    "simd128" or "scalar"."""

def line_verdicts(data: Buffer, delimiter: Delimiter | None = None) -> list[bool]:
    """The verdict of every line (or record, with `delimiter`) of `data`."""

def invalid_lines(
    data: Buffer, delimiter: Delimiter | None = None, *, offsets: bool = False
) -> list[int]:
    """The indices (or with `offsets`, the byte offsets) of the invalid lines of `data`."""

def repair(data: Buffer, policy: Policy = "replace", delimiter: Delimiter | None = None) -> bytes:
    """`data` as UTF-8 bytes, each invalid line changed by `policy`, line ends kept."""

@final
class Validator:
    """UTF-8 validation of a stream that arrives in chunks of any size."""

    def __init__(self) -> None: ...
    def update(self, chunk: Buffer) -> None:
        """Check the next chunk; raise Utf8Error at the stream's first error."""
    def finish(self) -> None:
        """End the stream; raise Utf8Error if it had an error or ends inside a character."""
    def reset(self) -> None:
        """Start a new stream."""
    @property
    def bytes_seen(self) -> int:
        """Bytes passed to update() so far (after an error: the error's start)."""
    @property
    def valid_up_to(self) -> int:
        """Bytes known valid, ending on a character boundary (after an error: its start)."""

@final
class ArrowArray:
    """A result column exporting the Arrow PyCapsule interface."""

    def __arrow_c_array__(
        self, requested_schema: CapsuleType | None = None
    ) -> tuple[CapsuleType, CapsuleType]: ...
    def __arrow_c_schema__(self) -> CapsuleType: ...
    def __len__(self) -> int: ...

@final
class ArrowChunkedArray:
    """A result column of chunks exporting the Arrow PyCapsule stream interface."""

    def __arrow_c_stream__(self, requested_schema: CapsuleType | None = None) -> CapsuleType: ...
    def __arrow_c_schema__(self) -> CapsuleType: ...
    def __len__(self) -> int: ...

def arrow_is_valid(
    data: ArrowData, *, column: str | None = None
) -> ArrowArray | ArrowChunkedArray: ...
def arrow_error_offsets(
    data: ArrowData, *, column: str | None = None
) -> ArrowArray | ArrowChunkedArray: ...
def arrow_error_reasons(
    data: ArrowData, *, column: str | None = None
) -> ArrowArray | ArrowChunkedArray: ...
def arrow_to_string(
    data: ArrowData, policy: ArrowPolicy = "strict", *, column: str | None = None
) -> ArrowArray | ArrowChunkedArray: ...
