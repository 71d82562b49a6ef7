"""The app as a client (issue 11): a seat in a game kept by a real
`sekigahara host` process, against a real `sekigahara bot` process.

No hand-over screens: the seat not to act waits with the board in view, the
other player's moves arrive in the log as they happen, the other player's
presence and the connection are shown, and the app reconnects by itself after
the host is killed and restarted."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from rules.surface import DecisionKind, Side
from textual.widgets import TabbedContent

from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import HandOverScreen
from sekigahara_tui.widgets.log import LogPanel
from tui.positions import POSITION_FILES
from tui.screen_text import screen_text

TIMEOUT = 20.0
OPENING_BID = POSITION_FILES / "opening_bid.toml"  # the hosts' games begin at week 1's bid (6.3)


@pytest.fixture
def runtime_dir(monkeypatch):
    """A private, short XDG_RUNTIME_DIR (socket paths are short; tmp_path is long)."""
    directory = Path(tempfile.mkdtemp(prefix="sk", dir="/tmp"))
    os.chmod(directory, 0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(directory))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def sekigahara(*arguments: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "sekigahara_tui", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def start_host(game_dir: Path, *arguments: str) -> subprocess.Popen:
    address = game_dir / "address.json"
    address.unlink(missing_ok=True)
    host = sekigahara("host", str(game_dir), *arguments)
    deadline = time.monotonic() + TIMEOUT
    while not address.exists():
        assert host.poll() is None, host.stderr.read()
        assert time.monotonic() < deadline, "the host did not start"
        time.sleep(0.05)
    return host


@pytest.fixture
def processes():
    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


async def until(pilot, predicate, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {screen_text(pilot.app)[-600:]}"
        await pilot.pause(0.02)


def connection_text(screen: GameScreen) -> str:
    return str(screen.query_one("#connection").render())


async def test_a_seat_waits_for_the_other_player_then_plays_against_a_bot(make_app, tmp_path, runtime_dir, processes):
    game_dir = tmp_path / "game"
    processes.append(start_host(game_dir, "--position", str(OPENING_BID)))
    app = make_app(join=(game_dir, Side.TOKUGAWA))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await until(pilot, lambda: screen.view is not None, "the first state")
        seat = screen.current
        assert seat.view.decision.kind is DecisionKind.BID  # both bid at once (6.3)
        await until(pilot, lambda: "Ishida is not connected" in connection_text(screen), "the other seat's presence")
        assert f"sekigahara join {game_dir} --seat ishida" in connection_text(screen)

        await pilot.press("enter")  # Tokugawa bids the first card offered
        await until(pilot, lambda: seat.waiting_for_answer is None and not seat.view.legal, "the bid")
        assert "Done: Bid: " in str(screen.query_one("#message").render())
        assert not any(isinstance(s, HandOverScreen) for s in app.screen_stack)  # no hand-over in a networked game
        decision = str(screen.query_one("#decision").render())
        assert decision.startswith("Waiting for Ishida to bid"), decision

        processes.append(sekigahara("bot", str(game_dir), "--seat", "ishida", "--seed", "3"))
        await until(pilot, lambda: "Ishida is connected" in connection_text(screen), "Ishida's presence")
        await until(pilot, lambda: seat.view.week == 1 and seat.view.decision.kind is not DecisionKind.BID, "the bids revealed")
        screen.query_one(TabbedContent).active = "log-tab"  # a hidden log defers its lines
        log = screen.query_one(LogPanel)
        await until(pilot, lambda: any("bids" in line.text.lower() for line in log.lines), "the bids in the log")

        # Play on by keys: Enter gives the first choice whenever the decision is ours.
        lines_before = len(log.lines)
        given = 0
        while given < 6 and not seat.is_over:
            await until(pilot, lambda: seat.is_over or (seat.view.legal and seat.waiting_for_answer is None), "our turn")
            if seat.is_over:
                break
            await pilot.press("enter")
            await until(pilot, lambda: seat.waiting_for_answer is None, "the answer")
            given += 1
        assert given == 6
        assert len(log.lines) > lines_before  # both sides' moves reached the log


async def test_the_app_reconnects_after_the_host_is_killed_and_restarted(make_app, tmp_path, runtime_dir, processes):
    game_dir = tmp_path / "game"
    host = start_host(game_dir, "--position", str(OPENING_BID))
    processes.append(host)
    app = make_app(join=(game_dir, Side.ISHIDA))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.view is not None, "the first state")
        seat = screen.current
        await pilot.press("enter")  # Ishida bids
        await until(pilot, lambda: seat.view is not None and not seat.view.legal, "the bid")
        version = seat.client.version

        host.send_signal(signal.SIGKILL)
        host.wait(timeout=10)
        await until(pilot, lambda: "reconnecting" in connection_text(screen), "the reconnect notice")
        assert "reconnecting" in screen_text(app)

        processes.append(start_host(game_dir))  # the same game, resumed from its store
        await until(pilot, lambda: connection_text(screen).startswith("connected"), "the reconnection")
        assert seat.client.version == version  # nothing lost, nothing doubled
        assert seat.view.decision.kind is DecisionKind.BID and not seat.view.legal  # still waiting for Tokugawa
        assert "Waiting for Tokugawa to bid" in str(screen.query_one("#decision").render())


@pytest.fixture
def waiting_game(runtime_dir, processes):
    """A fixed game directory (its path shows in the join hint) with a host running."""
    game_dir = Path("/tmp/sekigahara-snapshot-game")
    shutil.rmtree(game_dir, ignore_errors=True)
    processes.append(start_host(game_dir, "--position", str(OPENING_BID)))
    yield game_dir
    shutil.rmtree(game_dir, ignore_errors=True)


def test_the_waiting_screen_at_80x24(snap_compare, waiting_game, tmp_path):
    from sekigahara_tui.app import SekigaharaApp

    async def bid_then_wait(pilot) -> None:
        screen = pilot.app.screen
        await until(pilot, lambda: screen.view is not None, "the first state")
        await pilot.press("enter")
        await until(pilot, lambda: screen.current.waiting_for_answer is None and not screen.view.legal, "the bid")
        await until(pilot, lambda: "Ishida is not connected" in connection_text(screen), "the other seat's presence")
        await pilot.pause()

    app = SekigaharaApp(save_dir=tmp_path / "data", join=(waiting_game, Side.TOKUGAWA))
    assert snap_compare(app, terminal_size=(80, 24), run_before=bid_then_wait)


async def test_two_terminals_from_the_menu_hosts_a_game_and_shows_the_other_players_command(make_app, runtime_dir, processes):
    from sekigahara_tui.net.locations import read_address_file

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")  # Two terminals
        await pilot.press("down", "enter")  # I play Tokugawa
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.view is not None, "the game")
        screen = app.screen
        game_dir = screen.table.game_dir
        try:
            command = f"sekigahara join {game_dir} --seat ishida"
            assert app.clipboard == command  # copied whole (OSC 52 in a real terminal)
            shown = [n.message for n in app._notifications]
            assert any("`sekigahara join` in another terminal" in message for message in shown), shown
            # The host says the other seat is empty just after the first state.
            await until(pilot, lambda: f"Ishida is not connected; they join with: {command}" in connection_text(screen), "the join hint")
            assert screen.current.side is Side.TOKUGAWA
            # The other player types the command shown (here: the bot plays that seat).
            words = command.split()
            processes.append(sekigahara("bot", *words[2:], "--seed", "1"))
            await until(pilot, lambda: "Ishida is connected" in connection_text(screen), "the other player")
        finally:
            host_pid = read_address_file(game_dir).pid
            os.kill(host_pid, signal.SIGKILL)


async def test_two_terminals_quit_before_the_other_joined_stops_the_host_and_says_so(make_app, runtime_dir):
    """Issue 27, item 14: the host the menu started (`--stop-if-left-alone`)
    does not wait two hours for a player who never came."""
    from sekigahara_tui.net.locations import read_address_file

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")  # Two terminals
        await pilot.press("down", "enter")  # I play Tokugawa
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.view is not None, "the game")
        host_pid = read_address_file(app.screen.table.game_dir).pid
    # The app has closed, and its seat's connection with it.
    assert app.farewell() == "The other player never joined: the game's host stops."
    deadline = time.monotonic() + 30
    while os.waitpid(host_pid, os.WNOHANG) == (0, 0):  # the host is this process's child
        assert time.monotonic() < deadline, "the host did not stop"
        await asyncio.sleep(0.05)
