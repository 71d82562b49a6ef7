"""Reading text that may be hostile: files and JSON from outside the program.

Records and saved states come from files a player picked, or was sent. This
module reads them strictly and bounded: at most a given number of bytes, UTF-8
only, JSON without duplicate keys, without NaN, without thousand-digit numbers
and without nesting deep enough to exhaust Python's stack. Its messages quote
input only through `excerpt` and `printable`, which escape control and escape
characters and truncate, so a message never writes raw input to a terminal.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

# A JSON string, so that brackets inside strings are not counted as nesting.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
# Far above any number a save holds (seeds are below 2**63: 19 digits), and far
# below Python's own limit on converting digits to int (4300 digits).
MAX_INTEGER_DIGITS = 30


class UntrustedInputError(ValueError):
    """Input refused; the message says why and quotes only escaped excerpts."""


def excerpt(text: str, limit: int = 40) -> str:
    """`text` quoted and escaped like repr, cut to about `limit` characters."""
    quoted = repr(text[:limit])
    return quoted + "..." if len(text) > limit else quoted


def _escaped(text: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def printable(text: str, limit: int = 300) -> str:
    """`text` with every non-printable character (newline, ESC, bidi controls...)
    escaped as in repr, cut to at most `limit` characters."""
    escaped = _escaped(text[: limit + 1])
    return escaped if len(escaped) <= limit else escaped[: limit - 3] + "..."


def printable_path(path: str | Path, limit: int = 100) -> str:
    """A file's path for a message: escaped like `printable`, and when too long
    its end kept, since the end names the file."""
    escaped = _escaped(str(path)[-(limit + 1) :])
    return escaped if len(escaped) <= limit and len(str(path)) <= limit else "..." + escaped[-(limit - 3) :]


def read_bytes(path: Path, limit: int) -> bytes:
    """The file's bytes, refusing a file of more than `limit` bytes without
    reading past the limit (so a huge file costs nothing), and anything but a
    regular file (a FIFO would block, /dev/zero never end)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise UntrustedInputError("not a regular file")
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as error:
        raise UntrustedInputError(f"cannot read ({error.strerror or type(error).__name__})") from None
    if len(data) > limit:
        raise UntrustedInputError(f"larger than {limit:,} bytes")
    return data


def decode_utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UntrustedInputError(f"not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start})") from None


def read_text(path: Path, limit: int) -> str:
    """A UTF-8 text file of at most `limit` bytes."""
    return decode_utf8(read_bytes(path, limit))


def nesting_depth(text: str) -> int:
    """How deeply JSON arrays and objects nest in `text` (a valid document's
    true depth; for invalid text, a depth the parser would reach at most)."""
    brackets = _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = deepest = 0
    for bracket in brackets:
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise UntrustedInputError(f"a number of {len(digits):,} digits (at most {MAX_INTEGER_DIGITS})")
    return int(digits)


def _constant(name: str) -> float:
    raise UntrustedInputError(f"{name} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise UntrustedInputError(f"key {excerpt(key)} appears twice in one object")
        result[key] = value
    return result


def strict_json(text: str, max_depth: int) -> Any:
    """Parse JSON, refusing duplicate keys, NaN and Infinity, integers of more than
    MAX_INTEGER_DIGITS digits and nesting deeper than `max_depth`."""
    depth = nesting_depth(text)
    if depth > max_depth:
        raise UntrustedInputError(f"nested {depth} levels deep (at most {max_depth})")
    try:
        return json.loads(text, object_pairs_hook=_object, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise UntrustedInputError(f"not JSON ({error})") from None
