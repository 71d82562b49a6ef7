"""Real processes for the TLS tests: `sekigahara serve --listen ... --tls-*`,
`sekigahara front`, and the CLI's one-shot commands, each with this
checkout's code."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

from front_helpers import WAIT

SRC = Path(__file__).resolve().parents[2] / "src"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}


class Running:
    """A long-running command and the lines it said so far."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []

    @classmethod
    async def start(cls, *arguments: str) -> Running:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "sekigahara_tui", *arguments, env=ENV,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        return cls(process)

    async def said(self, pattern: str) -> re.Match:
        """Wait for a line of stdout matching `pattern` (fail with what was said if it ends first)."""
        async with asyncio.timeout(WAIT):
            while True:
                for line in self.lines:
                    if found := re.search(pattern, line):
                        return found
                line = await self.process.stdout.readline()
                if not line:
                    error = await self.process.stderr.read()
                    raise AssertionError(f"ended without saying {pattern!r}: {self.lines} {error.decode()!r}")
                self.lines.append(line.decode().rstrip("\n"))

    async def ended(self) -> tuple[int, str]:
        """Its exit status and stderr, once it ends by itself."""
        async with asyncio.timeout(WAIT):
            error = await self.process.stderr.read()
            return await self.process.wait(), error.decode()

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(WAIT):
                    await self.process.wait()
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


async def command(*arguments: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """A one-shot command: (exit status, stdout, stderr)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sekigahara_tui", *arguments, env={**ENV, **(env or {})},
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    async with asyncio.timeout(WAIT * 2):
        out, err = await process.communicate()
    return process.returncode, out.decode(), err.decode()


def audit_lines(data_dir: Path, text: str) -> list[str]:
    path = data_dir / "audit.log"
    return [line for line in path.read_text().splitlines() if text in line] if path.exists() else []


async def audit_says(data_dir: Path, text: str) -> str:
    """Wait for a line of the club's audit log holding `text`."""
    async with asyncio.timeout(WAIT):
        while not (found := audit_lines(data_dir, text)):
            await asyncio.sleep(0.05)
    return found[-1]
