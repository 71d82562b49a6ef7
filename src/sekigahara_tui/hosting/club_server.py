"""The club server: one asyncio process holding many games (docs/club.md).

It is a GameServer (hosting/game_server.py: commit before acknowledging, one
connection per seat, stale and duplicate messages) with more to say:

- games are loaded from the store on first use (a hello, a lobby that needs
  one) and evicted when nobody has used them for `evict_after` seconds;
- a lobby connection (`club_hello` with a front end's session token, or a
  member's name from the club's own Unix user) lists games, makes them, joins,
  withdraws and enters them, and hands out seat tokens derived from the club's secret
  (stable across restarts, so clients reconnect to a restarted server);
- spectators (`watch_game`) receive `spectator_view`: public information only;
- a seat played by "computer" is decided in this process by the heuristic bot,
  through the same commit-then-broadcast path as a client's command.

Server side: it reaches the engine only through GameHost (hosting/host.py).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import math
import os
import random
import secrets
import time
from collections.abc import Iterable
from pathlib import Path

from attrs import define

from rules.notation import format_command
from rules.surface import BOTH_SIDES, Event, Side, default_components, printable
from rules.view import events_for
from sekigahara_tui.bots.driver import BotPlayer, level_player
from sekigahara_tui.hosting import members, web_tokens
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.club.protocol import (
    MAX_LISTED,
    ClubHello,
    ClubWelcome,
    Enter,
    Entry,
    GameLine,
    JoinGame,
    ListGames,
    Lobby,
    LobbyChanged,
    NewGame,
    Watch,
    WatchGame,
    WithdrawGame,
    Withdrawn,
    decode_club_client_message,
    lobby_key,
)
from sekigahara_tui.club.protocol import encode as club_encode
from sekigahara_tui.hosting.sessions import Sessions
from sekigahara_tui.net.protocol import PROTOCOL_VERSION, GameOver, Hello, Ping, Pong, Refused, State, Welcome
from sekigahara_tui.net.state_encoding import encode_state
from sekigahara_tui.hosting.game_server import REAP_AFTER, Connection, GameServer, HostedGame, SeatAccess, result_text
from sekigahara_tui.hosting.store import Action, GameSummary, Store, StoreError

DEFAULT_EVICT_AFTER = 5 * 60.0
# A member's lobby connections are pushed at most one lobby_changed per this
# many seconds: a burst of changes (a bot game under load) becomes one push.
LOBBY_PUSH_EVERY = 0.25
SPECTATOR_UNDO = "a spectator does not play"


# --- what a spectator may see ------------------------------------------------------
# The engine decides (R55): rules.view.events_for(None, ...) and spectator_view;
# SPECTATOR_TWINS and NOT_FOR_SPECTATORS are rules.events'. The club forwards.


def public_events(step: Iterable[Event]) -> tuple[Event, ...]:
    """The events of a step a spectator may see (rules.view.events_for)."""
    return events_for(None, step)


# --- the catalog: every game of the store, as the lobby needs it --------------------


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
        )

    def line(self) -> GameLine:
        return GameLine(
            self.id,
            self.players[Side.ISHIDA],
            self.players[Side.TOKUGAWA],
            self.to_move or (),
            self.status,
            self.result,
            self.version,
            self.updated,
        )

    def side_of(self, member: str) -> Side | None:
        return next((side for side in BOTH_SIDES if self.players[side] == member), None)

    @property
    def open_side(self) -> Side | None:
        return next((side for side in BOTH_SIDES if self.players[side] is None), None)

    def seen_by_all(self) -> tuple:
        """What every member's lobby shows of this game (open, watchable, gone)."""
        return (self.players[Side.ISHIDA], self.players[Side.TOKUGAWA], self.status)

    def seen_by_players(self) -> tuple:
        """What its players' lobbies show besides: whose move it is, the result."""
        return (self.to_move, self.result)


@define(eq=False)
class LobbySession:
    member: str
    shown: tuple | None = None  # lobby_key of the last lobby sent (it follows the lobby once it asked for it)


