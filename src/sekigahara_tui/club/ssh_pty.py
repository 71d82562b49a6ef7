"""An SSH session's pseudo-terminal: the child process started on it as its
controlling terminal, and the bytes moved between it and the SSH channel
(the SSH front end's plumbing, club/ssh_front.py).

The kernel sends the child SIGWINCH when the channel's window changes size
(set_window_size on the master side), so the game redraws at the new size. A
client that goes away hangs the child up: SIGHUP to its process group, then
SIGKILL after HANGUP_GRACE seconds (`hang_up_group` does the first for the
front end's revocation of a member).
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import os
import signal
import struct
import sys
import termios

import asyncssh

HANGUP_GRACE = 3.0  # seconds between SIGHUP and SIGKILL for a disconnected session's child

# Run with `python -I -S -c CTTY_WRAPPER COMMAND...` in a child made a session
# leader by start_new_session=True, its stdin the PTY's slave: TIOCSCTTY makes
# that PTY the session's controlling terminal (an inherited descriptor does not
# do it by itself, and Python 3.11 has no os.login_tty), then the command
# replaces the wrapper. No preexec_fn, so nothing runs between fork and exec.
CTTY_WRAPPER = (
    "import fcntl,os,sys,termios\n"
    "fcntl.ioctl(0,termios.TIOCSCTTY,0)\n"
    "os.execvp(sys.argv[1],sys.argv[1:])\n"
)


def set_window_size(fd: int, width: int, height: int, pixwidth: int = 0, pixheight: int = 0) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, pixwidth, pixheight))


async def run_on_pty(process: asyncssh.SSHServerProcess, command: list[str], env: dict[str, str],
                     size: tuple[int, int], on_spawn=None, on_exit=None) -> int:
    """Run command on a fresh PTY (its controlling terminal) wired to the SSH process.

    Returns the child's exit status (128+N for a signal N, as shells say it).
    """
    loop = asyncio.get_running_loop()
    master, slave = os.openpty()
    try:
        set_window_size(slave, *size)
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-S", "-c", CTTY_WRAPPER, *command,
            stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True,
        )
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    if on_spawn is not None:
        on_spawn(child.pid)
    os.set_blocking(master, False)
    output = asyncio.create_task(_pty_to_channel(loop, master, process))
    typing = asyncio.create_task(_channel_to_pty(loop, process, master))
    exited = asyncio.create_task(child.wait())
    try:
        await asyncio.wait({exited, typing}, return_when=asyncio.FIRST_COMPLETED)
        if not exited.done():  # the client went away: hang the child up
            await _hang_up(child, exited)
        # Whatever the child wrote before it ended reaches the client.
        try:
            await asyncio.wait_for(asyncio.shield(output), 2.0)
        except asyncio.TimeoutError:
            pass
        return _exit_status(exited.result())
    finally:
        for task in (output, typing):
            task.cancel()
        await asyncio.gather(output, typing, return_exceptions=True)
        if child.returncode is None:  # cancelled (the server is closing)
            _signal_group(child.pid, signal.SIGHUP)
            try:
                await asyncio.wait_for(child.wait(), HANGUP_GRACE)
            except asyncio.TimeoutError:
                _signal_group(child.pid, signal.SIGKILL)
                await child.wait()
        exited.cancel()
        os.close(master)
        if on_exit is not None:
            on_exit(child.pid)


def _exit_status(returncode: int) -> int:
    return returncode if returncode >= 0 else 128 - returncode


def hang_up_group(pid: int) -> None:
    """SIGHUP to a session's child (its process group): the end of its session,
    as a dropped connection ends it. run_on_pty follows with SIGKILL if it stays."""
    _signal_group(pid, signal.SIGHUP)


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)  # the child leads its own session and process group
    except ProcessLookupError:
        pass


async def _hang_up(child: asyncio.subprocess.Process, exited: asyncio.Task) -> None:
    _signal_group(child.pid, signal.SIGHUP)
    try:
        await asyncio.wait_for(asyncio.shield(exited), HANGUP_GRACE)
    except asyncio.TimeoutError:
        _signal_group(child.pid, signal.SIGKILL)
        await exited


async def _readable(loop: asyncio.AbstractEventLoop, fd: int) -> None:
    ready = loop.create_future()
    loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        loop.remove_reader(fd)


async def _writable(loop: asyncio.AbstractEventLoop, fd: int) -> None:
    ready = loop.create_future()
    loop.add_writer(fd, lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        loop.remove_writer(fd)


async def _pty_to_channel(loop: asyncio.AbstractEventLoop, master: int, process: asyncssh.SSHServerProcess) -> None:
    """The child's screen to the client, until the child's side of the PTY closes."""
    while True:
        try:
            data = os.read(master, 65536)
        except BlockingIOError:
            await _readable(loop, master)
            continue
        except OSError as error:
            if error.errno == errno.EIO:  # every slave descriptor is closed: the child is gone
                return
            raise
        if not data:
            return
        process.stdout.write(data)
        await process.stdout.drain()


async def _channel_to_pty(loop: asyncio.AbstractEventLoop, process: asyncssh.SSHServerProcess, master: int) -> None:
    """Keys and window sizes from the client to the PTY, until the client leaves."""
    while True:
        try:
            data = await process.stdin.read(65536)
        except asyncssh.TerminalSizeChanged as change:
            # The kernel sends SIGWINCH to the PTY's foreground process group.
            set_window_size(master, change.width, change.height, change.pixwidth, change.pixheight)
            continue
        except (asyncssh.BreakReceived, asyncssh.SignalReceived):
            continue
        except (asyncssh.Error, OSError):
            return
        if not data:
            return
        while data:
            try:
                written = os.write(master, data)
            except BlockingIOError:
                await _writable(loop, master)
                continue
            except OSError:
                return
            data = data[written:]
