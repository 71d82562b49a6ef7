"""Text from input or an error is shown as plain text, never as markup; a failed
autosave or an unexpected error does not crash the terminal (issue 10)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from rules.infra.record import GameRecord, load_record, new_record, save_record
from sekigahara_tui.screens.dialogs import LoadDialog
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.menu import MenuScreen
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import choose, take_seat, type_command
from tui.positions import opening_bid
from tui.screen_text import screen_text
from helpers import position_text

POSITION = position_text("week2_reinforcement")


def messages(app) -> list[str]:
    return [notification.message for notification in app._notifications]


@pytest.mark.parametrize("line", ["bid [/]x", "[@click=app.quit]x", "bid [bold]x[/bold]"])
async def test_a_typed_line_with_markup_is_shown_literally(make_app, line):
    app = make_app(opening_bid())
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await type_command(pilot, line)
        await pilot.pause()
        message = screen.query_one("#message")
        shown = str(message.render())
        assert shown.startswith("Illegal: ") and line.split()[-1] in shown
        assert not message.visual.spans  # no style and no @click action
        assert isinstance(app.screen, GameScreen) and app.return_code is None
        assert line.split()[-1] in screen_text(app)
        assert screen.table.host.record.commands == ()


async def test_a_save_with_markup_in_its_command_and_path_is_refused_plainly(make_app, tmp_path):
    folder = tmp_path / "save["  # with the file name below: "save[/]x.json"
    folder.mkdir()
    bad = folder / "]x.json"
    record = new_record(1)
    save_record(GameRecord(record.seed, record.data_version, ("ishida: bid [/]x[@click=app.quit]y",)), bad)
    app = make_app(load=bad)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and app.return_code is None
        (message,) = messages(app)
        assert "save[/]x.json" in message and "'ishida: bid [/]x[@click=app.quit]y'" in message
        await pilot.pause()
        assert "save[/]x.json" in screen_text(app)


async def test_the_load_dialog_lists_a_save_named_with_markup_literally(make_app, tmp_path):
    saves = tmp_path / "data" / "saves"
    saves.mkdir(parents=True)
    save_record(new_record(3), saves / "[bold]loud.json")
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("l")
        assert isinstance(app.screen, LoadDialog)
        assert "[bold]loud.json" in screen_text(app)
        await pilot.press("enter")
        screen = await take_seat(pilot)
        assert screen.table.host.record.seed == 3


async def test_a_position_file_opens_as_a_new_hot_seat_game(make_app, tmp_path):
    path = tmp_path / "week2.toml"
    path.write_text(POSITION)
    app = make_app(position=path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await take_seat(pilot)
        assert screen.table.host.record.position == POSITION and screen.table.host.record.seed == 42
        await choose(pilot, screen.query_one(PromptPanel).notation_of(0))
        screen.table.host.flush_autosave()  # written by a thread: on disk once flushed
        assert load_record(app.autosave_path).position == POSITION


async def test_a_bad_position_file_is_refused_plainly(make_app, tmp_path):
    path = tmp_path / "[@click=app.quit].toml"
    path.write_text("[game]\nweek = 9\n")
    app = make_app(position=path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        (message,) = messages(app)
        assert message.startswith("Cannot start at ") and "[@click=app.quit].toml" in message


async def test_a_failing_autosave_is_shown_once_and_the_game_goes_on(make_app, tmp_path):
    (tmp_path / "data").write_text("a file where the data directory should be")
    app = make_app(opening_bid())
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await take_seat(pilot)
        await choose(pilot, "bid mori-plain-9")
        screen = await take_seat(pilot)
        await choose(pilot, "bid date-swords-3")
        assert len(screen.table.host.record.commands) == 2
        assert any(isinstance(s, GameScreen) for s in app.screen_stack) and app.return_code is None
        failures = [m for m in messages(app) if "Autosave" in m]
        assert len(failures) == 1 and "failed" in failures[0] and "The game goes on" in failures[0]


@pytest.fixture
def read_only(monkeypatch):
    """Make a directory read-only (0500). Root writes through that mode, so for
    root the same refusal is injected where the kernel would give it: os.open,
    os.mkdir and os.replace/rename into the directory fail with EACCES."""

    def make(directory: Path) -> None:
        directory.mkdir(mode=0o500)
        if os.geteuid() != 0:
            return
        inside = os.path.realpath(directory)

        def refused(path) -> bool:
            return os.path.dirname(os.path.realpath(os.fsdecode(path))) == inside

        def refuse(path):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))

        real_open, real_mkdir, real_replace, real_rename = os.open, os.mkdir, os.replace, os.rename
        writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

        def open_(path, flags, *args, **kwargs):
            if flags & writes and refused(path):
                refuse(path)
            return real_open(path, flags, *args, **kwargs)

        def mkdir(path, *args, **kwargs):
            if refused(path):
                refuse(path)
            return real_mkdir(path, *args, **kwargs)

        def moving(real):
            def move(source, destination, *args, **kwargs):
                if refused(destination):
                    refuse(destination)
                return real(source, destination, *args, **kwargs)
            return move

        monkeypatch.setattr(os, "open", open_)
        monkeypatch.setattr(os, "mkdir", mkdir)
        monkeypatch.setattr(os, "replace", moving(real_replace))
        monkeypatch.setattr(os, "rename", moving(real_rename))

    return make


async def test_a_read_only_data_directory_does_not_stop_the_game(make_app, tmp_path, read_only):
    data = tmp_path / "data"
    read_only(data)
    app = make_app(opening_bid())
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await take_seat(pilot)
        await choose(pilot, "bid mori-plain-9")
        assert len(screen.table.host.record.commands) == 1  # the bid stands
        failures = [m for m in messages(app) if "Autosave" in m]
        assert len(failures) == 1 and "failed: Permission denied" in failures[0], failures
        assert any(isinstance(s, GameScreen) for s in app.screen_stack) and app.return_code is None
    assert list(data.iterdir()) == []


async def test_an_unexpected_error_goes_to_the_crash_log_not_the_terminal(make_app, tmp_path):
    app = make_app()

    def boom() -> None:
        raise RuntimeError("\x1b[2J boom")

    with pytest.raises(RuntimeError):
        async with app.run_test(size=(80, 24)) as pilot:
            app.call_later(boom)
            await pilot.pause()
    assert app.return_code == 1
    log = tmp_path / "data" / "crash.log"
    assert app.crash_log.path == log
    assert "Traceback" in log.read_text() and "boom" in log.read_text()


async def test_alike_choices_are_one_line_with_their_count(make_app):
    """Issue 27, fault 4: two identical cards were listed twice, told apart by
    raw notation ("[bid ukita-plain-4]"). In the opening bid Ishida holds
    ukita-plain-1 and ukita-plain-4, both "Ukita plain (1)": one line, "×2",
    shown whole (a label is Content, never read as markup)."""
    from rules.sides import Side

    app = make_app(opening_bid())
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await take_seat(pilot)
        assert screen.current.side is Side.ISHIDA
        choices = screen.query_one(PromptPanel).choices
        shown = [choices.label_at(i) for i in range(choices.option_count)]
        assert "Bid: Ukita plain (1) ×2" in shown, shown
        assert len(set(shown)) == len(shown) and not any("[" in label for label in shown)
        assert any("Bid: Ukita plain (1) ×2" in line for line in screen_text(app).splitlines())