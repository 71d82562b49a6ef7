"""The club's catalog: every game of its store, as the lobby shows it
(players, status, result, whose move), loaded or not.

It follows the games (a subscriber of the game server: after each change its
entry says whose move it is now) and tells its own followers (the lobby's
pushes, lobby_push.py) when an entry changed or went.
"""

from __future__ import annotations

from typing import Callable, Iterable, Protocol

from attrs import define

from rules.surface import BOTH_SIDES, Side
from sekigahara_tui.club.protocol import MAX_LISTED, ClockLine, GameLine, Lobby
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.store import GameSummary, GameTerms


@define
class CatalogEntry:
    id: str
    players: dict[Side, str | None]
    status: str
    result: str | None
    created: float
    updated: float
    version: int
    to_move: tuple[Side, ...] | None = None  # None: not known until the game is loaded
    terms: GameTerms = GameTerms()  # an invitation's member, private
    where: str | None = None  # week, turn and phase (public, 6.1); None: not known until loaded

    @classmethod
    def of(cls, summary: GameSummary) -> CatalogEntry:
        return cls(
            summary.id,
            {Side.ISHIDA: summary.players[0], Side.TOKUGAWA: summary.players[1]},
            summary.status,
            summary.result,
            summary.created,
            summary.updated,
            summary.version,
            () if summary.status == "over" else None,
            summary.terms or GameTerms(),
        )

    def line(self, clocks: ClockLine | None = None, online: frozenset[str] = frozenset()) -> GameLine:
        """The lobby's line; `clocks` and who of its players is `online`, for its players' lobbies."""
        return GameLine(
            self.id,
            self.players[Side.ISHIDA],
            self.players[Side.TOKUGAWA],
            self.to_move or (),
            self.status,
            self.result,
            self.version,
            self.updated,
            self.terms.invited if self.open_side is not None else None,
            self.terms.private,
            self.where,
            rated=self.terms.rated,
            clocks=clocks,
            online=tuple(side for side in BOTH_SIDES if self.players[side] in online),
        )

    def side_of(self, member: str) -> Side | None:
        return next((side for side in BOTH_SIDES if self.players[side] == member), None)

    @property
    def open_side(self) -> Side | None:
        return next((side for side in BOTH_SIDES if self.players[side] is None), None)

    def seen_by(self, member: str) -> bool:
        """Whether `member` may see (list, watch, replay) this game: a private
        one is its players' only (and the member it was made for)."""
        return not self.terms.private or self.side_of(member) is not None or self.invites(member)

    def invites(self, member: str) -> bool:
        """An invitation to `member` not yet taken up."""
        return self.terms.invited == member and self.open_side is not None and self.status == "playing"

    def seen_by_all(self) -> tuple:
        """What every member's lobby shows of this game (open, watchable, gone)."""
        return (self.players[Side.ISHIDA], self.players[Side.TOKUGAWA], self.status, self.terms)

    def seen_by_players(self) -> tuple:
        """What its players' lobbies show besides: whose move it is, the result."""
        return (self.to_move, self.result, self.where)


class CatalogFollower(Protocol):
    def entry_changed(self, entry: CatalogEntry) -> None: ...

    def entry_removed(self, game_id: str) -> None: ...


