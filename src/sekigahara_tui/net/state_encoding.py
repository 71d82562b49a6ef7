"""Encoding states fast: the host's hot path (docs/protocol.md).

A host sends a state to every seat and spectator after every command, and
most of a view is the same from one step to the next (the blocks, the
castles, the decision's help text). These give, byte for byte, what
protocol.encode() gives for a State (tests/net/test_state_encoding.py checks
it over random games), but a view's JSON is made field by field, reusing the
text of every field equal to the one of the chair's previous view.

Client side too (benchmarks measure it there): imports from `rules` only the
surface and the notation.
"""

from __future__ import annotations

import json
import operator
from itertools import compress
from operator import is_not
import types
import typing
from typing import Any

import attrs
from attrs import frozen

from rules.notation import format_command
from rules.surface import Command, PlayerView
from sekigahara_tui.net.protocol import MESSAGE_TYPES, AnyEvent, State, compact_json, converter


def _field_codecs(cls: type) -> tuple[tuple[str, str, Any, type | None], ...]:
    """Per field of an attrs class, in the order cattrs writes them: (name,
    '"name":', the converter's unstructure hook, the attrs class the field
    holds if it holds one (or None))."""
    codecs = []
    for a in attrs.fields(cls):
        options = [t for t in typing.get_args(a.type) if t is not type(None)] or [a.type]
        inner = options[0] if len(options) == 1 and attrs.has(options[0]) and not typing.get_args(options[0]) else None
        hook = _as_is if _plain(a.type) else converter.get_unstructure_hook(a.type)
        codecs.append((a.name, compact_json(a.name) + ":", hook, inner))
    return tuple(codecs)


def _plain(kind: object) -> bool:
    """Whether JSON writes a value of this type as cattrs would unstructure it:
    strings, numbers and tuples of them (a tuple is written as a list). The
    blocks' places are such tuples, and cattrs' generic path rebuilt them as
    lists on every change (the largest part of a seat's encoding)."""
    if kind in (str, int, bool, type(None)):
        return True
    args, origin = typing.get_args(kind), typing.get_origin(kind)
    if origin is tuple and args:
        return all(_plain(arg) for arg in args if arg is not Ellipsis)
    if origin in (typing.Union, types.UnionType):
        return all(_plain(arg) for arg in args)
    return False


def _as_is(value: object) -> object:
    return value


_STATE_CODECS = _field_codecs(State)
_STATE_END = ',"type":' + compact_json(MESSAGE_TYPES[State]) + "}\n"  # the tagged union puts the tag last


@frozen
class _Plan:
    """How to encode one attrs class field by field (shared by all encoders)."""

    keys: tuple[str, ...]  # '"name":' per field
    hooks: tuple[Any, ...]  # the converter's unstructure hook per field
    get: Any  # attrgetter of every field at once
    inner: tuple[_Plan | None, ...]  # the plan of an attrs class a field holds
    writers: tuple[Any, ...]  # per field, None or what writes its JSON text itself (faster than its hook's)


def _plan(cls: type, depth: int = 1, hooks: dict[str, Any] | None = None, writers: dict[str, Any] | None = None) -> _Plan:
    codecs = _field_codecs(cls)
    hooks, writers = hooks or {}, writers or {}
    return _Plan(
        tuple(key for _, key, _, _ in codecs),
        tuple(hooks.get(name, hook) for name, _, hook, _ in codecs),
        operator.attrgetter(*(name for name, _, _, _ in codecs)),
        tuple(_plan(inner, depth - 1) if inner is not None and depth > 0 else None for _, _, _, inner in codecs),
        tuple(writers.get(name) for name, _, _, _ in codecs),
    )


