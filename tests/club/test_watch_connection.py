"""A spectator opens its own kind of connection (issue 22): the watch client
itself sends watch_game as the first line of every connection, with the
last version it holds; no seat's hello is ever made for it (hosting/
spectators.py takes it on the club's side). Over a real TCP socket on
loopback, through a relay that records what the client sends."""

from __future__ import annotations

import asyncio
import json

from club_helpers import wait_until
from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.club.client import WatchClient
from sekigahara_tui.club.protocol import WatchGame
from sekigahara_tui.club.protocol import encode as club_encode
from sekigahara_tui.net import client as net_client
from sekigahara_tui.net.locations import Address
from sekigahara_tui.net.protocol import PROTOCOL_VERSION

WAIT = 30.0


class RecordingRelay:
    """A loopback TCP port relaying to the club's; keeps, per connection, the
    lines the client sent, and can cut every connection."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.sent: list[list[bytes]] = []  # per connection, the client's lines
        self._writers: list[asyncio.StreamWriter] = []
        self._server: asyncio.base_events.Server | None = None

    async def start(self) -> Address:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        host, port = self._server.sockets[0].getsockname()[:2]
        return Address(tcp=(host, port))

    async def _relay(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        lines: list[bytes] = []
        self.sent.append(lines)
        club_reader, club_writer = await asyncio.open_connection(*self.target, limit=16 * 1024 * 1024)
        self._writers += [client_writer, club_writer]

        async def upstream() -> None:
            while line := await client_reader.readline():
                lines.append(line)
                club_writer.write(line)
            club_writer.close()

        async def downstream() -> None:
            while data := await club_reader.read(65536):
                client_writer.write(data)
            client_writer.close()

        await asyncio.gather(upstream(), downstream(), return_exceptions=True)

    def cut(self) -> None:
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()

    async def stop(self) -> None:
        self.cut()
        assert self._server is not None
        self._server.close()


async def test_a_spectator_s_first_line_is_watch_game_sent_by_the_watch_client_itself(club, monkeypatch):
    alice, bob, carol = (club.lobby_client(name) for name in ("alice", "bob", "carol"))
    game = await alice.new_game(Side.ISHIDA, "open")
    await bob.join(game.game)
    seat = alice.seat_client(game, stop_when_over=True)
    playing = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None, WAIT)
    seat.submit(format_command(seat.view.legal[0]))  # version 1: what the spectator will say it holds
    await seat.wait_for(lambda c: c.version == 1, WAIT)
    await seat.close()
    await playing

    made = []  # every message the client module encodes from now on: a hello would be made there
    real_encode = net_client.encode
    monkeypatch.setattr(net_client, "encode", lambda message: made.append(type(message).__name__) or real_encode(message))
    watch = await carol.watch(game.game)
    relay = RecordingRelay(await club.server.listen_tcp("127.0.0.1", 0))
    watcher = WatchClient(await relay.start(), watch.game, watch.token)
    watching = asyncio.create_task(watcher.run())
    try:
        await watcher.wait_for(lambda c: c.version == 1, WAIT)
        first = relay.sent[0][0]
        assert first == club_encode(WatchGame(PROTOCOL_VERSION, watch.game, watch.token, None))
        assert json.loads(first)["type"] == "watch_game"

        relay.cut()  # the watch client reconnects by itself, and says what it holds
        await wait_until(lambda: len(relay.sent) >= 2 and relay.sent[1], "a second connection's first line", WAIT)
        again = json.loads(relay.sent[1][0])
        assert again == {"protocol": PROTOCOL_VERSION, "game": watch.game, "token": watch.token, "seen": 1, "type": "watch_game"}
        await watcher.wait_for(lambda c: c.connected and c.version == 1, WAIT)
        assert watcher.fatal is None and "Hello" not in made  # no seat's hello was made, to be swapped on the wire or otherwise
    finally:
        await watcher.close()
        await watching
        await relay.stop()
        for client in (alice, bob, carol):
            await client.close()
