"""`sekigahara host DIR`: make or resume the game in DIR and serve it.

DIR (0700) holds the store, the two seat tokens (0600), the lock and the
address file. While hosting, the lock is held; a socket left by a killed host
is removed at the next start (the free lock proves it stale). At exit the
socket, the address file and the registry entry are removed.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import secrets
import signal
from pathlib import Path
from typing import Callable

from attrs import frozen

from rules.surface import BOTH_SIDES, Side, printable_path
from sekigahara_tui.net.locations import (
    JOIN_SUFFIX,
    STORE_FILE,
    Address,
    AddressFile,
    HostLock,
    address_file_path,
    address_file_text,
    register,
    short_name,
    shared_socket_dir,
    socket_path,
    token_path,
    write_private,
)
from sekigahara_tui.hosting.game_ids import new_game_id
from sekigahara_tui.hosting.game_server import DEFAULT_GRACE, DEFAULT_IDLE_TIMEOUT, GameServer
from sekigahara_tui.hosting.games import SeatAccess
from sekigahara_tui.hosting.store import Store, starting_record


class HostingError(Exception):
    """The game cannot be hosted as asked; one-line message."""


@frozen
class HostOptions:
    game_dir: Path
    seed: int | None = None
    position: Path | None = None
    listen: tuple[str, int] | None = None
    bound: tuple[tuple[Side, str], ...] = ()  # seat, Unix user name or uid
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    grace: float = DEFAULT_GRACE
    stop_if_left_alone: bool = False  # the menu's two terminals (LeftAlone)


class LeftAlone:
    """`host --stop-if-left-alone`, as the menu's "two terminals" starts it: when
    every seat that came has gone before both seats ever came (the player who
    started the game quit before the other joined), the host stops `grace`
    seconds later: nobody else knows the game, and it would wait hours for
    nothing (issue 27, item 14). A subscriber of the game server."""

    def __init__(self, grace: float) -> None:
        self.grace = grace
        self.came: set[Side] = set()
        self.here: set[Side] = set()
        self.stop: Callable[[], None] = lambda: None  # the server's done.set, once it exists
        self.stopped = False

    def game_changed(self, game, change) -> None:
        pass

    def seat_joined(self, game, side: Side) -> None:
        self.came.add(side)
        self.here.add(side)

    def seat_left(self, game, side: Side) -> None:
        self.here.discard(side)
        if not self.here and self.came != set(BOTH_SIDES):
            asyncio.get_running_loop().call_later(self.grace, self._stop_if_still_alone)

    def _stop_if_still_alone(self) -> None:
        if not self.here and self.came != set(BOTH_SIDES):
            self.stopped = True
            self.stop()


def parse_listen(text: str) -> tuple[str, int]:
    host, colon, port = text.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise HostingError(f"--listen wants HOST:PORT, not {text!r}")
    return host.strip("[]"), int(port)


def parse_seat_binding(text: str) -> tuple[Side, str]:
    side, equals, user = text.partition("=")
    if not equals or side not in {s.value for s in BOTH_SIDES} or not user:
        raise HostingError(f"--seat wants SIDE=USER (ishida=alice), not {text!r}")
    return Side(side), user


def user_id(user: str) -> int:
    try:
        return pwd.getpwnam(user).pw_uid
    except KeyError:
        if user.isdigit():
            return int(user)
        raise HostingError(f"no Unix user {user!r}") from None


def prepare_dir(game_dir: Path) -> None:
    if game_dir.exists() and not game_dir.is_dir():
        raise HostingError(f"{printable_path(game_dir)} is not a directory")
    try:
        game_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if game_dir.stat().st_uid == os.getuid():
            os.chmod(game_dir, 0o700)  # the store holds the seed and both hands
    except OSError as error:
        raise HostingError(f"cannot make {printable_path(game_dir)}: {error.strerror}") from None


def open_game(store: Store, options: HostOptions) -> tuple[str, bool]:
    """The id of DIR's game, made if DIR has none; and whether it is new."""
    ids = store.game_ids()
    if len(ids) > 1:
        raise HostingError(f"{printable_path(store.path)} holds {len(ids)} games; a game DIR holds one")
    if ids:
        info, _ = store.load_game(ids[0])
        if options.seed is not None and options.seed != info.seed:
            raise HostingError(f"{printable_path(options.game_dir)} already holds a game with another seed; leave out --seed to resume it")
        if options.position is not None:
            raise HostingError(f"{printable_path(options.game_dir)} already holds a game; leave out --position to resume it")
        return ids[0], False
    # A seed nobody chose: it decides every hidden draw, so it is never printed.
    seed = options.seed if options.seed is not None else secrets.randbelow(2**63)
    game_id = new_game_id()
    store.create_game_from_record(game_id, starting_record(seed, options.position))
    return game_id, True


