"""`sekigahara serve --data DIR`: run the club server with its store in DIR.

DIR (0700) holds club.sqlite (games, actions, members, their SSH keys and
web tokens, the fronts' credentials; or, with `--store postgresql://...`,
store.url naming the PostgreSQL database that holds them instead:
hosting/database.py, member_store.py), club.secret (seat
tokens are derived from it), host.lock
(held while a server runs: a second one is refused, and a socket left by a
killed one is known stale) and, while serving, club.json (the socket path,
the TCP address and the pid). The Unix socket is DIR/club.sock (0600), or
when that path is too long for AF_UNIX, one in the user's runtime directory.

One audit log (DIR/audit.log, hosting/audit.py) for the club and both front
ends, which also takes the server's own warnings; one SessionCaps for both
front ends, so a member's sessions count over SSH and the web together.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import signal
from pathlib import Path
from typing import Awaitable, Callable, TypeVar

from rules.surface import printable_path
from sekigahara_tui.club.front_addresses import listening_line, shown, web_note
from sekigahara_tui.club.front_link import LocalLink
from sekigahara_tui.club.protocol_fronts import FrontHello
from sekigahara_tui.club.session_caps import SessionCaps
from sekigahara_tui.hosting.connections import Door
from sekigahara_tui.hosting.front_door import FrontDoor
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting import database
from sekigahara_tui.hosting.members import MemberError, open_members, prepare_data_dir
from sekigahara_tui.hosting.club_server import ClubServer
from sekigahara_tui.hosting.notice_delivery import NoticeOptions
from sekigahara_tui.hosting.ownership import Ownership
from sekigahara_tui.hosting.tokens import load_secret
from sekigahara_tui.net.tls import TLSError, server_context
from sekigahara_tui.net.locations import MAX_SOCKET_PATH, HostLock, LocationError, runtime_dir, short_name, write_private
from sekigahara_tui.hosting.store import Store
from sekigahara_tui.hosting.stats_file import write_stats_if_asked

T = TypeVar("T")
ADDRESS_FILE = "club.json"
SOCKET_FILE = "club.sock"


class ClubError(Exception):
    """The club cannot be served or reached as asked; one line."""


def club_socket_path(data_dir: Path) -> Path:
    path = data_dir / SOCKET_FILE
    if len(os.fsencode(path)) <= MAX_SOCKET_PATH - 8:
        return path
    return runtime_dir() / f"club-{short_name(data_dir)}.sock"


def club_address(data_dir: Path) -> dict:
    """What a running club wrote into DATA_DIR/club.json (ClubError if none)."""
    path = Path(data_dir) / ADDRESS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ClubError(f"no club server is running for {printable_path(data_dir)} (no {ADDRESS_FILE})") from None
    except (OSError, ValueError) as error:
        raise ClubError(f"cannot read {printable_path(path)}: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("socket"), str):
        raise ClubError(f"{printable_path(path)} is not a club address file")
    return data


def parse_advertise(text: str) -> str:
    """`serve --advertise HOST:PORT`: where the other hosts send this host's
    games' clients (`elsewhere`), as they can reach it: a name or address,
    not 0.0.0.0 or ::, and a port to connect to (not 0). HostingError in one line."""
    from sekigahara_tui.net.host_command import HostingError, parse_listen

    try:
        host, port = parse_listen(text)
    except HostingError:
        raise HostingError(f"--advertise wants HOST:PORT (where the other hosts send clients), not {text!r}") from None
    if host in ("0.0.0.0", "::", "*") or port == 0 or not host.isprintable() or any(c.isspace() or c in ",/" for c in host):
        raise HostingError(f"--advertise wants an address clients can connect to (a host and a port, not 0), not {text!r}")
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def start_front_end(module: str, starter: str, *arguments, **options) -> object:
    """The SSH or web front end (club/ssh_front.py, club/web_front.py),
    written separately: ClubError if it is not there."""
    try:
        front = importlib.import_module(f"sekigahara_tui.club.{module}")
    except ImportError as error:
        raise ClubError(f"the {module} front end is not available: {error}") from None
    result = getattr(front, starter)(*arguments, **options)
    if asyncio.iscoroutine(result) or isinstance(result, asyncio.Future):
        result = await result
    return result


async def start_listening(name: str, address: tuple[str, int], starting: Awaitable[T]) -> T:
    """A front being started, or ClubError in one line saying which could not listen where."""
    try:
        return await starting
    except OSError as error:
        raise ClubError(f"cannot listen for {name} on {shown(address)}: {error.strerror or error}") from None


async def serve(
    data_dir: Path,
    listen: tuple[str, int] | None = None,
    ssh: tuple[str, int] | None = None,
    web: tuple[str, int] | None = None,
    say: Callable[[str], None] = print,
    ready: Callable[[ClubServer], None] | None = None,
    evict_after: float | None = None,
    guest: bool = False,
    notices: NoticeOptions = NoticeOptions(),
    computer_workers: int | None = None,
    vacation_days_per_year: int | None = None,
    store_url: str | None = None,
    tls: tuple[Path, Path] | None = None,
    advertise: str | None = None,
) -> str:
    try:
        tls_context = server_context(*tls) if tls is not None else None  # (certificate, key): one line if unusable
    except TLSError as error:
        raise ClubError(str(error)) from None
    try:
        data_dir = prepare_data_dir(data_dir)
        if store_url is not None:
            database.record_location(data_dir, store_url)  # the member commands on DIR find it there
        location = database.club_location(data_dir)
        open_members(data_dir).close()
    except (MemberError, database.Error) as error:
        raise ClubError(str(error)) from None
    lock = HostLock(data_dir)
    try:
        lock.acquire()
    except LocationError:
        raise ClubError(f"a club server is already running for {printable_path(data_dir)}") from None
    cleanup: list[Path] = []
    fronts: list = []  # the SSH and web front ends, closed first
    store = None
    club = None
    audit = None
    caps = SessionCaps()
    try:
        audit = AuditLog(data_dir)
        audit.take_server_logs()  # asyncio's warnings under a flood, say: in the file, not on stderr
        store = Store.open(location)
        options = {} if evict_after is None else {"evict_after": evict_after}
        if database.is_postgresql(location):  # any number of hosts may share it: each game is one's at a time
            options["ownership"] = Ownership(location)
        club = ClubServer(
            store, data_dir, load_secret(data_dir), guests=guest, audit=audit, notices=notices,
            computer_workers=computer_workers, **options,
        )
        club.computer.pool.start()  # the computer's workers start now, not at its first decision
        if vacation_days_per_year is not None:
            club.clocks.store.set_vacation_cap(vacation_days_per_year)  # the member command reads it
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):  # before anything is said: a signal after it stops the club
            loop.add_signal_handler(signum, club.done.set)
        sock = club_socket_path(data_dir)
        sock.unlink(missing_ok=True)  # we hold the lock: a socket here is a dead server's
        await club.listen_unix(sock)
        os.chmod(sock, 0o600)
        cleanup.append(sock)
        if tls_context is not None:  # fronts on other machines ask the club over TLS (hosting/front_door.py)
            door = FrontDoor(LocalLink(club, data_dir, caps, audit, guest))
            club.game_server.doors.add(Door(FrontHello, "front_hello", door.open))
        tcp = await club.listen_tcp(*listen, tls_context) if listen else None
        if tcp is not None and club.ownership is not None:
            # where the other hosts send this one's games' clients: --advertise, else the bound address
            club.ownership.listening(advertise or f"{tcp[0]}:{tcp[1]}")
        # Front ends (written beside this module by their own authors), each
        # said where it listens (front_addresses.py: the defaults and why).
        said: list[str] = []
        if ssh is not None:
            from sekigahara_tui.club.ssh_host_key import fingerprint_line  # asyncssh: only with --ssh

            starting = start_front_end("ssh_front", "start_ssh", club, data_dir, ssh[1], ssh[0], guest, caps=caps, audit=audit)
            front = await start_listening("SSH", ssh, starting)
            fronts.append(front)
            said += [listening_line("SSH", ssh[0], front.addresses), f"SSH host key: {fingerprint_line(front.host_key)}"]
        if web is not None:
            starting = start_front_end("web_front", "start_web", club, data_dir, web[1], web[0], caps=caps, audit=audit)
            front = await start_listening("the web", web, starting)
            fronts.append(front)
            said += [listening_line("web", web[0], front.addresses, web_note(web[0])), f"web page: {front.url}"]
        address = {"socket": str(sock), "tcp": list(tcp) if tcp else None, "pid": os.getpid()}
        write_private(data_dir / ADDRESS_FILE, json.dumps(address) + "\n")
        cleanup.append(data_dir / ADDRESS_FILE)
        say(
            f"club server for {data_dir}: {len(club.catalog.entries)} games, socket {sock}"
            + (f", store {database.shown(location)}" if database.is_postgresql(location) else "")
            + (f", TCP {tcp[0]}:{tcp[1]}" if tcp else "") + (" with TLS" if tcp and tls_context else "")
        )
        for line in said:
            say(line)
        if ready is not None:
            ready(club)
        await club.done.wait()
        return "stopped"
    finally:
        for front in fronts:  # stop taking sessions before the club goes
            front.close()
            await front.wait_closed()
        if club is not None:
            await club.close()
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(signum)
        for path in cleanup:
            path.unlink(missing_ok=True)
        if store is not None:
            store.close()
        if audit is not None:
            audit.close()
        lock.release()
        if club is not None:
            write_stats_if_asked(club.computer.decision_times, club.computer.pool.think_times, club.store_commits.writer.transactions)
        else:
            write_stats_if_asked()
