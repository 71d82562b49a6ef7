"""The club's tournaments (issue 26): members make one, sign up until it
starts, and the club runs it to the end.

A round-robin's games are all made at its start (every pair twice, sides
swapped: Rally the Troops' Mini Cup plays them side by side). A Swiss's
first round is made at its start, and each next one as soon as the round
before is over: this is a subscriber of the game server, told of every
game's end (by the rules, a resignation, a cancellation, a time-out:
results.py), like game_notices.py. The club makes the games itself
(club_games.py, `made_for`): both seats filled (the computer's for a
computer entrant), the tournament's clock started, a time-out a loss.

Everything is in the store (tournament_store.py): at the club's start
(`resume`) each running tournament is looked at again: games whose boards
were written but not made (a kill -9 between the two) are made, a game over
by its replay whose end was not yet stored is stored, and a Swiss round
over is followed by the next. A request refused is one line to the member
and one in the audit log (the lobby's `_refuse`).

Several hosts over one PostgreSQL (issue 28): exactly one host acts for a
running tournament, the holder of its lease (tournament_leases.py): it
starts it, pairs and writes its rounds (fenced: a host that lost the lease
writes nothing, one `tournament-not-acting` audit line), makes and mends its
games, and looks at it on each renewal beat (`look`: a round ended on
another host, whose games they are). A dead host's tournament is taken by
another within LEASE + RENEW_EVERY. The results are the games' owners',
fenced by the games' leases (store.py).
"""

from __future__ import annotations

import time

from rules.surface import Side, printable
from sekigahara_tui.club.protocol_tournaments import (
    BoardLine, GetTournament, JoinTournament, NewTournament, StandingLine, StartTournament, TournamentList,
    TournamentShown, TournamentSummary,
)
from sekigahara_tui.hosting import database
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.club_games import ClubGames, Refusal
from sekigahara_tui.hosting.game_ids import new_game_id
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.store import GameEnd, StoreError
from sekigahara_tui.hosting.tournament_pairing import (
    ROUND_ROBIN, SWISS, most_swiss_rounds, round_robin, standings, swiss_round,
)
from sekigahara_tui.hosting.tournament_leases import TournamentLeases
from sekigahara_tui.hosting.tournament_store import NotActing, Tournament, TournamentError, TournamentStore

MAX_ENTRANTS = 32
MAX_ROUND_ROBIN = 12  # 132 games


def status_of(t: Tournament) -> str:
    if t.started is None:
        return "sign-up"
    over = all(b.status in ("over", "bye") for b in t.boards)
    return "over" if over and (t.format == ROUND_ROBIN or t.last_round() >= (t.rounds or 0)) else "playing"