def seat_tokens(game_dir: Path) -> dict[Side, str]:
    """Each seat's token, from its file, made (0600) if missing."""
    tokens = {}
    for side in BOTH_SIDES:
        path = token_path(game_dir, side)
        if path.exists():
            tokens[side] = path.read_text(encoding="utf-8").strip()
        else:
            tokens[side] = secrets.token_urlsafe(24)
            write_private(path, tokens[side] + "\n")
    return tokens


def join_commands(game_dir: Path, bound: dict[Side, int], join_file: Path | None) -> list[str]:
    lines = []
    for side in BOTH_SIDES:
        if side in bound and join_file is not None:
            lines.append(f"  {side.value} (Unix user {bound[side]}): sekigahara join {join_file} --seat {side.value}")
        else:
            lines.append(f"  {side.value}: sekigahara join {game_dir} --seat {side.value}  (token in {token_path(game_dir, side)})")
    return lines


async def host_game(options: HostOptions, say: Callable[[str], None] = print) -> str:
    """Host DIR's game until it is over and both seats have gone, or it idles;
    returns why it stopped. HostingError/LocationError/StoreError/RecordError
    for what prevents hosting."""
    game_dir = options.game_dir.resolve()
    prepare_dir(game_dir)
    bound = {side: user_id(user) for side, user in options.bound}
    lock = HostLock(game_dir)
    lock.acquire()
    cleanup: list[Path] = []
    store = None
    server = None
    try:
        store = Store.open(game_dir / STORE_FILE)
        game_id, new = open_game(store, options)
        tokens = seat_tokens(game_dir)
        alone = LeftAlone(options.grace) if options.stop_if_left_alone else None
        server = GameServer.of_store(store, [alone] if alone else (), idle_timeout=options.idle_timeout, grace=options.grace)
        if alone is not None:
            alone.stop = server.done.set
        game = server.games.add(game_id, {side: SeatAccess(tokens[side], bound.get(side)) for side in BOTH_SIDES})
        sock = socket_path(game_dir, shared=bool(bound))
        sock.unlink(missing_ok=True)  # we hold the lock: any socket here is a dead host's
        await server.listen_unix(sock)
        cleanup.append(sock)
        os.chmod(sock, 0o666 if bound else 0o600)  # bound seats: anyone connects, the peer credential decides
        tcp = await server.listen_tcp(*options.listen) if options.listen else None
        entry = AddressFile(game_id, Address(str(sock), tcp), tuple(bound.items()), os.getpid())
        write_private(address_file_path(game_dir), address_file_text(entry))
        cleanup.append(address_file_path(game_dir))
        join_file = None
        if bound:
            join_file = shared_socket_dir() / f"{short_name(game_dir)}{JOIN_SUFFIX}"
            write_private(join_file, address_file_text(entry), mode=0o644)
            cleanup.append(join_file)
        cleanup.append(register(game_dir))
        state = "new game" if new else f"resumed at version {game.version}"
        say(f"hosting game {game_id} in {game_dir} ({state}) on {sock}" + (f" and TCP {tcp[0]}:{tcp[1]}" if tcp else ""))
        if game.host.is_over:
            say(f"the game is already over: {game.result_text}")
        say("join with:")
        for line in join_commands(game_dir, bound, join_file):
            say(line)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, server.done.set)
        await server.done.wait()
        if game.host.is_over:
            return f"game over: {game.result_text}"
        if alone is not None and alone.stopped:
            never = " and ".join(side.value for side in BOTH_SIDES if side not in alone.came)
            return f"stopped: {never} never joined, and the player who started the game has gone"
        return "stopped; resume with `sekigahara host " + str(game_dir) + "`"
    finally:
        if server is not None:
            await server.close()
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(signum)
        for path in cleanup:
            path.unlink(missing_ok=True)
        if store is not None:
            store.close()
        lock.release()


def stored_record(game_dir: Path):
    """The record of DIR's game (a rules.infra.record.GameRecord), read without
    writing to the store, so while a host runs too. StoreError if none."""
    store = Store.open(game_dir / STORE_FILE, read_only=True)
    try:
        return store.only_record()
    finally:
        store.close()
