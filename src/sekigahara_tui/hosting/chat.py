"""The club's chat (issue 26; docs/club.md, Chat): each game's, between its
two players, and the club's channel in the lobby.

A game's chat travels on its seats' connections only (seats.py: a seat's
request), so no spectator's stream ever holds it (R55: what a side writes is
the players' own). It is stored with the game (chat_store.py) and read
again by its players only: in play, and in the replay of a finished game
(`get_chat` naming the game on a lobby connection). The channel travels on
the lobby connections that asked for it (lobby.py).

What a member may say, checked before anything is stored:
- text shown literally: printable characters only, so no control character,
  no escape sequence (its ESC), no line break; such a line is refused, not
  stripped (a stripped escape leaves its tail, "[31m", and says something
  else than was typed). Rich markup such as "[red]" is printable: stored as
  said, and drawn as plain text (screens/chat.py builds rich.text.Text);
- at most MAX_CHAT_TEXT characters, not empty;
- at most `burst` lines at once, then one every `refill_s` seconds (a token
  bucket per member, shared by every chat of theirs: 5, one per 2 s);
- not from a member the administrator muted (`sekigahara member mute NAME`);
- in the channel, not from a guest (guests read it).
Each refusal is one line to the member and one line in the audit log.

The administrator deletes a line with `sekigahara chat delete NUMBER`
(club/cli.py): it is marked in the store, and the club, looking every
LOOK_EVERY seconds, tells whoever follows that chat (`chat_deleted`).
A member whose seat is not connected to the game (away) gets a `chat`
notice (notices.py; only if they chose that kind), once until they come back;
it names the game and who wrote, never the text (a webhook may be a shared channel).
"""

from __future__ import annotations

import asyncio
import time
from typing import Callable

from attrs import define, frozen

from rules.surface import Side, printable
from sekigahara_tui.club.protocol import encode as club_encode
from sekigahara_tui.club.protocol_chat import MAX_CHAT_TEXT, ChatDeleted, ChatLine, ChatLines, ChatSay, GetChat
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.chat_store import ChatStore, ChatStoreError, StoredLine
from sekigahara_tui.hosting.club_games import Refusal
from sekigahara_tui.hosting.connections import Connection
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.notice_delivery import NoticeQueue
from sekigahara_tui.hosting.notices import CHAT, Notice
from sekigahara_tui.net.protocol import Refused

LOOK_EVERY = 1.0  # seconds between looks for lines the administrator deleted
MUTED = "the club's administrator has muted you in the chat: you may read it, not write in it"
GUESTS_READ_ONLY = "guests read the club's channel; members write in it"
NOT_YOUR_GAME = "only a game's players read its chat"


@frozen
class ChatOptions:
    """The rate limit: `burst` lines at once, then one line every `refill_s`
    seconds, per member; `now` the clock it counts by (a test's own)."""

    burst: int = 5
    refill_s: float = 2.0
    now: Callable[[], float] = time.monotonic


def text_problem(text: str) -> str | None:
    """Why this line may not be said (one line); None if it may."""
    if not text.strip():
        return "a chat line is empty"
    if len(text) > MAX_CHAT_TEXT:
        return f"a chat line is at most {MAX_CHAT_TEXT} characters, not {len(text)}"
    for at, character in enumerate(text):
        if not character.isprintable():
            return (f"a chat line holds printable characters only (no control character, escape sequence "
                    f"or line break): U+{ord(character):04X} at character {at + 1}")
    return None


@define
class _Bucket:
    tokens: float
    at: float