class _ObjectEncoder:
    """The JSON of successive instances of one attrs class, field by field: a
    field equal to the last one's keeps its text; the very object it held
    before that gets its text back (a decision's help comes back often); an
    attrs-class field (the movement view) is itself re-encoded only in its
    changed parts."""

    __slots__ = ("_plan", "_inner", "_values", "_texts", "_before", "_json", "_indexes")

    def __init__(self, plan: _Plan) -> None:
        self._plan = plan
        self._inner: dict[int, _ObjectEncoder] = {}
        self._values: tuple | None = None
        self._texts = [""] * len(plan.keys)  # '"name":JSON' per field
        self._before: dict[int, tuple[object, str]] = {}  # field -> the value it held before, its text
        self._json = ""  # the last JSON made
        self._indexes = range(len(plan.keys))

    def encode(self, value: object, shared: dict[tuple[int, int], tuple[object, str]] | None = None) -> str:
        values = self._plan.get(value)
        old, texts = self._values, self._texts
        self._values = values
        if old is None:
            for index, field_value in enumerate(values):
                texts[index] = self._changed(index, field_value, None, shared)
        else:
            changed = False
            # Most fields hold the very object they held (views lend what did
            # not change): only the others are looked at, picked out in C.
            for index in compress(self._indexes, map(is_not, values, old)):
                previous, field_value = old[index], values[index]
                # Same type as well as equal: 1 == True, but they are written differently.
                if type(previous) is not type(field_value) or previous != field_value:
                    texts[index] = self._changed(index, field_value, (previous, texts[index]), shared)
                    changed = True
            if not changed:
                return self._json
        self._json = "{" + ",".join(texts) + "}"
        return self._json

    def _changed(self, index: int, value: object, last: tuple[object, str] | None, shared: dict[tuple[int, int], tuple[object, str]] | None) -> str:
        before = self._before.get(index)
        if last is not None:
            self._before[index] = last
        plan = self._plan
        if before is not None and before[0] is value:
            return before[1]
        if shared is not None:
            # Another chair's view held this very object in this field (a part every chair sees alike): its text.
            known = shared.get((index, id(value)))
            if known is not None and known[0] is value:
                return plan.keys[index] + known[1]
        inner = plan.inner[index]
        writer = plan.writers[index]
        if writer is not None:
            text = writer(value)
        elif inner is not None and value is not None:
            encoder = self._inner.get(index)
            if encoder is None:
                encoder = self._inner[index] = _ObjectEncoder(inner)
            text = encoder.encode(value)
        else:
            text = compact_json(plan.hooks[index](value))
        if shared is not None:
            shared[index, id(value)] = (value, text)  # the value is held, so its id is not reused meanwhile
        return plan.keys[index] + text


class ViewEncoder:
    """The JSON text of one chair's views (a side's, or the spectators'),
    re-encoding only the fields that differ from the last view it encoded.
    An equal set may keep an earlier order of its elements: a set's order
    means nothing on the wire (it is read back as a set)."""

    __slots__ = ("_encoder",)

    def __init__(self) -> None:
        self._encoder = _ObjectEncoder(_VIEW_PLAN)

    def encode(self, view: PlayerView, shared: SharedTexts | None = None) -> str:
        """The view's JSON. `shared`: the texts of the fields other chairs'
        views of the same state held, by the identity of their values (the
        parts every chair sees alike are the very same objects,
        rules/view.py), so that each is encoded once for all chairs."""
        return self._encoder.encode(view, None if shared is None else shared.texts)


class SharedTexts:
    """The JSON of the view fields already encoded for one state, by field
    and the identity of their values: a text is a function of its value, so
    any chair may take it (R55: a chair gets the text of a value only if its
    own view holds that very value). Holds one state's at a time: a game's
    views are all made and encoded together after each change."""

    __slots__ = ("_of", "texts")

    def __init__(self) -> None:
        self._of: object = None
        self.texts: dict[tuple[int, int], tuple[object, str]] = {}

    def of(self, state: object) -> SharedTexts:
        """Itself, emptied if it held another state's texts."""
        if state is not self._of:
            self._of, self.texts = state, {}
        return self


# The legal list changes at most steps, but is made of the same commands
# again and again, in every game: their notation (what the converter writes
# for a command), and its JSON string, are remembered, up to a bound.
_NOTATION: dict[Command, tuple[str, str]] = {}
_TEXT_OF: dict[Command, str] = {}  # the same notations and JSON strings, by command alone (read in C)
_JSON_OF: dict[Command, str] = {}
_MAX_NOTATION = 2048  # commands hold containers: a big cache would cost the GC more than it saves


