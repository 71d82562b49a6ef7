"""Games ended outside the rules (issue 24): a resignation, a cancellation
by agreement, and (for the clocks that follow) a seat out of time.

`Results.end_outside_rules` is the one place such a game ends: under the
game's lock, the end is stored (store.py: status, words, result, one
transaction, on disk) before anything changes in memory or is told; then
the engine's state is ended (rules.victory.end_outside_rules: the final
board face up, R56) and the game server's subscribers are told, as after
any stored action (game_server.py `publish`): both seats and the
spectators get the final state and game_over, the catalog moves the game to
"finished", the computer stops.

The seats' requests (club/protocol.py: resign, propose_cancel,
answer_cancel) come here from a seat's connection (seats.py); each refusal
is one line to the seat and one line in the audit log.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rules.surface import GameResult, Side, printable
from sekigahara_tui.club.protocol import AnswerCancel, CancelProposal, ProposeCancel, Resign
from sekigahara_tui.club.protocol import encode as club_encode
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.connections import Connection
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.result_words import OUTSIDE_CAUSES, end_words
from sekigahara_tui.hosting.store import CancelOffer, GameEnd, Store, StoreError
from sekigahara_tui.net.protocol import Refused

if TYPE_CHECKING:
    from sekigahara_tui.hosting.game_server import GameServer, SeatRequest

# Cancelling by agreement is for a game that has barely begun: before week 2
# of the calendar (6.1: the game lasts 7 weeks, each begun by its reinforcement step).
LAST_CANCEL_WEEK = 1


class NotEnded(Exception):
    """The game could not be ended: one line why (kind: a refusal kind)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class Results:
    def __init__(self, store: Store, catalog: Catalog, audit: AuditLog | NoAuditLog = NoAuditLog()) -> None:
        self.store = store
        self.catalog = catalog
        self.audit = audit
        self.server: GameServer | None = None

    def play_through(self, server: GameServer) -> None:
        """The game server whose subscribers are told of an end."""
        self.server = server

    def seat_requests(self) -> dict[type, SeatRequest]:
        """The seat's messages this handles (for GameServer's seat_requests)."""
        return {Resign: self._resign, ProposeCancel: self._propose, AnswerCancel: self._answer}

    # --- the one place a game ends outside the rules --------------------------------

    async def end_outside_rules(
        self,
        game: HostedGame,
        kind: str,
        seat: Side | None,
        by: str | None,
        *,
        asked_by: Connection | None = None,
        message_id: str | None = None,
    ) -> GameEnd:
        """End `game` now: `kind` is resigned (seat: who resigned), timed-out
        (seat: who ran out of time) or cancelled (seat: who accepted); `by`,
        the member who did it (None: the clock). Stored, then told. NotEnded
        (nothing changed) if the game is already over or cannot be stored."""
        async with game.changing:
            return self._end_now(game, kind, seat, by, asked_by, message_id)

    def _end_now(
        self, game: HostedGame, kind: str, seat: Side | None, by: str | None, asked_by: Connection | None, message_id: str | None
    ) -> GameEnd:
        """The caller holds game.changing."""
        if kind not in OUTSIDE_CAUSES:
            raise ValueError(f"not an end outside the rules: {kind!r}")
        if game.host.is_over:
            raise NotEnded("illegal", f"the game is over already: {game.result_text}")
        winner = None if kind == "cancelled" else (seat.other if seat is not None else None)
        end = GameEnd(kind, winner, seat, time.time(), by)
        words = end_words(end, GameResult(winner, OUTSIDE_CAUSES[kind]))
        try:
            stored = self.store.end_outside_rules(game.id, words, end)
        except StoreError as error:
            raise NotEnded("host-error", f"the club could not store it, nothing changed: {printable(str(error), 200)}") from None
        if not stored:
            raise NotEnded("host-error", "the store says this game is no longer in play: nothing changed")
        # On disk: now memory follows, and then the seats are told.
        game.host.end_outside_rules(winner, OUTSIDE_CAUSES[kind])
        game.end = end
        game.cancel_offer = None
        game.ended_at = time.monotonic()
        self.audit.record("game-ended", words, game=game.id, kind=kind, member=by)
        assert self.server is not None
        self.server.publish(game, Change(None, asked_by, message_id))
        return end

    # --- a seat's requests ------------------------------------------------------------

    def _refuse(self, connection: Connection, game: HostedGame, side: Side, message_id: str | None, kind: str, reason: str) -> None:
        self.audit.record("refused", reason, game=game.id, seat=side.value, member=self._player(game, side), address=connection.address)
        connection.send(Refused(message_id, kind, reason))

    def _player(self, game: HostedGame, side: Side) -> str | None:
        entry = self.catalog.get(game.id)
        return entry.players[side] if entry is not None else None

    def _why_not_in_play(self, game: HostedGame, side: Side) -> str | None:
        """Why neither resigning nor cancelling can be asked now; None if they can."""
        if game.host.is_over:
            return f"the game is over: {game.result_text}"
        if self._player(game, side.other) is None:
            return "nobody has joined this game yet: withdraw it from the lobby instead"
        return None

    async def _resign(self, connection: Connection, game: HostedGame, side: Side, message: object) -> None:
        assert isinstance(message, Resign)
        async with game.changing:
            reason = self._why_not_in_play(game, side)
            if reason is not None:
                return self._refuse(connection, game, side, message.id, "illegal", reason)
            try:
                self._end_now(game, "resigned", side, self._player(game, side), connection, message.id)
            except NotEnded as refusal:
                self._refuse(connection, game, side, message.id, refusal.kind, refusal.reason)

    async def _propose(self, connection: Connection, game: HostedGame, side: Side, message: object) -> None:
        assert isinstance(message, ProposeCancel)
        async with game.changing:
            reason = self._why_not_in_play(game, side) or self._why_no_cancel(game, side)
            if reason is not None:
                return self._refuse(connection, game, side, message.id, "illegal", reason)
            offer = CancelOffer(side, self._player(game, side), time.time())
            if not self._store_offer(connection, game, side, message.id, offer):
                return
            note = f"{side.value.capitalize()} proposes to cancel this game (no result, counted by nobody)"
            self._tell_seats(game, CancelProposal(None, side, note), connection, message.id)

    def _why_no_cancel(self, game: HostedGame, side: Side) -> str | None:
        week = game.host.state.week
        if week > LAST_CANCEL_WEEK:
            return f"a game can be cancelled only before week 2 (6.1): this one is in week {week}; resign instead"
        if self._player(game, side.other) == COMPUTER:
            return "the computer does not agree to cancel: resign, or play on"
        offer = game.cancel_offer
        if offer is not None:
            if offer.side is side:
                return f"you have proposed to cancel already: waiting for {side.other.value.capitalize()}'s answer"
            return f"{offer.side.value.capitalize()} has proposed to cancel: accept or decline that"
        return None

    async def _answer(self, connection: Connection, game: HostedGame, side: Side, message: object) -> None:
        assert isinstance(message, AnswerCancel)
        async with game.changing:
            offer = game.cancel_offer
            reason = self._why_not_in_play(game, side)
            if reason is None and offer is None:
                reason = "nobody has proposed to cancel this game"
            elif reason is None and message.accept and offer is not None and offer.side is side:
                reason = "you proposed it: your opponent accepts or declines"
            elif reason is None and message.accept and game.host.state.week > LAST_CANCEL_WEEK:
                reason = f"a game can be cancelled only before week 2 (6.1): this one is in week {game.host.state.week}"
            if reason is not None:
                return self._refuse(connection, game, side, message.id, "illegal", reason)
            assert offer is not None
            if message.accept:
                try:
                    self._end_now(game, "cancelled", side, self._player(game, side), connection, message.id)
                except NotEnded as refusal:
                    self._refuse(connection, game, side, message.id, refusal.kind, refusal.reason)
                return
            if not self._store_offer(connection, game, side, message.id, None):
                return
            who = side.value.capitalize()
            note = f"{who} withdrew the proposal to cancel" if offer.side is side else f"{who} declined to cancel: the game goes on"
            self._tell_seats(game, CancelProposal(None, None, note), connection, message.id)

    def _store_offer(self, connection: Connection, game: HostedGame, side: Side, message_id: str, offer: CancelOffer | None) -> bool:
        """Stored before it is told; a failure is refused and changes nothing."""
        try:
            self.store.set_cancel_offer(game.id, offer)
        except StoreError as error:
            self._refuse(connection, game, side, message_id, "host-error", f"the club could not store it: {printable(str(error), 200)}")
            return False
        game.cancel_offer = offer
        return True

    def _tell_seats(self, game: HostedGame, proposal: CancelProposal, asker: Connection, message_id: str) -> None:
        for connection in list(game.connections.values()):
            mine = CancelProposal(message_id, proposal.side, proposal.note) if connection is asker else proposal
            connection.send_line(club_encode(mine))

    # --- a subscriber of the game server: a seat that comes hears the standing proposal -------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        pass  # the store's end was the rules' (store_commits.py) or this module's

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        offer = game.cancel_offer
        connection = game.connections.get(side)
        if offer is not None and connection is not None and not game.host.is_over:
            note = f"{offer.side.value.capitalize()} proposes to cancel this game (no result, counted by nobody)"
            connection.send_line(club_encode(CancelProposal(None, offer.side, note)))

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass
