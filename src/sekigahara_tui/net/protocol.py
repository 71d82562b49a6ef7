"""The wire: newline-delimited JSON messages, one per line, UTF-8 (docs/protocol.md).

Every message is a JSON object whose "type" key names it. Messages are frozen
attrs classes turned into JSON by one cattrs converter: views and events
travel as their attrs fields (events tagged with their class name), commands
as their notation text (rules.notation). Decoding is strict and bounded, as
for records (rules.infra.untrusted): exact types ("7" is not 7), no unknown or
duplicate keys, short strings, shallow nesting; a bad line raises BadMessage
with a one-line reason and nothing else happens. A host encodes its states
faster, byte for byte the same, with net/state_encoding.py.

Client side: this module imports from `rules` only the surface, the notation
and the bounded JSON reader.
"""

from __future__ import annotations

import asyncio
import json
import typing
from enum import Enum
from typing import Any, Union

import cattrs
from attrs import field, frozen
from attrs.validators import max_len
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union
from cattrs.v import format_exception

import rules.surface as surface
from rules.notation import format_command, parse_command
from rules.surface import COMMAND_TYPES, EVENT_TYPES, Command, PlayerView, Side, printable
from rules.infra.untrusted import UntrustedInputError, strict_json

# 2: the WeekEnded event (issue 22), which a version-1 client cannot read; 3: a stack
# move's events say where it began (`source`, issue 25), a key a version-2 client refuses
PROTOCOL_VERSION = 3

# Limits. A client sends short lines: a hello (a 32-character token) is 122
# bytes, the longest submit (a MAX_ID_LENGTH id, MAX_COMMAND_TEXT of command)
# about 620. The host refuses longer lines.
MAX_CLIENT_LINE = 4096
# The host's largest line is a state carrying a whole game's events (for a
# client that holds nothing). Over 200 random games the largest single-step
# state was 9,407 bytes (97 legal commands) and the largest whole-game state
# 45,583 bytes (631 steps); the longest record rules.infra.record allows
# (MAX_COMMANDS) would be about 30 times that, 1.4 MB. Reading is capped far
# above. `python3 benchmarks/protocol.py --games 200` prints these figures.
MAX_HOST_LINE = 8 * 1024 * 1024
MAX_ID_LENGTH = 64
MAX_TOKEN_LENGTH = 128
MAX_GAME_ID_LENGTH = 64
MAX_COMMAND_TEXT = 500  # rules.infra.record.MAX_COMMAND_LENGTH
# A client message is a flat object; a host message nests about eight levels
# (state, view, combat, battle, deployments, a deployment, a pair ...).
MAX_CLIENT_DEPTH = 4
MAX_HOST_DEPTH = 32
# An over-long line is skipped up to its newline; past this much, the
# connection is not worth recovering and is closed.
MAX_SKIPPED_BYTES = 1024 * 1024

REFUSAL_KINDS = frozenset(
    {"stale", "illegal", "bad-message", "not-authorised", "unknown-game", "seat-taken", "taken-over", "protocol", "host-error",
     "elsewhere"}
)
# An `elsewhere` refusal's reason (several club hosts): this, then the HOST:PORT
# of the host that plays the game now; the client connects there.
ELSEWHERE = "another host of this club plays that game now, at "


class BadMessage(ValueError):
    """A line that is not a valid message; str() is a one-line reason.
    `id` is the message's id when one could be read, for the refusal."""

    def __init__(self, reason: str, id: str | None = None) -> None:
        super().__init__(reason)
        self.id = id


def _check_printable(_instance: object, attribute: Any, value: str) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty")
    if not value.isprintable():
        raise ValueError(f"{attribute.name} holds a control or unprintable character")


AnyEvent = Union[EVENT_TYPES]  # type: ignore[valid-type]  # tagged by class name on the wire

def _check_token(token: str) -> None:
    if not token.isprintable():
        raise ValueError("token holds a control or unprintable character")


_message_id = [max_len(MAX_ID_LENGTH), _check_printable]


# --- client to host --------------------------------------------------------------


@frozen
class Hello:
    """The first message of a connection: who is asking, for which seat."""

    protocol: int
    game: str = field(validator=[max_len(MAX_GAME_ID_LENGTH), _check_printable])
    seat: Side
    # Empty for a seat bound to a Unix user, whose peer credential is the check.
    token: str = field(validator=[max_len(MAX_TOKEN_LENGTH), lambda _i, _a, value: _check_token(value)])
    seen: int | None  # the last version this client holds, to receive only what it lacks


@frozen
class Submit:
    id: str = field(validator=_message_id)
    version: int
    command: str = field(validator=[max_len(MAX_COMMAND_TEXT), _check_printable])


@frozen
class Undo:
    id: str = field(validator=_message_id)
    version: int


@frozen
class Ping:
    pass


# --- host to client --------------------------------------------------------------


@frozen
class Welcome:
    protocol: int
    game: str
    seat: Side


