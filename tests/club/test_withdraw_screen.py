"""The lobby screen withdraws an open game of mine (x, then a yes) at 80x24,
against a real club: the row goes, the store forgets the game. On anyone
else's game x is not shown and does nothing."""

from __future__ import annotations

from tui.driving import until
from rules.sides import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.screens.dialogs import ConfirmDialog
from sekigahara_tui.screens.lobby import ClubGameScreen, LobbyScreen
from tui.screen_text import screen_text


def withdrawing(app) -> bool:
    """Whether the lobby's withdraw worker (started by a yes) is under way."""
    return any(worker.group == "withdraw" and not worker.is_finished for worker in app.workers)


def footer(app) -> str:
    return screen_text(app).splitlines()[-1]


async def choose(pilot, lobby: LobbyScreen, game: str) -> None:
    """Move the cursor to the row of `game` with the arrow keys (to the top, then down)."""
    for _ in range(len(lobby._rows)):
        await pilot.press("up")
    for _ in range(len(lobby._rows) + 1):
        row = lobby.chosen()
        if row is not None and row[1].game == game:
            await pilot.pause()
            return
        await pilot.press("down")
    raise AssertionError(f"no row for {game}")


async def test_x_withdraws_my_open_game_after_a_yes_and_does_nothing_on_anyone_elses(club, tmp_path):
    bob = club.lobby_client("bob")
    theirs = await bob.new_game(Side.ISHIDA, "open")
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.lobby is not None, "the lobby")

        await pilot.press("n", "enter")  # an open game: the game screen opens on it; back to the lobby
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the game screen")
        mine = app.screen.table.entry.game
        await pilot.press("ctrl+l")
        await until(pilot, lambda: app.screen is lobby and [line.game for line in lobby.lobby.mine] == [mine], "my game listed")

        # bob's open game: no x in the Footer, and x does nothing
        await choose(pilot, lobby, theirs.game)
        assert "Withdraw" not in footer(app) and "Watch" in footer(app)
        await pilot.press("x")  # read once press returns; x would push its question at once
        assert app.screen is lobby
        assert {s.id for s in club.store.summaries()} == {theirs.game, mine}

        # mine: x shows; Esc keeps it
        await choose(pilot, lobby, mine)
        assert "Withdraw" in footer(app) and "Quit" in footer(app)  # every key fits 80 columns
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        assert f"Withdraw game {mine}?" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby, "the lobby again")
        await pilot.pause()  # the question's answer is handed to the lobby
        await until(pilot, lambda: not withdrawing(app), "no withdrawal under way")  # one begun would be over
        assert mine in {s.id for s in club.store.summaries()}

        # x and a yes: gone from the lobby, the screen and the store
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        await pilot.press("y")
        await until(pilot, lambda: app.screen is lobby and lobby.lobby.mine == (), "my game gone from the lobby")
        rows = lambda: [line for line in screen_text(app).splitlines() if "waiting for an opponent" in line]  # noqa: E731
        await until(pilot, lambda: len(rows()) == 1 and theirs.game in rows()[0], "its row gone")
        assert f"Withdrew game {mine}" in screen_text(app)
        assert [s.id for s in club.store.summaries()] == [theirs.game]
        assert mine not in club.server.catalog
        await until(pilot, lambda: "Withdraw" not in footer(app), "x no longer shown")  # the cursor is on bob's game now
    await bob.close()


async def test_a_refusal_is_said_in_one_line_and_the_row_stays_until_the_lobby_changes(club, tmp_path):
    """bob joins between the lobby's last look and alice's yes: the club refuses."""
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    alice = club.lobby_client("alice")
    made = await alice.new_game(Side.TOKUGAWA, "open")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        await until(pilot, lambda: lobby.lobby is not None and lobby.lobby.mine, "the lobby")
        await choose(pilot, lobby, made.game)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        await club.lobby_client("bob").join(made.game)
        await pilot.press("enter")
        await until(pilot, lambda: "The club refused" in screen_text(app), "the refusal")
        assert "bob has joined that game: it can no longer be withdrawn" in screen_text(app).replace("\n", " ")
        assert club.store.summaries()[0].players == ("bob", "alice")
        await until(pilot, lambda: "Withdraw" not in footer(app), "x no longer shown")
    await alice.close()