class RateLimit:
    """A token bucket per member."""

    def __init__(self, options: ChatOptions) -> None:
        self.options = options
        self._buckets: dict[str, _Bucket] = {}

    def take(self, member: str) -> str | None:
        """Take a line's token; None, or why not (one line) and nothing taken."""
        now = self.options.now()
        bucket = self._buckets.setdefault(member, _Bucket(float(self.options.burst), now))
        bucket.tokens = min(float(self.options.burst), bucket.tokens + (now - bucket.at) / self.options.refill_s)
        bucket.at = now
        if bucket.tokens < 1.0:
            wait = (1.0 - bucket.tokens) * self.options.refill_s
            return (f"too many chat lines: at most {self.options.burst} at once, then one every "
                    f"{self.options.refill_s:g} s; wait {wait:.1f} s")
        bucket.tokens -= 1.0
        return None


def wire_line(line: StoredLine, reply_to: str | None = None) -> ChatLine:
    return ChatLine(line.number, line.game, line.member, line.side, line.text, line.at, reply_to)


class ChatRoom:
    def __init__(
        self,
        store: ChatStore,
        catalog: Catalog,
        is_guest: Callable[[str], bool],
        loaded: Callable[[str], HostedGame | None],
        audit: AuditLog | NoAuditLog = NoAuditLog(),
        queue: NoticeQueue | None = None,
        options: ChatOptions = ChatOptions(),
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.is_guest = is_guest
        self.loaded = loaded  # a game in memory by id (None: not loaded, so no seat connected)
        self.audit = audit
        self.queue = queue
        self.limit = RateLimit(options)
        self.channel: set[Connection] = set()  # lobby connections that asked for the channel
        self._told: set[tuple[str, Side]] = set()  # seats told of a line while away, until they come
        self._since = time.time()  # deletions before the start were told to nobody: nobody held the lines
        self._told_deleted: set[int] = set()
        self._looking: asyncio.Task | None = None

    # --- a seat's requests (game_server.py seat_requests) ------------------------------

    def seat_requests(self) -> dict[type, Callable]:
        return {ChatSay: self._seat_say, GetChat: self._seat_history}

    async def _seat_say(self, connection: Connection, game: HostedGame, side: Side, message: object) -> None:
        assert isinstance(message, ChatSay)
        entry = self.catalog.get(game.id)
        member = entry.players[side] if entry is not None else None
        opponent = entry.players[side.other] if entry is not None else None
        try:
            if member is None:
                raise Refusal("not-authorised", NOT_YOUR_GAME)
            if opponent is None:
                raise Refusal("illegal", "nobody has joined this game yet: nobody to talk to")
            if opponent == COMPUTER:
                raise Refusal("illegal", "the computer reads no chat")
            line = self._say(member, game.id, side, message.text)
        except Refusal as refusal:
            self.audit.record("refused", refusal.reason, game=game.id, seat=side.value, member=member, address=connection.address)
            connection.send(Refused(message.id, refusal.kind, refusal.reason))
            return
        for seat_connection in list(game.connections.values()):
            seat_connection.send_line(club_encode(wire_line(line, message.id if seat_connection is connection else None)))
        self._tell_away(game, side.other, opponent, member)

    async def _seat_history(self, connection: Connection, game: HostedGame, side: Side, message: object) -> None:
        assert isinstance(message, GetChat)
        try:
            if message.game not in (None, game.id):
                raise Refusal("bad-message", "a seat's connection reads its own game's chat")
            history = self._history(message.id, game.id)
        except Refusal as refusal:
            self.audit.record("refused", refusal.reason, game=game.id, seat=side.value, address=connection.address)
            connection.send(Refused(message.id, refusal.kind, refusal.reason))
            return
        connection.send_line(club_encode(history))

    # --- a lobby session's requests (lobby.py) -----------------------------------------

    def lobby_requests(self) -> dict[type, Callable]:
        return {ChatSay: self._channel_say, GetChat: self._lobby_history}

    def _channel_say(self, connection: Connection, member: str, message: object) -> None:
        """Raises Refusal (lobby.py says and audits it)."""
        assert isinstance(message, ChatSay)
        if self.is_guest(member):
            raise Refusal("not-authorised", GUESTS_READ_ONLY)
        line = self._say(member, None, None, message.text)
        self.channel.add(connection)  # the sayer follows the channel from now on
        for follower in self._followers():
            follower.send_line(club_encode(wire_line(line, message.id if follower is connection else None)))

    def _lobby_history(self, connection: Connection, member: str, message: object) -> None:
        assert isinstance(message, GetChat)
        if message.game is None:
            self.channel.add(connection)
        else:
            # An unknown game is answered as another's is: nobody learns which private games exist.
            entry = self.catalog.get(message.game)
            if entry is None or entry.side_of(member) is None:
                raise Refusal("not-authorised", NOT_YOUR_GAME)
        connection.send_line(club_encode(self._history(message.id, message.game)))

    # --- both ---------------------------------------------------------------------------

    def _say(self, member: str, game: str | None, side: Side | None, text: str) -> StoredLine:
        """Check, then store, the line (Refusal: nothing stored)."""
        try:
            muted = self.store.is_muted(member)
        except ChatStoreError as error:
            raise Refusal("host-error", f"the club could not read the chat: {printable(str(error), 200)}") from None
        if muted:
            raise Refusal("not-authorised", MUTED)
        problem = text_problem(text)
        if problem is not None:
            raise Refusal("illegal", problem)
        problem = self.limit.take(member)  # a refused line takes no token: only lines said count
        if problem is not None:
            raise Refusal("illegal", problem)
        try:
            return self.store.add(game, member, side, text, time.time())
        except ChatStoreError as error:
            raise Refusal("host-error", f"the club could not store it, nothing was said: {printable(str(error), 200)}") from None

    def _history(self, reply_to: str, game: str | None) -> ChatLines:
        try:
            lines = self.store.lines(game)
        except ChatStoreError as error:
            raise Refusal("host-error", f"the club could not read the chat: {printable(str(error), 200)}") from None
        return ChatLines(reply_to, game, tuple(wire_line(line) for line in lines))

    def _followers(self) -> list[Connection]:
        self.channel = {connection for connection in self.channel if not connection.writer.is_closing()}
        return list(self.channel)

    def _tell_away(self, game: HostedGame, side: Side, member: str, writer: str) -> None:
        """A `chat` notice to `member` if their seat is not connected, once until it comes."""
        if self.queue is None or game.connections.get(side) is not None or (game.id, side) in self._told:
            return
        if not self.queue.wants(member, CHAT):
            return
        self._told.add((game.id, side))
        self.queue.send(member, Notice(CHAT, game.id, member, writer, resume=self.queue.options.resume))

    # --- a subscriber of the game server: a seat that comes is no longer away -----------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        pass

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        self._told.discard((game.id, side))

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass

    def forget(self, game_id: str) -> None:
        """The game left memory (evicted): nobody's seat is connected to it."""
        self._told = {told for told in self._told if told[0] != game_id}

    # --- the administrator's deletions --------------------------------------------------

    def start(self) -> None:
        if self._looking is None:
            self._looking = asyncio.get_running_loop().create_task(self._look_for_deletions())

    async def close(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
            await asyncio.gather(self._looking, return_exceptions=True)
            self._looking = None

    async def _look_for_deletions(self) -> None:
        while True:
            await asyncio.sleep(LOOK_EVERY)
            try:
                self.tell_deletions()
            except ChatStoreError:
                pass  # the next look tries again

    def tell_deletions(self) -> int:
        """Tell whoever follows each chat of the lines deleted since the last look; how many."""
        told = 0
        for number, game_id, when in self.store.deleted_since(self._since):
            self._since = max(self._since, when)  # lines deleted at the same instant: the set keeps them apart
            if number in self._told_deleted:
                continue
            self._told_deleted.add(number)
            deleted = ChatDeleted(number, game_id)
            game = self.loaded(game_id) if game_id is not None else None
            for connection in self._followers() if game_id is None else (list(game.connections.values()) if game else []):
                connection.send_line(club_encode(deleted))
            told += 1
        return told