class Tournaments:
    def __init__(self, store_path: database.Location, club_games: ClubGames, audit: AuditLog | NoAuditLog = NoAuditLog()) -> None:
        self.store = TournamentStore(store_path)
        self.club_games = club_games
        self.audit = audit
        self._of_game = self.store.game_tournaments()  # game id -> its tournament
        self.leases: TournamentLeases | None = None  # several hosts: which tournaments this host acts for

    def share(self, leases: TournamentLeases) -> None:
        """Several hosts: act only for the tournaments whose lease this host holds; writes fenced by it."""
        self.leases = self.store.fence = leases

    def _acts(self, name: str) -> bool:
        """This host acts for the tournament (one host: always); takes its lease if free or expired.
        One it holds is renewed on the beat, and a stale belief is caught by the fenced write."""
        if self.leases is None or name in self.leases.epochs:
            return True
        try:
            return self.leases.acquire(name)
        except database.Error:
            return False  # the next beat looks again

    def close(self) -> None:
        self.store.close()

    # --- a lobby's requests ---------------------------------------------------------------

    def take(self, member: str, admin: bool, guest: bool, message: object) -> object:
        """The answer to a lobby's tournament request; Refusal (nothing changed) if it cannot be done."""
        try:
            if isinstance(message, GetTournament):
                if message.name is None:
                    return TournamentList(message.id, tuple(self._summary(name) for name in self.store.names()))
                return self._shown(message.id, self._get(message.name))
            if guest:
                raise Refusal("not-authorised", "guests may watch tournaments' games; only members play in tournaments")
            if isinstance(message, NewTournament):
                if (message.format == SWISS) != (message.rounds is not None):
                    raise Refusal("bad-message", "a Swiss needs --rounds N; a round-robin takes none (every pair plays twice)")
                self.store.create(message.name, message.format, message.rounds, message.clock, member)
                self.audit.record("tournament-made", f"{message.format}, clock {message.clock}", front="club", member=member)
                return self._shown(message.id, self._get(message.name))
            if isinstance(message, JoinTournament):
                return self._shown(message.id, self._sign_up(member, admin, message))
            if isinstance(message, StartTournament):
                return self._shown(message.id, self._start(member, admin, message.name))
        except TournamentError as error:
            raise Refusal("illegal", str(error)) from None
        except database.Error as error:
            raise Refusal("host-error", f"the club could not store it, nothing changed: {printable(str(error), 200)}") from None
        raise Refusal("bad-message", "not a tournament request")

    def _get(self, name: str) -> Tournament:
        t = self.store.tournament(name)
        if t is None:
            raise Refusal("unknown-game", f"no tournament called {printable(name, 40)!r}")
        return t

    def _sign_up(self, member: str, admin: bool, message: JoinTournament) -> Tournament:
        t = self._get(message.name)
        if len(t.entrants) >= (MAX_ROUND_ROBIN if t.format == ROUND_ROBIN else MAX_ENTRANTS):
            raise Refusal("illegal", f"{printable(t.name, 40)!r} is full")
        if message.computer is not None:
            if not admin and member != t.created_by:
                raise Refusal("not-authorised", "only the tournament's maker or the administrator signs the computer up")
            if set(t.levels.values()) - {message.computer}:
                # the store keeps one computer level a game: two computer entrants must play at the same
                raise Refusal("illegal", f"this tournament's computer plays at level {next(iter(t.levels.values()))} already")
        entrant = self.store.sign_up(t.name, None if message.computer else member, message.computer)
        self.audit.record("tournament-entrant", f"{entrant} signed up for {t.name}", front="club", member=member)
        return self._get(t.name)

    def _start(self, member: str, admin: bool, name: str) -> Tournament:
        t = self._get(name)
        if not admin and member != t.created_by:
            raise Refusal("not-authorised", "only the tournament's maker or the administrator starts it")
        if t.started is not None:
            raise Refusal("illegal", f"{printable(name, 40)!r} has started already")
        if not self._acts(name):
            raise Refusal("illegal", f"another host of the club is starting {printable(name, 40)!r}")
        n = len(t.entrants)
        if n < 2:
            raise Refusal("illegal", f"{printable(name, 40)!r} has {n} entrant{'s' * (n != 1)}: it needs at least 2")
        if t.format == SWISS and (t.rounds or 0) > most_swiss_rounds(n):
            raise Refusal("illegal", f"a Swiss of {n} has at most {most_swiss_rounds(n)} rounds (so nobody meets anyone twice), not {t.rounds}")
        if t.format == ROUND_ROBIN:
            rounds = round_robin(list(t.entrants))
            started = self.store.add_rounds(name, rounds, [[new_game_id() for _ in boards] for boards in rounds])
        else:
            boards = swiss_round(list(t.entrants), [])
            started = self.store.add_round(name, 1, boards, [new_game_id() if b.tokugawa else None for b in boards], start=True)
        if not started:
            raise Refusal("illegal", f"{printable(name, 40)!r} has started already")
        self.audit.record("tournament-started", f"{name}: {n} entrants", front="club", member=member)
        self.advance(name)
        return self._get(name)

    # --- running it ---------------------------------------------------------------------

    def resume(self) -> None:
        """At the club's start: every running tournament looked at again."""
        for name in self.store.running():
            if not self._acts(name):
                continue  # another host acts for it, and mends it
            t = self.store.tournament(name)
            for board in t.boards if t is not None else ():
                if board.status == "playing" and board.game is not None:
                    self._mend(board.game)
            self.advance(name)

    def _mend(self, game_id: str) -> None:
        """A game over by its replay whose end is not stored (killed between
        its last action and its end): stored now, as StoreCommits would have."""
        game = self.club_games.games.find(game_id)
        if game is not None and game.host.is_over and game.end is None:
            result = game.host.state.result
            at = game.actions[-1].at if game.actions else time.time()
            try:
                self.club_games.store.finish(game_id, game.result_text, GameEnd("rules", result.winner, None, at, None))
            except StoreError:
                pass  # looked at again at the next start

    def advance(self, name: str) -> None:
        """Make the games still missing; a Swiss round over: pair the next, store it, make its games."""
        try:
            if not self._acts(name):
                return
            t = self.store.tournament(name)
            if t is None or t.started is None:
                return
            if self.leases is not None and status_of(t) == "over":
                self.leases.finish(name)
                return
            self._make_missing(t)
            last = t.last_round()
            if t.format == SWISS and t.round_over(last) and last < (t.rounds or 0):
                boards = swiss_round(list(t.entrants), [b.played for b in t.boards])
                if self.store.add_round(name, last + 1, boards, [new_game_id() if b.tokugawa else None for b in boards]):
                    self.audit.record("tournament-round", f"{name}: round {last + 1} paired", front="club")
                    t = self.store.tournament(name)
                    assert t is not None
                    self._make_missing(t)
        except NotActing as refused:  # fenced: another host took the lease meanwhile
            assert self.leases is not None
            self.leases.lost(name)
            self.audit.record("tournament-not-acting", f"{name}: {refused}", front="club")
        except (database.Error, Refusal) as error:  # looked at again at the next game's end, or start
            self.audit.record("tournament-stalled", printable(str(error), 200), front="club")

    def look(self, held: list[str], expired: list[str]) -> None:
        """On each renewal beat (several hosts): the tournaments this host acts
        for looked at (a round over on another host), and those whose host died taken."""
        for name in held:
            self.advance(name)
        for name in expired:
            if self._acts(name):
                self.audit.record("tournament-taken-over", f"{name}: its host's lease ran out", front="club")
                self.advance(name)

    def _make_missing(self, t: Tournament) -> None:
        for board in t.boards:
            if board.status != "unmade" or board.game is None or board.tokugawa is None:
                continue
            players = {Side.ISHIDA: board.ishida, Side.TOKUGAWA: board.tokugawa}
            level = next((t.levels[e] for e in players.values() if e in t.levels), None)
            players = {side: COMPUTER if e in t.levels else e for side, e in players.items()}
            self._of_game[board.game] = t.name
            self.club_games.made_for(board.game, players, level, t.clock)

    # --- a subscriber of the game server: a game's end ------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        name = self._of_game.get(game.id)
        if name is not None and game.host.is_over:
            self.advance(name)  # its end is stored (the store's subscriber comes first; results.py stores before it tells)

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass

    # --- what the wire shows ----------------------------------------------------------------

    def _summary(self, name: str) -> TournamentSummary:
        t = self._get(name)
        return TournamentSummary(t.name, t.format, t.clock, status_of(t), len(t.entrants))

    def _shown(self, reply_to: str, t: Tournament) -> TournamentShown:
        table = standings(list(t.entrants), [b.played for b in t.boards], t.format)
        lines = tuple(
            StandingLine(rank, s.entrant, s.points, s.played, s.wins, s.sonneborn_berger, s.buchholz)
            for rank, s in enumerate(table, start=1)
        )
        catalog = self.club_games.catalog
        boards = tuple(
            BoardLine(b.round, b.board, b.ishida, b.tokugawa, b.game, b.status,
                      (catalog.get(b.game).result if b.game is not None and catalog.get(b.game) is not None else None))
            for b in t.boards
        )
        rounds = t.rounds if t.format == SWISS else (t.last_round() or None)
        return TournamentShown(reply_to, t.name, t.format, t.clock, rounds, t.created_by, status_of(t), t.entrants, lines, boards)