@define(eq=False)
class SigningIn:
    """A lobby connection whose member's token is being checked (off the loop)."""

    member: str


@define(eq=False)
class Spectating:
    game: HostedGame


class ClubServer(GameServer):
    def __init__(
        self,
        store: Store,
        data_dir: Path,
        secret: bytes,
        *,
        evict_after: float = DEFAULT_EVICT_AFTER,
        reap_after: float = REAP_AFTER,
        computer_seed: int | None = None,
    ) -> None:
        super().__init__(store, idle_timeout=math.inf, grace=math.inf, reap_after=reap_after)
        self.data_dir = Path(data_dir)
        self._secret = secret
        self.sessions = Sessions()
        self.socket_path: Path | None = None
        self.evict_after = evict_after
        self.catalog: dict[str, CatalogEntry] = {entry.id: CatalogEntry.of(entry) for entry in store.summaries()}
        self.watchers: dict[str, set[Connection]] = {}
        self.last_used: dict[str, float] = {}
        self.loads = 0  # games loaded from the store (first use or after eviction)
        self.evictions = 0
        self._computer = random.Random(computer_seed)
        self._computer_pending: set[str] = set()
        self._computer_players: dict[tuple[str, Side], BotPlayer] = {}
        self._computer_tasks: set[asyncio.Task] = set()
        self._withdrawals: set[asyncio.Task] = set()  # each waits for its game's command being stored
        self._evictor: asyncio.Task | None = None
        # Lobby pushes: the connections following each member's lobby, what each
        # game last showed, the members whose push is due, and when each was last pushed.
        self._lobby_followers: dict[str, set[Connection]] = {}
        self._lobby_seen: dict[str, tuple[tuple, tuple]] = {}
        self._lobby_due: set[str] = set()
        self._lobby_pushed_at: dict[str, float] = {}
        self._sign_ins: set[asyncio.Task] = set()  # tokens being checked (TCP lobby connections)

    # --- the front ends' door ---------------------------------------------------------

    def open_session(self, member: str) -> str:
        """A session token for `member`, for a client process started by a
        front end (SEKIGAHARA_SESSION)."""
        return self.sessions.open_session(member)

    def close_session(self, token: str) -> None:
        self.sessions.close_session(token)

    # --- tokens ------------------------------------------------------------------------

    def _derived(self, purpose: str) -> str:
        digest = hmac.new(self._secret, purpose.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:24]).decode()

    def seat_token(self, game_id: str, side: Side) -> str:
        return self._derived(f"seat\0{game_id}\0{side.value}")

    def watch_token(self, game_id: str) -> str:
        return self._derived(f"watch\0{game_id}")

    # --- games: loading, eviction -------------------------------------------------------

    def _find_game(self, game_id: str) -> HostedGame | None:
        game = self.games.get(game_id)
        if game is None and game_id in self.catalog:
            game = self.add_game(game_id, {side: SeatAccess(self.seat_token(game_id, side)) for side in BOTH_SIDES})
            self.loads += 1
            self._note_change(game)
            self._schedule_computer(game)
        if game is not None:
            self.last_used[game_id] = time.monotonic()
        return game

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop from memory the games nobody has used for `evict_after` seconds
        (no seat, no spectator connected); the store keeps them."""
        now = time.monotonic() if now is None else now
        gone = []
        for game_id, game in list(self.games.items()):
            if game.connections or self.watchers.get(game_id) or game_id in self._computer_pending or game.changing.locked():
                continue
            if now - self.last_used.get(game_id, 0.0) >= self.evict_after:
                del self.games[game_id]
                self.last_used.pop(game_id, None)
                self.watchers.pop(game_id, None)
                for side in BOTH_SIDES:  # a reloaded game's computer starts afresh
                    self._computer_players.pop((game_id, side), None)
                gone.append(game_id)
        self.evictions += len(gone)
        return gone

    async def _evict_loop(self) -> None:
        tick = max(0.05, min(30.0, self.evict_after / 4))
        while True:
            await asyncio.sleep(tick)
            self.evict_idle()

    async def listen_unix(self, path: Path) -> None:
        await super().listen_unix(path)
        self.socket_path = Path(path)
        if self._evictor is None:
            self._evictor = asyncio.get_running_loop().create_task(self._evict_loop())

    async def close(self) -> None:
        if self._evictor is not None:
            self._evictor.cancel()
        await asyncio.gather(*self._computer_tasks, *self._withdrawals, return_exceptions=True)  # their commands are stored first
        await super().close()

    def _note_change(self, game: HostedGame) -> None:
        entry = self.catalog[game.id]
        entry.version = game.version
        entry.updated = game.actions[-1].at if game.actions else entry.created
        if game.host.is_over:
            entry.status, entry.result, entry.to_move = "over", result_text(game.host.state), ()
        else:
            deciding = game.host.state.decision.sides
            entry.to_move = tuple(side for side in BOTH_SIDES if side in deciding)
        self._lobby_game_changed(entry)  # lobby pushes (the lobby part, below)

    # --- changes: spectators, the catalog, the computer ----------------------------------

    def _changed(self, game: HostedGame, submitter: Connection | None, message_id: str | None) -> None:
        super()._changed(game, submitter, message_id)  # type: ignore[arg-type]
        self._note_change(game)
        self.last_used[game.id] = time.monotonic()
        for watcher in list(self.watchers.get(game.id, ())):
            self._send_spectator_state(watcher, game)
            if game.host.is_over:
                watcher.send(GameOver(result_text(game.host.state)))
        self._schedule_computer(game)

    def _present(self, game: HostedGame, side: Side) -> bool:
        """The computer plays in this process: its seat is never empty, so a
        member playing it is not told the opponent is away."""
        return self.catalog[game.id].players[side] == COMPUTER or super()._present(game, side)

    def _computer_side(self, game: HostedGame) -> Side | None:
        entry = self.catalog[game.id]
        for side in BOTH_SIDES:
            if entry.players[side] == COMPUTER and side in game.host.state.decision.sides:
                return side
        return None

    def _schedule_computer(self, game: HostedGame) -> None:
        if game.id in self._computer_pending or game.host.is_over or self._computer_side(game) is None:
            return
        self._computer_pending.add(game.id)
        try:
            task = asyncio.get_running_loop().create_task(self._computer_moves(game, game.version))
        except RuntimeError:  # no loop (a game loaded outside the server's loop)
            self._computer_pending.discard(game.id)
            return
        self._computer_tasks.add(task)
        task.add_done_callback(self._computer_tasks.discard)

    async def _computer_moves(self, game: HostedGame, version: int) -> None:
        """The computer's seat decides with the heuristic bot among its legal commands,
        committed before the game changes, like a client's command."""
        async with game.changing:
            self._computer_pending.discard(game.id)
            side = self._computer_side(game)
            if self.games.get(game.id) is not game:
                return  # evicted meanwhile: it decides when next loaded
            if side is None or game.version != version:
                self._schedule_computer(game)  # the game moved on: look again
                return
            seen = game.host.view(side)
            if not seen.legal:
                return
            command = self._computer_player(game, side).choose(seen, game.host.events_for(side))
            step = game.host.propose(command)
            action = Action("command", side, format_command(command), None, time.time())

            def apply() -> None:
                game.host.accept(step)

            await self._commit(None, game, action, apply)  # a failure changes nothing; the next change tries again

    def _computer_player(self, game: HostedGame, side: Side) -> BotPlayer:
        """The heuristic bot (issue 14) of this game's computer seat, driven by a
        BotPlayer (bots/driver.py) fed from its side's log (R55: its own side's
        events only); its seed is drawn when the game first needs it."""
        key = (game.id, side)
        player = self._computer_players.get(key)
        if player is None:
            player = self._computer_players[key] = level_player("heuristic", side, self._computer.randrange(2**31))
        return player

    # --- connections that are not seats ----------------------------------------------

    def _decode(self, line: bytes) -> object:
        return decode_club_client_message(line)

    def _detach(self, connection: Connection) -> None:
        super()._detach(connection)
        if connection.game is not None and self.games.get(connection.game.id) is connection.game:
            self.last_used[connection.game.id] = time.monotonic()
        if isinstance(connection.session, LobbySession):
            self._lobby_unfollow(connection, connection.session.member)
        if isinstance(connection.session, Spectating):
            game = connection.session.game
            self.watchers.get(game.id, set()).discard(connection)
            if self.games.get(game.id) is game:  # not a withdrawn game's
                self.last_used[game.id] = time.monotonic()

    def _first_message(self, connection: Connection, message: object) -> bool:
        if isinstance(message, Hello):
            return self._hello(connection, message)
        if isinstance(message, ClubHello):
            return self._club_hello(connection, message)
        if isinstance(message, WatchGame):
            return self._watch_game(connection, message)
        connection.send(Refused(None, "protocol", "the first message must be hello, club_hello or watch_game"))
        return False

    def _club_hello(self, connection: Connection, message: ClubHello) -> bool:
        def refuse(kind: str, reason: str) -> bool:
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
        connection.session = LobbySession(member)
        self._send(connection, ClubWelcome(PROTOCOL_VERSION, member))
        return True

    async def _sign_in_with_token(self, connection: Connection, member: str, token: str) -> None:
        """The token is checked like the web front's (scrypt, in a thread: the
        games go on meanwhile); a wrong one is answered late and closes."""
        good = await asyncio.to_thread(web_tokens.check_web_token, self.data_dir, member, token)
        if connection.session is None or connection.writer.is_closing():
            return
        if good and members.is_member(self.data_dir, member):
            connection.session = LobbySession(member)
            self._send(connection, ClubWelcome(PROTOCOL_VERSION, member))
            return
        await asyncio.sleep(web_tokens.FAILED_SIGN_IN_DELAY)
        connection.send(Refused(None, "not-authorised", "that member's name and token do not match"))
        connection.writer.close()

    def _watch_game(self, connection: Connection, message: WatchGame) -> bool:
        if message.protocol != PROTOCOL_VERSION:
            connection.send(Refused(None, "protocol", f"this club speaks protocol {PROTOCOL_VERSION}, not {message.protocol}"))
            return False
        if message.game not in self.catalog or not hmac.compare_digest(message.token.encode(), self.watch_token(message.game).encode()):
            connection.send(Refused(None, "not-authorised", "wrong spectator's token for that game"))
            return False
        game = self._find_game(message.game)
        assert game is not None
        connection.session = Spectating(game)
        connection.synced = self._steps_held(game, message.seen)
        self.watchers.setdefault(game.id, set()).add(connection)
        connection.send(Welcome(PROTOCOL_VERSION, game.id, Side.ISHIDA))
        self._send_spectator_state(connection, game)
        if game.host.is_over:
            connection.send(GameOver(result_text(game.host.state)))
        return True

    def _send_spectator_state(self, connection: Connection, game: HostedGame) -> None:
        # The spectators' chair: its view and events are made and encoded once
        # per change for every spectator (hosting/game_server.py, Chair).
        host = game.host
        chair = self._chair(game, None)
        first = min(connection.synced, host.step_count)
        events = tuple(host.step_events(None, first))
        connection.synced = host.step_count
        message = State(game.version, host.step_count, None, chair.view, first, events, SPECTATOR_UNDO, host.is_over)
        connection.send_line(encode_state(message, chair.json, self._events_json(chair, first, events)))

    def _session_message(self, connection: Connection, message: object) -> bool:
        if isinstance(message, Ping):
            connection.send(Pong())
            return True
        session = connection.session
        if isinstance(session, SigningIn):
            connection.send(Refused(getattr(message, "id", None), "not-authorised", "wait for club_welcome"))
            return True
        if isinstance(session, Spectating):
            connection.send(Refused(getattr(message, "id", None), "not-authorised", "a spectator cannot play"))
            return True
        assert isinstance(session, LobbySession)
        member = session.member
        if isinstance(message, ListGames):
            lobby = self.lobby_for(member)
            self._send(connection, lobby)
            session.shown = lobby_key(lobby)
            self._lobby_followers.setdefault(member, set()).add(connection)
        elif isinstance(message, NewGame):
            self._new_game(connection, member, message)
        elif isinstance(message, JoinGame):
            self._join_game(connection, member, message)
        elif isinstance(message, WithdrawGame):
            self._withdraw_game(connection, member, message)
        elif isinstance(message, Enter):
            self._enter(connection, member, message)
        elif isinstance(message, Watch):
            if message.game not in self.catalog:
                connection.send(Refused(message.id, "unknown-game", f"no game {printable(message.game, 64)!r} in this club"))
            else:
                self._send(connection, Entry(message.id, message.game, None, self.watch_token(message.game)))
        else:
            connection.send(Refused(getattr(message, "id", None), "bad-message", "a lobby connection takes lobby messages only"))
        return True

    @staticmethod
    def _send(connection: Connection, message: object) -> None:
        if not connection.writer.is_closing():
            connection.writer.write(club_encode(message))

    # --- the lobby ------------------------------------------------------------------

    def lobby_for(self, member: str) -> Lobby:
        mine, open_games, watchable, finished = [], [], [], []
        for entry in self.catalog.values():
            side = entry.side_of(member)
            if entry.status == "over":
                if side is not None:
                    finished.append(entry)
            elif side is not None:
                if entry.to_move is None:
                    self._find_game(entry.id)  # whose move it is needs the game
                mine.append(entry)
            elif entry.open_side is not None:
                open_games.append(entry)
            else:
                watchable.append(entry)

        def newest(entries: list[CatalogEntry]) -> tuple[GameLine, ...]:
            return tuple(e.line() for e in sorted(entries, key=lambda e: e.updated, reverse=True)[:MAX_LISTED])

        return Lobby(member, newest(mine), newest(open_games), newest(watchable), newest(finished))

    # --- lobby pushes --------------------------------------------------------------

    def _lobby_game_changed(self, entry: CatalogEntry) -> None:
        """A game's catalog entry changed: the members whose lobby shows the change
        get a push soon. A change of players or status shows in every lobby (an
        open game made, joined, finished); whose move it is, in its players' only."""
        seen = (entry.seen_by_all(), entry.seen_by_players())
        before = self._lobby_seen.get(entry.id)
        if before == seen:
            return  # the hot path: a move that leaves whose move it is alone
        self._lobby_seen[entry.id] = seen
        if not self._lobby_followers:
            return
        if before is None or before[0] != seen[0]:
            due = list(self._lobby_followers)
        else:
            due = [player for player in entry.players.values() if player in self._lobby_followers]
        for member in due:
            self._lobby_push_soon(member)

    def _lobby_game_removed(self, game_id: str) -> None:
        """A game left the catalog (withdrawn): it was in every lobby's open list
        or its player's, so every following member gets a push soon."""
        self._lobby_seen.pop(game_id, None)
        for member in list(self._lobby_followers):
            self._lobby_push_soon(member)

    def _lobby_unfollow(self, connection: Connection, member: str) -> None:
        followers = self._lobby_followers.get(member)
        if followers is not None:
            followers.discard(connection)
            if not followers:
                del self._lobby_followers[member]

    def _lobby_push_soon(self, member: str) -> None:
        if member in self._lobby_due or not self._lobby_followers.get(member):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a game changed outside the server's loop): nobody follows then
            return
        self._lobby_due.add(member)
        wait = self._lobby_pushed_at.get(member, -math.inf) + LOBBY_PUSH_EVERY - time.monotonic()
        loop.call_later(max(0.0, wait), self._lobby_push, member)

    def _lobby_push(self, member: str) -> None:
        """Send the member's lobby to each of their following connections whose
        last lobby shows something else (and nothing to the others)."""
        self._lobby_due.discard(member)
        followers = [c for c in self._lobby_followers.get(member, ()) if not c.writer.is_closing()]
        if not followers:
            self._lobby_followers.pop(member, None)
            return
        self._lobby_pushed_at[member] = time.monotonic()
        lobby = self.lobby_for(member)
        key = lobby_key(lobby)
        for connection in followers:
            session = connection.session
            if isinstance(session, LobbySession) and session.shown != key:
                session.shown = key
                self._send(connection, LobbyChanged.of(lobby))

    def new_game(self, member: str, side: Side, opponent: str) -> str:
        """Make a game with `member` in `side` (StoreError); returns its id."""
        game_id = secrets.token_urlsafe(9)
        players = {side: member} | ({side.other: COMPUTER} if opponent == "computer" else {})
        seed = secrets.randbelow(2**63)  # decides every hidden draw: never shown
        info = self.store.create_game(game_id, seed, default_components().data_version, None, players)
        self.catalog[game_id] = CatalogEntry(
            game_id, {s: players.get(s) for s in BOTH_SIDES}, "playing", None, info.created, info.created, 0
        )
        self._lobby_game_changed(self.catalog[game_id])
        if opponent == "computer":
            self._find_game(game_id)  # the computer may have a decision at once
        return game_id

    def _new_game(self, connection: Connection, member: str, message: NewGame) -> None:
        side = message.side or random.choice(BOTH_SIDES)
        try:
            game_id = self.new_game(member, side, message.opponent)
        except StoreError as error:
            connection.send(Refused(message.id, "host-error", f"the game could not be made: {printable(str(error), 200)}"))
            return
        self._send(connection, Entry(message.id, game_id, side, self.seat_token(game_id, side)))

    def _join_game(self, connection: Connection, member: str, message: JoinGame) -> None:
        entry = self.catalog.get(message.game)
        if entry is None:
            connection.send(Refused(message.id, "unknown-game", f"no game {printable(message.game, 64)!r} in this club"))
            return
        side = entry.open_side
        if entry.side_of(member) is not None:
            connection.send(Refused(message.id, "seat-taken", "you already play in that game; enter it instead"))
            return
        if side is None or entry.status != "playing":
            connection.send(Refused(message.id, "seat-taken", "that game has no open seat"))
            return
        try:
            taken = self.store.take_seat(entry.id, side, member)
        except StoreError as error:
            connection.send(Refused(message.id, "host-error", f"could not join: {printable(str(error), 200)}"))
            return
        if not taken:
            connection.send(Refused(message.id, "seat-taken", "someone else took that seat first"))
            return
        entry.players[side] = member
        self._lobby_game_changed(entry)
        self._send(connection, Entry(message.id, entry.id, side, self.seat_token(entry.id, side)))

    # --- withdrawing an open game nobody joined ------------------------------------

    def _why_not_withdrawn(self, member: str, game_id: str) -> tuple[str, str] | None:
        """Why `member` cannot withdraw the game: (refusal kind, reason); None if they can."""
        entry = self.catalog.get(game_id)
        if entry is None:
            return "unknown-game", f"no game {printable(game_id, 64)!r} in this club"
        side = entry.side_of(member)
        if side is None:
            return "not-authorised", "you play neither seat of that game: only its player can withdraw it"
        if entry.status != "playing":
            return "seat-taken", "that game is over: it can no longer be withdrawn"
        other = entry.players[side.other]
        if other == COMPUTER:
            return "seat-taken", "the computer plays that game: it cannot be withdrawn"
        if other is not None:
            return "seat-taken", f"{printable(other, 40)} has joined that game: it can no longer be withdrawn"
        return None

    def _withdraw_game(self, connection: Connection, member: str, message: WithdrawGame) -> None:
        refusal = self._why_not_withdrawn(member, message.game)
        if refusal is not None:
            connection.send(Refused(message.id, *refusal))
            return
        task = asyncio.get_running_loop().create_task(self._withdraw(connection, member, message))
        self._withdrawals.add(task)
        task.add_done_callback(self._withdrawals.discard)

    async def _withdraw(self, connection: Connection, member: str, message: WithdrawGame) -> None:
        """A loaded game may have a command (its creator's bid) being stored:
        wait for it (game.changing), so no action is appended to a deleted game."""
        while (game := self.games.get(message.game)) is not None:
            async with game.changing:
                if self.games.get(message.game) is game:
                    self._withdraw_now(connection, member, message)
                    return
            # evicted while this waited (and perhaps loaded again): look again
        self._withdraw_now(connection, member, message)  # not in memory: nothing is being stored

    def _withdraw_now(self, connection: Connection, member: str, message: WithdrawGame) -> None:
        """Check again (a join may have come first), then the store decides; memory follows it."""
        refusal = self._why_not_withdrawn(member, message.game)
        if refusal is not None:
            connection.send(Refused(message.id, *refusal))
            return
        try:
            withdrawn = self.store.withdraw_open_game(message.game, member)
        except StoreError as error:
            connection.send(Refused(message.id, "host-error", f"could not withdraw it: {printable(str(error), 200)}"))
            return
        if not withdrawn:
            connection.send(Refused(message.id, "seat-taken", "someone joined that game meanwhile: it can no longer be withdrawn"))
            self._reread_entry(message.game)
            return
        self._forget_game(message.game, f"{printable(member, 40)} withdrew this game")
        self._send(connection, Withdrawn(message.id, message.game))

    def _reread_entry(self, game_id: str) -> None:
        """The store says otherwise than the catalog (another writer of the
        store took the seat, or deleted the game): the catalog follows the store."""
        try:
            summary = next((s for s in self.store.summaries() if s.id == game_id), None)
        except StoreError:
            return
        if summary is None:
            self._forget_game(game_id, "this game is no longer in the club's store")
            return
        entry = self.catalog.get(game_id)
        if entry is not None:
            entry.players = {Side.ISHIDA: summary.players[0], Side.TOKUGAWA: summary.players[1]}
            if summary.status == "over":
                entry.status, entry.result, entry.to_move = "over", summary.result, ()
            self._lobby_game_changed(entry)

    def _forget_game(self, game_id: str, reason: str) -> None:
        """A game deleted from the store leaves memory: its seats and spectators
        are told why and closed, the lobbies that follow are pushed."""
        game = self.games.pop(game_id, None)
        gone = list(self.watchers.pop(game_id, ()))
        if game is not None:
            gone += list(game.connections.values())
        for connection in gone:
            connection.send(Refused(None, "unknown-game", reason))
            connection.close()
        self.catalog.pop(game_id, None)
        self.last_used.pop(game_id, None)
        self._computer_pending.discard(game_id)
        for side in BOTH_SIDES:
            self._computer_players.pop((game_id, side), None)
        self._lobby_game_removed(game_id)

    async def _commit(self, connection: Connection | None, game: HostedGame, action: Action, apply) -> bool:
        """A command that waited for a withdrawal (game.changing) is not stored:
        its game is no longer in the store."""
        if game.id not in self.catalog:
            if connection is not None:
                connection.send(Refused(action.client_id, "unknown-game", "that game was withdrawn: nothing was stored"))
            return False
        return await super()._commit(connection, game, action, apply)

    def _enter(self, connection: Connection, member: str, message: Enter) -> None:
        entry = self.catalog.get(message.game)
        if entry is None:
            connection.send(Refused(message.id, "unknown-game", f"no game {printable(message.game, 64)!r} in this club"))
            return
        side = entry.side_of(member)
        if side is None:
            connection.send(Refused(message.id, "not-authorised", "you play neither seat of that game; watch it instead"))
            return
        self._send(connection, Entry(message.id, entry.id, side, self.seat_token(entry.id, side)))


def load_secret(data_dir: Path) -> bytes:
    """The club's secret (DATA_DIR/club.secret, 0600), made if missing: seat
    and spectator tokens are derived from it, so they outlive a restart."""
    from sekigahara_tui.net.locations import write_private

    path = Path(data_dir) / "club.secret"
    if not path.exists():
        write_private(path, secrets.token_hex(32) + "\n")
    return bytes.fromhex(path.read_text(encoding="ascii").strip())
