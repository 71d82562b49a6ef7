"""A bot of any level playing a networked seat (`sekigahara bot DIR --seat
SIDE --level LEVEL`): a Client listener that gives the bot the seat's new
events from the client's log and asks it with the client's view.

Level "random" keeps net/bot.py's RandomBot; this module is for the others.
"""

from __future__ import annotations

import random
from pathlib import Path

from rules.notation import format_command
from rules.surface import Side
from sekigahara_tui.bots.base import make_bot
from sekigahara_tui.net.bot import RandomBot
from sekigahara_tui.net.client import Client
from sekigahara_tui.net.protocol import Refused

DECISION_BUDGET = 2.0  # seconds a decision may take (issue 14, section 3)


class SeatBot:
    """Whenever its view has legal commands and nothing of its own awaits an
    answer, the bot chooses one. A stale refusal (the other seat moved first
    in a simultaneous decision) is answered by deciding again."""

    def __init__(self, level: str, side: Side, seed: int | None = None) -> None:
        self.bot = make_bot(level, side, seed if seed is not None else random.randrange(2**31))
        self.fed = 0  # events of client.log already observed
        self.submitted = 0

    def feed(self, client: Client) -> None:
        if len(client.log) < self.fed:  # the log was cut (an undo) or restarted
            self.fed = len(client.log)
        if len(client.log) > self.fed:
            self.bot.observe(client.log[self.fed :])
            self.fed = len(client.log)

    def decide(self, client: Client) -> None:
        self.feed(client)
        view = client.view
        if view is None or client.over or client.pending or not client.connected or not view.legal:
            return
        client.submit(format_command(self.bot.choose(view, DECISION_BUDGET)))
        self.submitted += 1

    def on_state(self, client: Client) -> None:
        self.decide(client)

    def on_refused(self, client: Client, refusal: Refused) -> None:
        self.decide(client)

    def on_presence(self, client: Client, connected: bool) -> None:
        pass

    def on_connection(self, client: Client, status: str) -> None:
        pass


async def play(game_dir: Path, side: Side, seed: int | None = None, level: str = "heuristic", **options) -> Client:
    """Play the seat until the game is over (or the client stops); returns the client."""
    listener = RandomBot(seed) if level == "random" else SeatBot(level, side, seed)
    client = Client.for_game_dir(game_dir, side, listener, stop_when_over=True, **options)
    await client.run()
    return client
