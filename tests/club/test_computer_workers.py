"""The club's computer decides in worker processes (issue 25, section 1):
any level, a game to the end through real sockets and a real worker, the
club answering others while the computer thinks, a failing worker replaced
by level 1 with a line in the audit log, and R55 at the process boundary:
what is pickled for a worker names nothing its side may not know."""

from __future__ import annotations

import asyncio
import os
import pickle
import time

import pytest

from club_helpers import TIMEOUT, bot_plays, start_club, wait_until
from knowledge_model import assert_justified, models_along, pickled_words
from rules.notation import format_command
from rules.infra.record import GameRecord, replay_steps
from rules.sides import Side
from rules.view import view
from sekigahara_tui.bots.driver import RandomBot
from sekigahara_tui.bots.workers import DecisionPool
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.store import commands_standing
from worker_gates import GatedPool, failing_decide, gate_hold

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


# Level 3's game thinks longer at each decision (its playouts as many as level 2's, at more decisions).
@pytest.mark.parametrize("level, limit", [("planner", 4 * TIMEOUT), pytest.param("search", 10 * TIMEOUT, marks=pytest.mark.slow)])
async def test_the_club_plays_a_whole_game_against_levels_2_and_3_in_a_worker(data_dir, level, limit):
    club = await start_club(data_dir, computer_budget=0.05, computer_workers=1)
    alice = club.lobby_client("alice")
    made = await alice.new_game(TOKUGAWA, "computer", level)
    assert club.store.computer_level(made.game) == level
    client = alice.seat_client(made, RandomBot(5), stop_when_over=True)
    await asyncio.wait_for(client.run(), limit)
    assert client.over
    computer = club.server.computer
    _, actions = club.store.load_game(made.game)
    theirs = [a for a in actions if a.side is ISHIDA]
    # Every command of the computer came from a worker and was legal: none fell back to level 1
    # (a decision is taken again when the member moved first in a simultaneous decision).
    assert computer.fallbacks == 0
    # (The game's length is not fixed: against a random player an instant victory, 2.1, may end it
    # early; one such game held 93 commands of the computer's.)
    assert computer.pool.decisions >= len(theirs) > 0
    await alice.close()
    await club.stop()


async def test_the_club_answers_others_while_the_computer_thinks(data_dir):
    gated = GatedPool()
    asked: list = []  # the (game, version) of each decision asked of the worker
    gated.pool.tap = lambda tag, data: asked.append(tag)
    club = await start_club(data_dir, computer_pool=gated.pool)
    try:
        alice, bob, carol = (club.lobby_client(name) for name in ("alice", "bob", "carol"))
        made = await alice.new_game(ISHIDA, "computer", "planner")
        # The computer bids (6.3: both sides bid at once): its worker has the decision and waits.
        await asyncio.to_thread(gated.entered.wait, TIMEOUT)
        assert gated.entered.is_set()
        assert os.getpid() not in list(gated.pids)  # it thinks in another process
        game = club.server.games.loaded[made.game]
        thinking_at = game.version
        # Meanwhile a human game on the same server goes on: each command is answered.
        open_game = await bob.new_game(ISHIDA, "open")
        joined = await carol.join(open_game.game)
        seats = [bob.seat_client(open_game, RandomBot(1)), carol.seat_client(joined, RandomBot(2))]
        tasks = [asyncio.create_task(seat.run()) for seat in seats]
        await seats[0].wait_for(lambda c: (c.version or 0) >= 10, TIMEOUT)
        # ... and a ping on the lobby, and the member's own bid in the game the computer thinks about.
        await alice.lobby()
        mine = alice.seat_client(made)
        mine_task = asyncio.create_task(mine.run())
        await mine.wait_for(lambda c: c.view is not None and bool(c.view.legal), TIMEOUT)
        mine.submit(format_command(mine.view.legal[0]))
        await mine.wait_for(lambda c: (c.version or 0) > thinking_at, TIMEOUT)
        assert gated.pool.decisions == 0  # all of this while the computer's decision had not come back
        gated.open()
        await wait_until(lambda: gated.pool.decisions >= 1 and club.store.load_game(made.game)[1][-1].side is TOKUGAWA, "the computer's bid")
        # The member's bid meanwhile was a secret choice (R45): the computer's bid stands, not
        # thought again at the member's bid's version (later decisions are the game going on).
        assert asked.count((made.game, thinking_at)) == 1 and (made.game, thinking_at + 1) not in asked
        for seat in seats + [mine]:
            await seat.close()
        await asyncio.gather(*tasks, mine_task)
        for lobby in (alice, bob, carol):
            await lobby.close()
    finally:
        gated.open()
        await club.stop()
        gated.close()


