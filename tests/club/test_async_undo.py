"""An undo in asynchronous play (issue 24, R58): alice hands the decision to
bob and goes; bob is away, told once by webhook, with only his lobby open.
Hours later alice comes back (the club has meanwhile dropped the game from
memory: eviction.py), takes her move back before bob has decided, goes
again (dropped again), and later hands over again. Bob's lobby shows the undo at once (it is alice's move again),
and no second "your move" notice goes: it is the same hand-over."""

from __future__ import annotations

import asyncio
import math

from club_helpers import TIMEOUT, Club, reap, start_club, start_serve, stop_serve, wait_until
from notice_helpers import receiver  # noqa: F401 - a fixture
from rules.surface import Side
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.club_server import ClubServer
from sekigahara_tui.hosting.notice_delivery import NoticeOptions
from sekigahara_tui.hosting.store import Store
from sekigahara_tui.hosting.tokens import load_secret
from test_your_move_notices import RESUME, _notation, bob_plays_his_turn, game_of_alice_and_bob, notices_club, to  # noqa: F401 - a fixture

OPTIONS = NoticeOptions(allow_private=True, resume=RESUME)


async def hand_over_undoably(club, seat, game, bob, bob_entry) -> str:
    """alice (the seat) plays until a command of hers hands the decision to
    bob and stays hers to take back (R58); bob plays his turns meanwhile. The command."""
    turns = 0
    while True:
        await seat.wait_for(lambda c: c.connected and c.view is not None and not c.pending and c.version == game.version, TIMEOUT)
        assert not game.host.is_over
        if Side.TOKUGAWA in game.host.state.decision.sides:
            await bob_plays_his_turn(bob, bob_entry, 7 + turns)
            turns += 1
            continue

        def undoable(command) -> bool:
            step = game.host.propose(command)  # looked at on the server, nothing changed
            return step.final is None and Side.TOKUGAWA in step.state.decision.sides

        chosen = [command for command in seat.view.legal if undoable(command)]
        last = _notation((chosen or seat.view.legal)[0])
        seat.submit(last)
        if chosen:
            return last


async def alice_hands_over_and_goes(club, receiver):
    """alice hands the decision to bob with a command she may take back, bob
    is told by webhook, and alice's seat goes. (alice, bob, game, the command, notices to bob)."""
    alice, bob, alice_entry, bob_entry = await game_of_alice_and_bob(club, receiver)
    game_id = alice_entry.game
    seat = alice.seat_client(alice_entry, None)
    running = asyncio.create_task(seat.run())
    last = await hand_over_undoably(club, seat, club.server.games.find(game_id), bob, bob_entry)
    await seat.wait_for(lambda c: c.version == club.server.games.find(game_id).version and not c.pending, TIMEOUT)
    await club.server.notices.idle()
    told = len(to(receiver, "bob"))
    assert told >= 1 and to(receiver, "bob")[-1]["to_move"] == ["bob"]
    await seat.close()
    await running
    return alice, bob, game_id, last, told


async def alice_takes_it_back(club, alice, game_id: str):
    """alice enters the game and undoes her hand-over (R58: bob has not
    decided); her seat (running) and the game, the seat still open."""
    back = alice.seat_client(await alice.enter(game_id), None)
    running = asyncio.create_task(back.run())
    await back.wait_for(lambda c: c.connected and c.view is not None and c.why_no_undo is None, TIMEOUT)
    game = club.server.games.find(game_id)
    back.undo()
    await back.wait_for(lambda c: c.version == game.version and not c.pending and Side.TOKUGAWA not in game.host.state.decision.sides, TIMEOUT)
    return back, running, game


