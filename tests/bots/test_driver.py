"""The one driver of the computer (bots/driver.py, issue 22 item 3): a
BotPlayer feeds its bot from its side's log once each, and when the log
shrinks or is rewritten (R58, a client's fresh start) a fresh bot hears it all."""

from __future__ import annotations

import random

from rules.sides import Side
from sekigahara_tui.bots.base import make_bot
from sekigahara_tui.bots.driver import BotPlayer, ClientBot, UniformBot, level_player
from sekigahara_tui.hosting.host import GameHost


class Recorder:
    """A bot that records what it observed, and which one it is."""

    made = 0

    def __init__(self, side, seed) -> None:
        Recorder.made += 1
        self.number = Recorder.made
        self.side = side
        self.seed = seed
        self.observed: list = []
        self.inner = make_bot("heuristic", side, seed)

    def observe(self, events) -> None:
        self.observed.extend(events)
        self.inner.observe(events)

    def choose(self, view, budget_s):
        return self.inner.choose(view, budget_s)


def recorder_player() -> BotPlayer:
    return BotPlayer(lambda: Recorder(Side.TOKUGAWA, 7))


def test_a_growing_log_is_observed_once_in_order():
    player = recorder_player()
    first = player.bot
    player.feed(["a", "b"])
    player.feed(["a", "b"])
    player.feed(["a", "b", "c"])
    assert player.bot is first and first.observed == ["a", "b", "c"] and player.rebuilds == 0


def test_a_shorter_log_rebuilds_the_bot_with_the_same_seed_and_feeds_it_all():
    player = recorder_player()
    first = player.bot
    player.feed(["a", "b", "c"])
    player.feed(["a", "b"])  # an undo took back "c"
    assert player.bot is not first and player.bot.seed == first.seed
    assert player.bot.observed == ["a", "b"] and player.rebuilds == 1
    player.feed(["a", "b", "d"])
    assert player.bot.observed == ["a", "b", "d"]


def test_a_log_started_afresh_is_not_observed_twice():
    """A client that reconnects starts its log from nothing, then gets it all back."""
    player = recorder_player()
    player.feed(["a", "b", "c"])
    player.feed([])
    player.feed(["a", "b", "c", "d"])
    assert player.bot.observed == ["a", "b", "c", "d"] and player.rebuilds == 1


def test_a_log_rewritten_at_its_last_fed_event_rebuilds_even_when_longer():
    """An undo and a new command between two feeds: the log is no shorter, but
    the event last fed is gone."""
    player = recorder_player()
    player.feed(["a", "b", "c"])
    player.feed(["a", "b", "x", "y"])
    assert player.bot.observed == ["a", "b", "x", "y"] and player.rebuilds == 1


def test_after_a_real_undo_the_bot_has_observed_exactly_its_side_s_log():
    host = GameHost.new(3)
    player = BotPlayer(lambda: Recorder(Side.TOKUGAWA, 5))
    ishida = make_bot("heuristic", Side.ISHIDA, 1)
    undone = False
    for _ in range(400):
        if host.is_over:
            break
        last_seen_by_tokugawa = host.step_events(Side.TOKUGAWA, host.step_count - 1)[0]
        if not undone and host.step_count > 8 and host.why_no_undo(Side.ISHIDA) is None and last_seen_by_tokugawa:
            host.undo(Side.ISHIDA)  # R58: the player takes back a command Tokugawa saw
            undone = True
            player.feed(host.events_for(Side.TOKUGAWA))  # the shorter log
            assert player.rebuilds == 1 and player.bot.observed == host.events_for(Side.TOKUGAWA)
        side = host.side_to_act()
        if side is Side.TOKUGAWA:
            command = player.choose(host.view(side), host.events_for(side))
        else:
            command = ishida.choose(host.view(side), 1.0)
        host.submit(command)
        player.feed(host.events_for(Side.TOKUGAWA))  # as they happen
        if undone and host.step_count > 30:
            break
    assert undone and player.rebuilds == 1
    player.feed(host.events_for(Side.TOKUGAWA))
    assert player.bot.observed == host.events_for(Side.TOKUGAWA)


def test_the_uniform_bot_chooses_as_random_random_of_its_seed():
    """`sekigahara bot --level random --seed N` keeps its games: the choices are random.Random(N)'s."""
    host = GameHost.new(2)
    bot = UniformBot(Side.ISHIDA, 9)
    chooser = random.Random(9)
    for _ in range(20):
        view = host.view(Side.ISHIDA)
        if not view.legal:
            break
        assert bot.choose(view, 1.0) == chooser.choice(view.legal)


class FakeClient:
    """What ClientBot reads of a protocol client (net/client.py), and what it submits."""

    def __init__(self, host: GameHost, side: Side) -> None:
        self.host, self.side = host, side
        self.over = False
        self.pending: tuple = ()
        self.connected = True
        self.sent: list[str] = []

    @property
    def view(self):
        return self.host.view(self.side)

    @property
    def log(self):
        return self.host.events_for(self.side)

    def submit(self, text: str) -> str:
        self.sent.append(text)
        self.host.submit_text(text, self.side)
        return str(len(self.sent))


def test_a_client_bot_answers_each_decision_of_its_seat_and_waits_otherwise():
    host = GameHost.new(4)
    client = FakeClient(host, Side.ISHIDA)
    listener = ClientBot(level_player("heuristic", Side.ISHIDA, 3))
    listener.on_state(client)  # the opening bid is simultaneous: Ishida bids
    assert listener.submitted == 1 and len(client.sent) == 1 and client.sent[0].startswith("ishida")
    client.pending = ("1",)
    before = list(client.sent)
    listener.on_state(client)  # its command awaits an answer: nothing more
    assert client.sent == before
