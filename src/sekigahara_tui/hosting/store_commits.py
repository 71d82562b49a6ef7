"""How a game server's changes reach the store: each action through the group
commit (many games to an fsync) before anything is acknowledged or sent, and
a game's end once it is over.

A game server is given its commits (`Commits`); a refusal to store says why
(`NotStored`) and the game server changes nothing. The club wraps these with
its own refusal (club_games.py, ClubCommits: a withdrawn game takes nothing).
"""

from __future__ import annotations

from typing import Callable, Protocol

from rules.surface import Side, printable
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.group_commit import GroupCommit
from sekigahara_tui.hosting.store import BEHIND, Action, GameEnd, NotOwner, Store, StoreError


class NotStored(Exception):
    """An action was not stored: nothing changed. `kind` is the refusal's."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class Commits(Protocol):
    async def commit(self, game: HostedGame, action: Action, committed: Callable[[int], None]) -> None:
        """Store `action` as the game's next row, then call `committed(version)`;
        NotStored if it was not stored."""
        ...

    async def close(self) -> None: ...


class StoreCommits:
    """The store's writer for a game server: its commits, and (as a
    subscriber) the status of a game that ended."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.writer = GroupCommit(store.path, store.fence)  # commands and undos, many games to an fsync
        # Several hosts: a commit fenced off (another host took the game) drops the game here (club_server.py).
        self.lost: Callable[[str, str], None] = lambda game_id, reason: None

    async def commit(self, game: HostedGame, action: Action, committed: Callable[[int], None]) -> None:
        try:
            await self.writer.append(game.id, action, game.version, committed)
        except NotOwner as error:
            self.lost(game.id, str(error))
            raise NotStored("host-error", f"{error}; reconnect: the game goes on where it is played now") from None
        except StoreError as error:
            text = printable(str(error), 200)
            if BEHIND in text:
                # Memory may no longer follow the store (a commit's answer lost with the
                # connection, or a row taken behind the host): the game leaves memory and
                # is read again from the store when its players come back; they are told.
                # Only a lost answer leaves this command's fate unknown: the words say which.
                known = "" if text.startswith(BEHIND) else "the host could not store it, nothing changed: "
                reason = f"{known}{text}; reconnect: the game is read again from the store"
                self.lost(game.id, reason)
                raise NotStored("host-error", reason) from None
            raise NotStored("host-error", f"the host could not store it, nothing changed: {text}") from None

    async def close(self) -> None:
        await self.writer.close()

    # --- a subscriber of the game server: the store hears first --------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        # An end outside the rules was stored before it was told (results.py).
        if game.host.is_over and game.end is None and change.action is not None:
            result = game.host.state.result
            assert result is not None
            kind = "finished-by-stand-in" if game.stood_in is not None else "rules"
            end = GameEnd(kind, result.winner, game.stood_in, change.action.at, None)
            try:
                self.store.finish(game.id, game.result_text, end)
            except StoreError:
                pass  # the status is derived from the actions anyway

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass  # the store keeps no connections

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass
