"""What members do to the club's games from the lobby: make one, join one,
withdraw an open one nobody joined; and a game the store no longer holds
leaves the club.

The store decides (a seat taken, a game withdrawn, each in one transaction);
the catalog and memory follow it. A request that cannot be done raises
`Refusal`, whose kind and reason the lobby sends back (lobby.py).
"""

from __future__ import annotations

import secrets
from typing import Callable

from rules.surface import BOTH_SIDES, Side, default_components, printable
from sekigahara_tui.hosting.catalog import Catalog, CatalogEntry
from sekigahara_tui.hosting.computer_seat import DEFAULT_LEVEL, ComputerSeat
from sekigahara_tui.hosting.game_ids import new_game_id
from sekigahara_tui.hosting.games import HostedGame
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.spectators import Spectators
from sekigahara_tui.hosting.store import Action, GameTerms, Store, StoreError
from sekigahara_tui.hosting.store_commits import Commits, NotStored
from sekigahara_tui.hosting.store_games import StoreGames
from sekigahara_tui.net.protocol import Refused


class Refusal(Exception):
    """A lobby request refused: its kind (a refusal kind of the protocol) and why."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def unknown(game_id: str) -> Refusal:
    return Refusal("unknown-game", f"no game {printable(game_id, 64)!r} in this club")


def seen_entry(catalog: Catalog, game_id: str, member: str) -> CatalogEntry:
    """The game's entry, if `member` may see it; else the refusal for a game
    that does not exist (a private game of others is answered as one)."""
    entry = catalog.get(game_id)
    if entry is None or not entry.seen_by(member):
        raise unknown(game_id)
    return entry


def played_entry(catalog: Catalog, game_id: str, member: str, reason: str) -> tuple[CatalogEntry, Side]:
    """The entry of a game `member` plays, and their side; `reason` refuses anyone else."""
    entry = seen_entry(catalog, game_id, member)
    side = entry.side_of(member)
    if side is None:
        raise Refusal("not-authorised", reason)
    return entry, side


class ClubGames:
    def __init__(self, store: Store, catalog: Catalog, games: StoreGames, spectators: Spectators, computer: ComputerSeat) -> None:
        self.store = store
        self.catalog = catalog
        self.games = games
        self.spectators = spectators
        self.computer = computer
        self.on_join: Callable[[str], None] = lambda game_id: None  # the clock starts (game_clocks.py)

    def new_game(self, member: str, side: Side, opponent: str, level: str | None = None,
                 clock: str = "none", on_time_out: str = "lose", terms: GameTerms = GameTerms()) -> str:
        """Make a game with `member` in `side`, against an opponent who joins
        later ("open": anyone, or only `terms.invited`) or the computer at
        `level` (None: level 1); returns its id. The invited member is checked
        by the caller."""
        game_id = new_game_id()
        against_computer = opponent == "computer"
        players = {side: member} | ({side.other: COMPUTER} if against_computer else {})
        level = (level or DEFAULT_LEVEL) if against_computer else None
        self._create(game_id, players, level, clock, on_time_out, terms)
        return game_id

    def made_for(self, game_id: str, players: dict[Side, str], level: str | None, clock: str) -> None:
        """A game the club makes itself (a tournament's, tournaments.py): both
        seats filled (COMPUTER plays at `level`), its clock started, a time-out loses."""
        self._create(game_id, players, level, clock, "lose", GameTerms())
        self.on_join(game_id)  # both seats filled: the clock started in its transaction

    def _create(self, game_id: str, players: dict[Side, str], level: str | None, clock: str, on_time_out: str, terms: GameTerms) -> None:
        seed = secrets.randbelow(2**63)  # decides every hidden draw: never shown
        try:
            info = self.store.create_game(
                game_id, seed, default_components().data_version, None, players, computer_level=level,
                clock=None if clock == "none" else clock, on_time_out=on_time_out, terms=terms,
            )
        except StoreError as error:
            raise Refusal("host-error", f"the game could not be made: {printable(str(error), 200)}") from None
        self.catalog.add(CatalogEntry(game_id, {s: players.get(s) for s in BOTH_SIDES}, "playing", None, info.created, info.created, 0,
                                      terms=terms))
        if level is not None:
            self.computer.set_level(game_id, level)
            self.games.find(game_id)  # the computer may have a decision at once

    def join(self, member: str, game_id: str) -> Side:
        """Take the open seat of someone else's game; the side taken."""
        entry = seen_entry(self.catalog, game_id, member)
        side = entry.open_side
        if entry.terms.invited not in (None, member) and entry.side_of(member) is None:
            raise Refusal("seat-taken", "that game was made for another member: only they may join it")
        if entry.side_of(member) is not None:
            raise Refusal("seat-taken", "you already play in that game; enter it instead")
        if entry.status != "playing":
            raise Refusal("seat-taken", f"that game is finished ({printable(entry.result or 'over', 80)}): it cannot be joined")
        if side is None:
            raise Refusal("seat-taken", "that game has no open seat")
        try:
            taken = self.store.take_seat(entry.id, side, member)
        except StoreError as error:
            raise Refusal("host-error", f"could not join: {printable(str(error), 200)}") from None
        if not taken:
            raise Refusal("seat-taken", "someone else took that seat first")
        entry.players[side] = member
        self.catalog.changed(entry)
        self.on_join(game_id)
        return side

    # --- withdrawing an open game nobody joined ------------------------------------

    def why_not_withdrawn(self, member: str, game_id: str, declined: bool = False) -> Refusal | None:
        """Why `member` cannot withdraw the game (`declined`: decline the
        invitation to them); None if they can."""
        try:
            entry = seen_entry(self.catalog, game_id, member)
        except Refusal as refusal:
            return refusal
        if declined:
            return None if entry.invites(member) else Refusal("not-authorised", "that game is no invitation to you: nothing to decline")
        side = entry.side_of(member)
        if side is None:
            return Refusal("not-authorised", "you play neither seat of that game: only its player can withdraw it")
        if entry.status != "playing":
            return Refusal("seat-taken", "that game is over: it can no longer be withdrawn")
        other = entry.players[side.other]
        if other == COMPUTER:
            return Refusal("seat-taken", "the computer plays that game: it cannot be withdrawn")
        if other is not None:
            return Refusal("seat-taken", f"{printable(other, 40)} has joined that game: it can no longer be withdrawn")
        return None

    async def withdraw(self, member: str, game_id: str, declined: bool = False) -> None:
        """A loaded game may have a command (its creator's bid) being stored:
        wait for it (game.changing), so no action is appended to a deleted game."""
        while (game := self.games.loaded.get(game_id)) is not None:
            async with game.changing:
                if self.games.loaded.get(game_id) is game:
                    self._withdraw_now(member, game_id, declined)
                    return
            # evicted while this waited (and perhaps loaded again): look again
        self._withdraw_now(member, game_id, declined)  # not in memory: nothing is being stored

    def _withdraw_now(self, member: str, game_id: str, declined: bool) -> None:
        """Check again (a join may have come first), then the store decides; memory follows it."""
        refusal = self.why_not_withdrawn(member, game_id, declined)
        if refusal is not None:
            raise refusal
        try:
            withdrawn = self.store.withdraw_open_game(game_id, member, invited=declined)
        except StoreError as error:
            raise Refusal("host-error", f"could not withdraw it: {printable(str(error), 200)}") from None
        if not withdrawn:
            self.reread_entry(game_id)
            raise Refusal("seat-taken", "someone joined that game meanwhile: it can no longer be withdrawn")
        self.forget(game_id, f"{printable(member, 40)} {'declined' if declined else 'withdrew'} this game")

    def reread_entry(self, game_id: str) -> None:
        """The store says otherwise than the catalog (another writer of the
        store took the seat, or deleted the game): the catalog follows the store."""
        try:
            summary = next((s for s in self.store.summaries() if s.id == game_id), None)
        except StoreError:
            return
        if summary is None:
            self.forget(game_id, "this game is no longer in the club's store")
            return
        entry = self.catalog.get(game_id)
        if entry is not None:
            entry.players = {Side.ISHIDA: summary.players[0], Side.TOKUGAWA: summary.players[1]}
            if summary.status == "over":
                entry.status, entry.result, entry.to_move = "over", summary.result, ()
            self.catalog.changed(entry)

    def forget(self, game_id: str, reason: str) -> None:
        """A game deleted from the store leaves memory: its seats and spectators
        are told why and closed, the lobbies that follow are pushed."""
        game = self.games.drop(game_id)
        gone = self.spectators.game_gone(game_id)
        if game is not None:
            gone += list(game.connections.values())
        for connection in gone:
            connection.send(Refused(None, "unknown-game", reason))
            connection.close()
        self.computer.forget(game_id)
        self.catalog.remove(game_id)


class ClubCommits:
    """The club's commits: the store's, but a command that waited for a
    withdrawal (game.changing) is not stored: its game is no longer in the store."""

    def __init__(self, commits: Commits, catalog: Catalog, stamp: Callable[[HostedGame, Action], Action] = lambda g, a: a) -> None:
        self.commits = commits
        self.catalog = catalog
        self.stamp = stamp  # the game's clocks, stored in the action's transaction (game_clocks.py)

    async def commit(self, game: HostedGame, action: Action, committed: Callable[[int], None]) -> None:
        if game.id not in self.catalog:
            raise NotStored("unknown-game", "that game was withdrawn: nothing was stored")
        await self.commits.commit(game, self.stamp(game, action), committed)

    async def close(self) -> None:
        await self.commits.close()
