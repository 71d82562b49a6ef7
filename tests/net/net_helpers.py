"""Helpers for the network tests: an in-process host on a real Unix socket, a
raw line-level connection, a recording proxy, and the R55 check of raw bytes
against an independent model of what each side may know (tests/knowledge_model.py)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from attrs import define

from rules.components import default_components
from rules.infra.record import GameRecord, replay_steps
from rules.sides import BOTH_SIDES, Side
from rules.view import PlayerView, view
from knowledge_model import KnowledgeModel, assert_justified, models_along
from sekigahara_tui.net.client import Client
from sekigahara_tui.net.locations import Address, AddressFile, address_file_path, address_file_text, token_path, write_private
from sekigahara_tui.net.protocol import PROTOCOL_VERSION, AnyEvent, converter
from sekigahara_tui.hosting.game_server import GameServer
from sekigahara_tui.hosting.games import HostedGame, SeatAccess
from sekigahara_tui.hosting.store import Store, commands_standing

TOKENS = {Side.ISHIDA: "ishida-secret-token", Side.TOKUGAWA: "tokugawa-secret-token"}
GAME = "game-1"
TIMEOUT = 30.0


@define
class Hosted:
    server: GameServer
    game: HostedGame
    store: Store
    game_dir: Path
    socket: Path

    @property
    def address(self) -> Address:
        return Address(unix=str(self.socket))

    def client(self, side: Side, listener=None, **options) -> Client:
        return Client(self.address, GAME, side, TOKENS[side], listener, **options)

    def stored_rows(self) -> int:
        return len(self.store.load_game(GAME)[1])

    async def stop(self) -> None:
        await self.server.close()
        self.store.close()


async def start_hosted(
    game_dir: Path,
    runtime_dir: Path,
    seed: int = 1,
    position: str | None = None,
    seats: dict[Side, SeatAccess] | None = None,
    **server_options,
) -> Hosted:
    """Host one game of `seed` in this process, on a Unix socket; DIR gets the
    store, the tokens and the address file as `sekigahara host` writes them."""
    game_dir.mkdir(exist_ok=True)
    store = Store.open(game_dir / "game.sqlite")
    store.create_game(GAME, seed, default_components().data_version, position)
    server = GameServer.of_store(store, **server_options)
    game = server.games.add(GAME, seats or {side: SeatAccess(TOKENS[side]) for side in BOTH_SIDES})
    sock = runtime_dir / f"h{len(os.listdir(runtime_dir))}.sock"
    await server.listen_unix(sock)
    for side in BOTH_SIDES:
        write_private(token_path(game_dir, side), TOKENS[side] + "\n")
    write_private(address_file_path(game_dir), address_file_text(AddressFile(GAME, Address(str(sock)), (), os.getpid())))
    return Hosted(server, game, store, game_dir, sock)


def hello(side: Side, token: str | None = None, game: str = GAME, protocol: int = PROTOCOL_VERSION, seen: int | None = None) -> dict:
    return {"type": "hello", "protocol": protocol, "game": game, "seat": side.value,
            "token": TOKENS[side] if token is None else token, "seen": seen}


class RawConnection:
    """A connection speaking raw lines, for what a Client would never send."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, address: Address) -> RawConnection:
        if address.unix:
            reader, writer = await asyncio.open_unix_connection(address.unix, limit=16 * 1024 * 1024)
        else:
            reader, writer = await asyncio.open_connection(*address.tcp, limit=16 * 1024 * 1024)
        return cls(reader, writer)

    def send(self, message: dict | bytes) -> None:
        self.writer.write(message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n")

    async def receive(self, timeout: float = 5.0) -> dict | None:
        """The next message, or None when the host closed the connection."""
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        return json.loads(line) if line else None

    async def receive_until(self, *kinds: str, timeout: float = 5.0) -> list[dict]:
        """Messages up to and including the first of a type among `kinds`."""
        seen = []
        while True:
            message = await self.receive(timeout)
            assert message is not None, f"closed before a {' or '.join(kinds)}: {seen}"
            seen.append(message)
            if message["type"] in kinds:
                return seen

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


class RecordingProxy:
    """A Unix socket that relays to the host and keeps every byte the host
    sends, line by line: what travels to the seat, captured on the wire."""

    def __init__(self, target: Address, path: Path) -> None:
        self.target, self.path = target, path
        self.received: list[bytes] = []
        self._server: asyncio.base_events.Server | None = None
        self._relays: set[asyncio.Task] = set()

    async def start(self) -> Address:
        self._server = await asyncio.start_unix_server(self._relay, path=str(self.path))
        return Address(unix=str(self.path))

    async def _relay(self, client_reader, client_writer) -> None:
        self._relays.add(asyncio.current_task())
        host_reader, host_writer = await asyncio.open_unix_connection(self.target.unix, limit=16 * 1024 * 1024)

        async def upstream():
            while data := await client_reader.read(65536):
                host_writer.write(data)
            host_writer.close()

        async def downstream():
            while line := await host_reader.readline():
                self.received.append(line)
                client_writer.write(line)
            client_writer.close()

        await asyncio.gather(upstream(), downstream(), return_exceptions=True)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for relay in self._relays:
            relay.cancel()
        await asyncio.gather(*self._relays, return_exceptions=True)


async def play_bots(hosted: Hosted, addresses: dict[Side, Address] | None = None, seeds=(1, 2), timeout: float = TIMEOUT):
    """Two random bots play the hosted game to its end; returns their clients."""
    from sekigahara_tui.net.bot import RandomBot

    clients = []
    for side, seed in zip(BOTH_SIDES, seeds):
        address = (addresses or {}).get(side, hosted.address)
        clients.append(Client(address, GAME, side, TOKENS[side], RandomBot(seed), stop_when_over=True))
    await asyncio.wait_for(asyncio.gather(*(client.run() for client in clients)), timeout)
    return clients


# --- R55 on the wire -------------------------------------------------------------

# GameState's keys for what is hidden: the generator, where every block is,
# the piles in order, the secret choices, the revealed set.
FORBIDDEN_KEYS = {"seed", "rng_counter", "rng", "positions", "draw_pile", "discard_pile", "secret", "revealed"}


def words(data: Any) -> tuple[set[str], set[str]]:
    """Every key, and every word of every string (notation splits on spaces
    and the side's colon), of a JSON value."""
    keys: set[str] = set()
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                keys.add(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            found.update(value.replace(":", " ").split())

    walk(data)
    return keys, found


class TrueGame:
    """The game as the host knew it at each version, replayed from the store,
    with what each side may know after each step (tests/knowledge_model.py)."""

    def __init__(self, store: Store) -> None:
        self.info, self.actions = store.load_game(GAME)
        self.final = tuple(commands_standing(self.actions))
        self.steps = list(replay_steps(self._record(self.final)))
        self.models = models_along(self.steps)

    def _record(self, commands: tuple[str, ...]) -> GameRecord:
        return GameRecord(self.info.seed, self.info.data_version, commands, position=self.info.position)

    def steps_at(self, version: int) -> list:
        """[(command, state, events)] of the game after `version` rows."""
        return self.at(version)[0]

    def at(self, version: int) -> tuple[list, list[KnowledgeModel]]:
        """The steps after `version` rows and the knowledge model after each."""
        commands = tuple(commands_standing(self.actions[:version]))
        if commands == self.final[: len(commands)]:
            return self.steps[: len(commands) + 1], self.models[: len(commands) + 1]
        steps = list(replay_steps(self._record(commands)))  # a line undone later
        return steps, models_along(steps)


def check_names_by_the_model(data: dict, viewer: Side | None, state, models: list[KnowledgeModel], where: str) -> None:
    """A state line names only what `viewer` (a seat, or None: a spectator) may:
    the rest of the line (reply_to, undo, ...) and the view only what it knows
    now; each step's events only what it had been shown by that step (R55, R62)."""
    _, rest = words({key: value for key, value in data.items() if key not in ("view", "events")})
    _, in_view = words(data["view"])
    assert_justified(rest | in_view, models[-1].may_name_in_view(viewer, state), viewer, state, where)
    for number, step in enumerate(data["events"], start=data["first_step"]):
        _, in_events = words(step)
        assert_justified(in_events, models[number].may_name_in_log(viewer), viewer, state, f"in the events of step {number} {where}")


def check_seat_bytes(lines: list[bytes], side: Side, truth: TrueGame) -> int:
    """R55 on the wire, judged by the knowledge model (tests/knowledge_model.py),
    not by the engine's view: each state line names no enemy block or card the
    seat may not know, in its view (what it knows now), in each step's events
    (what it had been shown by that step: the log keeps every reveal, R62) or
    elsewhere; its view's enemy blocks are exactly those the model says the seat
    knows, where they stand; no line has a key that would carry the seed or
    hidden places. Then the view and the events are the engine's, so the wire
    carries what the engine made. Returns how many states were checked."""
    c = default_components()
    enemy_blocks = {block.id for block in c.blocks_of(side.other)}
    checked = 0
    for line in lines:
        data = json.loads(line)
        keys, found = words(data)
        assert not keys & FORBIDDEN_KEYS, f"{side.value} received keys {keys & FORBIDDEN_KEYS}"
        if data["type"] != "state":
            assert not found & enemy_blocks, f"{side.value} received {found & enemy_blocks} in {data['type']}"
            continue
        version = data["version"]
        steps, models = truth.at(version)
        assert data["steps"] == len(steps)
        state, model = steps[-1][1], models[-1]
        where = f"at version {version}"
        check_names_by_the_model(data, side, state, models, where)
        sent_view = converter.structure(data["view"], PlayerView)
        known = dict(sent_view.enemy_known)
        expected = model.known_now(side, state)
        assert known == expected, (
            f"{side.value} was shown enemy blocks {sorted(set(known.items()) ^ set(expected.items()))} wrongly (R55, R62) {where}"
        )
        # The wire carries the engine's view and the seat's events.
        assert sent_view == view(state, side)
        true_events = [[e for e in events if side in e.visible_to()] for _, _, events in steps[data["first_step"]:]]
        sent_events = [[converter.structure(e, AnyEvent) for e in step] for step in data["events"]]
        assert sent_events == true_events
        checked += 1
    return checked


# --- subprocesses ----------------------------------------------------------------


def sekigahara(*arguments: str, env: dict[str, str], **options) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "sekigahara_tui", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        **options,
    )


# --- raw seats ---------------------------------------------------------------------


async def take_seat(hosted: Hosted, side: Side, seen: int | None = None) -> tuple[RawConnection, dict]:
    """A raw connection that has said hello for `side`; returns it and its first state."""
    raw = await RawConnection.open(hosted.address)
    raw.send(hello(side, seen=seen))
    messages = await raw.receive_until("presence")
    assert [m["type"] for m in messages] == ["welcome", "state", "presence"], messages
    return raw, messages[1]
