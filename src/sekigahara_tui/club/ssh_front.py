"""The club's SSH front end: `sekigahara serve --ssh PORT` (docs/ssh.md).

A built-in asyncssh server. Every SSH session gets a client process of its
own (the same Textual app, connected to the club) on a pseudo-terminal made
that child's controlling terminal, so the kernel sends it SIGWINCH when the
SSH client's window changes size and the game redraws at the new size. One
Textual app per process, nothing of Textual's drivers used here: the PTY's
plumbing (club/ssh_pty.py) only moves bytes between the SSH channel and the
PTY's master side.

- What the club decides (who a key signs in, guests, the caps, sessions, the
  audit lines, revocations) is asked through the front's link
  (club/front_link.py): the club in this process (`serve --ssh`), or the club
  over TLS from another machine (`sekigahara front`, club/remote_link.py).
- Authentication is by public key only: the club's database maps keys to
  member names (`sekigahara member add`; hosting/members.py). With guest mode on, any other key
  (or keyboard-interactive with no questions, for clients without a key) gets
  in as `guest-NAME`, NAME being the SSH user name; a guest can never take a
  member's name.
- A session with a command runs it without a process or a PTY: `export
  GAME` prints a finished game's record, `records` lists the member's
  finished games (club/ssh_exec.py); any other command is one line and exit
  status 1. A session without a PTY, or smaller than 80x24, gets one line
  saying what to do and exit status 1.
- The child gets the client's TERM (and COLORTERM, NO_COLOR if sent), a UTF-8
  locale, SEKIGAHARA_CLUB and SEKIGAHARA_SESSION (from club.open_session), and
  nothing else of the client's environment.
- Keepalives reap dead connections; a disconnect hangs the child up (SIGHUP,
  then SIGKILL), a child's exit closes the channel with its exit status.
- The host key, DATA_DIR/ssh_host_ed25519_key, is made on first start (0600;
  ssh_host_key.py).
- Limits (SSHLimits, docs/ssh.md): sessions a member and a connection (like
  OpenSSH's MaxSessions), sessions in all, connections not yet signed in (like
  MaxStartups: a stranger costs no more than that) and the time to sign in
  (LoginGraceTime). Each refusal is one line to the client and one line in
  the audit log (hosting/audit.py), as is each sign-in.
- A member removed while the club runs (`sekigahara member remove`) is
  revoked: the club calls `revoke(member)` (club.follow_revocations), which
  hangs up the member's children and disconnects their connections.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path
from typing import Any

import asyncssh
from attrs import frozen

from sekigahara_tui.club.session_caps import SessionCaps
from sekigahara_tui.club.ssh_exec import is_exec, run_exec
from sekigahara_tui.club.ssh_host_key import load_or_make_host_key
from sekigahara_tui.club.ssh_pty import hang_up_group, run_on_pty
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.club.front_link import LocalLink

MIN_WIDTH, MIN_HEIGHT = 80, 24
KEEPALIVE_INTERVAL = 15.0  # seconds between keepalives
KEEPALIVE_COUNT_MAX = 4  # unanswered keepalives before the connection is dropped


@frozen
class SSHLimits:
    """What one connection and all strangers together may hold (a member's
    sessions and the club's, over both fronts: club/session_caps.py)."""

    sessions_per_connection: int = 4  # OpenSSH's MaxSessions (the member's and the club's: SessionCaps)
    unauthenticated: int = 10  # connections not yet signed in (OpenSSH's MaxStartups, 10)
    login_grace: float = 30.0  # seconds to sign in before the connection is dropped (LoginGraceTime)


NO_PTY_MESSAGE = (
    "sekigahara needs a terminal: connect with `ssh -t` (a pseudo-terminal), "
    "with no command, in a window of at least 80x24.\r\n"
)
TOO_SMALL_MESSAGE = (
    "Your terminal is {width}x{height}; sekigahara needs at least 80x24: "
    "enlarge the window and connect again.\r\n"
)
CONNECTION_CAP_MESSAGE = "This connection has {count} sessions open, at most {cap}: close one first."
NO_SESSION_MESSAGE = "The club would not open a session for {member}: {reason}\r\n"
REVOKED_MESSAGE = "{member} is no longer a member of this club"

_TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
# What a child inherits from the server's own environment; the rest of it
# (and everything the SSH client asks to set, but TERM, COLORTERM and
# NO_COLOR) stays out.
INHERITED_ENV = ("PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV",
                  "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR")


def default_child_command() -> list[str]:
    return [sys.executable, "-m", "sekigahara_tui", "club"]


# --- members ---------------------------------------------------------------


def key_text(key: asyncssh.SSHKey) -> str:
    """A public key as OpenSSH writes it, without comment: 'ssh-ed25519 AAAA...'."""
    return " ".join(key.export_public_key("openssh").decode("ascii").split()[:2])


class _FrontServer(asyncssh.SSHServer):
    """One per connection: decides who the connection belongs to.

    The member is set by whichever check ran last before authentication
    succeeded: asyncssh calls validate_public_key right before it verifies a
    signature, and get_kbdint_challenge answers at once, so a key merely
    offered (a member's public key is no secret) never names the session.
    """

    def __init__(self, front: SSHFront) -> None:
        self._front = front
        self._conn: asyncssh.SSHServerConnection | None = None
        self._address: str | None = None  # asked once: a closed connection no longer knows it
        self._signed_in = False
        self._keys_tried = 0

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        front = self._front
        if front.unauthenticated >= front.limits.unauthenticated:
            # MaxStartups: strangers hold at most so many connections at once.
            front.audit_refusal("too many connections not yet signed in", address=_address(conn))
            conn.close()
            return
        self._conn, self._address = conn, _address(conn)
        front.unauthenticated += 1
        front._connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._conn is None:
            return
        self._front._connections.discard(self._conn)
        if not self._signed_in:
            self._front.unauthenticated -= 1
            tried = f" ({self._keys_tried} keys offered, none a member's)" if self._keys_tried else ""
            self._front.audit_refusal("left without signing in" + tried, address=self._address)

    def auth_completed(self) -> None:
        assert self._conn is not None
        self._signed_in = True
        self._front.unauthenticated -= 1
        self._front.audit("sign-in", member=self._conn.get_extra_info("sekigahara_member"), address=self._address)

    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._keys_tried += 1
        member = await self._front.link.member_for_key(key_text(key), username)  # the club's answer (front_link.py)
        self._set_member(member)
        return member is not None

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return self._front.link.guests

    async def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        member = await self._front.link.guest_for(username)
        self._set_member(member)
        return member is not None

    def _set_member(self, member: str | None) -> None:
        assert self._conn is not None
        self._conn.set_extra_info(sekigahara_member=member)


# --- sessions --------------------------------------------------------------


class SSHFront:
    """The running SSH front end: its port, close() and wait_closed()."""

    def __init__(self, club: Any, data_dir: Path, link: Any, child_command: list[str], limits: SSHLimits) -> None:
        self.club = club
        self.data_dir = Path(data_dir)
        self.link = link  # what the club decides, asked here (front_link.py: in this process or over TLS)
        self.child_command = list(child_command)
        self.limits = limits
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.host_key: asyncssh.SSHKey | None = None  # DATA_DIR/ssh_host_ed25519_key (ssh_host_key.py)
        self.unauthenticated = 0  # connections made and not yet signed in
        self._connections: set[asyncssh.SSHServerConnection] = set()
        self._sessions: set[asyncio.Task] = set()
        self.children: dict[int, str] = {}  # pid of each session's child -> member
        self.sessions_of_connection: dict[asyncssh.SSHServerConnection, int] = {}

    def audit(self, event: str, reason: str = "", **fields: object) -> None:
        self.link.audit(event, reason, front="ssh", **fields)

    def audit_refusal(self, reason: str, **fields: object) -> None:
        self.audit("refused", reason, **fields)

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return self.acceptor.get_port()

    @property
    def addresses(self) -> list[tuple[str, int]]:
        """Every (host, port) it listens on (one a family on every interface)."""
        return [(address[0], address[1]) for address in self.acceptor.get_addresses()] if self.acceptor else []

    def revoke(self, member: str) -> None:
        """The club revoked the member: their children are hung up (each
        session ends, run_on_pty), their connections disconnected with the reason."""
        ended = [pid for pid, owner in self.children.items() if owner == member]
        for pid in ended:
            hang_up_group(pid)
        theirs = [conn for conn in self._connections if conn.get_extra_info("sekigahara_member") == member]
        for conn in theirs:
            conn.disconnect(asyncssh.DISC_BY_APPLICATION, REVOKED_MESSAGE.format(member=member))
        if ended or theirs:
            self.audit("revoked", f"{len(ended)} sessions ended, {len(theirs)} connections closed", member=member)

    def close(self) -> None:
        """Stop listening and drop every connection (their children are hung up)."""
        self.link.unfollow_revocations(self.revoke)
        if self.acceptor is not None:
            self.acceptor.close()
        for conn in list(self._connections):
            conn.close()

    async def wait_closed(self) -> None:
        if self.acceptor is not None:
            await self.acceptor.wait_closed()
        if self._sessions:
            await asyncio.gather(*self._sessions, return_exceptions=True)

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._sessions.add(task)
        try:
            status = await self._run_session(process)
        except (asyncssh.Error, OSError):
            status = 255
        finally:
            self._sessions.discard(task)
        try:
            process.exit(status)
        except (asyncssh.Error, OSError):
            pass

    async def _run_session(self, process: asyncssh.SSHServerProcess) -> int:
        member = process.get_extra_info("sekigahara_member")
        if member is None:  # cannot happen after authentication; refuse rather than guess
            return 1
        connection = process.channel.get_connection()
        if is_exec(process):  # `export GAME`, `records`: answered here, no process started (ssh_exec.py)
            return await self._limited(process, member, connection,
                                       lambda: run_exec(self, process, member, _address(connection)))
        if process.get_terminal_type() is None or process.subsystem is not None:
            process.stderr.write(NO_PTY_MESSAGE.encode())
            return 1
        width, height, _, _ = process.get_terminal_size()
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            process.stderr.write(TOO_SMALL_MESSAGE.format(width=width, height=height).encode())
            return 1
        return await self._limited(process, member, connection, lambda: self._run_child(process, member, (width, height)))

    async def _limited(self, process: asyncssh.SSHServerProcess, member: str,
                       connection: asyncssh.SSHServerConnection, run) -> int:
        """`run()` counted as one of the member's and the connection's sessions,
        or refused in one line (and one audit line) if over a limit."""
        refusal = await self.link.hold(member)  # the club's caps: a place held, or why not
        count = self.sessions_of_connection.get(connection, 0)
        if refusal is None and count >= self.limits.sessions_per_connection:
            self.link.release(member)
            refusal = CONNECTION_CAP_MESSAGE.format(count=count, cap=self.limits.sessions_per_connection)
        if refusal is not None:
            process.stderr.write(refusal.encode() + b"\r\n")
            self.audit_refusal(refusal, member=member, address=_address(connection))
            return 1
        self.sessions_of_connection[connection] = count + 1
        try:
            return await run()
        finally:
            self.link.release(member)
            self.sessions_of_connection[connection] -= 1
            if not self.sessions_of_connection[connection]:
                del self.sessions_of_connection[connection]

    async def _run_child(self, process: asyncssh.SSHServerProcess, member: str, size: tuple[int, int]) -> int:
        try:
            token = await self.link.open_session(member)
        except Exception as error:  # the club's refusal, said in one line
            process.stderr.write(NO_SESSION_MESSAGE.format(member=member, reason=error).encode())
            self.audit_refusal(f"no session: {error}", member=member, address=_address(process.channel.get_connection()))
            return 1
        try:
            return await run_on_pty(process, self.child_command, self.child_env(process, token), size,
                                    on_spawn=lambda pid: self.children.__setitem__(pid, member),
                                    on_exit=lambda pid: self.children.pop(pid, None))
        finally:
            await self.link.close_session(token)

    def child_env(self, process: asyncssh.SSHServerProcess, token: str) -> dict[str, str]:
        env = {name: os.environ[name] for name in INHERITED_ENV if name in os.environ}
        term = process.get_terminal_type() or ""
        env["TERM"] = term if _TERM_NAME.fullmatch(term) else "xterm-256color"
        client_env = process.env
        colorterm = client_env.get("COLORTERM")
        if isinstance(colorterm, str) and colorterm in ("truecolor", "24bit"):
            env["COLORTERM"] = colorterm
        if client_env.get("NO_COLOR"):
            env["NO_COLOR"] = "1"
        env["LANG"] = env["LC_ALL"] = "C.UTF-8"
        env.update(self.link.child_env())  # where the club is: its socket, or HOST:PORT and the CA over TLS
        env["SEKIGAHARA_SESSION"] = str(token)
        return env


def _address(conn: asyncssh.SSHServerConnection) -> str | None:
    peer = conn.get_extra_info("peername")
    return str(peer[0]) if peer else None


async def start_ssh(club: Any, data_dir: Path, port: int, host: str = "", guest: bool = False,
                    child_command: list[str] | None = None, limits: SSHLimits = SSHLimits(),
                    caps: SessionCaps | None = None, audit: AuditLog | None = None, link: Any = None) -> SSHFront:
    """Listen for SSH on host:port (port 0: any free port; see .port) for the club.

    club provides open_session(member) -> token, close_session(token),
    follow_revocations(revoke) and unfollow_revocations(revoke) (revoke(member)
    ends the member's sessions), and socket_path. caps: the club's session
    caps, shared with the web front. link: what the front asks the club
    (front_link.py); by default a LocalLink of club, data_dir, caps, audit and guest.
    Returns the SSHFront: close() then await wait_closed().
    """
    data_dir = Path(data_dir)
    if link is None:
        link = LocalLink(club, data_dir, caps, audit, guest)
    front = SSHFront(club, data_dir, link, child_command or default_child_command(), limits)
    host_key = front.host_key = load_or_make_host_key(data_dir)
    front.acceptor = await asyncssh.create_server(
        lambda: _FrontServer(front),
        host or None,
        port,
        server_host_keys=[host_key],
        process_factory=front._session,
        encoding=None,
        line_editor=False,
        allow_pty=True,
        agent_forwarding=False,
        x11_forwarding=False,
        keepalive_interval=KEEPALIVE_INTERVAL,
        keepalive_count_max=KEEPALIVE_COUNT_MAX,
        login_timeout=limits.login_grace,
    )
    link.follow_revocations(front.revoke)
    return front
