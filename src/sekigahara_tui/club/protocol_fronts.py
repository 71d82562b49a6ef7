"""A front's messages to the club and back (issue 28; docs/protocol.md,
Fronts): an SSH or web front on a machine without the store asks the club,
over its TLS connection, everything the club decides. The connection begins
with `front_hello` carrying the front's credential (hosting/front_door.py).

Requests (with an id, answered with that reply_to) and notes (no answer):

    front_key {id, key, user}            -> front_member {member}   an SSH key's member (or a guest)
    front_guest {id, user}               -> front_member {member}   a guest without a key, if guests are let in
    front_web_sign_in {id, member, token} -> front_member {member, generation}  a web token checked
    front_web_generation {id, member}    -> front_member {member, generation}   a cookie's token still current?
    front_hold {id, member}              -> front_held {refusal}    a place among the club's session caps
    front_release {member}                                          ... given back
    front_open {id, member, web_generation} -> front_session {session}, or refused
    front_close {session}                                           the session ended
    front_audit {event, reason, fields}                             a line of the club's audit log

Pushed by the club: `front_revoked {member}` (a member removed: end their
sessions) and `front_signed_out {member, generation}` (a web token replaced).
Read as strictly as the lobby's: exact types, no unknown keys, bounded
printable strings.
"""

from __future__ import annotations

import json
from typing import Any, Union

import cattrs
from attrs import field, frozen
from cattrs.strategies import configure_tagged_union

from sekigahara_tui.club.protocol_fields import _bounded
from sekigahara_tui.net.protocol import MAX_ID_LENGTH, BadMessage, Pong, Refused, decode_host_message, make_wire_converter

NAME = 64  # a member's, a guest's or a front's name, an SSH user name
SECRET = 200  # a credential, a web token, a session token, a generation
KEY = 2000  # an OpenSSH public key line (RSA 4096: about 740)
TEXT = 300  # an audit line's reason or a field's value
MAX_FIELDS = 8


def _text(_instance: object, attribute: Any, value: str) -> None:
    if len(value) > TEXT:
        raise ValueError(f"{attribute.name} is longer than {TEXT} characters")


def _fields(_instance: object, _attribute: Any, value: dict[str, str]) -> None:
    if len(value) > MAX_FIELDS or any(len(k) > 20 or not k.isidentifier() or len(v) > TEXT for k, v in value.items()):
        raise ValueError(f"fields: at most {MAX_FIELDS}, names of at most 20 letters, values of at most {TEXT}")


@frozen
class FrontHello:
    version: int
    credential: str = field(validator=_bounded(SECRET))


@frozen
class FrontKey:
    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    key: str = field(validator=_bounded(KEY))
    user: str = field(validator=_bounded(NAME))


@frozen
class FrontGuest:
    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    user: str = field(validator=_bounded(NAME))


@frozen
class FrontWebSignIn:
    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    member: str = field(validator=_bounded(NAME))
    token: str = field(validator=_bounded(SECRET))


@frozen
class FrontWebGeneration:
    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    member: str = field(validator=_bounded(NAME))


@frozen
class FrontHold:
    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    member: str = field(validator=_bounded(NAME))


@frozen
class FrontRelease:
    member: str = field(validator=_bounded(NAME))


@frozen
class FrontOpen:
    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    member: str = field(validator=_bounded(NAME))
    web_generation: str | None = field(default=None, validator=_bounded(SECRET))


@frozen
class FrontClose:
    session: str = field(validator=_bounded(SECRET))


@frozen
class FrontAudit:
    event: str = field(validator=_bounded(40))
    reason: str = field(validator=_text)  # may be empty; the audit log escapes what is not printable
    fields: dict[str, str] = field(factory=dict, validator=_fields)


@frozen
class FrontWelcome:
    name: str  # the front's, as its credential names it
    guests: bool  # the club lets guests in (serve --guest)


@frozen
class FrontMember:
    reply_to: str
    member: str | None
    generation: str | None = None  # the member's web token's (front_web_*)


@frozen
class FrontHeld:
    reply_to: str
    refusal: str | None  # None: a place is held until front_release


@frozen
class FrontSession:
    reply_to: str
    session: str


@frozen
class FrontRevoked:
    member: str


@frozen
class FrontSignedOut:
    member: str
    generation: str


FRONT_REQUESTS: dict[type, str] = {
    FrontHello: "front_hello", FrontKey: "front_key", FrontGuest: "front_guest", FrontWebSignIn: "front_web_sign_in",
    FrontWebGeneration: "front_web_generation", FrontHold: "front_hold", FrontRelease: "front_release",
    FrontOpen: "front_open", FrontClose: "front_close", FrontAudit: "front_audit",
}
FRONT_ANSWERS: dict[type, str] = {
    FrontWelcome: "front_welcome", FrontMember: "front_member", FrontHeld: "front_held", FrontSession: "front_session",
    FrontRevoked: "front_revoked", FrontSignedOut: "front_signed_out",
}
FrontRequest = Union[FrontHello, FrontKey, FrontGuest, FrontWebSignIn, FrontWebGeneration, FrontHold, FrontRelease,
                     FrontOpen, FrontClose, FrontAudit]
FrontAnswer = Union[FrontWelcome, FrontMember, FrontHeld, FrontSession, FrontRevoked, FrontSignedOut]
_TAGS = FRONT_REQUESTS | FRONT_ANSWERS
_converter = make_wire_converter()
configure_tagged_union(FrontRequest, _converter, tag_name="type", tag_generator=lambda cls: _TAGS[cls])
configure_tagged_union(FrontAnswer, _converter, tag_name="type", tag_generator=lambda cls: _TAGS[cls])
FRONT_PREFIX = "front_"


def encode(message: object) -> bytes:
    """One line of JSON; a Refused or Pong as the game protocol writes it."""
    if type(message) not in _TAGS:
        from sekigahara_tui.net.protocol import encode as encode_game

        return encode_game(message)
    union = FrontRequest if type(message) in FRONT_REQUESTS else FrontAnswer
    return (json.dumps(_converter.unstructure(message, union), separators=(",", ":")) + "\n").encode("utf-8")


def _structure(data: dict[str, Any], union: object, names: set[str]) -> object:
    kind = data.get("type")
    given = data.get("id")
    safe_id = given if isinstance(given, str) and 0 < len(given) <= MAX_ID_LENGTH and given.isprintable() else None
    if kind not in names:
        raise BadMessage(f"unknown front message type {str(kind)[:30]!r}", safe_id)
    try:
        return _converter.structure(data, union)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as error:
        raise BadMessage(f"bad {kind} message: {str(error)[:200]}", safe_id) from None


def front_request_of(data: dict[str, Any]) -> object:
    """A front's request from its line's JSON object (already parsed strictly by the club's decoder)."""
    return _structure(data, FrontRequest, set(FRONT_REQUESTS.values()))


def decode_front_answer(line: bytes) -> object:
    """A line from the club on a front's connection (BadMessage if bad)."""
    try:
        data = json.loads(line)
    except ValueError:
        raise BadMessage("not a JSON line") from None
    if isinstance(data, dict) and isinstance(data.get("type"), str) and data["type"].startswith(FRONT_PREFIX):
        return _structure(data, FrontAnswer, set(FRONT_ANSWERS.values()))
    message = decode_host_message(line)
    if not isinstance(message, (Refused, Pong)):
        raise BadMessage(f"unexpected {type(message).__name__} on a front's connection")
    return message
