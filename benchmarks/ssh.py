"""The app over SSH against the app in a local terminal, at 80x24.

    python benchmarks/ssh.py [--runs 5] [--presses 40] [--sessions 4]

Both ways run the same program, `python -m sekigahara_tui` (the main menu),
on a real pseudo-terminal made its controlling terminal: locally the PTY is
ours; over SSH it is the one the SSH front end (club/ssh_front.py, in this
process, TCP on 127.0.0.1, asyncssh's client) makes for the session.

- first screen: from the start (locally: spawning the process; over SSH:
  opening the TCP connection, so the handshake, authentication, session and
  spawning are in it) to the menu fully drawn (its last line, "Quit", seen).
- key to screen update: Down then Up in the menu, one at a time; from
  writing the key to the last byte of the redraw it causes (the output goes
  quiet for 30 ms afterwards; the quiet wait is not counted). Median and p90.
- memory: the proportional set size (Pss in /proc/PID/smaps_rollup) of each
  session's client process, with --sessions sessions open at once, once the
  menu is drawn; PSS shares pages common to the sessions between them.
The machine is noisy; quote the figures as such.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sekigahara_tui.club.ssh_front import start_ssh  # noqa: E402
from sekigahara_tui.club.ssh_pty import CTTY_WRAPPER, set_window_size  # noqa: E402

DRAWN = b"Quit"
QUIET = 0.030


class Club:
    socket_path = "/nonexistent"

    def open_session(self, member: str) -> str:
        return "bench"

    def close_session(self, token: str) -> None:
        pass

    def follow_revocations(self, revoke) -> None:
        pass  # nobody is removed during the benchmark

    def unfollow_revocations(self, revoke) -> None:
        pass


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


class Output:
    """Bytes from a terminal, stamped with when they came."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.last = 0.0
        self.changed = asyncio.Event()

    def add(self, data: bytes) -> None:
        self.data += data
        self.last = time.perf_counter()
        self.changed.set()

    async def until(self, check, timeout: float = 30.0) -> None:
        deadline = time.perf_counter() + timeout
        while not check():
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.perf_counter()))

    async def settle(self) -> float:
        """Wait for QUIET with no output; the time of the last byte."""
        while True:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), QUIET)
            except asyncio.TimeoutError:
                return self.last


async def key_times(write, output: Output, presses: int) -> list[float]:
    times = []
    await output.settle()
    for i in range(presses):
        output.data.clear()
        started = time.perf_counter()
        write(b"\x1b[B" if i % 2 == 0 else b"\x1b[A")
        await output.until(lambda: bool(output.data))
        times.append((await output.settle() - started) * 1000)
    return times


async def local_run(command: list[str], presses: int) -> tuple[float, list[float]]:
    loop = asyncio.get_running_loop()
    output = Output()
    started = time.perf_counter()
    master, slave = os.openpty()
    set_window_size(slave, 80, 24)
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    child = await asyncio.create_subprocess_exec(sys.executable, "-I", "-S", "-c", CTTY_WRAPPER, *command,
                                                 stdin=slave, stdout=slave, stderr=slave, start_new_session=True, env=env)
    os.close(slave)
    os.set_blocking(master, False)

    def readable() -> None:
        try:
            output.add(os.read(master, 65536))
        except (BlockingIOError, OSError):
            pass

    loop.add_reader(master, readable)
    try:
        await output.until(lambda: DRAWN in output.data)
        first = time.perf_counter() - started
        times = await key_times(lambda key: os.write(master, key), output, presses)
    finally:
        loop.remove_reader(master)
        child.kill()
        await child.wait()
        os.close(master)
    return first, times


async def ssh_session(port: int, key) -> tuple[float, Output, asyncssh.SSHClientConnection, asyncssh.SSHClientProcess]:
    output = Output()
    started = time.perf_counter()
    conn = await asyncssh.connect("127.0.0.1", port, username="bench", client_keys=[key], known_hosts=None, agent_path=None)
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)

    async def pump() -> None:
        while data := await process.stdout.read(65536):
            output.add(data)

    asyncio.get_running_loop().create_task(pump())
    await output.until(lambda: DRAWN in output.data)
    return time.perf_counter() - started, output, conn, process


def pss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    raise ValueError("no Pss line")


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        data_dir = Path(scratch) / "club"
        data_dir.mkdir()
        command = [sys.executable, "-m", "sekigahara_tui", "--save-dir", str(Path(scratch) / "saves")]
        key = asyncssh.generate_private_key("ssh-ed25519")
        (data_dir / "authorized_keys").write_text(" ".join(key.export_public_key("openssh").decode().split()[:2]) + " bench\n")
        front = await start_ssh(Club(), data_dir, 0, "127.0.0.1", child_command=command)
        try:
            local_first, local_keys, ssh_first, ssh_keys = [], [], [], []
            for _ in range(args.runs):
                first, times = await local_run(command, args.presses)
                local_first.append(first)
                local_keys += times
                first, output, conn, process = await ssh_session(front.port, key)
                ssh_first.append(first)
                ssh_keys += await key_times(process.stdin.write, output, args.presses)
                conn.close()
                await conn.wait_closed()
            while front.children:
                await asyncio.sleep(0.05)
            sessions = [await ssh_session(front.port, key) for _ in range(args.sessions)]
            await asyncio.sleep(1.0)  # let start-up garbage settle
            pss = [pss_kib(pid) for pid in front.children]
            for _, _, conn, _ in sessions:
                conn.close()
        finally:
            front.close()
            await front.wait_closed()
    print(f"first screen at 80x24, {args.runs} runs: local PTY median {statistics.median(local_first) * 1000:.0f} ms, "
          f"SSH median {statistics.median(ssh_first) * 1000:.0f} ms")
    for name, values in (("local PTY", local_keys), ("SSH", ssh_keys)):
        print(f"key to screen update, {name}: median {statistics.median(values):.1f} ms, p90 {p90(values):.1f} ms "
              f"over {len(values)} presses")
    print(f"memory per SSH session ({len(pss)} open): PSS median {statistics.median(pss) / 1024:.1f} MiB "
          f"(min {min(pss) / 1024:.1f}, max {max(pss) / 1024:.1f}), total {sum(pss) / 1024:.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=4)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
