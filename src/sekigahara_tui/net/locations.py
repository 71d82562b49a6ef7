"""Where a hosted game lives: its directory, its socket, its tokens, its address.

A game DIR (0700) holds the store (game.sqlite), one token per seat
(ishida.token, tokugawa.token, 0600), the host's lock (host.lock) and the
address file (address.json) saying where the host listens. The Unix socket
lives in the user's runtime directory (0700) under a short name, since
AF_UNIX paths are limited to 107 bytes. A game with a seat bound to another
Unix user (`--seat tokugawa=USER`) puts its socket in a traversable
directory instead, /tmp/sekigahara-UID-shared (0711), beside a public copy of
its address file (a .join file): anyone may reach the socket, and the
host checks the peer's credential (SO_PEERCRED) for the bound seat.

Client side too: imports from `rules` only the surface.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import stat
import warnings
from pathlib import Path

import platformdirs
from attrs import frozen

from rules.surface import BOTH_SIDES, Side, printable, printable_path

ADDRESS_FILE = "address.json"
ADDRESS_FORMAT = "sekigahara-address"
STORE_FILE = "game.sqlite"
LOCK_FILE = "host.lock"
JOIN_SUFFIX = ".join"
MAX_ADDRESS_FILE = 64 * 1024
MAX_TOKEN_FILE = 1024
# sun_path is 108 bytes on Linux, its last one the terminating NUL.
MAX_SOCKET_PATH = 107


class LocationError(OSError):
    """A directory, file or socket path that cannot be used; one-line message."""


@frozen
class Address:
    """Where a host listens: a Unix socket path, a TCP (host, port), or both."""

    unix: str | None = None
    tcp: tuple[str, int] | None = None
    tls_ca: str | None = None  # over TCP with TLS: the CA file the club's certificate is checked against (net/tls.py)


@frozen
class AddressFile:
    """What the host writes into DIR (and into a .join file for other users)."""

    game: str
    address: Address
    bound: tuple[tuple[Side, int], ...]  # seats bound to a Unix user id
    pid: int


@frozen
class RunningGame:
    """A game hosted now that this user may join."""

    game_dir: Path  # the game DIR, or the .join file of another user's game
    game: str
    seats: tuple[Side, ...]  # the seats this user can join: token readable, or bound to this user
    address: Address


# --- directories ---------------------------------------------------------------


def _ensure_dir(path: Path, mode: int) -> Path:
    """`path` as a directory owned by this user with exactly `mode`; made if
    missing. Refused if it is a symbolic link or another user's."""
    try:
        path.mkdir(mode=mode, parents=False, exist_ok=True)
        info = os.lstat(path)
    except OSError as error:
        raise LocationError(f"cannot make {printable_path(path)}: {error.strerror}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise LocationError(f"{printable_path(path)} is not a directory")
    if info.st_uid != os.getuid():
        raise LocationError(f"{printable_path(path)} belongs to another user; refusing to use it")
    if stat.S_IMODE(info.st_mode) != mode:
        os.chmod(path, mode)
    return path


def runtime_dir() -> Path:
    """This user's private runtime directory for sekigahara (0700): under
    $XDG_RUNTIME_DIR when set, else /tmp/sekigahara-UID."""
    if os.environ.get("XDG_RUNTIME_DIR"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns when it falls back
            base = Path(platformdirs.user_runtime_dir("sekigahara"))
        if base.parent.is_dir() and os.stat(base.parent).st_uid == os.getuid():
            return _ensure_dir(base, 0o700)
    return _ensure_dir(Path("/tmp") / f"sekigahara-{os.getuid()}", 0o700)


def shared_socket_dir() -> Path:
    """Where sockets of games with seats bound to other users go: traversable
    by everyone (0711), not listable, writable only by this user."""
    return _ensure_dir(Path("/tmp") / f"sekigahara-{os.getuid()}-shared", 0o711)


def short_name(game_dir: Path) -> str:
    """A short, stable name for a game DIR, for its socket and registry entry."""
    return hashlib.sha256(os.fsencode(game_dir.resolve())).hexdigest()[:16]


def socket_path(game_dir: Path, shared: bool) -> Path:
    directory = shared_socket_dir() if shared else runtime_dir()
    path = directory / f"{short_name(game_dir)}.sock"
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        raise LocationError(
            f"the socket path {printable_path(path)} is longer than {MAX_SOCKET_PATH} bytes; "
            "set XDG_RUNTIME_DIR to a shorter directory"
        )
    return path


def registry_dir() -> Path:
    return _ensure_dir(runtime_dir() / "hosts", 0o700)


def registry_entry(game_dir: Path) -> Path:
    return registry_dir() / f"{short_name(game_dir)}.json"


# --- files ---------------------------------------------------------------------


def write_private(path: Path, text: str, mode: int = 0o600) -> None:
    """Write `text` atomically with `mode` (a temporary file, then a rename)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)  # the umask may have narrowed it
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _read_small(path: Path, limit: int, what: str) -> str:
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as error:
        raise LocationError(f"cannot read {what} {printable_path(path)}: {error.strerror}") from None
    if len(data) > limit:
        raise LocationError(f"{what} {printable_path(path)} is larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LocationError(f"{what} {printable_path(path)} is not UTF-8") from None


def address_file_path(game_dir: Path) -> Path:
    """A game DIR's address file; a .join file is its own address file."""
    return game_dir if game_dir.suffix == JOIN_SUFFIX and not game_dir.is_dir() else game_dir / ADDRESS_FILE


def address_file_text(entry: AddressFile) -> str:
    return json.dumps(
        {
            "format": ADDRESS_FORMAT,
            "game": entry.game,
            "unix": entry.address.unix,
            "tcp": list(entry.address.tcp) if entry.address.tcp else None,
            "bound": {side.value: uid for side, uid in entry.bound},
            "pid": entry.pid,
        },
        indent=1,
    ) + "\n"


def read_address_file(game_dir: Path) -> AddressFile:
    """The address file of a game DIR (or a .join file); LocationError if there
    is none (no host has run there) or it is malformed."""
    path = address_file_path(game_dir)
    if not path.exists():
        raise LocationError(f"no game is hosted in {printable_path(game_dir)} (no {ADDRESS_FILE}): start `sekigahara host` there")
    text = _read_small(path, MAX_ADDRESS_FILE, "the address file")
    try:
        data = json.loads(text)
        if data.get("format") != ADDRESS_FORMAT:
            raise ValueError("not an address file")
        game, unix, tcp, bound, pid = data["game"], data["unix"], data["tcp"], data["bound"], data["pid"]
        if type(game) is not str or not (unix is None or type(unix) is str) or type(pid) is not int:
            raise ValueError("bad field")
        if tcp is not None:
            host, port = tcp
            if type(host) is not str or type(port) is not int:
                raise ValueError("bad tcp")
            tcp = (host, port)
        seats = tuple((Side(side), uid) for side, uid in bound.items() if type(uid) is int)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise LocationError(f"{printable_path(path)} is not a sekigahara address file") from None
    return AddressFile(game, Address(unix, tcp), seats, pid)


def address_of(game_dir: Path) -> Address:
    """Where the host of the game in DIR listens."""
    return read_address_file(game_dir).address


def game_of(game_dir: Path) -> str:
    """The id of the game hosted in DIR."""
    return read_address_file(game_dir).game


def token_path(game_dir: Path, side: Side) -> Path:
    return game_dir / f"{side.value}.token"


def read_token(game_dir: Path, side: Side) -> str:
    """The seat's token, from DIR/SIDE.token. For a seat bound to this Unix
    user the token is empty: the host checks the peer credential instead."""
    entry = None
    try:
        entry = read_address_file(game_dir)
    except LocationError:
        pass
    if entry is not None and dict(entry.bound).get(side) == os.getuid():
        return ""
    if game_dir.suffix == JOIN_SUFFIX and not game_dir.is_dir():
        raise LocationError(f"the {side.value} seat of this game is not bound to you; ask the host for its token")
    path = token_path(game_dir, side)
    token = _read_small(path, MAX_TOKEN_FILE, f"the {side.value} token").strip()
    if not token or not token.isprintable() or len(token) > 128:
        raise LocationError(f"{printable_path(path)} does not hold a token")
    return token


# --- the host's lock -------------------------------------------------------------


class HostLock:
    """An exclusive flock on DIR/host.lock, held while a host serves DIR: a
    socket or address file left behind by a killed host is known stale."""

    def __init__(self, game_dir: Path) -> None:
        self.path = game_dir / LOCK_FILE
        self._descriptor: int | None = None

    def acquire(self) -> None:
        descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(descriptor)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise LocationError(f"a host is already running for {printable_path(self.path.parent)}") from None
            raise
        self._descriptor = descriptor

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing releases the lock
            self._descriptor = None


def host_is_running(game_dir: Path) -> bool:
    """Whether a host holds DIR's lock now (without disturbing it)."""
    try:
        descriptor = os.open(game_dir / LOCK_FILE, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(descriptor)
    return False


# --- finding running games -------------------------------------------------------


def register(game_dir: Path) -> Path:
    """Note in the runtime directory that DIR is hosted now (removed at exit)."""
    entry = registry_entry(game_dir)
    write_private(entry, json.dumps({"dir": str(game_dir.resolve())}) + "\n")
    return entry


def _readable_seats(game_dir: Path) -> tuple[Side, ...]:
    seats = []
    for side in BOTH_SIDES:
        try:
            read_token(game_dir, side)
        except LocationError:
            continue
        seats.append(side)
    return tuple(seats)


def running_games() -> list[RunningGame]:
    """Games hosted now that this user can join: this user's hosts (from the
    registry; entries of hosts that died are removed) and other users' games
    with a seat bound to this user (their .join files)."""
    games: list[RunningGame] = []
    for entry in sorted(registry_dir().glob("*.json")):
        try:
            game_dir = Path(json.loads(_read_small(entry, MAX_ADDRESS_FILE, "a registry entry"))["dir"])
        except (LocationError, ValueError, KeyError, TypeError):
            entry.unlink(missing_ok=True)
            continue
        if not host_is_running(game_dir):
            entry.unlink(missing_ok=True)
            continue
        try:
            found = read_address_file(game_dir)
        except LocationError:
            continue
        games.append(RunningGame(game_dir, found.game, _readable_seats(game_dir), found.address))
    for join in sorted(Path("/tmp").glob(f"sekigahara-*-shared/*{JOIN_SUFFIX}")):
        try:
            owner = os.lstat(join.parent).st_uid
            if owner == os.getuid() or join.parent.name != f"sekigahara-{owner}-shared":
                continue  # our own games are listed above; a directory not named for its owner is not trusted
            found = read_address_file(join)
        except (OSError, LocationError):
            continue
        seats = tuple(side for side, uid in found.bound if uid == os.getuid())
        if seats:
            games.append(RunningGame(join, found.game, seats, found.address))
    return games


def describe_running(games: list[RunningGame]) -> str:
    """The list for `sekigahara join` with no DIR."""
    if not games:
        return "no games are hosted now that you can join (start one with `sekigahara host DIR`)"
    lines = []
    for game in games:
        seats = " or ".join(side.value for side in game.seats) or "no seat (no token readable)"
        lines.append(f"{printable(str(game.game_dir), 200)}  game {printable(game.game, 40)}  seats: {seats}")
        for side in game.seats:
            lines.append(f"    sekigahara join {printable(str(game.game_dir), 200)} --seat {side.value}")
    return "\n".join(lines)
