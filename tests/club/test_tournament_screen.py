"""The lobby's tournament screen (`t`): the list, a tournament's standings
and games, its names shown literally, `r` replays a finished game."""

from __future__ import annotations

from test_tournaments import ask, fresh, run_to_the_end
from tui.driving import until
from tui.screen_text import screen_text
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.club.protocol_tournaments import JoinTournament, NewTournament, StartTournament
from sekigahara_tui.screens.lobby import LobbyScreen
from sekigahara_tui.screens.replay import ReplayScreen
from sekigahara_tui.screens.tournament import TournamentScreen

NAME = "[b]Cup[/b]"  # markup in a name is shown as typed


async def test_the_tournament_screen_shows_standings_and_replays_a_game(club, tmp_path):
    alice = club.lobby_client("alice")
    await ask(alice, NewTournament(fresh(), NAME, "round-robin", "none"))
    for _ in range(2):
        await ask(alice, JoinTournament(fresh(), NAME, computer="random"))
    await ask(alice, StartTournament(fresh(), NAME))
    final = await run_to_the_end(club, alice, NAME)
    await alice.close()
    winner = final.standings[0]
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("bob"))
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.lobby is not None, "the lobby")
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TournamentScreen) and app.screen.listed is not None, "the list")
        assert NAME in screen_text(app) and "round-robin" in screen_text(app)
        await pilot.press("enter")
        screen = app.screen
        await until(pilot, lambda: screen.shown is not None, "the tournament")
        text = screen_text(app)
        assert f"{NAME}: round-robin, 2 rounds, clock none: over" in text
        assert f"   1  {winner.entrant:<20}  {winner.points:>6g}" in text
        assert final.boards[0].game in text and final.boards[0].result in text
        await pilot.press("w")  # a finished game is replayed, not watched
        await until(pilot, lambda: "Choose a game in play" in screen_text(app), "the refusal")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
