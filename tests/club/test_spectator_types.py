"""A spectator who types (issue 23, item 9): the club refuses its submit or
undo with one line and keeps it connected, sending it the next state; its
screen says it is watching (never "You: Ishida"), offers no command line,
no end and no undo key, and those keys say it is watching instead of acting."""

from __future__ import annotations

import asyncio

from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.hosting.spectators import SPECTATOR_REFUSAL
from sekigahara_tui.screens.lobby import WATCHING, LobbyScreen, WatchingScreen
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import until
from tui.screen_text import screen_text

WAIT = 20.0


async def alice_moves(seat) -> int:
    """Alice's seat makes its first legal move when it is hers; the version it made."""
    await seat.wait_for(lambda c: c.view is not None and bool(c.view.legal) and not c.pending, WAIT)
    version = seat.version
    seat.submit(format_command(seat.view.legal[0], with_side=False))
    await seat.wait_for(lambda c: (c.version or 0) > version, WAIT)
    return seat.version


async def test_a_spectators_submit_and_undo_are_refused_and_it_stays_connected(club):
    alice, carol = club.lobby_client("alice"), club.lobby_client("carol")
    made = await alice.new_game(Side.ISHIDA, "computer")
    seat = alice.seat_client(made)
    playing = asyncio.create_task(seat.run())
    watcher = carol.watch_client(await carol.watch(made.game))
    watching = asyncio.create_task(watcher.run())
    try:
        await watcher.wait_for(lambda c: c.view is not None, WAIT)
        submitted, undone = watcher.submit("ishida: pass"), watcher.undo()
        await watcher.wait_for(lambda c: len(c.refusals) == 2, WAIT)
        assert [(r.id, r.kind, r.reason) for r in watcher.refusals] == [
            (submitted, "bad-message", SPECTATOR_REFUSAL), (undone, "bad-message", SPECTATOR_REFUSAL)]
        assert watcher.fatal is None and watcher.connected and watcher.pending == ()
        assert len(club.server.spectators.watchers[made.game]) == 1
        # the game goes on, and the spectator is sent it
        version = await alice_moves(seat)
        await watcher.wait_for(lambda c: (c.version or 0) >= version, WAIT)
        assert watcher.fatal is None and watcher.status == "connected"
    finally:
        await watcher.close()
        await seat.close()
        await asyncio.gather(watching, playing)
        await alice.close()
        await carol.close()


async def test_the_spectators_screen_says_watching_and_offers_no_play_keys(club, tmp_path):
    alice = club.lobby_client("alice")
    made = await alice.new_game(Side.ISHIDA, "computer")
    seat = alice.seat_client(made)
    playing = asyncio.create_task(seat.run())
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("carol"))
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await until(pilot, lambda: lobby.lobby is not None and lobby.lobby.watchable, "alice's game to watch")
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, WatchingScreen), "the spectator's screen")
            screen = app.screen
            await until(pilot, lambda: screen.view is not None, "the first state")
            assert screen.view.spectator
            # drawn after the first state arrives: read the screen once it shows it
            await until(pilot, lambda: "Watching │ Week" in screen_text(app) and "Watching: " in screen_text(app)
                        and "Lobby" in screen_text(app).splitlines()[-1], "the spectator's lines and Footer")
            text = screen_text(app)
            assert "Watching │ Week" in text and "You:" not in text
            assert "Watching: " in text  # the decision line
            prompt = screen.query_one(PromptPanel)
            assert not prompt.command_line.display and prompt.command_line.disabled
            assert "type a command" not in text
            footer = text.splitlines()[-1]
            assert "Lobby" in footer and not {"Type", "End", "Undo"} & set(footer.split())
            # the play keys say so, and send nothing
            client = screen.current.client
            for key in ("colon", "ctrl+z", "ctrl+e"):
                screen.say("")
                await pilot.press(key)
                await until(pilot, lambda: screen.seat_memory.feedback.get(screen.seat) == (WATCHING, True), f"{key}: the spectator told")
                assert "You are watching" in screen_text(app)
            await pilot.press("a", "enter")  # typed anyway: nowhere to go
            await pilot.pause()
            assert client.pending == () and client.refusals == [] and client.fatal is None
            # the game goes on on the spectator's screen
            version = await alice_moves(seat)
            await until(pilot, lambda: (client.version or 0) >= version, "the next state")
            assert "Watching │ Week" in screen_text(app)
    finally:
        await seat.close()
        await playing
        await alice.close()
