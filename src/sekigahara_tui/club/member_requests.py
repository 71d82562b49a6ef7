"""A front end's request to the lobby in a signed-in member's name: a
session of the member's own (the front's link: front_link.py), a lobby connection with it
(ClubClient), the request, then both closed. The web front's records
(web_records.py) and the SSH front's commands (ssh_exec.py) ask this way, so
the lobby's rule and its audit line are the same whichever front asks.
"""

from __future__ import annotations

import re
from typing import Any, Awaitable, Callable, TypeVar

from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.net.protocol import MAX_GAME_ID_LENGTH

T = TypeVar("T")
# What a game id may be; anything else names no game (the club's own answer for an unknown one).
GAME_ID = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_GAME_ID_LENGTH}}}")


class NoSession(Exception):
    """The club would not open a session (the member removed, the web token
    replaced); the message is the club's, in one line."""


async def ask_as_member(link: Any, member: str, ask: Callable[[ClubClient], Awaitable[T]],
                        web_generation: str | None = None) -> T:
    """`ask(client)` over a lobby connection of `member`'s own session (link:
    the front's, front_link.py). NoSession if the club refuses one; the
    lobby's refusals (ClubRefused) and a club that does not answer (OSError,
    TimeoutError) pass through."""
    try:
        session = await link.open_session(member, web_generation=web_generation)
    except (OSError, TimeoutError):
        raise
    except Exception as error:  # the club's refusal, said in one line by the caller
        raise NoSession(str(error)) from None
    client = link.client(session)
    try:
        return await ask(client)
    finally:
        await client.close()
        await link.close_session(session)