@pytest.mark.parametrize("how", ["raises", "times out"])
async def test_a_failing_worker_is_one_audit_line_and_level_1_decides(data_dir, how):
    gated = GatedPool() if how == "times out" else None
    pool = gated.pool if gated is not None else DecisionPool(1, decide=failing_decide)
    audit_dir = data_dir.parent / "audit"
    audit_dir.mkdir()
    audit = AuditLog(audit_dir)
    club = await start_club(data_dir, computer_pool=pool, audit=audit)
    try:
        club.server.computer.grace_s = 0.0 if gated is not None else 30.0
        club.server.computer.budget_s = 0.2
        alice = club.lobby_client("alice")
        made = await alice.new_game(ISHIDA, "computer", "planner")
        await wait_until(lambda: club.server.computer.fallbacks >= 1 and club.store.load_game(made.game)[1], "a fallback decision")
        _, actions = club.store.load_game(made.game)
        assert actions[0].side is TOKUGAWA  # the game goes on: level 1 bid for the computer
        lines = [line for line in (audit_dir / "audit.log").read_text().splitlines() if "computer-fallback" in line]
        assert len(lines) == club.server.computer.fallbacks
        assert made.game in lines[0] and ("raised RuntimeError" in lines[0] if gated is None else "no decision within" in lines[0])
        await alice.close()
    finally:
        if gated is not None:
            gated.open()
        await club.stop()
        audit.close()
        if gated is not None:
            gated.close()


# --- R55 at the process boundary ---------------------------------------------------------


async def test_a_worker_is_sent_only_what_its_side_may_know(data_dir):
    sent: list[tuple[object, bytes]] = []
    pool = DecisionPool(1, tap=lambda tag, data: sent.append((tag, data)))
    club = await start_club(data_dir, computer_pool=pool, computer_budget=0.05)
    alice = club.lobby_client("alice")
    made = await alice.new_game(TOKUGAWA, "computer", "heuristic")
    await bot_plays(alice, made, 11)
    info, actions = club.store.load_game(made.game)
    await alice.close()
    await club.stop()

    commands = tuple(commands_standing(actions))
    steps = list(replay_steps(GameRecord(info.seed, info.data_version, commands, position=info.position)))
    models = models_along(steps)
    side = ISHIDA
    assert len(sent) > 100
    for (game_id, version), data in sent:
        assert game_id == made.game
        state, model = steps[version][1], models[version]
        where = f"in the decision sent at version {version}"
        in_view, in_log, numbers = pickled_words(data)
        assert_justified(in_view, model.may_name_in_view(side, state), side, state, where)
        assert_justified(in_log, model.may_name_in_log(side), side, state, f"in the log {where}")
        hidden_hand = set(state.cards[side.other].hand) - model.of[side].cards_ever
        assert not (in_view | in_log) & hidden_hand, where
        assert info.seed not in numbers and state.seed not in numbers, f"the game's seed {where}"
        # What was sent is the engine's view for the side and the side's own events.
        decision = pickle.loads(data)
        assert decision.view == view(state, side)
        log = [event for chunk in decision.log for event in pickle.loads(chunk)]
        assert log == [event for _, _, events in steps[: version + 1] for event in events if side in event.visible_to()]


async def test_a_resignation_while_the_computer_thinks_leaves_its_late_decision_unplayed(data_dir):
    """A resignation ends the game without a new version: the computer's
    decision coming back afterwards was played on the ended game, fell back
    to level 1 with no legal command, and its task died (IndexError)."""
    gated = GatedPool()
    club = await start_club(data_dir, computer_pool=gated.pool)
    try:
        alice = club.lobby_client("alice")
        made = await alice.new_game(ISHIDA, "computer", "planner")
        await asyncio.to_thread(gated.entered.wait, TIMEOUT)  # the computer's bid is in its worker
        assert gated.entered.is_set()
        seat = alice.seat_client(made)
        task = asyncio.create_task(seat.run())
        await seat.wait_for(lambda c: c.view is not None and c.connected, TIMEOUT)
        seat.resign()
        await seat.wait_for(lambda c: c.result is not None, TIMEOUT)
        gated.open()
        await wait_until(lambda: gated.pool.decisions >= 1 and made.game not in club.server.computer._pending, "the late decision")
        assert club.server.computer.fallbacks == 0
        assert club.store.load_game(made.game)[1] == []  # nothing stored after the end
        await seat.close()
        await task
        await alice.close()
    finally:
        gated.open()
        await club.stop()
        gated.close()


async def test_a_pool_times_the_thinking_in_the_worker_apart_from_the_wait_for_it():
    """benchmarks/club.py prints both (issue 25): a decision queued behind
    another's is timed in the worker from when it began there. By causality
    alone, with no timing race: the second task cannot begin before the
    first is let go, so its time in the worker is less than from then to
    its answer; timed from its asking, it would include the hold."""
    gated = GatedPool()
    pool = gated.pool
    try:
        held = asyncio.ensure_future(pool.run(gate_hold, "first", TIMEOUT))
        await asyncio.to_thread(gated.entered.wait, TIMEOUT)
        queued = asyncio.ensure_future(pool.run(len, b"second", TIMEOUT))  # one worker: it waits
        asked = time.perf_counter()
        while time.perf_counter() - asked < 0.05:  # the hold: a condition on the clock, not a race
            await asyncio.sleep(0.01)
        released = time.perf_counter()
        gated.open()
        assert await held == "first" and await queued == 6
        answered = time.perf_counter()
        first, second = pool.think_times
        assert first >= released - asked  # the first thought through the whole hold
        assert second < answered - released  # the second began after it
        assert pool.decisions == 2
    finally:
        await pool.close()
        gated.close()
