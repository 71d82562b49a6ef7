"""Helpers for the club tests: a club server in this process on a real Unix
socket, members with made-up SSH keys, bots that play club games."""

from __future__ import annotations

import asyncio
import base64
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

from attrs import define

from rules.sides import Side

from sekigahara_tui.hosting import members
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.club.serve import ADDRESS_FILE
from sekigahara_tui.hosting.club_server import ClubServer
from sekigahara_tui.hosting.tokens import load_secret
from sekigahara_tui.bots.driver import RandomBot
from sekigahara_tui.hosting.store import Store

TIMEOUT = 60.0


def fake_key(algorithm: str = "ssh-ed25519") -> str:
    """An OpenSSH public key line of the right shape (a random ed25519 point)."""
    name = algorithm.encode()
    blob = len(name).to_bytes(4, "big") + name + (32).to_bytes(4, "big") + secrets.token_bytes(32)
    return f"{algorithm} {base64.b64encode(blob).decode()} someone@somewhere"


@define
class Club:
    server: ClubServer
    store: Store
    data_dir: Path
    socket: Path

    def lobby_client(self, member: str) -> ClubClient:
        """A lobby connection through a session token, as a front end makes it."""
        return ClubClient(self.socket, session=self.server.open_session(member))

    async def stop(self) -> None:
        await self.server.close()
        self.store.close()


async def start_club(data_dir: Path, names=("alice", "bob", "carol"), **options) -> Club:
    data_dir = members.prepare_data_dir(data_dir)
    for name in names:
        members.add(data_dir, name, fake_key())
    store = Store.open(data_dir / members.STORE_FILE)
    server = ClubServer(store, data_dir, load_secret(data_dir), **options)
    sock = data_dir / "club.sock"
    await server.listen_unix(sock)
    return Club(server, store, data_dir, sock)


async def bot_plays(club: ClubClient, entry, seed: int, **options):
    """A random bot plays the entry's seat to the end; returns its client."""
    client = club.seat_client(entry, RandomBot(seed), stop_when_over=True, **options)
    await asyncio.wait_for(client.run(), TIMEOUT)
    return client


async def close_all(clients, tasks, lobbies) -> None:
    """Close the game clients, wait for their run tasks, then close the lobbies."""
    for client in clients:
        await client.close()
    await asyncio.gather(*tasks)
    for lobby in lobbies:
        await lobby.close()


async def wait_until(predicate, what: str, timeout: float = TIMEOUT) -> None:
    """Wait until predicate() holds (the club catching up), failing after
    `timeout` seconds: a failure, not a timing."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


def short_tmp() -> Path:
    import tempfile

    directory = Path(tempfile.mkdtemp(prefix="skc", dir="/tmp"))
    os.chmod(directory, 0o700)
    return directory


def start_serve(data_dir: Path, *arguments: str) -> subprocess.Popen:
    """A real `sekigahara serve --data DIR [ARGUMENTS]` process, once it listens."""
    (data_dir / ADDRESS_FILE).unlink(missing_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "sekigahara_tui", "serve", "--data", str(data_dir), *arguments],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + TIMEOUT
    while not (data_dir / ADDRESS_FILE).exists():
        assert process.poll() is None, process.stderr.read()
        assert time.monotonic() < deadline, "the club server did not start"
        time.sleep(0.05)
    return process


def stop_serve(process: subprocess.Popen) -> None:
    """SIGTERM: the club server stops cleanly, exit status 0."""
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=20) == 0, process.stderr.read() if process.stderr else ""


def reap(process: subprocess.Popen) -> None:
    """After a test, pass or fail: no club server left running."""
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)


class AckingBot(RandomBot):
    """A random bot that notes every command the server acknowledged."""

    def __init__(self, seed: int, acked: set) -> None:
        super().__init__(seed)
        self.acked = acked

    def on_state(self, client) -> None:
        if client.reply_to is not None:
            self.acked.add((client.game, client.side, client.reply_to))
        super().on_state(client)


async def resigned_game(club: Club, private: bool) -> str:
    """A game of alice's and bob's that alice resigned: its id."""
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(Side.ISHIDA, "open", invite="bob" if private else None, private=private)
    await bob.join(made.game)
    seat = alice.seat_client(made)
    running = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None, TIMEOUT)
    seat.resign()
    await seat.wait_for(lambda c: c.result is not None, TIMEOUT)
    await seat.close()
    await running
    await alice.close()
    await bob.close()
    return made.game


async def play_over_tcp(data_dir, game: str | None, acked: set, versions: int) -> str:
    """alice and bob's bots over TCP (their web tokens) until `versions` more
    actions, in a new game or `game`; then their connections close."""
    from sekigahara_tui.club.serve import club_address
    from sekigahara_tui.hosting.web_tokens import issue_web_token

    tcp = tuple(club_address(data_dir)["tcp"])
    alice = ClubClient(None, member="alice", token=issue_web_token(data_dir, "alice"), tcp=tcp)
    bob = ClubClient(None, member="bob", token=issue_web_token(data_dir, "bob"), tcp=tcp)
    if game is None:
        made = await alice.new_game(Side.ISHIDA, "open")
        entries = [(alice, made), (bob, await bob.join(made.game))]
    else:
        entries = [(alice, await alice.enter(game)), (bob, await bob.enter(game))]
    clients = [club.seat_client(entry, AckingBot(n + len(acked), acked), stop_when_over=True) for n, (club, entry) in enumerate(entries)]
    tasks = [asyncio.create_task(client.run()) for client in clients]
    await wait_until(lambda: all(c.version is not None for c in clients), "both seats in")
    start = clients[0].version
    await wait_until(lambda: clients[0].over or (clients[0].version or 0) >= start + versions, "the bots to play")
    for client in clients:
        await client.close()
    await asyncio.gather(*tasks)
    for club in (alice, bob):
        await club.close()
    return clients[0].game
