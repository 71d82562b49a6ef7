"""Shared pieces of the SSH and web front-end tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import asyncssh

from front_vt import Screen
from sekigahara_tui.club.ssh_front import start_ssh
from sekigahara_tui.club.ssh_pty import CTTY_WRAPPER, set_window_size

HERE = Path(__file__).resolve().parent
WINCH_CHILD = [sys.executable, str(HERE / "winch_child.py")]
WAIT = 30.0  # seconds before a wait for the screen gives up (a failure, not a timing)


async def take_the_keyboard(terminal, side: str) -> None:
    """The hand-over for `side` is up: its Enter, as a player sitting down gives
    it. The hand-over ignores an Enter that comes too soon after it is drawn (the
    leaving player's double tap, R55), so the Enter is given again until the
    game screen shows: an ignored Enter does nothing, so this never gives two."""
    from sekigahara_tui.screens.info import HandOverScreen

    await terminal.wait_text(f"Pass the keyboard to {side}")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        await asyncio.sleep(HandOverScreen.APPEAR_SETTLE_S)
        terminal.press(b"\r")
        try:
            await asyncio.wait_for(terminal.wait_for(lambda t: "Pass the keyboard" not in t.screen.text(), "the game screen"), 2.0)
            return
        except asyncio.TimeoutError:
            assert loop.time() < deadline, f"the hand-over never closed:\n{terminal.screen.text()}"


class StubClub:
    """What the fronts need of the club: open_session, close_session, socket_path,
    follow_revocations and unfollow_revocations (`revoke(member)` revokes one),
    follow_sign_outs and unfollow_sign_outs."""

    def __init__(self, socket_path: Path) -> None:
        self.socket_path = socket_path
        self.opened: list[str] = []
        self.closed: list[str] = []
        self.followers: list = []
        self.sign_out_followers: list = []

    def open_session(self, member: str, web_generation: str | None = None) -> str:
        self.opened.append(member)
        return f"token-for-{member}"

    def close_session(self, token: str) -> None:
        self.closed.append(token)

    def follow_revocations(self, revoke) -> None:
        self.followers.append(revoke)

    def unfollow_revocations(self, revoke) -> None:
        if revoke in self.followers:
            self.followers.remove(revoke)

    def follow_sign_outs(self, sign_out) -> None:
        self.sign_out_followers.append(sign_out)

    def unfollow_sign_outs(self, sign_out) -> None:
        if sign_out in self.sign_out_followers:
            self.sign_out_followers.remove(sign_out)

    def revoke(self, member: str) -> None:
        for revoke in list(self.followers):
            revoke(member)


def hot_seat_app(save_dir: Path) -> list[str]:
    """The real Textual app (a hot-seat game, seed 1) as a session child."""
    return [sys.executable, "-m", "sekigahara_tui", "--save-dir", str(save_dir), "--seed", "1"]


def menu_app(save_dir: Path) -> list[str]:
    return [sys.executable, "-m", "sekigahara_tui", "--save-dir", str(save_dir)]


def write_member(data_dir: Path, key: asyncssh.SSHKey, name: str) -> None:
    """The member and their key in the club's database (members.py)."""
    from sekigahara_tui.hosting import members

    members.add(data_dir, name, key.export_public_key("openssh").decode())


@contextlib.asynccontextmanager
async def serving(club, data_dir: Path, child: list[str], guest: bool = False, **options):
    front = await start_ssh(club, data_dir, 0, "127.0.0.1", guest=guest, child_command=child, **options)
    try:
        yield front
    finally:
        front.close()
        await front.wait_closed()


def connect(front, key, username: str = "someone", **options):
    return asyncssh.connect(
        "127.0.0.1", front.port, username=username, client_keys=[key] if key else [],
        known_hosts=None, agent_path=None, **options,
    )


@contextlib.asynccontextmanager
async def real_club(name: str, guests: bool = False):
    """The real club server (store, members, socket, its audit log) with one
    member; yields (server, data_dir, key). guests: as `serve --guest`."""
    from sekigahara_tui.hosting import members
    from sekigahara_tui.hosting.audit import AuditLog
    from sekigahara_tui.hosting.club_server import ClubServer
    from sekigahara_tui.hosting.tokens import load_secret
    from sekigahara_tui.hosting.store import Store

    scratch = Path(tempfile.mkdtemp(prefix="skf", dir="/tmp"))  # short: a socket's path has a limit
    try:
        data_dir = members.prepare_data_dir(scratch / "club")
        key = asyncssh.generate_private_key("ssh-ed25519")
        members.add(data_dir, name, key.export_public_key("openssh").decode())
        store = Store.open(data_dir / members.STORE_FILE)
        audit = AuditLog(data_dir)
        server = ClubServer(store, data_dir, load_secret(data_dir), guests=guests, audit=audit)
        await server.listen_unix(data_dir / "club.sock")
        try:
            yield server, data_dir, key
        finally:
            await server.close()
            store.close()
            audit.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def prompt_says(terminal, text: str) -> bool:
    """The prompt, right of the map, says it (not the status bar's "You: Ishida")."""
    return any(text in line[40:] for line in terminal.screen.text().splitlines()[1:])


async def choose_side_and_level(terminal) -> None:
    """Enter on the first side, then, once the dialog says the side (the levels
    have the focus then: a second Enter sent at once would reach the sides
    again), Enter on the highlighted level (issue 25: the lobby's c)."""
    terminal.press(b"\r")
    await terminal.wait_text("You play Ishida")
    terminal.press(b"\r")


class Terminal:
    """An SSH session's screen as the client sees it, kept up to date."""

    def __init__(self, process: asyncssh.SSHClientProcess, width: int, height: int) -> None:
        self.process = process
        self.screen = Screen(width, height)
        self.raw = bytearray()
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, conn: asyncssh.SSHClientConnection, width: int = 80, height: int = 24, **options) -> Terminal:
        process = await conn.create_process(term_type="xterm-256color", term_size=(width, height), encoding=None, **options)
        return cls(process, width, height)

    async def _read(self) -> None:
        while data := await self.process.stdout.read(65536):
            self.raw += data
            self.screen.feed(data)
            if replies := self.screen.take_replies():
                self.process.stdin.write(replies)
            if not self.screen.in_frame:  # a whole frame drawn: the screen may be read
                self._changed.set()
        self._changed.set()

    def press(self, keys: bytes) -> None:
        self.process.stdin.write(keys)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(width, height)
        self.process.change_terminal_size(width, height)

    async def wait_for(self, check, what: str):
        """Wait until check(self) is true; fail with the screen if it never is."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while self.screen.in_frame and not self._reader.done() or not (found := check(self)):
            if self._reader.done() and not self._changed.is_set():
                raise AssertionError(f"the session ended before {what}:\n{self.screen.text()}\n{bytes(self.raw[-400:])!r}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), max(0.01, deadline - loop.time()))
            except asyncio.TimeoutError:
                raise AssertionError(f"never saw {what}:\n{self.screen.text()}") from None
        return found

    async def wait_text(self, text: str):
        return await self.wait_for(lambda terminal: terminal.screen.find(text), repr(text))

    async def wait_raw(self, text: str) -> None:
        await self.wait_for(lambda terminal: text.encode() in terminal.raw, repr(text))

    async def finish(self) -> asyncssh.SSHCompletedProcess:
        result = await asyncio.wait_for(self.process.wait(), WAIT)
        await self._reader
        return result


class LocalTerminal:
    """A program on a PTY of our own, that PTY its controlling terminal: a local terminal window."""

    def __init__(self, process: asyncio.subprocess.Process, master: int, width: int, height: int) -> None:
        self.process = process
        self.master = master
        self.screen = Screen(width, height)
        self.raw = bytearray()
        self._changed = asyncio.Event()
        self._closed = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_reader(master, self._read)

    @classmethod
    async def open(cls, command: list[str], width: int = 80, height: int = 24, env: dict | None = None) -> LocalTerminal:
        master, slave = os.openpty()
        set_window_size(slave, width, height)
        environment = dict(os.environ if env is None else env)
        environment.setdefault("TERM", "xterm-256color")
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-S", "-c", CTTY_WRAPPER, *command,
            stdin=slave, stdout=slave, stderr=slave, start_new_session=True, env=environment,
        )
        os.close(slave)
        os.set_blocking(master, False)
        return cls(process, master, width, height)

    def _read(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            self._closed.set()
        else:
            self.raw += data
            self.screen.feed(data)
            if replies := self.screen.take_replies():
                os.write(self.master, replies)
            if self.screen.in_frame:
                return  # a frame half drawn: the screen may be read when it is whole
        self._changed.set()

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(width, height)
        set_window_size(self.master, width, height)

    async def wait_for(self, check, what: str):
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while self.screen.in_frame and not self._closed.is_set() or not (found := check(self)):
            if self._closed.is_set() and not self._changed.is_set():
                raise AssertionError(f"the program ended before {what}:\n{self.screen.text()}\n{bytes(self.raw[-400:])!r}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), max(0.01, deadline - loop.time()))
            except asyncio.TimeoutError:
                raise AssertionError(f"never saw {what}:\n{self.screen.text()}") from None
        return found

    async def wait_text(self, text: str):
        return await self.wait_for(lambda terminal: terminal.screen.find(text), repr(text))

    async def wait_raw(self, text: str) -> None:
        await self.wait_for(lambda terminal: text.encode() in terminal.raw, repr(text))

    async def finish(self) -> int:
        status = await asyncio.wait_for(self.process.wait(), WAIT)
        await asyncio.wait_for(self._closed.wait(), WAIT)
        os.close(self.master)
        return status

    async def kill(self) -> None:
        if self.process.returncode is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            await self.process.wait()
        if not self._closed.is_set():
            asyncio.get_running_loop().remove_reader(self.master)
            self._closed.set()
            os.close(self.master)
