"""The side not to act in a networked game, at 80x24 (issue 29): its connection
line is shown whole ("Ishida is not connected", never "Ishida is not"), no
empty "0 choices" box takes its rows (the tabs get them), and the choices come
back, focused, when it is its turn again."""

from __future__ import annotations

from rules.surface import DecisionKind, Side
from sekigahara_tui.screens.connection import connection_line
from tui.screen_text import screen_text
from tui.test_networked import OPENING_BID, connection_text, processes, runtime_dir, sekigahara, start_host, until  # noqa: F401 (fixtures)
from tui.screen_text import region_text


def squeezed(text: str) -> str:
    """Without spaces: a path longer than the panel is broken across rows."""
    return "".join(text.split())


async def test_the_waiting_side_sees_its_whole_status_and_no_empty_choices(make_app, tmp_path, runtime_dir, processes):
    game_dir = tmp_path / "game"
    processes.append(start_host(game_dir, "--position", str(OPENING_BID)))
    app = make_app(join=(game_dir, Side.TOKUGAWA))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.view is not None, "the first state")
        await until(pilot, lambda: "Ishida is not connected" in connection_text(screen), "the other seat's presence")
        await pilot.pause()
        prompt_bottom = screen.query_one("#prompt").region.bottom
        # Its turn, the other player away: the join hint whole, the command line still on screen.
        status = connection_line(screen.current)
        assert f"sekigahara join {game_dir} --seat ishida" in status
        assert squeezed(region_text(app, "#connection")) == squeezed(status)
        assert screen.query_one("#command-line").region.bottom <= prompt_bottom

        await pilot.press("enter")  # Tokugawa bids
        await until(pilot, lambda: screen.current.waiting_for_answer is None and not screen.view.legal, "the bid")
        await pilot.pause()
        text = screen_text(app)
        assert "0 choices" not in text
        assert not screen.query_one("#choices").display
        assert region_text(app, "#decision").startswith("Waiting for Ishida to bid a card for first player (6.3)")
        assert squeezed(region_text(app, "#connection")) == squeezed(connection_line(screen.current))
        assert screen.query_one("#tabs").region.height > 9  # the room of the choices

        processes.append(sekigahara("bot", str(game_dir), "--seat", "ishida", "--seed", "3"))
        await until(pilot, lambda: "Ishida is connected" in connection_text(screen), "Ishida's presence")
        await until(pilot, lambda: screen.view.decision.kind is not DecisionKind.BID, "the bids revealed")
        await until(pilot, lambda: bool(screen.view.legal), "Tokugawa's turn")
        await pilot.pause()
        assert screen.query_one("#choices").display
        assert screen.focused is screen.query_one("#choices")  # Enter gives the highlighted choice, as before
        assert squeezed(region_text(app, "#connection")) == squeezed(connection_line(screen.current))
