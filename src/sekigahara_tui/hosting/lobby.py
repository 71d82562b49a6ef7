"""The club's lobby: a connection that opens with `club_hello` and signs a
member in, then lists games, makes them, joins, withdraws, enters and
watches them (docs/club.md). Its answers are the club's lobby messages
(club/protocol.py); the seat and spectator tokens it hands out are derived
from the club's secret (tokens.py).

Three ways in: a session token a front end minted (SSH, web: sessions.py);
over TCP, a member's name and token (web_tokens.py, checked off the loop;
failures counted per address, limits.py); over the Unix socket, a member's
name from the club's own Unix user, the club's administrator, whom the
limits on games (limits.py) do not hold. Every refused sign-in and every
request refused by a limit is one line to the client and one in the audit
log.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Callable

from attrs import define

from rules.surface import BOTH_SIDES, Side, printable
from sekigahara_tui.club.protocol import (
    ClubHello,
    ClubWelcome,
    Enter,
    Entry,
    JoinGame,
    ListGames,
    Lobby as LobbyMessage,
    NewGame,
    Watch,
    WithdrawGame,
    Withdrawn,
)
from sekigahara_tui.hosting import members, web_tokens
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.club_games import ClubGames, Refusal, unknown
from sekigahara_tui.hosting.connections import Connection
from sekigahara_tui.hosting.limits import TOO_MANY_SIGN_INS, FailedSignIns, MemberLimits
from sekigahara_tui.hosting.lobby_push import LobbyPush, send_lobby_message
from sekigahara_tui.hosting.sessions import Sessions
from sekigahara_tui.hosting.store_games import StoreGames
from sekigahara_tui.hosting.tokens import SeatTokens
from sekigahara_tui.net.protocol import PROTOCOL_VERSION, Ping, Pong, Refused


@define(eq=False)
class LobbySession:
    lobby: Lobby
    member: str
    shown: tuple | None = None  # lobby_key of the last lobby sent (it follows the lobby once it asked for it)
    limited: bool = True  # held to the limits on games (all but the club's own Unix user)
    forgives_long_lines = False

    async def take(self, connection: Connection, message: object) -> bool:
        self.lobby.take(connection, self, message)
        return True

    def closed(self, connection: Connection) -> None:
        self.lobby.push.unfollow(connection, self.member)


@define(eq=False)
class SigningIn:
    """A lobby connection whose member's token is being checked (off the loop)."""

    member: str
    forgives_long_lines = False

    async def take(self, connection: Connection, message: object) -> bool:
        if isinstance(message, Ping):
            connection.send(Pong())
        else:
            connection.send(Refused(getattr(message, "id", None), "not-authorised", "wait for club_welcome"))
        return True

    def closed(self, connection: Connection) -> None:
        pass  # the check finishes and finds the connection closed