@frozen
class State:
    """The game as one seat sees it after `version` rows of the store.

    `events[i]` holds the seat's events of step `first_step + i`; the client
    drops its events from `first_step` on and appends these (an undo sends
    first_step = steps and no events). `undo` is why this seat may not undo
    now (R58), None if it may."""

    version: int
    steps: int
    reply_to: str | None
    view: PlayerView
    first_step: int
    events: tuple[tuple[AnyEvent, ...], ...]
    undo: str | None
    over: bool


@frozen
class Refused:
    id: str | None
    kind: str = field(validator=lambda _i, _a, value: _check_kind(value))
    reason: str


def _check_kind(kind: str) -> None:
    if kind not in REFUSAL_KINDS:
        raise ValueError(f"unknown refusal kind {kind!r}")


@frozen
class Presence:
    """The other seat connected or went away."""

    seat: Side
    connected: bool


@frozen
class Pong:
    pass


@frozen
class GameOver:
    result: str


CLIENT_MESSAGES: tuple[type, ...] = (Hello, Submit, Undo, Ping)
HOST_MESSAGES: tuple[type, ...] = (Welcome, State, Refused, Presence, Pong, GameOver)
MESSAGE_TYPES: dict[type, str] = {
    Hello: "hello",
    Submit: "submit",
    Undo: "undo",
    Ping: "ping",
    Welcome: "welcome",
    State: "state",
    Refused: "refused",
    Presence: "presence",
    Pong: "pong",
    GameOver: "game_over",
}
ClientMessage = Union[Hello, Submit, Undo, Ping]
HostMessage = Union[Welcome, State, Refused, Presence, Pong, GameOver]


# --- the converter ---------------------------------------------------------------


def _exactly(kind: type):
    """Only a JSON value of exactly `kind`: cattrs alone would take "7" or true for 7."""

    def structure(value: object, _: type) -> object:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, not {type(value).__name__}")
        return value

    return structure


def _enum(value: object, kind: type) -> object:
    if type(value) is not str:
        raise TypeError(f"expected a {kind.__name__} name, not {type(value).__name__}")
    return kind(value)


def _command(value: object, _: type) -> Command:
    if type(value) is not str:
        raise TypeError(f"expected a command's text, not {type(value).__name__}")
    return parse_command(value)


def _is_set_of_names(kind: object) -> bool:
    """A set of str, or of a str enum (Side): what JSON writes as a list of strings."""
    args = typing.get_args(kind)
    return typing.get_origin(kind) in (frozenset, set) and len(args) == 1 and isinstance(args[0], type) and issubclass(args[0], str)


def _sorted_names(names: frozenset) -> list[str]:
    return sorted(name.value if isinstance(name, Enum) else name for name in names)


def make_wire_converter() -> cattrs.Converter:
    converter = make_converter(forbid_extra_keys=True)
    for kind in (int, str, bool):
        converter.register_structure_hook(kind, _exactly(kind))
    # The str hook would catch str-based enums (Side is a str) and leave them
    # strings; each enum of the surface gets its own hook.
    for value in vars(surface).values():
        if isinstance(value, type) and issubclass(value, Enum):
            converter.register_structure_hook(value, _enum)
    # Commands travel as notation with the side: "tokugawa: bid date-plain-1".
    for cls in COMMAND_TYPES:
        converter.register_unstructure_hook(cls, format_command)
        converter.register_structure_hook(cls, _command)
    converter.register_unstructure_hook_func(lambda t: t == Command, format_command)
    converter.register_structure_hook_func(lambda t: t == Command, _command)
    # A set of names (or of sides) has no order, and two equal sets may iterate
    # in different orders (str hashes are salted per process, and collide):
    # written sorted, equal views are equal bytes (the chairs' shared texts rely on it).
    converter.register_unstructure_hook_func(_is_set_of_names, _sorted_names)
    configure_tagged_union(AnyEvent, converter, tag_name="type", tag_generator=lambda cls: cls.__name__)
    tags = lambda cls: MESSAGE_TYPES[cls]  # noqa: E731
    configure_tagged_union(ClientMessage, converter, tag_name="type", tag_generator=tags)
    configure_tagged_union(HostMessage, converter, tag_name="type", tag_generator=tags)
    return converter


converter = make_wire_converter()


# --- encoding and decoding -------------------------------------------------------


# What json.dumps(data, ensure_ascii=False, separators=(",", ":")) does, without
# making a new JSONEncoder for every call (net/state_encoding.py writes states with it too).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
# JSONEncoder.encode makes a new C encoder at every call: the server calls it
# several times a command (issue 23's CPU a command), so one is made here and
# kept. The same text: markers (the circular check) only change the error a
# circular value raises, and the wire's values are trees.
_C_ENCODER = json.encoder.c_make_encoder and json.encoder.c_make_encoder(
    None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False, False, True
)


def compact_json(data: object) -> str:
    """json.dumps(data, ensure_ascii=False, separators=(",", ":"))."""
    if type(data) is str:
        return json.encoder.encode_basestring(data)
    if _C_ENCODER is None:  # a Python without the C accelerator
        return _ENCODER.encode(data)
    return "".join(_C_ENCODER(data, 0))


def encode(message: object) -> bytes:
    """One line of JSON, newline included."""
    union = ClientMessage if type(message) in CLIENT_MESSAGES else HostMessage
    data = converter.unstructure(message, union)
    return (compact_json(data) + "\n").encode("utf-8")


