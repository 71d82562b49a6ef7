"""The computer's driver for a bot level: the BotPlayer of net/bot.py (the
one driver of the computer, issue 22 item 3) with a bot made by make_bot.
Hot seat against the computer (versus.py), selfplay (bots/play.py), the
club's computer seat (hosting/computer_seat.py) and `sekigahara bot` (play, below)
all drive their bots through it."""

from __future__ import annotations

import random
from pathlib import Path

from rules.surface import Side
from sekigahara_tui.bots.base import make_bot
from sekigahara_tui.net.bot import BUDGET, BotPlayer, ClientBot, RandomBot, UniformBot

__all__ = ["BUDGET", "BotPlayer", "ClientBot", "RandomBot", "UniformBot", "client_bot", "level_player", "play"]


def level_player(level: str, side: Side, seed: int, **options) -> BotPlayer:
    """A BotPlayer whose bot (and every fresh one) is make_bot(level, side, seed)."""
    return BotPlayer(lambda: make_bot(level, side, seed), **options)


def client_bot(level: str, side: Side, seed: int | None = None) -> ClientBot:
    """The listener that plays `side` at `level` (level "random": UniformBot)."""
    if level == "random":
        return RandomBot(seed)
    return ClientBot(level_player(level, side, seed if seed is not None else random.randrange(2**31)))


async def play(game_dir: Path, side: Side, seed: int | None = None, level: str = "random", **options):
    """`sekigahara bot DIR --seat SIDE --level LEVEL`: play the seat until the
    game is over (or the client stops); returns the client."""
    from sekigahara_tui.net.client import Client

    client = Client.for_game_dir(game_dir, side, client_bot(level, side, seed), stop_when_over=True, **options)
    await client.run()
    return client