async def test_an_undo_and_a_new_hand_over_each_after_the_game_left_memory_send_no_second_notice(notices_club, receiver):
    club = notices_club
    alice, bob, game_id, last, told = await alice_hands_over_and_goes(club, receiver)

    # bob, away from the game, has only his lobby open: it follows the game.
    shown: list = []
    bob.on_lobby = shown.append
    first = await bob.lobby()

    def bob_sees(to_move: tuple[Side, ...]) -> bool:
        lobby = shown[-1] if shown else first
        return any(line.game == game_id and line.to_move == to_move for line in lobby.mine)

    assert bob_sees((Side.TOKUGAWA,))

    async def evicted() -> None:
        """alice has gone; the club drops the idle game from memory."""
        await wait_until(lambda: not club.server.games.find(game_id).connections, "alice's seat gone")
        assert game_id in club.server.eviction.evict_idle(now=math.inf)
        assert game_id not in club.server.games.loaded

    await evicted()
    # alice comes back and takes her move back (R58: bob has not decided), and goes again.
    back = alice.seat_client(await alice.enter(game_id), None)
    running = asyncio.create_task(back.run())
    await back.wait_for(lambda c: c.connected and c.view is not None, TIMEOUT)
    assert back.why_no_undo is None
    back.undo()
    await wait_until(lambda: bob_sees((Side.ISHIDA,)), "bob's lobby showing the undo")
    assert Side.TOKUGAWA not in club.server.games.find(game_id).host.state.decision.sides
    await back.close()
    await running
    await evicted()
    # Later still she hands over again, the same way.
    back = alice.seat_client(await alice.enter(game_id), None)
    running = asyncio.create_task(back.run())
    game = club.server.games.find(game_id)
    await back.wait_for(lambda c: c.version == game.version and not c.pending and c.view is not None and c.view.legal, TIMEOUT)
    back.submit(last)  # the same hand-over again
    await wait_until(lambda: bob_sees((Side.TOKUGAWA,)), "bob's lobby showing his move again")
    await club.server.notices.idle()
    assert len(to(receiver, "bob")) == told  # no second notice
    await back.close()
    await running
    await alice.close()
    await bob.close()


async def test_an_undo_after_a_restart_sends_no_second_notice(data_dir, receiver):
    """The club restarted between the hand-over and its undo: what was told
    is gone from memory, and rebuilt from the game (the other side's last
    command handed the decision over: told)."""
    club = await start_club(data_dir, notices=OPTIONS)
    alice, bob, game_id, last, told = await alice_hands_over_and_goes(club, receiver)
    await alice.close()
    await bob.close()
    await club.stop()

    store = Store.open(data_dir / members.STORE_FILE)
    club = Club(ClubServer(store, data_dir, load_secret(data_dir), notices=OPTIONS), store, data_dir, club.socket)
    await club.server.listen_unix(club.socket)
    try:
        alice = club.lobby_client("alice")
        back, running, game = await alice_takes_it_back(club, alice, game_id)
        back.submit(last)
        await back.wait_for(lambda c: c.version == game.version and not c.pending and Side.TOKUGAWA in game.host.state.decision.sides, TIMEOUT)
        await club.server.notices.idle()
        assert len(to(receiver, "bob")) == told  # no second notice
        await back.close()
        await running
        await alice.close()
    finally:
        await club.stop()


async def test_an_undo_then_a_restart_then_the_same_hand_over_sends_no_second_notice(data_dir, receiver):
    """The hand-over told, alice's undo, then the club stopped and started
    again as a real `sekigahara serve` process: what was told is rebuilt from
    the game's actions (the undone command had handed bob the decision), so
    alice handing over again neither rings bob's lobby nor sends a webhook.
    The ring goes on bob's lobby connection before the push of his lobby that
    shows his move, so once that push is in, any ring has arrived too."""
    club = await start_club(data_dir, notices=OPTIONS)
    alice, bob, game_id, last, told = await alice_hands_over_and_goes(club, receiver)
    back, running, _game = await alice_takes_it_back(club, alice, game_id)
    await back.close()
    await running
    await alice.close()
    await bob.close()
    await club.server.notices.idle()
    await club.stop()
    assert len(to(receiver, "bob")) == told

    server = start_serve(data_dir, "--notify-allow-private")
    try:
        bob = ClubClient(club.socket, member="bob")
        rings, shown = [], []
        bob.on_your_move, bob.on_lobby = rings.append, shown.append
        first = await bob.lobby()  # bob is signed in, his lobby open, away from the game
        assert any(line.game == game_id and line.to_move == (Side.ISHIDA,) for line in first.mine)
        alice = ClubClient(club.socket, member="alice")
        again = alice.seat_client(await alice.enter(game_id), None)
        running = asyncio.create_task(again.run())
        await again.wait_for(lambda c: c.connected and c.view is not None and not c.pending and c.view.legal, TIMEOUT)
        again.submit(last)  # the same hand-over again
        await wait_until(lambda: any(line.game == game_id and line.to_move == (Side.TOKUGAWA,)
                                     for lobby in shown for line in lobby.mine), "bob's lobby showing his move")
        assert rings == []  # not told again: no bell, and (told together) no webhook
        await again.close()
        await running
        await alice.close()
        await bob.close()
        stop_serve(server)
    finally:
        reap(server)
    assert len(to(receiver, "bob")) == told
