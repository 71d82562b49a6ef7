"""A connection to a game server, and what its first message opens.

The first message of every connection is dispatched by its type in one
table of doors (`Doors`): the game server's own (hello: a seat) and those it
is given (the club's watch_game: a spectator's chair; club_hello: a lobby).
A door opens a session, which takes the connection's later messages and is
told when the connection ends.
"""

from __future__ import annotations

import asyncio
from typing import Callable, Protocol, Sequence

from attrs import define, frozen

from sekigahara_tui.net.protocol import Refused, encode

# A client that stops reading gets its messages buffered up to this much, then
# its connection is dropped (a whole game's state is at most 46 KB over 200
# random games: benchmarks/protocol.py).
MAX_WRITE_BUFFER = 16 * 1024 * 1024


class Session(Protocol):
    """What a connection's first message opened (a seat, a spectator's chair, a lobby)."""

    # A line too long to read is skipped and the next one read (a seat's),
    # rather than the end of the connection.
    forgives_long_lines: bool

    async def take(self, connection: Connection, message: object) -> bool:
        """A later message of the connection; False closes it."""
        ...

    def closed(self, connection: Connection) -> None:
        """The connection ended."""
        ...


@define(eq=False)
class Connection:
    writer: asyncio.StreamWriter
    peer_uid: int | None  # None over TCP
    last_heard: float
    synced: int = 0  # steps of its game this client holds events for (a seat or a spectator)
    session: Session | None = None  # None until its first message opened one

    @property
    def address(self) -> str:
        """Who is at the other end, for the audit log and the sign-in limits:
        the peer's address over TCP, `unix:UID` over the Unix socket."""
        if self.peer_uid is not None:
            return f"unix:{self.peer_uid}"
        peer = self.writer.get_extra_info("peername")
        return str(peer[0]) if peer else "?"

    def send(self, message: object) -> None:
        if not self.writer.is_closing():
            self.send_line(encode(message))

    def send_line(self, line: bytes) -> None:
        """A message already encoded (a state shared by a chair's connections)."""
        if self.writer.is_closing():
            return
        self.writer.write(line)
        if self.writer.transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            self.writer.transport.abort()  # it stopped reading: let it reconnect

    def close(self) -> None:
        if not self.writer.is_closing():
            self.writer.close()


@frozen
class Door:
    """One entry of the first-message table: the message type it takes, its
    name on the wire, and what opens the session (False closes the connection,
    after the refusal it sent)."""

    opens: type
    name: str
    open: Callable[[Connection, object], bool]


class Doors:
    """The first message of every connection, dispatched by its type."""

    def __init__(self, doors: Sequence[Door]) -> None:
        self._by_type = {door.opens: door for door in doors}
        self._name()

    def _name(self) -> None:
        names = [door.name for door in self._by_type.values()]
        self._expected = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"

    def add(self, door: Door) -> None:
        """Another door (serve's for fronts over TLS: hosting/front_door.py)."""
        self._by_type[door.opens] = door
        self._name()

    def open(self, connection: Connection, message: object) -> bool:
        door = self._by_type.get(type(message))
        if door is None:
            connection.send(Refused(None, "protocol", f"the first message must be {self._expected}"))
            return False
        return door.open(connection, message)
