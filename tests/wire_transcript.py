"""The bytes on the wire of two seeded games, played in lock-step: what each
seat of a two-terminal game receives (hosting/game_server.py), and what each seat and
a spectator of a club game receive (hosting/club_server.py, a game server composed
with the club's collaborators).

The hosting layer is to be reshaped without changing a byte it sends (issue
22): test_wire_transcript.py runs this file in a process of its own, under
a random PYTHONHASHSEED (sets are written sorted, so the bytes must not
follow the string hashes), and compares the digests with the ones pinned there.

Every command comes from a raw connection, one at a time: the seat to act
(Ishida first when both may) submits a command picked by a seeded chooser
from the legal list it was sent, and the next one waits until every
connection has the new state. So the lines each connection receives, and
their order, depend on nothing but the code. One undo (R58) and one stale
submit are played on the way, for their messages.

Usage: python3 tests/wire_transcript.py [--dump DIR]   (prints the digests)
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "src"), str(Path(__file__).resolve().parent)]

from rules.components import default_components  # noqa: E402
from rules.sides import BOTH_SIDES, Side  # noqa: E402
from sekigahara_tui.net.protocol import PROTOCOL_VERSION  # noqa: E402

SEED = 7
WAIT = 20.0


class Recorded:
    """A raw connection that keeps every line the host sends it."""

    def __init__(self, name: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.name, self.writer = name, writer
        self.lines: list[bytes] = []
        self.parsed: list[dict] = []
        self._arrived = asyncio.Event()
        self._reading = asyncio.get_running_loop().create_task(self._read(reader))

    @classmethod
    async def open(cls, name: str, socket: Path) -> Recorded:
        reader, writer = await asyncio.open_unix_connection(str(socket), limit=16 * 1024 * 1024)
        return cls(name, reader, writer)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while line := await reader.readline():
            self.lines.append(line)
            self.parsed.append(json.loads(line))
            self._arrived.set()

    def send(self, message: dict) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")

    def last_state(self) -> dict | None:
        return next((m for m in reversed(self.parsed) if m["type"] == "state"), None)

    async def wait_for(self, predicate, what: str) -> None:
        async def until() -> None:
            while not predicate(self):
                self._arrived.clear()
                await self._arrived.wait()
        try:
            await asyncio.wait_for(until(), WAIT)
        except asyncio.TimeoutError:
            raise AssertionError(f"{self.name} never received {what}; last: {str(self.parsed[-1])[:300]}") from None

    async def close(self) -> None:
        self._reading.cancel()
        self.writer.close()


def has(kind: str, **fields):
    return lambda conn: any(m["type"] == kind and all(m.get(k) == v for k, v in fields.items()) for m in conn.parsed)


def at_version(version: int):
    return lambda conn: (state := conn.last_state()) is not None and state["version"] >= version


async def play(seats: dict[Side, Recorded], everyone: list[Recorded]) -> None:
    """Lock-step play to the game's end: one command at a time, then every
    connection's copy of the new state before the next."""
    chooser = random.Random(f"wire/{SEED}")
    undone = stale = False
    while True:
        states = {side: conn.last_state() for side, conn in seats.items()}
        version = states[Side.ISHIDA]["version"]
        if states[Side.ISHIDA]["over"]:
            break
        side = next(s for s in BOTH_SIDES if states[s]["view"]["legal"])
        seat, state = seats[side], states[side]
        if not stale and version >= 3:  # one stale submit: refused to the sender alone
            stale = True
            seat.send({"type": "submit", "id": "stale", "version": version - 1, "command": state["view"]["legal"][0]})
            await seat.wait_for(has("refused", id="stale"), "the stale refusal")
        message_id = f"m{version}"
        if not undone and version >= 30 and state["undo"] is None:  # one undo (R58)
            undone = True
            seat.send({"type": "undo", "id": message_id, "version": version})
        else:
            seat.send({"type": "submit", "id": message_id, "version": version,
                       "command": chooser.choice(state["view"]["legal"])})
        refused = has("refused", id=message_id)
        await seat.wait_for(lambda c: at_version(version + 1)(c) or refused(c), f"an answer at version {version}")
        assert not refused(seat), f"{seat.name} was refused: {seat.parsed[-1]}"
        for conn in everyone:
            await conn.wait_for(at_version(version + 1), f"version {version + 1}")
    for conn in everyone:
        await conn.wait_for(has("game_over"), "game_over")


