"""The club server: one asyncio process holding many games (docs/club.md).

It is a composition: it builds a game server (game_server.py: commit before
acknowledging, one connection per seat, stale and duplicate messages) with
the club's collaborators, and holds its lobby. Nothing of the game server is
overridden; the club adds what it needs by giving it:

- where games come from: the store, a game loaded on first use
  (store_games.py) and evicted when nobody has used it for `evict_after`
  seconds (eviction.py);
- how a commit is made: the store's group commit, but not for a withdrawn
  game (club_games.py, ClubCommits);
- who is present: the computer always sits in its seat (computer_seat.py);
- what a seat may ask besides playing: resign, propose or answer a
  cancellation (results.py, the one place a game ends outside the rules),
  and talk to the other player (chat.py: never to a spectator, R55; the
  lobby's channel is chat.py's too);
- its subscribers, told of every change in this order: the store (a game's
  end, and the ratings it moved: club_ratings.py), the seats' connections, the results (a seat that comes hears a
  standing proposal to cancel), the catalog (catalog.py; and through it the
  lobbies' pushes, lobby_push.py), the last-use clock, the spectators
  (spectators.py: public information only, R55), the computer seat (it
  decides in worker processes, bots/workers.py, and commits through the same
  path as a client), the game notices (game_notices.py: "your move" to a
  member who is away, sent by notice_delivery.py without holding up the game;
  and to a member signed in elsewhere, a bell in their lobby), who is online
  (online.py: the lobby's lines say it of the opponent), the tournaments
  (tournaments.py: a Swiss's next round once one is over);
- its doors besides a seat's hello: `club_hello` (lobby.py: list, make, join,
  withdraw, enter and watch games, with seat tokens derived from the club's
  secret, tokens.py) and `watch_game` (a spectator);
- a hello for a seat already connected takes it over (seats.py: the seat's
  token is its member's, so it is the same member's other connection);
- who is a member now (generations.py): every token it mints is bound to the
  member's generation, and a member removed while it runs is revoked within
  CHECK_EVERY seconds: their lobby, seat and spectator connections closed,
  their sessions ended, and the fronts told (`follow_revocations`), which end
  the member's client processes; a member's web token replaced signs out
  at the same look what was signed in with the old one (`sign_out`: a TCP
  lobby connection, a browser's session, the fronts told through
  `follow_sign_outs`), not the member's SSH sessions;
- the game clocks (game_clocks.py: stamped on each action in its
  transaction, told to the seats, a side out of time loses or the computer
  stands in; clock_store.py: the heartbeat that leaves down time uncharged);
- its limits (limits.py: games in play and new games a member, failed
  sign-ins an address at the TCP door);
- the audit log (hosting/audit.py): a line for each refusal, takeover and
  revocation.

Server side: it reaches the engine only through GameHost (hosting/host.py).
"""

from __future__ import annotations

import asyncio
import math
import ssl
import time
from pathlib import Path
from typing import Callable

from rules.surface import printable

from sekigahara_tui.club.protocol import CLUB_CLIENT_MESSAGES, ClubHello, WatchGame, decode_club_client_message
from sekigahara_tui.bots.driver import BUDGET
from sekigahara_tui.bots.workers import DecisionPool
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.lobby_sync import LobbySync
from sekigahara_tui.hosting.chat import ChatOptions, ChatRoom
from sekigahara_tui.hosting.chat_store import ChatStore
from sekigahara_tui.hosting.club_games import ClubCommits, ClubGames
from sekigahara_tui.hosting.computer_seat import ComputerSeat
from sekigahara_tui.hosting.connections import Door
from sekigahara_tui.hosting.eviction import DEFAULT_EVICT_AFTER, Eviction
from sekigahara_tui.hosting.game_server import REAP_AFTER, GameServer
from sekigahara_tui.hosting.generations import MemberGenerations, NotAMember
from sekigahara_tui.hosting.limits import ClubLimits, MemberLimits
from sekigahara_tui.hosting.clock_store import ClockStore
from sekigahara_tui.hosting.club_ratings import ClubRatings
from sekigahara_tui.hosting.vacations import Vacations
from sekigahara_tui.hosting.game_clocks import GameClocks
from sekigahara_tui.hosting.game_notices import GameNotices
from sekigahara_tui.hosting.lobby import WEB_TOKEN_REPLACED, Lobby
from sekigahara_tui.hosting.notice_delivery import NoticeOptions, NoticeQueue
from sekigahara_tui.hosting.notice_settings import NoticeSettings
from sekigahara_tui.hosting.online import Online
from sekigahara_tui.hosting.ownership import Ownership
from sekigahara_tui.hosting.host_leases import HostLeases
from sekigahara_tui.hosting.results import Results
from sekigahara_tui.hosting.seats import SeatConnections
from sekigahara_tui.hosting.sessions import Sessions
from sekigahara_tui.hosting.spectators import Spectators
from sekigahara_tui.hosting.store import Store
from sekigahara_tui.hosting.store_commits import StoreCommits
from sekigahara_tui.hosting.store_games import StoreGames
from sekigahara_tui.hosting.tokens import SeatTokens
from sekigahara_tui.hosting.tournament_leases import TournamentLeases
from sekigahara_tui.hosting.tournaments import Tournaments
from sekigahara_tui.net.protocol import Refused


