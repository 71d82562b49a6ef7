"""The replay (issue 13): a game step by step, from the game-over screen and from
`sekigahara replay --step RECORD`."""

from __future__ import annotations

import attrs

from rules.infra.record import save_record
from rules.sides import Side
from sekigahara_tui.cli import main
from sekigahara_tui.replay_model import ReplayModel
from sekigahara_tui.screens.info import GameOverScreen
from sekigahara_tui.screens.replay import ReplayApp, ReplayScreen
from sekigahara_tui.widgets.map_panel import MapPanel
from tui.positions import finished_game
from tui.screen_text import screen_text


def shown(app) -> str:
    return " ".join(screen_text(app).split())  # wrapped lines joined, for phrases that wrap


def events_text(app) -> str:
    """The step's events as the panel beside the map shows them (wrapped there)."""
    return str(app.screen.query_one("#replay-events").content)


async def test_the_replay_steps_forward_and_back_and_jumps_to_a_week(tmp_path):
    model = ReplayModel.from_record(finished_game())
    app = ReplayApp(model, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.index == 0
        assert "the game is set up" in shown(app)
        await pilot.press("right", "right", "n")
        assert screen.index == 3
        await pilot.press("left", "p")
        assert screen.index == 1
        await pilot.press("left", "left")
        assert screen.index == 0 and "This is the first step." in shown(app)
        await pilot.press("w", "2")
        assert screen.index == model.week_start(2) > 0
        assert model.frame(screen.index).week == 2 and model.frame(screen.index - 1).week == 1
        assert "Week 2 begins here." in shown(app)
        await pilot.press("w", "9")
        assert screen.index == model.week_start(2) and "never reached week 9" in shown(app)
        await pilot.press("end")
        assert screen.index == model.count - 1 and "Game over" in events_text(app)
        await pilot.press("home")
        assert screen.index == 0
        await pilot.press("escape")
    assert app.return_code == 0


async def test_a_finished_games_replay_shows_what_both_sides_did(tmp_path):
    """Both bids are secret while they are made (6.3); once the game is over the
    replay shows each side's own, and either side's board."""
    model = ReplayModel.from_record(finished_game())
    assert model.over
    app = ReplayApp(model, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await pilot.press("right")
        assert "ishida: bid ukita-plain-1" in shown(app)
        text = events_text(app)
        assert "Ishida alone saw:\n- You set Ukita plain aside as the bid, in secret" in text
        await pilot.press("right")
        assert "tokugawa: bid fukushima-swords-1" in shown(app)
        text = events_text(app)
        assert "Tokugawa alone saw:\n- You set Fukushima swords aside as the bid, in secret" in text
        assert "Both sides saw:\n- Bids revealed: Ishida 1" in text and "Ishida alone saw: nothing" in text
        board = screen.query_one(MapPanel)
        assert board._view.spectator
        await pilot.press("v")
        assert screen.chair is Side.ISHIDA and not board._view.spectator and board._view.side is Side.ISHIDA
        await pilot.press("v")
        assert screen.chair is Side.TOKUGAWA and board._view.side is Side.TOKUGAWA
        assert "board: Tokugawa's view" in shown(app)
        await pilot.press("v")
        assert screen.chair is None and board._view.spectator


def test_an_unfinished_games_replay_shows_only_what_a_spectator_may_see():
    record = finished_game()
    record = attrs.evolve(record, commands=record.commands[:-1])  # one step before Ishida Mitsunari is overrun
    model = ReplayModel.from_record(record)
    assert not model.over and model.chairs == (None,)
    frame = model.frame(1)  # Ishida's secret bid
    assert set(frame.lines) == {None} and frame.lines[None] == ()
    assert "bid" not in frame.command and "Ishida decides" in frame.command
    assert model.view(1, Side.ISHIDA).spectator  # no side's view while the game goes on
    assert not any("You" in line for i in range(model.count) for line in model.frame(i).lines[None])


async def test_the_game_over_screen_of_a_hot_seat_game_opens_the_replay(make_app, tmp_path):
    path = tmp_path / "finished.json"
    save_record(finished_game(), path)
    app = make_app(load=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "Replay" in screen_text(app)  # in the Footer
        await pilot.press("r")
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("end")
        assert app.screen.index == app.screen.model.count - 1
        await pilot.press("escape")
        assert isinstance(app.screen, GameOverScreen)


def test_replay_step_refuses_a_bad_record_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["replay", "--step", str(bad)]) == 2
    assert main(["replay", "--step", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("sekigahara replay: ") for line in err)
    assert "bad.json" in err[0] and "missing.json" in err[1]