async def two_terminal_game(work: Path) -> dict[str, bytes]:
    from net.net_helpers import GAME, TOKENS, hello, start_hosted

    hosted = await start_hosted(work / "game", work, seed=SEED)
    seats: dict[Side, Recorded] = {}
    for side in BOTH_SIDES:
        seats[side] = await Recorded.open(f"host/{side.value}", hosted.socket)
        seats[side].send(hello(side))
        await seats[side].wait_for(has("state"), "its first state")
    await seats[Side.ISHIDA].wait_for(has("presence", seat="tokugawa", connected=True), "Tokugawa's presence")
    await play(seats, list(seats.values()))
    transcripts = {conn.name: b"".join(conn.lines) for conn in seats.values()}
    for conn in seats.values():
        await conn.close()
    await hosted.stop()
    assert GAME and TOKENS  # the names the transcript's hello used
    return transcripts


async def club_game(work: Path) -> dict[str, bytes]:
    from club.club_helpers import fake_key
    from sekigahara_tui.hosting import members
    from sekigahara_tui.club.client import ClubClient
    from sekigahara_tui.hosting.club_server import ClubServer
    from sekigahara_tui.hosting.tokens import load_secret
    from sekigahara_tui.hosting.store import Store

    data_dir = members.prepare_data_dir(work / "club")
    for name in ("alice", "bob", "carol"):
        members.add(data_dir, name, fake_key())
    store = Store.open(data_dir / members.STORE_FILE)
    game_id = "wire-game"
    store.create_game(game_id, SEED, default_components().data_version, None,
                      {Side.ISHIDA: "alice", Side.TOKUGAWA: "bob"})
    server = ClubServer(store, data_dir, load_secret(data_dir))
    socket = data_dir / "club.sock"
    await server.listen_unix(socket)

    seats: dict[Side, Recorded] = {}
    players = {Side.ISHIDA: "alice", Side.TOKUGAWA: "bob"}
    for side in BOTH_SIDES:
        seats[side] = await Recorded.open(f"club/{side.value}", socket)
        seats[side].send({"type": "hello", "protocol": PROTOCOL_VERSION, "game": game_id, "seat": side.value,
                          "token": server.tokens.seat(game_id, side, players[side]), "seen": None})
        await seats[side].wait_for(has("state"), "its first state")
    await seats[Side.ISHIDA].wait_for(has("presence", seat="tokugawa", connected=True), "Tokugawa's presence")
    carol = ClubClient(socket, session=server.open_session("carol"))
    entry = await carol.watch(game_id)
    spectator = await Recorded.open("club/spectator", socket)
    spectator.send({"type": "watch_game", "protocol": PROTOCOL_VERSION, "game": game_id, "token": entry.token,
                    "seen": None})
    await spectator.wait_for(has("state"), "its first state")
    await play(seats, [*seats.values(), spectator])
    transcripts = {conn.name: b"".join(conn.lines) for conn in (*seats.values(), spectator)}
    for conn in (*seats.values(), spectator):
        await conn.close()
    await carol.close()
    await server.close()
    store.close()
    return transcripts


async def all_transcripts() -> dict[str, bytes]:
    with tempfile.TemporaryDirectory(prefix="wire-") as work:
        return {**await two_terminal_game(Path(work)), **await club_game(Path(work))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path, help="also write each transcript to DIR")
    args = parser.parse_args()
    transcripts = asyncio.run(all_transcripts())
    for name, data in sorted(transcripts.items()):
        print(f"{name} {hashlib.sha256(data).hexdigest()} {len(data.splitlines())} lines {len(data)} bytes")
        if args.dump:
            path = args.dump / f"{name.replace('/', '-')}.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


if __name__ == "__main__":
    main()
