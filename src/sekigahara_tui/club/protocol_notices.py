"""The club's messages about a member's notice settings (docs/club.md, Notices):
`get_notices` and `set_notices` from the client, `notices` in answer."""

from __future__ import annotations

from typing import Any

from attrs import field, frozen

from sekigahara_tui.club.protocol_fields import _bounded
from sekigahara_tui.net.protocol import MAX_ID_LENGTH


MAX_WEBHOOK_URL = 500
MAX_MAIL = 254
MAX_KIND = 20


def _kinds(_instance: object, _attribute: Any, value: tuple[str, ...]) -> None:
    if len(value) > 10:
        raise ValueError("kinds names at most 10 kinds")
    for kind in value:
        if not kind or len(kind) > MAX_KIND or not kind.isprintable():
            raise ValueError(f"a kind is 1-{MAX_KIND} printable characters")


@frozen
class GetNotices:
    """Ask for my notice settings (answered by `notices`)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))


@frozen
class SetNotices:
    """My notice settings, all at once (docs/club.md, Notices): a webhook URL
    (None: none) and its format (discord, slack, json), a mail address (None:
    none), the kinds of notice wanted. Answered by `notices`, or refused with
    one line and nothing changed."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    webhook: str | None = field(validator=_bounded(MAX_WEBHOOK_URL))
    webhook_format: str = field(validator=_bounded(MAX_KIND))
    mail: str | None = field(validator=_bounded(MAX_MAIL))
    kinds: tuple[str, ...] = field(validator=_kinds)


@frozen
class Notices:
    """A member's notice settings (the answer to get_notices and set_notices);
    `mail_offered`: whether this club sends mail at all (serve --smtp)."""

    reply_to: str
    webhook: str | None
    webhook_format: str
    mail: str | None
    kinds: tuple[str, ...]
    mail_offered: bool


@frozen
class YourMove:
    """Pushed to a member's lobby connections when a decision passes to them in
    a game they are not looking at, while they are signed in (issue 24): the
    app rings the terminal's bell and says "Your move in GAME against X"."""

    game: str = field(validator=_bounded(MAX_ID_LENGTH))
    opponent: str | None = field(validator=_bounded(40))
