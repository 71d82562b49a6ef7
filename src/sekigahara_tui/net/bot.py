"""A headless player: a Client that answers every decision of its seat.

Level "random" picks uniformly among the legal commands of its view with a
seeded generator. It sees only what its seat may see (rules.surface): it
never imports the engine.
"""

from __future__ import annotations

import random
from pathlib import Path

from rules.notation import format_command
from rules.surface import Side
from sekigahara_tui.net.client import Client
from sekigahara_tui.net.protocol import Refused

LEVELS = ("random",)


class RandomBot:
    """Whenever its view has legal commands and nothing of its own awaits an
    answer, it submits one at random. A stale refusal (the other seat moved
    first in a simultaneous decision) is answered by deciding again."""

    def __init__(self, seed: int | None = None) -> None:
        self.chooser = random.Random(seed)
        self.submitted = 0

    def decide(self, client: Client) -> None:
        view = client.view
        if view is None or client.over or client.pending or not client.connected or not view.legal:
            return
        client.submit(format_command(self.chooser.choice(view.legal)))
        self.submitted += 1

    def on_state(self, client: Client) -> None:
        self.decide(client)

    def on_refused(self, client: Client, refusal: Refused) -> None:
        self.decide(client)

    def on_presence(self, client: Client, connected: bool) -> None:
        pass

    def on_connection(self, client: Client, status: str) -> None:
        pass  # the state that follows a welcome prompts the next decision


async def play(game_dir: Path, side: Side, seed: int | None = None, **options) -> Client:
    """Play the seat until the game is over (or the client stops); returns the client."""
    bot = RandomBot(seed)
    client = Client.for_game_dir(game_dir, side, bot, stop_when_over=True, **options)
    await client.run()
    return client