class Lobby:
    def __init__(
        self,
        data_dir: Path,
        sessions: Sessions,
        catalog: Catalog,
        games: StoreGames,
        club_games: ClubGames,
        tokens: SeatTokens,
        limits: MemberLimits,
        audit: AuditLog | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.sessions = sessions
        self.catalog = catalog
        self.games = games
        self.club_games = club_games
        self.tokens = tokens
        self.limits = limits
        self.audit = audit
        self.sign_in_failures = FailedSignIns()  # the TCP door's, per address
        self.push = LobbyPush(self.lobby_for)  # follows the catalog (the club server has it follow)
        self._sign_ins: set[asyncio.Task] = set()  # tokens being checked (TCP lobby connections)
        self._withdrawals: set[asyncio.Task] = set()  # each waits for its game's command being stored

    def lobby_for(self, member: str) -> LobbyMessage:
        return self.catalog.lobby_for(member, self.games.find)

    async def close(self) -> None:
        """Wait for the withdrawals under way (each waits for a command being stored)."""
        await asyncio.gather(*self._withdrawals, return_exceptions=True)

    def _audit(self, event: str, connection: Connection, reason: str = "", member: str | None = None) -> None:
        if self.audit is not None:
            self.audit.record(event, reason, front="club", member=member, address=connection.address)

    # --- the door: club_hello ---------------------------------------------------------

    def club_hello(self, connection: Connection, message: object) -> bool:
        assert isinstance(message, ClubHello)

        def refuse(kind: str, reason: str) -> bool:
            self._audit("refused", connection, reason, message.member)
            connection.send(Refused(None, kind, reason))
            return False

        if message.protocol != PROTOCOL_VERSION:
            return refuse("protocol", f"this club speaks protocol {PROTOCOL_VERSION}, not {message.protocol}")
        if message.session is not None:
            member = self.sessions.member_for(message.session)
            if member is None:
                return refuse("not-authorised", "unknown or expired session: sign in again")
        elif message.token is not None:
            # The door over TCP (no peer credential): the member's name and token.
            if message.member is None:
                return refuse("not-authorised", "a token needs the member's name")
            if self.sign_in_failures.too_many(connection.address):
                return refuse("not-authorised", TOO_MANY_SIGN_INS)  # refused unchecked: no scrypt for it
            # Counted as failed until it proves good: checks under way count too,
            # so a burst of connections from one address cannot start more.
            self.sign_in_failures.failed(connection.address)
            connection.session = SigningIn(message.member)
            task = asyncio.get_running_loop().create_task(self._sign_in_with_token(connection, message.member, message.token))
            self._sign_ins.add(task)
            task.add_done_callback(self._sign_ins.discard)
            return True
        elif message.member is not None:
            # The local door: the club's own Unix user, over the Unix socket
            # (the socket is 0600 in a 0700 directory; the peer credential too).
            if connection.peer_uid is None or connection.peer_uid != os.getuid():
                return refuse("not-authorised", "naming a member is for the club's own Unix user over the Unix socket")
            member = message.member
        else:
            return refuse("not-authorised", "a session token or a member's name is needed")
        if not members.is_member(self.data_dir, member):
            return refuse("not-authorised", f"{printable(member, 40)!r} is not a member of this club")
        connection.session = LobbySession(self, member, limited=message.session is not None)
        send_lobby_message(connection, ClubWelcome(PROTOCOL_VERSION, member))
        return True

    async def _sign_in_with_token(self, connection: Connection, member: str, token: str) -> None:
        """The token is checked like the web front's (scrypt, in a thread: the
        games go on meanwhile); a wrong one is answered late and closes."""
        good = await asyncio.to_thread(web_tokens.check_web_token, self.data_dir, member, token)
        good = good and members.is_member(self.data_dir, member)
        if good:
            self.sign_in_failures.forgive(connection.address)
        if connection.writer.is_closing():
            return
        if good:
            connection.session = LobbySession(self, member)
            self._audit("sign-in", connection, member=member)
            send_lobby_message(connection, ClubWelcome(PROTOCOL_VERSION, member))
            return
        await asyncio.sleep(web_tokens.FAILED_SIGN_IN_DELAY)
        reason = "that member's name and token do not match"
        self._audit("refused", connection, reason, member)
        connection.send(Refused(None, "not-authorised", reason))
        connection.writer.close()

    # --- a signed-in member's requests ------------------------------------------------

    def take(self, connection: Connection, session: LobbySession, message: object) -> None:
        member = session.member
        try:
            if isinstance(message, Ping):
                connection.send(Pong())
            elif isinstance(message, ListGames):
                lobby = self.lobby_for(member)
                send_lobby_message(connection, lobby)
                self.push.follow(connection, session, lobby)
            elif isinstance(message, NewGame):
                self._within_limits(connection, session, self.limits.why_not_new_game)
                side = message.side or random.choice(BOTH_SIDES)
                game_id = self.club_games.new_game(member, side, message.opponent)
                send_lobby_message(connection, Entry(message.id, game_id, side, self.tokens.seat(game_id, side)))
            elif isinstance(message, JoinGame):
                self._within_limits(connection, session, self.limits.why_not_in_another)
                side = self.club_games.join(member, message.game)
                send_lobby_message(connection, Entry(message.id, message.game, side, self.tokens.seat(message.game, side)))
            elif isinstance(message, WithdrawGame):
                self._withdraw(connection, member, message)
            elif isinstance(message, Enter):
                side = self._seat_of(member, message.game)
                send_lobby_message(connection, Entry(message.id, message.game, side, self.tokens.seat(message.game, side)))
            elif isinstance(message, Watch):
                if message.game not in self.catalog:
                    raise unknown(message.game)
                send_lobby_message(connection, Entry(message.id, message.game, None, self.tokens.watch(message.game)))
            else:
                connection.send(Refused(getattr(message, "id", None), "bad-message", "a lobby connection takes lobby messages only"))
        except Refusal as refusal:
            connection.send(Refused(getattr(message, "id", None), refusal.kind, refusal.reason))

    def _within_limits(self, connection: Connection, session: LobbySession, why_not: Callable[[str], Refusal | None]) -> None:
        """Raise the refusal of a limit the request would pass (limits.py), audited."""
        refusal = why_not(session.member) if session.limited else None
        if refusal is not None:
            self._audit("refused", connection, refusal.reason, session.member)
            raise refusal

    def _seat_of(self, member: str, game_id: str) -> Side:
        """The member's seat in one of their games (enter)."""
        entry = self.catalog.get(game_id)
        if entry is None:
            raise unknown(game_id)
        side = entry.side_of(member)
        if side is None:
            raise Refusal("not-authorised", "you play neither seat of that game; watch it instead")
        return side

    def _withdraw(self, connection: Connection, member: str, message: WithdrawGame) -> None:
        refusal = self.club_games.why_not_withdrawn(member, message.game)
        if refusal is not None:
            raise refusal
        task = asyncio.get_running_loop().create_task(self._withdrawn(connection, member, message))
        self._withdrawals.add(task)
        task.add_done_callback(self._withdrawals.discard)

    async def _withdrawn(self, connection: Connection, member: str, message: WithdrawGame) -> None:
        try:
            await self.club_games.withdraw(member, message.game)
        except Refusal as refusal:
            connection.send(Refused(message.id, refusal.kind, refusal.reason))
            return
        send_lobby_message(connection, Withdrawn(message.id, message.game))
