"""The one-line text form of commands: `parse(format_command(c)) == c`.

A line is `<side>: <verb> <arguments>`, e.g. `tokugawa: bid tokugawa-plain-3`.
The side may be left out when the caller supplies it (a player's own prompt).
Arguments follow the command's fields in order: ids as they are, sides and
options by their value, and a final tuple field as the rest of the words.
See docs/notation.md.
"""

from __future__ import annotations

import functools
import typing
from enum import Enum

import attrs

from rules.commands import COMMAND_TYPES, Command
from rules.sides import Side

VERBS: dict[str, type] = {cls.VERB: cls for cls in COMMAND_TYPES}
VERB_OF: dict[type, str] = {cls: verb for verb, cls in VERBS.items()}
assert len(VERBS) == len(COMMAND_TYPES), "two command types share a verb"


class NotationError(ValueError):
    """A line that is not a command; the message says what is wrong with it."""


@functools.cache
def _argument_fields(cls: type) -> list[tuple[str, type]]:
    hints = typing.get_type_hints(cls)
    return [(f.name, hints[f.name]) for f in attrs.fields(cls) if f.name != "side"]


def _is_tuple(kind: type) -> bool:
    return typing.get_origin(kind) is tuple


def _is_optional(kind: type) -> bool:
    return type(None) in typing.get_args(kind)


def format_command(command: Command, with_side: bool = True) -> str:
    words = [VERB_OF[type(command)]]
    for name, kind in _argument_fields(type(command)):
        value = getattr(command, name)
        if _is_tuple(kind):
            words += [str(item) for item in value]
        elif kind is bool:
            words += [name] if value else []  # a flag: its name when set
        elif value is None:
            continue  # an optional last field left out
        elif isinstance(value, Enum):
            words.append(str(value.value))
        else:
            words.append(str(value))
    text = " ".join(words)
    return f"{command.side.value}: {text}" if with_side else text


def _parse_word(word: str, kind: type, name: str) -> object:
    if isinstance(kind, type) and issubclass(kind, Enum):
        try:
            return kind(word)
        except ValueError:
            choices = ", ".join(str(member.value) for member in kind)
            raise NotationError(f"{name} must be one of {choices}, not {word!r}") from None
    return word


def parse_command(line: str, side: Side | None = None) -> Command:
    """Parse a line. `side` is used when the line does not name one."""
    text = line.strip()
    head, colon, rest = text.partition(":")
    if colon:
        try:
            side = Side(head.strip())
        except ValueError:
            raise NotationError(f"unknown side {head.strip()!r}: use ishida or tokugawa") from None
        text = rest.strip()
    if side is None:
        raise NotationError(f"{line!r} does not say which side gives it (start it with 'ishida:' or 'tokugawa:')")
    words = text.split()
    if not words:
        raise NotationError("an empty line is not a command")
    verb, args = words[0], words[1:]
    cls = VERBS.get(verb)
    if cls is None:
        raise NotationError(f"unknown command {verb!r}: expected one of {', '.join(VERBS)}")
    values: dict[str, object] = {"side": side}
    fields = _argument_fields(cls)
    for index, (name, kind) in enumerate(fields):
        if _is_tuple(kind):
            values[name] = tuple(args[index:])
            args = args[:index]
            break
        if index >= len(args):
            if _is_optional(kind) or kind is bool:
                break
            raise NotationError(f"{verb}: missing {name}: {usage(cls)}")
        if kind is bool:
            if args[index] != name:
                raise NotationError(f"{verb}: expected {name!r} or nothing, not {args[index]!r}: {usage(cls)}")
            values[name] = True
            continue
        values[name] = _parse_word(args[index], kind, name)
    else:
        if len(args) > len(fields):
            raise NotationError(f"{verb}: too many words: {usage(cls)}")
    return cls(**values)


def usage(cls: type) -> str:
    parts = [VERB_OF[cls]]
    for name, kind in _argument_fields(cls):
        if _is_tuple(kind):
            parts.append(f"[{name}...]")
        elif _is_optional(kind):
            parts.append(f"[{name}]")
        elif kind is bool:
            parts.append(f"[{name}]")
        else:
            parts.append(f"<{name}>")
    return " ".join(parts)
