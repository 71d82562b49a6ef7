"""The club's lobby: a connection that opens with `club_hello` and signs a
member in, then lists games, makes them, joins, withdraws, enters and
watches them (docs/club.md). Its answers are the club's lobby messages
(club/protocol.py); the seat and spectator tokens it hands out are derived
from the club's secret (tokens.py).

Three ways in: a session token a front end minted (SSH, web: sessions.py);
over TCP, a member's name and token (web_tokens.py, checked off the loop;
failures counted per address, limits.py); over the Unix socket, a member's
name from the club's own Unix user, the club's administrator, whom the
limits on games (limits.py) do not hold. Each binds the connection to the
member's generation (generations.py): a request after the member's removal
is refused and closes the connection, and the club closes a removed
member's lobby connections itself (`revoke`). A connection signed in with
a web token (over TCP, or in a browser's session) is bound to that token too:
once it is replaced (`member web-token NAME --rotate`) its requests are
refused and the club closes it (`sign_out`). Every refusal of a sign-in,
and every request refused by a limit, is a line in the audit log.

Invitations (a game made for one member, who joins or declines it),
private games, rematches and finished games' records: invitations.py.
Guests (`serve --guest`) may join open games and watch, not make games.
A member reads and sets their notice settings here (get_notices,
set_notices: notice_settings.py); a setting refused is one audit line.
Ratings (club_ratings.py): beside each player's name, and get_ratings.
The lines of a member's games say their clocks (game_clocks.py) and who of
their players is signed in (online.py); a decision passing to a member in a
game they are not looking at is sent to their lobby connections (`ring`:
your_move, a bell in the app).
The club's chat channel is asked for here too (chat.py: `requests`).
A member asks for and takes days away here too (get_vacation, take_vacation: vacations.py).
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Callable

from attrs import define, evolve

from rules.surface import BOTH_SIDES, Side, printable
from sekigahara_tui.club.protocol import (
    ClockLine,
    ClubHello,
    ClubWelcome,
    DeclineGame,
    Enter,
    Entry,
    GetNotices,
    GetRatings,
    GetRecord,
    GetVacation,
    JoinGame,
    ListGames,
    Lobby as LobbyMessage,
    NewGame,
    Notices,
    Record,
    Rematch,
    SetNotices,
    TakeVacation,
    Watch,
    WithdrawGame,
    Withdrawn,
    YourMove,
)
from sekigahara_tui.club.protocol_tournaments import TOURNAMENT_CLIENT_MESSAGES
from sekigahara_tui.hosting import web_tokens
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.club_ratings import ClubRatings
from sekigahara_tui.hosting.club_games import ClubGames, Refusal, played_entry, seen_entry
from sekigahara_tui.hosting.connections import Connection
from sekigahara_tui.hosting.invitations import Invitations, finished_record
from sekigahara_tui.hosting.limits import TOO_MANY_SIGN_INS, FailedSignIns, MemberLimits
from sekigahara_tui.hosting.lobby_push import LobbyPush, send_lobby_message
from sekigahara_tui.hosting.notice_delivery import NoticeOptions, NoticeQueue
from sekigahara_tui.hosting.notice_settings import NoticeSettings, SettingsError, check_settings
from sekigahara_tui.hosting.online import Online
from sekigahara_tui.hosting.sessions import Sessions
from sekigahara_tui.hosting.store_games import StoreGames
from sekigahara_tui.hosting.tokens import SeatTokens
from sekigahara_tui.hosting.vacations import Vacations
from sekigahara_tui.net.protocol import PROTOCOL_VERSION, Ping, Pong, Refused

GUESTS_MAKE_NO_GAMES = "guests may join open games and watch them; only members make games"
WEB_TOKEN_REPLACED = "the web token this was signed in with was replaced: sign in again with the new one"


@define(eq=False)
class LobbySession:
    lobby: Lobby
    member: str
    generation: str  # the member's when they signed in: a request after it changed is refused
    shown: tuple | None = None  # lobby_key of the last lobby sent (it follows the lobby once it asked for it)
    limited: bool = True  # held to the limits on games (all but the club's own Unix user)
    web_generation: str | None = None  # the web token's it signed in with (TCP, a browser's session); None: by key
    front: str = "club"  # "tcp": signed in at the TCP door, with the web token itself
    forgives_long_lines = False

    async def take(self, connection: Connection, message: object) -> bool:
        self.lobby.take(connection, self, message)
        return True

    def closed(self, connection: Connection) -> None:
        self.lobby.push.unfollow(connection, self.member)
        self.lobby.left(connection, self.member)


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
        audit: AuditLog | NoAuditLog,
        notices: tuple[NoticeSettings, NoticeOptions] | None = None,
        queue: NoticeQueue | None = None,
        requests: dict[type, Callable[[Connection, str, object], None]] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.sessions = sessions
        self.catalog = catalog
        self.games = games
        self.club_games = club_games
        self.tokens = tokens
        self.generations = tokens.generations
        self.audit = audit
        self.limits = limits
        self.notices = notices  # the members' notice settings, and how this club sends them
        self.requests = requests or {}  # more a member may ask, by message type (the chat's, chat.py); each raises Refusal
        self.vacations: Vacations | None = None  # members' days away (the club server gives it: it needs the clocks)
        self.sign_in_failures = FailedSignIns()  # the TCP door's, per address
        self.connections: dict[str, set[Connection]] = {}  # member -> their lobby connections signed in
        self.tournaments = None  # tournaments.py's Tournaments, once the club server gives it
        self.push = LobbyPush(self.lobby_for)  # follows the catalog (the club server has it follow)
        self._sign_ins: set[asyncio.Task] = set()  # tokens being checked (TCP lobby connections)
        self.pending_writes: set[asyncio.Task] = set()  # each waits for a store write (a withdrawal's command, a vacation)
        self.ratings: ClubRatings | None = None  # the club's (club_server.py): ratings beside names, get_ratings
        self.online: Online | None = None  # who is signed in anywhere (the club server gives it: online.py)
        self.clocks_of: Callable[[str], ClockLine | None] = lambda game_id: None  # a game's clocks (game_clocks.py)
        self.invitations = Invitations(catalog, club_games, self.generations, lambda member: member in self.connections,
                                       lambda member: self.push.member_changed(member), queue)

    def lobby_for(self, member: str) -> LobbyMessage:
        online = self.online.members() if self.online is not None else frozenset()
        lobby = self.catalog.lobby_for(member, self.games.find, online, self.clocks_of)
        if self.ratings is not None:
            lobby = self.ratings.lobby(lobby)
        warning = self.notices[0].warning(member) if self.notices is not None else None
        return evolve(lobby, warning=warning, news=self.invitations.news_for(member))

    async def close(self) -> None:
        """Wait for the withdrawals and vacations under way (each waits for a store write)."""
        await asyncio.gather(*self.pending_writes, return_exceptions=True)

    # --- the door: club_hello ---------------------------------------------------------

    def club_hello(self, connection: Connection, message: object) -> bool:
        assert isinstance(message, ClubHello)

        def refuse(kind: str, reason: str, member: str | None = None) -> bool:
            if kind == "not-authorised":
                self.audit.record("refused", reason, front="club", member=member, address=connection.address)
            connection.send(Refused(None, kind, reason))
            return False

        if message.protocol != PROTOCOL_VERSION:
            return refuse("protocol", f"this club speaks protocol {PROTOCOL_VERSION}, not {message.protocol}")
        web_generation = None  # signed in by key (SSH), or as the club's own Unix user
        if message.session is not None:
            found = self.sessions.member_for(message.session)
            if found is None or self.generations.generation_of(found[0]) != found[1]:
                return refuse("not-authorised", "unknown or expired session: sign in again", found and found[0])
            member, web_generation = found[0], found[2]
            if web_generation is not None and self.generations.web_generation_of(member) != web_generation:
                return refuse("not-authorised", WEB_TOKEN_REPLACED, member)
        elif message.token is not None:
            # The door over TCP (no peer credential): the member's name and token.
            if message.member is None:
                return refuse("not-authorised", "a token needs the member's name")
            if self.sign_in_failures.too_many(connection.address):  # refused unchecked: no scrypt for it
                self.audit.record("refused", TOO_MANY_SIGN_INS, front="tcp", member=message.member, address=connection.address)
                connection.send(Refused(None, "not-authorised", TOO_MANY_SIGN_INS))
                return False
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
        generation = self.generations.generation_of(member)
        if generation is None:
            return refuse("not-authorised", f"{printable(member, 40)!r} is not a member of this club", member)
        self._signed_in(connection, member, generation, limited=message.session is not None, web_generation=web_generation)
        return True

    def _signed_in(self, connection: Connection, member: str, generation: str, limited: bool = True,
                   web_generation: str | None = None, front: str = "club") -> None:
        connection.session = LobbySession(self, member, generation, limited=limited, web_generation=web_generation, front=front)
        self.connections.setdefault(member, set()).add(connection)
        send_lobby_message(connection, ClubWelcome(PROTOCOL_VERSION, member))
        if self.online is not None:
            self.online.changed(member)

    def left(self, connection: Connection, member: str) -> None:
        connections = self.connections.get(member)
        if connections is not None:
            connections.discard(connection)
            if not connections:
                del self.connections[member]
                if self.online is not None:
                    self.online.changed(member)

    def ring(self, member: str, game_id: str, opponent: str | None) -> bool:
        """A decision passed to `member` in a game they are not looking at:
        their lobby connections ring and say so; whether they had any."""
        connections = self.connections.get(member, ())
        for connection in connections:
            send_lobby_message(connection, YourMove(game_id, opponent))
        return bool(connections)

    def revoke(self, member: str, reason: str) -> int:
        """Close the member's lobby connections, telling them why; how many."""
        connections = self.connections.pop(member, set())
        for connection in connections:
            connection.send(Refused(None, "not-authorised", reason))
            connection.close()
        return len(connections)

    def sign_out(self, member: str, web_generation: str) -> int:
        """Close the member's connections signed in with a web token other than
        `web_generation` (theirs now), telling them why; how many. Those signed
        in at the TCP door are a line each in the audit log (a browser's are
        the web front's)."""
        stale = [connection for connection in self.connections.get(member, ())
                 if connection.session.web_generation not in (None, web_generation)]
        for connection in stale:
            self.left(connection, member)
            connection.send(Refused(None, "not-authorised", WEB_TOKEN_REPLACED))
            connection.close()
            if connection.session.front == "tcp":
                self.audit.record("signed-out", "the web token was replaced", front="tcp", member=member, address=connection.address)
        return len(stale)

    async def _sign_in_with_token(self, connection: Connection, member: str, token: str) -> None:
        """The token is checked like the web front's (scrypt, in a thread: the
        games go on meanwhile); a wrong one is answered late and closes."""
        signed_with = await asyncio.to_thread(web_tokens.signed_in_generation, self.data_dir, member, token)
        # replaced while it was checked: as wrong as any other old token
        good = signed_with is not None and signed_with == self.generations.web_generation_of(member)
        generation = self.generations.generation_of(member)
        if good and generation is not None:
            self.sign_in_failures.forgive(connection.address)
        if connection.writer.is_closing():
            return
        if good and generation is not None:
            self.audit.record("sign-in", front="tcp", member=member, address=connection.address)
            self._signed_in(connection, member, generation, web_generation=signed_with, front="tcp")
            return
        reason = "that member's name and token do not match"
        self.audit.record("refused", reason, front="tcp", member=member, address=connection.address)
        await asyncio.sleep(web_tokens.FAILED_SIGN_IN_DELAY)
        connection.send(Refused(None, "not-authorised", reason))
        connection.writer.close()

    # --- a signed-in member's requests ------------------------------------------------

    def take(self, connection: Connection, session: LobbySession, message: object) -> None:
        member = session.member
        if self.generations.generation_of(member) != session.generation:
            # Removed since signing in; the club closes the rest of their connections at its next look.
            reason = f"{printable(member, 40)} is no longer a member of this club"
            self.audit.record("refused", reason, front="club", member=member, address=connection.address)
            connection.send(Refused(getattr(message, "id", None), "not-authorised", reason))
            connection.close()
            return
        if session.web_generation is not None and self.generations.web_generation_of(member) != session.web_generation:
            # Its web token replaced since signing in; the club closes the member's others at its next look.
            self.audit.record("refused", WEB_TOKEN_REPLACED, front=session.front, member=member, address=connection.address)
            connection.send(Refused(getattr(message, "id", None), "not-authorised", WEB_TOKEN_REPLACED))
            connection.close()
            return
        try:
            if isinstance(message, Ping):
                connection.send(Pong())
            elif isinstance(message, ListGames):
                lobby = self.lobby_for(member)
                send_lobby_message(connection, lobby)
                self.push.follow(connection, session, lobby)
            elif isinstance(message, NewGame):
                if self.generations.is_guest(member):
                    raise Refusal("not-authorised", GUESTS_MAKE_NO_GAMES)
                self._within_limits(connection, session, self.limits.why_not_new_game)
                terms = self.invitations.terms_for(member, message.opponent, message.invite, message.private, message.rated)
                side = message.side or random.choice(BOTH_SIDES)
                game_id = self.club_games.new_game(
                    member, side, message.opponent, message.level, message.clock, message.on_time_out, terms
                )
                self.invitations.made(member, game_id, terms)
                self._send_entry(connection, message.id, game_id, side, member)
            elif isinstance(message, Rematch):
                if self.generations.is_guest(member):
                    raise Refusal("not-authorised", GUESTS_MAKE_NO_GAMES)
                self._within_limits(connection, session, self.limits.why_not_new_game)
                game_id, side, _terms = self.invitations.rematch(member, message.game)
                self._send_entry(connection, message.id, game_id, side, member)
            elif isinstance(message, JoinGame):
                self._within_limits(connection, session, self.limits.why_not_in_another)
                side = self.club_games.join(member, message.game)
                self._send_entry(connection, message.id, message.game, side, member)
            elif isinstance(message, (WithdrawGame, DeclineGame)):
                self._withdraw(connection, member, message)
            elif isinstance(message, Enter):
                side = self._seat_of(member, message.game)
                self._send_entry(connection, message.id, message.game, side, member)
            elif isinstance(message, GetRecord):
                record = finished_record(self.club_games.store, self.catalog, member, message.game)
                send_lobby_message(connection, Record(message.id, message.game, record))
            elif isinstance(message, GetRatings) and self.ratings is not None:
                send_lobby_message(connection, self.ratings.answer(member, message))
            elif isinstance(message, (GetNotices, SetNotices)):
                self._notices(connection, member, message)
            elif type(message) in TOURNAMENT_CLIENT_MESSAGES and self.tournaments is not None:
                # the administrator (the club's own Unix user) may start any, and sign the computer up
                answer = self.tournaments.take(member, not session.limited, self.generations.is_guest(member), message)
                send_lobby_message(connection, answer)
            elif isinstance(message, TakeVacation) and self.vacations is not None:
                self._later(self._vacation_taken(connection, member, message))  # written off the loop
            elif isinstance(message, GetVacation) and self.vacations is not None:
                send_lobby_message(connection, self.vacations.answer(member, message))
            elif isinstance(message, Watch):
                seen_entry(self.catalog, message.game, member)  # a private game of others: as if it were not
                self._send_entry(connection, message.id, message.game, None, member)
            elif (request := self.requests.get(type(message))) is not None:
                request(connection, member, message)
            else:
                reason = "a lobby connection takes lobby messages only"
                self.audit.record("refused", reason, front="club", member=member, address=connection.address)
                connection.send(Refused(getattr(message, "id", None), "bad-message", reason))
        except Refusal as refusal:
            self._refuse(connection, member, getattr(message, "id", None), refusal)

    def _refuse(self, connection: Connection, member: str, message_id: str | None, refusal: Refusal) -> None:
        """One line to the member, one in the audit log."""
        self.audit.record("refused", refusal.reason, front="club", member=member, address=connection.address)
        connection.send(Refused(message_id, refusal.kind, refusal.reason))

    def _notices(self, connection: Connection, member: str, message: GetNotices | SetNotices) -> None:
        """A member's notice settings, read or set (checked first: one line, nothing changed)."""
        if self.notices is None or self.generations.is_guest(member):
            reason = "guests get no notices" if self.notices is not None else "this club sends no notices"
            self.audit.record("refused", reason, front="club", member=member, address=connection.address)
            raise Refusal("not-authorised", reason)
        settings, options = self.notices
        if isinstance(message, SetNotices):
            try:
                chosen = check_settings(
                    message.webhook, message.webhook_format, message.mail, message.kinds,
                    mail_offered=options.mail_offered, allow_private=options.allow_private,
                )
            except SettingsError as error:
                self.audit.record("refused", str(error), front="club", member=member, address=connection.address)
                raise Refusal("bad-message", str(error)) from None
            had_warning = settings.warning(member) is not None
            settings.set(member, chosen)
            self.audit.record("notice-settings", front="club", member=member, webhook=chosen.webhook is not None, mail=chosen.mail is not None)
            if had_warning:
                self.push.member_changed(member)
        now = settings.of(member)
        kinds = tuple(sorted(now.kinds))
        send_lobby_message(connection, Notices(message.id, now.webhook, now.webhook_format, now.mail, kinds, options.mail_offered))

    def _within_limits(self, connection: Connection, session: LobbySession, why_not: Callable[[str], Refusal | None]) -> None:
        """Raise the refusal of a limit the request would pass (limits.py), audited."""
        refusal = why_not(session.member) if session.limited else None
        if refusal is not None:
            raise refusal  # audited where it is sent (take)

    def _send_entry(self, connection: Connection, reply_to: str, game_id: str, side: Side | None, member: str) -> None:
        """The member's token for a seat (side) or to watch (None): bound to their generation."""
        token = self.tokens.watch(game_id, member) if side is None else self.tokens.seat(game_id, side, member)
        if token is None:  # removed this very moment (the request was checked a moment ago)
            raise Refusal("not-authorised", f"{printable(member, 40)} is no longer a member of this club")
        send_lobby_message(connection, Entry(reply_to, game_id, side, token))

    def _seat_of(self, member: str, game_id: str) -> Side:
        """The member's seat in one of their games (enter)."""
        return played_entry(self.catalog, game_id, member, "you play neither seat of that game; watch it instead")[1]

    def _withdraw(self, connection: Connection, member: str, message: WithdrawGame | DeclineGame) -> None:
        refusal = self.club_games.why_not_withdrawn(member, message.game, declined=isinstance(message, DeclineGame))
        if refusal is not None:
            raise refusal
        self._later(self._withdrawn(connection, member, message))

    def _later(self, work) -> None:
        """A request answered once `work` is done (a store write off the loop); close() waits for it."""
        task = asyncio.get_running_loop().create_task(work)
        self.pending_writes.add(task)
        task.add_done_callback(self.pending_writes.discard)

    async def _vacation_taken(self, connection: Connection, member: str, message: TakeVacation) -> None:
        assert self.vacations is not None
        try:
            answer = await self.vacations.take(member, message)
        except Refusal as refusal:
            self._refuse(connection, member, message.id, refusal)
            return
        send_lobby_message(connection, answer)

    async def _withdrawn(self, connection: Connection, member: str, message: WithdrawGame | DeclineGame) -> None:
        declined = isinstance(message, DeclineGame)
        entry = self.catalog.get(message.game)
        maker = next((p for p in entry.players.values() if p is not None), None) if entry is not None else None
        try:
            await self.club_games.withdraw(member, message.game, declined)
        except Refusal as refusal:
            self._refuse(connection, member, message.id, refusal)
            return
        if declined:
            self.invitations.declined(member, message.game, maker)
        send_lobby_message(connection, Withdrawn(message.id, message.game))
