"""The chat panels at 80x24 against a real club (issue 26; screens/chat.py):
g in the lobby opens the club's channel, ctrl+g on a club seat's game screen
its game chat, g in a finished game's replay its chat (read only, a player's); Rich markup typed or heard is shown as typed, never read as
markup; a refusal is one line in the panel; a spectator's ctrl+g says why not."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.widgets import Input, Static

from tui.driving import until
from tui.screen_text import screen_text
from rules.sides import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.screens.replay import ReplayScreen
from sekigahara_tui.screens.chat import NOT_A_PLAYER, ChatScreen
from sekigahara_tui.screens.lobby import ClubGameScreen, WatchingScreen

MARKUP = "[red]x[/red] [bold]y[/]"


def drawn(app) -> Text:
    return app.screen.query_one("#chat-lines", Static).visual


async def test_the_lobby_channel_and_a_game_chat_show_markup_as_typed(club, tmp_path):
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    bob = club.lobby_client("bob")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None, "the lobby")
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, ChatScreen) and "Nothing said yet" in screen_text(app), "the channel")
        await pilot.press(*MARKUP, "enter")
        await until(pilot, lambda: f"alice: {MARKUP}" in screen_text(app), "alice's line, as typed")
        await bob.say("[blink]from bob[/blink]")
        await until(pilot, lambda: "bob: [blink]from bob[/blink]" in screen_text(app), "bob's line, pushed")
        await pilot.press(*"\\x1b[2J", "enter")  # typed as characters: printable, said as typed
        await until(pilot, lambda: "alice: \\x1b[2J" in screen_text(app), "the backslash line")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ChatScreen), "the lobby again")

        await pilot.press("n", "enter")  # an open game, either side
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the game screen")
        game_screen = app.screen
        seat = bob.seat_client(await bob.join(game_screen.table.entry.game))
        task = asyncio.create_task(seat.run())
        await until(pilot, lambda: game_screen.current.view is not None and seat.view is not None, "both seated")
        await pilot.press("ctrl+g")
        await until(pilot, lambda: isinstance(app.screen, ChatScreen) and "its players only" in screen_text(app), "the game chat")
        seat.say(MARKUP)
        await until(pilot, lambda: f"bob ({seat.side.value.capitalize()}): {MARKUP}" in screen_text(app), "bob's line")
        assert not any(span.style in ("red", "blink") for span in drawn(app).spans)
        await pilot.press(*("z" * 500), "a", "enter")  # the input holds 500: the 501st is not typed
        await seat.wait_for(lambda c: len(c.chat.lines) == 2, 60)
        assert seat.chat.lines[-1].text == "z" * 500
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is game_screen, "back to the game")
        await seat.close()
        await task
    await bob.close()


async def test_a_spectators_ctrl_g_says_why_not_in_one_line(club, tmp_path):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(None, "open")
    await bob.join(made.game)
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("carol"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None and app.screen.lobby is not None, "the lobby")
        watch = await app.screen.club.watch(made.game)
        from sekigahara_tui.club.club_table import ClubTable

        app.push_screen(WatchingScreen(ClubTable(app.screen.club, watch), save_dir=tmp_path))
        await until(pilot, lambda: isinstance(app.screen, WatchingScreen) and app.screen.current.view is not None, "watching")
        await pilot.press("ctrl+g")
        await until(pilot, lambda: app.screen.seat_memory.feedback.get(app.screen.seat) == (NOT_A_PLAYER, True), "why not")
        assert "ctrl+g: the chat is" in screen_text(app)
        assert not isinstance(app.screen, ChatScreen)
    await alice.close()
    await bob.close()


async def test_a_finished_games_replay_shows_its_chat_to_its_player_with_g(club, tmp_path):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(Side.ISHIDA, "open")
    seat = bob.seat_client(await bob.join(made.game))
    task = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None and c.connected, 60)
    seat.say(f"gg {MARKUP}")
    await seat.wait_for(lambda c: c.chat.lines, 60)
    assert seat.resign() is not None
    await seat.wait_for(lambda c: c.result is not None, 60)
    await seat.close()
    await task
    app = SekigaharaApp(save_dir=tmp_path, club=alice)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        await until(pilot, lambda: lobby.lobby is not None and lobby.lobby.finished, "the finished game listed")
        table = lobby.query_one("#games")
        table.move_cursor(row=table.get_row_index(f"done:{made.game}"))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat panel")
        await until(pilot, lambda: f"bob (Tokugawa): gg {MARKUP}" in screen_text(app), "the chat")
        assert not app.screen.query(Input)  # read only
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay again")
    await bob.close()
