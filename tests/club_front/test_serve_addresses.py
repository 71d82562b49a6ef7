"""`sekigahara serve --ssh [HOST:]PORT --web [HOST:]PORT` (issue 23, item 6),
run as the real process: it says where each front listens and the SSH host
key's fingerprint as `ssh-keygen -lf` prints it; SSH listens on every
interface unless told, the web front on 127.0.0.1; a bad address is one line
and exit status 2."""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from sekigahara_tui.club.front_addresses import AddressError, parse_front_address
from sekigahara_tui.club.ssh_host_key import HOST_KEY_NAME

TIMEOUT = 60.0


@pytest.fixture
def data_dir():
    """A short DATA_DIR under /tmp (its socket's path must fit AF_UNIX)."""
    scratch = Path(tempfile.mkdtemp(prefix="ska", dir="/tmp"))
    yield scratch / "club"
    shutil.rmtree(scratch, ignore_errors=True)


def serve(data_dir, *arguments: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "sekigahara_tui", "serve", "--data", str(data_dir), *arguments],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def lines_until(process: subprocess.Popen, last: str) -> list[str]:
    """What the server printed, up to the line beginning with `last`."""
    lines: list[str] = []
    pending = b""
    deadline = time.monotonic() + TIMEOUT
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while not lines or not lines[-1].startswith(last):
            assert time.monotonic() < deadline, f"the server printed only {lines}"
            if not selector.select(timeout=1.0):
                continue
            chunk = os.read(process.stdout.fileno(), 4096)  # not readline: its buffer would hide lines from select
            assert chunk, f"the server ended: {lines} {process.stderr.read()}"
            pending += chunk
            *complete, pending = pending.split(b"\n")
            lines += [line.decode() for line in complete]
    return lines


def stop(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(TIMEOUT)


def port_of(line: str) -> int:
    return int(line.split(" (")[0].rsplit(":", 1)[1])


def connects(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(5)
        return probe.connect_ex((host, port)) == 0


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs OpenSSH's ssh-keygen")
def test_serve_says_where_each_front_listens_and_the_host_keys_fingerprint(data_dir):
    process = serve(data_dir, "--ssh", "127.0.0.1:0", "--web", "0")
    try:
        printed = lines_until(process, "web page:")
    finally:
        status = stop(process)
    assert status == 0
    first, ssh, key, web, page = printed
    assert first.startswith(f"club server for {data_dir}: 0 games, socket ")
    assert ssh.startswith("SSH: listening on 127.0.0.1:") and ssh.endswith(" (this machine only)")
    keygen = subprocess.run(["ssh-keygen", "-lf", str(data_dir / (HOST_KEY_NAME + ".pub"))], capture_output=True, text=True, check=True)
    assert key == "SSH host key: " + keygen.stdout.strip()
    assert key.startswith("SSH host key: 256 SHA256:") and key.endswith(" sekigahara club host key (ED25519)")
    assert web.startswith("web: listening on 127.0.0.1:")
    assert web.endswith(" (this machine only; offer it to others through a TLS reverse proxy)")
    assert page == f"web page: http://127.0.0.1:{port_of(web)}/"


def test_ssh_listens_on_every_interface_unless_told_and_the_web_front_on_loopback(data_dir):
    process = serve(data_dir, "--ssh", "0", "--web", "127.0.0.1:0")
    try:
        ssh, = [line for line in lines_until(process, "web page:") if line.startswith("SSH:")]
        assert ssh.endswith(" (every interface)") and "0.0.0.0:" in ssh
        ipv4 = next(part for part in ssh.split()[3:] if part.startswith("0.0.0.0:"))
        port = int(ipv4.rstrip(",").rsplit(":", 1)[1])
        assert connects("127.0.0.1", port)  # every interface: loopback too
    finally:
        assert stop(process) == 0


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--ssh", "two-thousand"), "--ssh wants [HOST:]PORT"),
        (("--ssh", ":2222"), "--ssh wants [HOST:]PORT"),
        (("--web", "127.0.0.1:65536"), "--web wants [HOST:]PORT"),
        (("--web", "203.0.113.9:0"), "cannot listen for the web on 203.0.113.9:0: "),  # not this machine's address
        (("--ssh", "no-such-host.invalid:0"), "cannot listen for SSH on no-such-host.invalid:0: "),
    ],
)
def test_a_bad_address_is_one_line_and_exit_status_2(data_dir, arguments, said):
    process = serve(data_dir, *arguments)
    out, err = (data.decode() for data in process.communicate(timeout=TIMEOUT))
    assert process.returncode == 2
    assert "listening" not in out
    (line,) = err.splitlines()
    assert line.startswith("sekigahara serve: " + said)
    assert not (data_dir / "club.json").exists()  # nothing left serving
    if said.startswith("cannot listen"):
        assert os.path.exists(data_dir / "club.sqlite")  # it had started, and stopped cleanly


def test_front_addresses_are_read_as_host_and_port():
    assert parse_front_address("--ssh", "2222", "") == ("", 2222)
    assert parse_front_address("--web", "8080", "127.0.0.1") == ("127.0.0.1", 8080)
    assert parse_front_address("--web", "0.0.0.0:8080", "127.0.0.1") == ("0.0.0.0", 8080)
    assert parse_front_address("--web", "[::1]:8080", "127.0.0.1") == ("::1", 8080)
    assert parse_front_address("--web", "*:8080", "127.0.0.1") == ("", 8080)
    for bad in ("", "x", "host:", "host:port", ":1", "[]:1", "1:-1", "a b:1"):
        with pytest.raises(AddressError):
            parse_front_address("--ssh", bad, "")