def _remembered(command: Command) -> tuple[str, str]:
    known = _NOTATION.get(command)
    if known is None:
        if len(_NOTATION) >= _MAX_NOTATION:
            _NOTATION.clear()
            _JSON_OF.clear()
            _TEXT_OF.clear()
        text = format_command(command)
        known = _NOTATION[command] = (text, _encode_string(text))
        _TEXT_OF[command], _JSON_OF[command] = known
    return known


def notation(command: Command) -> str:
    """format_command(command), remembered."""
    return _remembered(command)[0]


def find_listed(commands: tuple[Command, ...], text: str) -> Command | None:
    """The first of `commands` whose notation is exactly `text`, None if none
    is (looked for in C when every command's notation is remembered)."""
    texts = list(map(_TEXT_OF.get, commands))
    if None in texts:
        texts = [notation(command) for command in commands]
    try:
        return commands[texts.index(text)]
    except ValueError:
        return None


def _legal(commands: tuple[Command, ...]) -> list[str]:
    return [notation(command) for command in commands]


def _legal_json(commands: tuple[Command, ...]) -> str:
    """compact_json(_legal(commands)), from each command's remembered JSON string."""
    texts = list(map(_JSON_OF.get, commands))  # in C: nearly every command is known
    if None in texts:
        texts = [_remembered(command)[1] for command in commands]
    return "[" + ",".join(texts) + "]"


_encode_string = json.encoder.encode_basestring  # as compact_json writes a str (ensure_ascii off)
_VIEW_PLAN = _plan(PlayerView, hooks={"legal": _legal}, writers={"legal": _legal_json})


def _scalar(value: object) -> str:
    """compact_json for the scalars of a State, without its per-call overhead."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return int.__repr__(value)
    if type(value) is str:
        return _encode_string(value)
    return compact_json(value)


def encode_events(events: tuple[tuple[Any, ...], ...], shared: SharedTexts | None = None) -> str:
    """The JSON of a State's `events`. `shared`: the texts of the events other
    chairs were sent with the same state, by identity (a public event is
    the same object in every chair's steps; each is encoded once)."""
    if shared is None:
        return compact_json(_STATE_EVENTS_HOOK(events))
    texts = shared.texts
    steps = []
    for step in events:
        parts = []
        for event in step:
            known = texts.get((_EVENTS, id(event)))
            if known is None or known[0] is not event:
                known = texts[_EVENTS, id(event)] = (event, compact_json(_EVENT_HOOK(event)))
            parts.append(known[1])
        steps.append("[" + ",".join(parts) + "]")
    return "[" + ",".join(steps) + "]"


_STATE_EVENTS_HOOK = converter.get_unstructure_hook(attrs.fields(State).events.type)
_EVENT_HOOK = converter.get_unstructure_hook(AnyEvent)
_EVENTS = -1  # the events' place in SharedTexts, beside the view's fields (0 on)


# The State's fields in the order encode() writes them, each a scalar written
# as it is but the view and the events: encode_state below writes them in this
# order, straight (it runs for every connection after every command).
assert [name for name, _, _, _ in _STATE_CODECS] == ["version", "steps", "reply_to", "view", "first_step", "events", "undo", "over"]
assert all(hook is _as_is for name, _, hook, _ in _STATE_CODECS if name not in ("view", "events"))


def encode_state(message: State, view_json: str, events_json: str | None = None) -> bytes:
    """encode(message), byte for byte, given its view's JSON (ViewEncoder) and,
    if already made, its events' (encode_events): one chair's view is encoded
    once for every connection that sits in it."""
    if events_json is None:
        events_json = compact_json(_STATE_EVENTS_HOOK(message.events))
    return state_line(message.version, message.steps, message.reply_to, view_json, message.first_step, events_json, message.undo, message.over)


def state_line(version: int, steps: int, reply_to: str | None, view_json: str, first_step: int, events_json: str, undo: str | None, over: bool) -> bytes:
    """encode_state of the State of these fields, its view and events given as JSON (no State made)."""
    return (
        f'{{"version":{_scalar(version)},"steps":{_scalar(steps)},"reply_to":{_scalar(reply_to)},'
        f'"view":{view_json},"first_step":{_scalar(first_step)},"events":{events_json},'
        f'"undo":{_scalar(undo)},"over":{_scalar(over)}{_STATE_END}'
    ).encode("utf-8")
