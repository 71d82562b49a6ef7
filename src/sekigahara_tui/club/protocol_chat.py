"""The club's chat messages (docs/club.md, Chat; docs/protocol.md).

`chat_say` and `get_chat` travel on a seat's game connection (the game's
chat, between its two players: never to a spectator, R55) or on a lobby
connection (the club's channel; `get_chat` naming a game of the member's:
that game's chat, for its replay). The club answers with `chat_line` (each
new line, pushed to whoever follows that chat; the sayer's copy replies to
its `chat_say`), `chat_lines` (the history asked for) and `chat_deleted`
(the administrator took a line away). The text of a `chat_say` is checked
by the club (hosting/chat.py), so a refusal is one line and one audit line;
what the club sends is checked here, as any host message is.
"""

from __future__ import annotations

from attrs import field, frozen

from rules.surface import Side
from sekigahara_tui.club.protocol_fields import _bounded
from sekigahara_tui.net.protocol import MAX_GAME_ID_LENGTH, MAX_ID_LENGTH

MAX_CHAT_TEXT = 500  # characters a line
MAX_CHAT_HISTORY = 100  # lines a `chat_lines` holds at most: the newest
MAX_SPEAKER = 80  # a member's name, or a guest's (guest-NAME)


def _say_text(_instance: object, _attribute: object, value: str) -> None:
    # Only the type is checked on the wire: the club words and audits its refusal (hosting/chat.py).
    if not isinstance(value, str):
        raise ValueError("text must be a string")


def _lines(_instance: object, _attribute: object, value: tuple) -> None:
    if len(value) > MAX_CHAT_HISTORY:
        raise ValueError(f"a chat's history holds at most {MAX_CHAT_HISTORY} lines")


@frozen
class ChatSay:
    """A line of chat: on a seat's connection, to the game's other player; on a
    lobby connection, to the club's channel. Answered by the `chat_line` that
    says it (reply_to: this id), or refused with one line, nothing stored."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    text: str = field(validator=_say_text)


@frozen
class GetChat:
    """The newest lines of a chat: on a seat's connection its game's (game None
    or that game); on a lobby connection the club's channel (game None) or a
    game the member plays or played (its replay). Answered by `chat_lines`."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str | None = field(default=None, validator=_bounded(MAX_GAME_ID_LENGTH))


@frozen
class ChatLine:
    """One line of chat, as stored: its number (the administrator deletes by
    it), its game (None: the club's channel), who said it and from which seat
    (None: the channel), the text exactly as said, and when (seconds since the epoch)."""

    number: int
    game: str | None = field(validator=_bounded(MAX_GAME_ID_LENGTH))
    member: str = field(validator=_bounded(MAX_SPEAKER))
    side: Side | None
    text: str = field(validator=_bounded(MAX_CHAT_TEXT))
    at: float
    reply_to: str | None = field(default=None, validator=_bounded(MAX_ID_LENGTH))


@frozen
class ChatLines:
    """The answer to get_chat: the newest lines, oldest first."""

    reply_to: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str | None = field(validator=_bounded(MAX_GAME_ID_LENGTH))
    lines: tuple[ChatLine, ...] = field(validator=_lines)


@frozen
class ChatDeleted:
    """Pushed to whoever follows the chat: the administrator deleted line `number`."""

    number: int
    game: str | None = field(validator=_bounded(MAX_GAME_ID_LENGTH))


CHAT_CLIENT_MESSAGES: dict[type, str] = {ChatSay: "chat_say", GetChat: "get_chat"}
CHAT_HOST_MESSAGES: dict[type, str] = {ChatLine: "chat_line", ChatLines: "chat_lines", ChatDeleted: "chat_deleted"}
