"""The one driver of the computer (issue 22, item 3).

It lives here, on the client side of the network code, because it needs
nothing but the client surface (a bot, a view, a log): the networked seat
(ClientBot, `sekigahara bot`) uses it without reaching the host side, and
bots/driver.py builds it for a level (make_bot) for the other callers.

A BotPlayer plays one side with one bot. Whoever holds the game hands it what
that side may know (R55): the side's log (every event it has seen, oldest
first) and its view; the player feeds the bot the new events and asks it for a
command within its time budget. It holds its pacing (seconds between its
commands, for a player who follows the moves) as a parameter; the callers that
wait in an event loop wait `pace` (see `VersusTable`), the others give 0.

Its users: hot seat against the computer (versus.py), `sekigahara bot` (a
networked seat, `ClientBot` below), the club's computer seat (hosting/computer_seat.py)
and selfplay (bots/play.py, the referee of a local game between two bots).

When the log shrinks (an undo, R58, or a client that starts its log afresh
after reconnecting), the player rebuilds its bot from its factory, with the
same seed, and feeds the fresh bot the whole log. Only rebuilding is right: a
bot keeps what it learnt from the events it observed (cards seen, beliefs
about hidden blocks), and has no way to forget events taken back; resetting a
counter alone would leave those in it, and a log restarted from nothing would
then be observed twice. The same holds when the log changed where it was last
fed (the last event fed is no longer there): the history was rewritten.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from rules.notation import format_command
from rules.surface import Command, Event, PlayerView, Side

BUDGET = 2.0  # seconds a decision may take (issue 14, section 3)


class BotPlayer:
    """One side played by one bot, fed from that side's log."""

    def __init__(self, make: Callable[[], object], *, budget_s: float = BUDGET, pace: float = 0.0) -> None:
        self._make = make  # a fresh bot, always the same one (same level, side and seed)
        self.bot = make()
        self.budget_s = budget_s
        self.pace = pace  # seconds between the computer's commands, for whoever paces it
        self.fed = 0  # events of the log given to the bot
        self._last: Event | None = None  # the last of them
        self.rebuilds = 0  # times the log shrank or changed and a fresh bot heard it all

    def feed(self, log: Sequence[Event]) -> None:
        """Give the bot the events of `log` it has not observed. A log shorter
        than what was fed, or changed at its last fed event, rebuilds the bot
        (see the module's docstring)."""
        fed = self.fed
        if len(log) < fed or (fed and log[fed - 1] is not self._last and log[fed - 1] != self._last):
            self.bot = self._make()
            self.rebuilds += 1
            fed = 0
        if len(log) > fed:
            self.bot.observe(log[fed:])
        self.fed = len(log)
        self._last = log[-1] if log else None

    def choose(self, view: PlayerView, log: Sequence[Event]) -> Command:
        """The bot's command for `view` (which must have legal commands), after
        it has observed all of `log`."""
        self.feed(log)
        return self.bot.choose(view, self.budget_s)


class UniformBot:
    """A uniform choice among the legal commands with `random.Random(seed)`:
    `sekigahara bot --level random` and the network tests' random players
    (its stream differs from bots/random_bot.py's, and the games of a seed
    stay what they were)."""

    def __init__(self, side: Side | None, seed: int | None) -> None:
        self.side = side
        self.chooser = random.Random(seed)

    def observe(self, events: Sequence[Event]) -> None:
        pass

    def choose(self, view: PlayerView, budget_s: float) -> Command:
        return self.chooser.choice(view.legal)


class ClientBot:
    """A BotPlayer at a networked seat: a listener of the protocol client
    (net/client.py). Whenever the seat's view has legal commands and nothing of
    its own awaits an answer, it submits the bot's command. A stale refusal
    (the other seat moved first in a simultaneous decision) is answered by
    deciding again."""

    def __init__(self, player: BotPlayer) -> None:
        self.player = player
        self.submitted = 0

    def decide(self, client) -> None:
        self.player.feed(client.log)
        view = client.view
        if view is None or client.over or client.pending or not client.connected or not view.legal:
            return
        client.submit(format_command(self.player.choose(view, client.log)))
        self.submitted += 1

    def on_state(self, client) -> None:
        self.decide(client)

    def on_refused(self, client, refusal) -> None:
        self.decide(client)

    def on_presence(self, client, connected: bool) -> None:
        pass

    def on_connection(self, client, status: str) -> None:
        pass  # the state that follows a welcome prompts the next decision


class RandomBot(ClientBot):
    """A networked seat played by the uniform bot: `sekigahara bot --level
    random` and the network tests' random players."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(BotPlayer(lambda: UniformBot(None, seed)))
