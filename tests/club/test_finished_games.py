"""A finished club game (issue 24): its step-by-step replay from the record
the club keeps in its store (r on the lobby's finished line, at 80x24), for
its players, and for others once over if it was public; `sekigahara export
--data DIR GAME FILE` writes a record that loads and replays to the stored
game's end. Real Unix socket, SQLite store, a real process for the CLI."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from club_helpers import bot_plays
from rules.infra.record import load_record, replay
from rules.sides import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.club.client import ClubRefused
from sekigahara_tui.hosting.store import record_of
from sekigahara_tui.screens.lobby import LobbyScreen
from sekigahara_tui.screens.replay import ReplayScreen
from tui.driving import until
from tui.screen_text import screen_text

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
SRC = Path(__file__).resolve().parents[2] / "src"


async def played_to_the_end(club, private: bool = False) -> str:
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open", invite="bob", private=private)
    joined = await bob.join(made.game)
    await asyncio.gather(bot_plays(alice, made, 21), bot_plays(bob, joined, 22))
    await alice.close()
    await bob.close()
    return made.game


async def test_a_finished_game_is_replayed_step_by_step_from_the_store(club, tmp_path):
    game = await played_to_the_end(club)
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.lobby is not None and lobby.lobby.finished, "the finished game listed")
        table = lobby.query_one("#games")
        table.move_cursor(row=table.get_row_index(f"done:{game}"))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay_screen = app.screen
        info, actions = club.store.load_game(game)
        assert replay_screen.model.count == len(record_of(info, actions).commands) + 1  # the start, then each command
        assert replay_screen.model.count > 10
        await pilot.press("end")
        await until(pilot, lambda: replay_screen.index == replay_screen.model.count - 1, "the last step")
        assert "Week" in screen_text(app) or "week" in screen_text(app)


async def test_the_record_is_its_players_and_everyones_once_over_if_public(club):
    public = await played_to_the_end(club)
    private = await played_to_the_end(club, private=True)
    carol = club.lobby_client("carol")
    assert '"commands"' in await carol.record(public)
    with pytest.raises(ClubRefused, match="no game"):
        await carol.record(private)
    bob = club.lobby_client("bob")
    assert '"commands"' in await bob.record(private)
    # a game in play has no record to give: its seed decides the hidden draws (R55)
    playing = await bob.new_game(TOKUGAWA, "open")
    with pytest.raises(ClubRefused, match="still in play"):
        await bob.record(playing.game)
    await carol.close()
    await bob.close()


async def test_export_writes_a_record_that_loads_and_replays_to_the_stored_end(club, tmp_path):
    game = await played_to_the_end(club)
    out = tmp_path / "record.json"
    environment = os.environ | {"PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-m", "sekigahara_tui", "export", "--data", str(club.data_dir), game, str(out)],
        capture_output=True, text=True, env=environment, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    record = load_record(out)
    assert replay(record) == club.server.games.find(game).host.state
    missing = subprocess.run(
        [sys.executable, "-m", "sekigahara_tui", "export", "--data", str(club.data_dir), "nosuchgame", str(tmp_path / "x.json")],
        capture_output=True, text=True, env=environment, timeout=120,
    )
    assert missing.returncode == 1 and len(missing.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists()
