""""Your move" notices over the wire (issue 24): a whole club game between
two bots, one always connected (alice), one that connects only when told it
is its move (bob, asynchronous play). Exactly one notice goes to bob for each
hand-over of the decision to his side, none to alice, whose seat is
connected; an undo that takes a hand-over back sends no second notice; no
notice names a block or card of either side (R55)."""

from __future__ import annotations

import asyncio
import json

import pytest

from club_helpers import TIMEOUT, start_club, wait_until
from notice_helpers import WebhookReceiver, names_in, receiver  # noqa: F401 - receiver: a fixture
from rules.infra.record import replay_steps
from rules.surface import BOTH_SIDES, Side
from sekigahara_tui.hosting.notice_delivery import NoticeOptions
from sekigahara_tui.hosting.store import record_of
from sekigahara_tui.net.bot import RandomBot

RESUME = "ssh -p 2222 club.test"


class WhileBobIsAway(RandomBot):
    """alice's bot: it decides only while bob's seat is not connected, so every
    hand-over to bob happens while he is away."""

    def decide(self, client) -> None:
        if not client.other_connected:
            super().decide(client)

    def on_presence(self, client, connected: bool) -> None:
        self.decide(client)


@pytest.fixture
async def notices_club(data_dir):
    club = await start_club(data_dir, notices=NoticeOptions(allow_private=True, resume=RESUME))
    yield club
    await club.stop()


def to(receiver: WebhookReceiver, member: str, kind: str = "your-move") -> list[dict]:
    return [got.body for got in receiver.received if got.path == f"/{member}" and got.body.get("kind", "your-move") == kind]


async def game_of_alice_and_bob(club, receiver):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    await alice.set_notices(receiver.url("/alice"), "json", None, ("your-move", "game-over"))
    await bob.set_notices(receiver.url("/bob"), "json", None, ("your-move", "game-over"))
    alice_entry = await alice.new_game(Side.ISHIDA, "open")
    bob_entry = await bob.join(alice_entry.game)
    return alice, bob, alice_entry, bob_entry


async def bob_plays_his_turn(bob, entry, seed: int) -> bool:
    """bob connects, plays while he has a decision, and goes; True if the game is over."""
    client = bob.seat_client(entry, RandomBot(seed), stop_when_over=True)
    running = asyncio.create_task(client.run())
    await client.wait_for(lambda c: c.over or (c.connected and c.view is not None and not c.view.legal and not c.pending), TIMEOUT)
    over = client.over
    await client.close()
    await running
    return over


def hand_overs_to(side: Side, club, game_id: str) -> int:
    """Counted afresh from the stored record: steps after which `side` decides and did not before."""
    sides = [frozenset() if state.result is not None else frozenset(state.decision.sides)
             for _, state, _ in replay_steps(record_of(*club.store.load_game(game_id)))]
    return sum(1 for before, after in zip(sides, sides[1:]) if side in after and side not in before)


def assert_public_only(bodies: list[dict]) -> None:
    for body in bodies:
        text = json.dumps(body)
        for side in BOTH_SIDES:
            assert names_in(text, side) == set(), text


async def test_a_whole_game_sends_one_notice_per_hand_over_to_the_absent_member(notices_club, receiver):
    club = notices_club
    alice, bob, alice_entry, bob_entry = await game_of_alice_and_bob(club, receiver)
    game_id = alice_entry.game
    alice_seat = alice.seat_client(alice_entry, WhileBobIsAway(11), stop_when_over=True)
    alice_running = asyncio.create_task(alice_seat.run())
    await alice_seat.wait_for(lambda c: c.connected and c.view is not None, TIMEOUT)
    turns, over = 0, False
    if Side.TOKUGAWA in (await bob.lobby()).mine[0].to_move:  # bob's decision from the start: no hand-over
        over = await bob_plays_his_turn(bob, bob_entry, 100)
    while not over:
        await wait_until(lambda: len(to(receiver, "bob")) > turns or alice_seat.over, "bob's notice or the end")
        if alice_seat.over:
            break
        turns += 1
        assert len(to(receiver, "bob")) == turns  # one notice, not one per step
        over = await bob_plays_his_turn(bob, bob_entry, 100 + turns)
    await asyncio.wait_for(alice_running, TIMEOUT)
    await club.server.notices.idle()
    expected = hand_overs_to(Side.TOKUGAWA, club, game_id)
    assert expected > 5
    assert len(to(receiver, "bob")) == expected == turns
    assert to(receiver, "alice") == [] and to(receiver, "alice", "game-over") == []  # connected throughout
    assert len(to(receiver, "bob", "game-over")) <= 1
    bodies = [got.body for got in receiver.received]
    assert_public_only(bodies)
    for body in to(receiver, "bob"):
        assert body["game"] == game_id and body["member"] == "bob" and body["opponent"] == "alice"
        assert "bob" in body["to_move"] and body["resume"] == RESUME and body["week"] >= 1
    await alice.close()
    await bob.close()


async def test_an_undone_hand_over_sends_no_second_notice(notices_club, receiver):
    club = notices_club
    alice, bob, alice_entry, bob_entry = await game_of_alice_and_bob(club, receiver)
    game = club.server.games.find(alice_entry.game)
    seat = alice.seat_client(alice_entry, None)
    running = asyncio.create_task(seat.run())
    turns = 0

    def bob_decides() -> bool:
        return Side.TOKUGAWA in game.host.state.decision.sides

    async def settled() -> None:
        await seat.wait_for(lambda c: c.connected and c.view is not None and not c.pending and c.version == game.version, TIMEOUT)
        await club.server.notices.idle()

    def hands_over_undoably(command) -> bool:
        """Whether alice's command would hand the decision to bob and stay
        hers to take back (R58): looked at on the server, nothing changed."""
        step = game.host.propose(command)
        return step.final is None and Side.TOKUGAWA in step.state.decision.sides

    while True:  # alice plays until she can hand over to bob with a command she may take back
        await settled()
        assert not game.host.is_over
        if bob_decides():
            await bob_plays_his_turn(bob, bob_entry, 7 + turns)
            turns += 1
            continue
        chosen = [command for command in seat.view.legal if hands_over_undoably(command)]
        last = _notation((chosen or seat.view.legal)[0])
        seat.submit(last)
        if chosen:
            break
    await settled()
    assert bob_decides() and seat.why_no_undo is None
    told = len(to(receiver, "bob"))
    assert told >= 1 and to(receiver, "bob")[-1]["to_move"] == ["bob"]
    seat.undo()  # R58: before bob decides
    await settled()
    assert not bob_decides()
    seat.submit(last)  # the same command again
    await settled()
    assert bob_decides()
    assert len(to(receiver, "bob")) == told  # the same hand-over again: no second notice
    # Once bob has acted, the next hand-over to him is a new one: told again.
    await bob_plays_his_turn(bob, bob_entry, 99)
    while not bob_decides():
        await settled()
        if not bob_decides() and seat.view.legal:
            seat.submit(_notation(seat.view.legal[0]))
    await settled()
    assert len(to(receiver, "bob")) == told + 1
    await seat.close()
    await running
    await alice.close()
    await bob.close()


def _notation(command) -> str:
    from rules.notation import format_command

    return format_command(command)