class Catalog:
    def __init__(self, summaries: Iterable[GameSummary]) -> None:
        self.entries: dict[str, CatalogEntry] = {summary.id: CatalogEntry.of(summary) for summary in summaries}
        self._followers: list[CatalogFollower] = []
        # Several hosts: told of whose move it is in a game loaded here, after
        # each change, to tell the other hosts (lobby_sync.py's WhoseMove).
        self.on_noted: Callable[[CatalogEntry], None] | None = None

    def follow(self, follower: CatalogFollower) -> None:
        self._followers.append(follower)

    def __contains__(self, game_id: str) -> bool:
        return game_id in self.entries

    def get(self, game_id: str) -> CatalogEntry | None:
        return self.entries.get(game_id)

    def add(self, entry: CatalogEntry) -> None:
        self.entries[entry.id] = entry
        self.changed(entry)

    def changed(self, entry: CatalogEntry) -> None:
        """An entry was changed (its players, its status): its followers are told."""
        for follower in self._followers:
            follower.entry_changed(entry)

    def remove(self, game_id: str) -> None:
        self.entries.pop(game_id, None)
        for follower in self._followers:
            follower.entry_removed(game_id)

    def note_game(self, game: HostedGame) -> None:
        """The entry follows a loaded game: its version, when it last changed,
        whose move it is, its result."""
        entry = self.entries[game.id]
        entry.version = game.version
        entry.updated = game.actions[-1].at if game.actions else entry.created
        if game.host.is_over:
            entry.status, entry.result, entry.to_move = "over", game.result_text, ()
        else:
            state = game.host.state
            entry.to_move = tuple(side for side in BOTH_SIDES if side in state.decision.sides)
            # public facts only (R55): where the calendar stands
            entry.where = f"week {state.week}, turn {state.turn.value}, {state.phase.value}"
        self.changed(entry)
        if self.on_noted is not None:
            self.on_noted(entry)

    def store_says(self, summary: GameSummary, loaded: HostedGame | None) -> None:
        """Another host (or writer) changed the game in the store (lobby_sync.py):
        the entry takes what is newer in it, and tells its followers if that
        changed anything. A game only goes forward (a seat taken stays taken, an
        end stays, the version grows), so a read older than this host's own
        change leaves the entry alone. Whose move it is after a move made
        elsewhere is unknown (None) until its owner tells it (owner_says); a
        game loaded here that is as new says it itself (note_game)."""
        fresh = CatalogEntry.of(summary)
        entry = self.entries.get(summary.id)
        if entry is None:
            self.add(fresh)
            return
        before = (entry.seen_by_all(), entry.seen_by_players(), entry.version)
        entry.players = {side: fresh.players[side] or entry.players[side] for side in BOTH_SIDES}
        entry.terms = fresh.terms
        if fresh.status == "over" and entry.status != "over":
            entry.status, entry.result, entry.to_move = "over", fresh.result, ()
        if summary.version > entry.version and (loaded is None or summary.version > loaded.version):
            entry.version, entry.updated = summary.version, summary.updated
            if entry.status != "over":
                entry.to_move = entry.where = None
        if (entry.seen_by_all(), entry.seen_by_players(), entry.version) != before:
            self.changed(entry)

    def owner_says(self, game_id: str, version: int, updated: float, to_move: tuple[Side, ...], where: str | None,
                   loaded: HostedGame | None) -> bool:
        """The host that owns the game told whose move it is at `version`
        (lobby_sync.py): the entry takes it unless it knows a newer version
        (a message overtaken by a later move, or one read late), or the game
        is loaded here and says it itself. A finished game stays finished.
        Whether the entry took it."""
        entry = self.entries.get(game_id)
        if entry is None or entry.status == "over" or version < entry.version:
            return False
        if loaded is not None and loaded.version >= version:
            return False
        before = (entry.seen_by_players(), entry.version)
        if version > entry.version:  # told before the store's summary is read: it comes to the same
            entry.version, entry.updated = version, updated
        entry.to_move, entry.where = to_move, where
        if (entry.seen_by_players(), entry.version) != before:
            self.changed(entry)
        return True

    def lobby_for(self, member: str, load: Callable[[str], object], online: frozenset[str] = frozenset(),
                  clocks_of: Callable[[str], ClockLine | None] = lambda game_id: None) -> Lobby:
        """The member's lobby; a game of theirs whose move is not known yet is
        loaded (`load`) to know it. Its games in play say their clocks
        (`clocks_of`) and which of their players are `online`."""
        mine, open_games, watchable, finished, invitations = [], [], [], [], []
        for entry in self.entries.values():
            side = entry.side_of(member)
            if not entry.seen_by(member):
                continue  # a private game of others: as if it were not
            if entry.status == "over":
                if side is not None:
                    finished.append(entry)
            elif side is not None:
                if entry.to_move is None:
                    load(entry.id)  # whose move it is needs the game
                mine.append(entry)
            elif entry.invites(member):
                invitations.append(entry)
            elif entry.open_side is not None:
                if entry.terms.invited is None:  # an invitation is its member's only
                    open_games.append(entry)
            else:
                watchable.append(entry)

        def newest(entries: list[CatalogEntry]) -> tuple[GameLine, ...]:
            return tuple(e.line() for e in sorted(entries, key=lambda e: e.updated, reverse=True)[:MAX_LISTED])

        def my_move_first(entries: list[CatalogEntry]) -> tuple[GameLine, ...]:
            """My move first, the one waiting longest on top (Yucata's advice); then the rest, newest first."""
            waiting = [e for e in entries if e.side_of(member) in (e.to_move or ())]
            others = [e for e in entries if e not in waiting]
            ordered = sorted(waiting, key=lambda e: e.updated) + sorted(others, key=lambda e: e.updated, reverse=True)
            return tuple(e.line(clocks_of(e.id), online) for e in ordered[:MAX_LISTED])

        return Lobby(member, my_move_first(mine), newest(open_games), newest(watchable), newest(finished),
                     invitations=newest(invitations))

    # --- a subscriber of the game server ----------------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        self.note_game(game)

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass  # who plays is the store's, not who is connected

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass
