"""An undo (R58) at a networked computer seat (issue 25 §2): the seat's client
cuts its log (net/client.py), and the seat's BotPlayer (net/bot.py) rebuilds
its bot and feeds it the shorter log, so the belief about hidden blocks holds
nothing the undo took back. A real host on a real Unix socket, two clients."""

from __future__ import annotations

import asyncio

from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.bots.belief import Belief
from sekigahara_tui.bots.heuristic import HeuristicBot
from sekigahara_tui.net.bot import BotPlayer, ClientBot

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
WAIT = 20.0


class BelievingBot:
    """Level 1 that also keeps a Belief, fed exactly what the seat's player gives it."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.inner = HeuristicBot(side, 5)
        self.belief = Belief(side)
        self.observed: list = []

    def observe(self, events) -> None:
        self.observed += events
        self.inner.observe(events)
        self.belief.observe(events)

    def choose(self, view, budget_s):
        return self.inner.choose(view, budget_s)


async def test_r58_an_undo_seen_by_a_networked_computer_seat_rolls_its_belief_back(hosted):
    host = hosted.game.host
    seat = ClientBot(BotPlayer(lambda: BelievingBot(TOKUGAWA)))
    computer = hosted.client(TOKUGAWA, seat)
    ishida = hosted.client(ISHIDA)
    me = BotPlayer(lambda: HeuristicBot(ISHIDA, 1))
    tasks = [asyncio.create_task(computer.run()), asyncio.create_task(ishida.run())]
    undone_at = None
    for _ in range(2000):
        await ishida.wait_for(lambda c: c.over or (c.view is not None and c.view.legal and not c.pending), WAIT)
        if ishida.over or (undone_at is not None and host.step_count > undone_at + 40):
            break
        sent = ishida.submit(format_command(me.choose(ishida.view, ishida.log)))
        await ishida.wait_for(lambda c: sent not in c.pending, WAIT)
        if ishida.reply_to != sent:
            continue  # stale: the computer decided first in a simultaneous decision; decide again
        seen = host.step_events(TOKUGAWA, host.step_count - 1)[0]
        if undone_at is None and seen and host.why_no_undo(ISHIDA) is None:
            # The computer's seat has heard the command (its events are in its belief) ...
            await computer.wait_for(lambda c: c.log == host.events_for(TOKUGAWA), WAIT)
            assert seat.player.bot.observed[-len(seen):] == list(seen)
            taken = ishida.undo()  # ... and Ishida takes it back (R58)
            await ishida.wait_for(lambda c: taken not in c.pending, WAIT)
            assert ishida.reply_to == taken, ishida.refusals[-1:]
            await computer.wait_for(lambda c: c.log == host.events_for(TOKUGAWA), WAIT)
            undone_at = host.step_count
            bot = seat.player.bot
            fresh = Belief(TOKUGAWA)
            fresh.observe(computer.log)
            assert seat.player.rebuilds == 1 and bot.observed == computer.log
            assert bot.belief.possible == fresh.possible and bot.belief.discards == fresh.discards
    assert undone_at is not None
    await computer.wait_for(lambda c: c.log == host.events_for(TOKUGAWA), WAIT)
    assert seat.player.bot.observed == computer.log == host.events_for(TOKUGAWA)
    for client in (computer, ishida):
        await client.close()
    await asyncio.gather(*tasks)