def _parse(line: bytes, max_depth: int) -> dict[str, Any]:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadMessage(f"not UTF-8 (byte {line[error.start]:#04x} at offset {error.start})") from None
    try:
        data = strict_json(text, max_depth)
    except UntrustedInputError as error:
        raise BadMessage(printable(str(error), 200)) from None
    except RecursionError:
        raise BadMessage("nested too deeply") from None
    if not isinstance(data, dict):
        raise BadMessage("a message must be a JSON object")
    return data


def _explain(error: BaseException, kind: type | None) -> str:
    """cattrs' wording, but a validator's own message for a bad value."""
    if type(error) is ValueError and str(error):
        return str(error)
    return format_exception(error, kind)


def _structure(data: dict[str, Any], union: object, names: set[str]) -> object:
    given_id = data.get("id")
    safe_id = given_id if isinstance(given_id, str) and 0 < len(given_id) <= MAX_ID_LENGTH and given_id.isprintable() else None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in names:  # a list or an object is not hashable
        known = ", ".join(sorted(names))
        shown = printable(str(kind), 30) if isinstance(kind, str) else type(kind).__name__
        raise BadMessage(f"unknown message type {shown!r}: expected one of {known}", safe_id)
    try:
        return converter.structure(data, union)
    except cattrs.BaseValidationError as error:
        details = "; ".join(cattrs.transform_error(error, format_exception=_explain))
        raise BadMessage(f"bad {kind} message: {printable(details, 200)}", safe_id) from None
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise BadMessage(f"bad {kind} message: {printable(str(error), 200)}", safe_id) from None


_CLIENT_NAMES = {MESSAGE_TYPES[cls] for cls in CLIENT_MESSAGES}
_HOST_NAMES = {MESSAGE_TYPES[cls] for cls in HOST_MESSAGES}


def decode_client_message(line: bytes) -> Hello | Submit | Undo | Ping:
    """A client's line, read strictly; BadMessage says what is wrong in one line."""
    if len(line) > MAX_CLIENT_LINE:
        raise BadMessage(f"a line of more than {MAX_CLIENT_LINE} bytes")
    return client_message_of(_parse(line, MAX_CLIENT_DEPTH))


def client_message_of(data: dict[str, Any]) -> Hello | Submit | Undo | Ping:
    """A client's message from its line's JSON object, already parsed
    strictly (a club server parses each line once, whoever it is for)."""
    if data.keys() == _SUBMIT_KEYS and data["type"] == "submit":
        # Most lines are submits: one of exactly the fields' types is made
        # here (its validators run), the same Submit the converter makes;
        # anything else, or a refusal to word, takes the converter's way.
        message_id, version, command = data["id"], data["version"], data["command"]
        if type(message_id) is str and type(version) is int and type(command) is str:
            try:
                return Submit(message_id, version, command)
            except ValueError:
                pass
    return _structure(data, ClientMessage, _CLIENT_NAMES)  # type: ignore[return-value]


_SUBMIT_KEYS = {"type", "id", "version", "command"}


def decode_host_message(line: bytes) -> Welcome | State | Refused | Presence | Pong | GameOver:
    """The host's line; a bad one (a host of another version) raises BadMessage."""
    return _structure(_parse(line, MAX_HOST_DEPTH), HostMessage, _HOST_NAMES)  # type: ignore[return-value]


# --- reading lines ---------------------------------------------------------------


class LineTooLong(Exception):
    """A line longer than the reader's limit. `recoverable`: it was skipped up
    to its newline and the next line can be read; otherwise close the stream."""

    def __init__(self, recoverable: bool) -> None:
        super().__init__("line too long")
        self.recoverable = recoverable


async def read_line_pinging(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, every: float) -> bytes:
    """The next line from the other end (b"": it closed); a ping after `every`
    seconds of silence, TimeoutError after a second silence (pings are answered).
    A client's lobby and a front's link to the club read this way."""
    for silences in range(2):
        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for returns a line
            # that came with a cancel (close) and drops the cancel, and close waited for ever.
            async with asyncio.timeout(every):
                return await reader.readline()
        except TimeoutError:
            if silences:
                raise
            writer.write(encode(Ping()))
    raise AssertionError("unreachable")


async def read_line(reader: asyncio.StreamReader) -> bytes | None:
    """The next line (with its newline), or None at the end of the stream. A
    line longer than the reader's limit is skipped (LineTooLong)."""
    try:
        return await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError:
        return None  # the end; a last line without its newline is not a message
    except asyncio.LimitOverrunError as error:
        overrun = error
    skipped = 0
    while True:
        # Drop what is known to come before the newline, then look again.
        await reader.readexactly(overrun.consumed)
        skipped += overrun.consumed
        if skipped > MAX_SKIPPED_BYTES:
            raise LineTooLong(recoverable=False)
        try:
            await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError:
            raise LineTooLong(recoverable=False) from None
        except asyncio.LimitOverrunError as error:
            overrun = error
            continue
        raise LineTooLong(recoverable=True)