class ClubServer:
    def __init__(
        self,
        store: Store,
        data_dir: Path,
        secret: bytes,
        *,
        evict_after: float = DEFAULT_EVICT_AFTER,
        reap_after: float = REAP_AFTER,
        computer_seed: int | None = None,
        computer_workers: int | None = None,
        computer_budget: float = BUDGET,
        computer_pool: DecisionPool | None = None,
        guests: bool = False,
        audit: AuditLog | None = None,
        limits: ClubLimits = ClubLimits(),
        notices: NoticeOptions = NoticeOptions(),
        clock_now: Callable[[], float] = time.time,
        chat: ChatOptions = ChatOptions(),
        ownership: Ownership | None = None,
    ) -> None:
        self.store = store
        # Several hosts over one PostgreSQL (ownership.py): this host's leases; None: the only host.
        self.ownership = ownership
        store.fence = ownership
        self.data_dir = Path(data_dir)
        self.socket_path: Path | None = None
        self.audit = audit if audit is not None else NoAuditLog()
        self.generations = MemberGenerations(self.data_dir, guests)
        self.sessions = Sessions()
        self.tokens = SeatTokens(secret, self.generations)
        self.catalog = Catalog(store.summaries())
        # The computer thinks in worker processes (bots/workers.py): `computer_workers`
        # of them (default: cores minus one), or the pool given (tests watch what it sends).
        pool = computer_pool if computer_pool is not None else DecisionPool(computer_workers)
        self.computer = ComputerSeat(
            self.catalog, pool, computer_seed, level_of=store.computer_level, budget_s=computer_budget, audit=self.audit
        )
        self.notice_settings = NoticeSettings(self.data_dir)
        # A member's lobby says when their notices keep failing (and when they work again).
        self.notices = NoticeQueue(self.notice_settings, notices, self.audit, on_warning=lambda member: self.lobby.push.member_changed(member))
        self.game_notices = GameNotices(self.catalog, self.notices)
        self.games = StoreGames(
            store, self.catalog, self.tokens,
            # the clocks first: a seat the computer stands in for is known before it looks
            on_load=(self.catalog.note_game, lambda game: self.clocks.game_loaded(game), self.computer.schedule, self.game_notices.game_loaded),
        )
        self.games.ownership = ownership
        self.spectators = Spectators(self.catalog, self.games, self.tokens, self.audit)
        self.eviction = Eviction(
            self.games,
            busy=(self.spectators.watching, self.computer.deciding),
            on_evict=(self.spectators.game_gone, self.computer.forget, self.game_notices.forget, lambda game_id: self.chat.forget(game_id)),
            evict_after=evict_after,
            keeps_lease=lambda game_id: self.clocks.ticking(game_id),  # several hosts: a dead host's running clocks go on elsewhere
        )
        self.club_games = ClubGames(store, self.catalog, self.games, self.spectators, self.computer)
        self.limits = MemberLimits(limits, self.catalog)
        self.chat = ChatRoom(ChatStore(store.path), self.catalog, self.generations.is_guest, self.games.loaded.get, self.audit, self.notices, chat)
        self.lobby = Lobby(
            self.data_dir, self.sessions, self.catalog, self.games, self.club_games, self.tokens, self.limits, self.audit,
            notices=(self.notice_settings, notices), queue=self.notices, requests=self.chat.lobby_requests(),
        )
        self.catalog.follow(self.lobby.push)  # a lobby is pushed when what it shows changed
        # PostgreSQL: the catalog follows every host's changes too (None on SQLite)
        self.lobby_sync = LobbySync.for_store(store.path, self.catalog, self.games.loaded,
                                              lambda game_id: self.club_games.forget(game_id, "this game was withdrawn"))
        self.ratings = self.lobby.ratings = ClubRatings(store, self.catalog)
        self.results = Results(store, self.catalog, self.audit)
        self.clocks = GameClocks(ClockStore(store.path), self.games, self.results, self.computer, self.audit, now=clock_now)
        self.clocks.store.fence = ownership
        self.club_games.on_join = self.clocks.started
        self.lobby.vacations = Vacations(self.clocks, store.path, self.catalog, self.generations.is_guest, self.lobby.push.member_changed, self.audit)
        # Who is signed in anywhere: the lobby's lines say it of the opponent; its pushes follow it.
        self.online = Online(self.catalog, self.games.loaded, self.lobby.connections, self.lobby.push.member_changed)
        self.lobby.online = self.online
        self.lobby.clocks_of = self.clocks.line_of
        # A decision passing to a member away from that game, signed in: a bell and a line in their lobby.
        self.game_notices.ring = self.lobby.ring
        self.game_notices.clocks_of = self.clocks.words_of  # a your-move notice says both clocks
        self.clocks.tell_low = self.game_notices.clock_low  # a clock below a day (a tenth, live): one notice a drop
        self._clocks_started = False
        self.tournaments = Tournaments(store.path, self.club_games, self.audit)
        if ownership is not None:  # several hosts: one acts for each tournament (tournament_leases.py)
            tournament_leases = TournamentLeases(store.path, ownership.host, lease=ownership.lease)
            self.tournaments.share(tournament_leases)
            ownership.also_renew.append(tournament_leases.renew)
        self.lobby.tournaments = self.tournaments
        store_commits = self.store_commits = StoreCommits(store)
        store_commits.lost = self.lost_game
        self.hosts = HostLeases(self) if ownership is not None else None
        self.game_server = GameServer(
            self.games,
            ClubCommits(store_commits, self.catalog, self.clocks.stamp),
            [store_commits, self.ratings, SeatConnections(), self.clocks, self.results, self.catalog, self.games, self.spectators,
             self.game_notices, self.online, self.chat, self.computer, self.tournaments],
            doors=[
                Door(ClubHello, CLUB_CLIENT_MESSAGES[ClubHello], self.lobby.club_hello),
                Door(WatchGame, CLUB_CLIENT_MESSAGES[WatchGame], self.spectators.watch_game),
            ],
            decode=decode_club_client_message,
            seat_requests={**self.results.seat_requests(), **self.chat.seat_requests()},
            seated=self.computer.sits,
            idle_timeout=math.inf,
            grace=math.inf,
            reap_after=reap_after,
            takeover=True,
            audit=self.audit,
        )
        # The computer's commands take the game server's commit path; the
        # game server was built with the computer among its subscribers.
        self.computer.play_through(self.game_server)
        self.results.play_through(self.game_server)  # an end outside the rules is told as a change is
        self.done = self.game_server.done
        self.generations.follow(self.revoke)  # first: the fronts follow after it
        self.generations.follow_sign_outs(self.sign_out)

    # --- the front ends' door ---------------------------------------------------------

    def open_session(self, member: str, web_generation: str | None = None) -> str:
        """A session token for `member`, for a client process started by a
        front end (SEKIGAHARA_SESSION); NotAMember if they are none (now).
        web_generation: the web token's the browser signed in with (the
        session ends when it is replaced); None for a session signed in by key."""
        generation = self.generations.generation_of(member)
        if generation is None:
            raise NotAMember(f"{printable(member, 40)!r} is not a member of this club")
        if web_generation is not None and web_generation != self.generations.web_generation_of(member):
            raise NotAMember(WEB_TOKEN_REPLACED)
        return self.sessions.open_session(member, generation, web_generation)

    def close_session(self, token: str) -> None:
        self.sessions.close_session(token)

    def follow_revocations(self, revoke: Callable[[str], None]) -> None:
        """A front end's `revoke(member)`, called for each member removed while the club runs."""
        self.generations.follow(revoke)

    def unfollow_revocations(self, revoke: Callable[[str], None]) -> None:
        self.generations.unfollow(revoke)

    def follow_sign_outs(self, sign_out: Callable[[str, str], None]) -> None:
        """A front end's `sign_out(member, generation)`, called for each web
        token replaced while the club runs (with the new token's generation)."""
        self.generations.follow_sign_outs(sign_out)

    def unfollow_sign_outs(self, sign_out: Callable[[str, str], None]) -> None:
        self.generations.unfollow_sign_outs(sign_out)

    # --- revocation -------------------------------------------------------------------

    def revoke(self, member: str) -> None:
        """The member was removed (or removed and added again): every connection
        of theirs is told and closed, every session of theirs ended."""
        reason = f"{printable(member, 40)} is no longer a member of this club"
        closed = self.lobby.revoke(member, reason) + self.spectators.revoke(member, reason)
        for game in list(self.games.loaded.values()):
            entry = self.catalog.get(game.id)
            side = entry.side_of(member) if entry is not None else None
            seat = game.connections.get(side) if side is not None else None
            if seat is not None:
                seat.send(Refused(None, "not-authorised", reason))
                seat.close()
                closed += 1
        sessions = self.sessions.revoke(member)
        self.audit.record("revoked", f"{closed} connections closed, {sessions} sessions ended", front="club", member=member)

    def sign_out(self, member: str, web_generation: str) -> None:
        """The member's web token was replaced: what was signed in with another
        is closed and ended (the lobby's lines in the audit log, one each)."""
        self.lobby.sign_out(member, web_generation)
        self.sessions.sign_out(member, web_generation)

    # --- several hosts (ownership.py) -------------------------------------------------

    def lost_game(self, game_id: str, reason: str) -> None:
        """Another host took the game (this one was fenced off, or its lease
        ran out), or the store may hold more of it than memory (store.py,
        BEHIND): out of memory, its connections told why and closed (they
        reconnect, and are sent to the owner, which reads the game again)."""
        game = self.games.drop(game_id)
        watchers = self.spectators.game_gone(game_id)
        self.computer.forget(game_id)
        self.game_notices.forget(game_id)
        self.chat.forget(game_id)
        connections = [*(game.connections.values() if game is not None else ()), *watchers]
        for connection in connections:
            connection.send(Refused(None, "host-error", reason))
            connection.close()
        if game is not None:
            self.audit.record("game-lost", f"{reason}; {len(connections)} connections closed", game=game_id)

    # --- serving ----------------------------------------------------------------------

    async def listen_unix(self, path: Path) -> None:
        await self.game_server.listen_unix(path)
        self.socket_path = Path(path)
        self.start_clocks()
        self.eviction.start()
        self.generations.start()
        self.chat.start()

    async def listen_tcp(self, host: str, port: int, tls: ssl.SSLContext | None = None) -> tuple[str, int]:
        self.start_clocks()
        return await self.game_server.listen_tcp(host, port, tls)

    def start_clocks(self) -> None:
        """Once, on the server's loop: the down time since the last heartbeat, the clocks' timer."""
        if not self._clocks_started:
            self._clocks_started = True
            if self.hosts is not None:
                self.hosts.start()  # before the clocks: they take the games they keep
            self.clocks.start()
            self.tournaments.resume()  # a round made or a game ended while the club was down
            if self.lobby_sync is not None:
                self.lobby_sync.start()

    async def close(self) -> None:
        self.eviction.stop()
        if self.lobby_sync is not None:
            await self.lobby_sync.close()
        await asyncio.gather(self.computer.close(), self.lobby.close())  # their commands are stored first
        await self.game_server.close()
        if self.hosts is not None:
            self.hosts.stop()  # after the last commit: the leases given up, for the other hosts at once
        await self.clocks.close()
        await self.generations.close()
        await self.notices.close()  # notices still waiting are reminders: dropped
        await self.chat.close()
        self.chat.store.close()
        self.notice_settings.close()
        self.tournaments.close()
