"""Clock-low notices (issue 24): a clock that drops below a day (a tenth of
its start for live and daily) sends its member one `clock-low` notice, by
the notices' path (a real webhook receiver on loopback), once a drop: not
again while it stays low, again after an increment took it back above and
it dropped again; no hidden information in it. A real club on a Unix socket, on a fake time source."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from types import SimpleNamespace

import pytest

from club_helpers import TIMEOUT, start_club, wait_until
from notice_helpers import names_in, receiver  # noqa: F401 - receiver: a fixture
from rules.notation import format_command
from rules.surface import BOTH_SIDES, Side
from sekigahara_tui.hosting import club_games
from sekigahara_tui.hosting.clocks import HOUR, PRESETS
from sekigahara_tui.hosting.game_clocks import low_below
from sekigahara_tui.hosting.notice_delivery import NoticeOptions

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


class FakeTime:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def lows(receiver, member: str) -> list[dict]:
    return [got.body for got in receiver.received if got.path == f"/{member}" and got.body["kind"] == "clock-low"]


async def play(lobby, entry, until_done) -> None:
    """The member connects, decides until `until_done(game)`, and goes."""
    seat = lobby.seat_client(entry)
    task = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None, TIMEOUT)
    while not until_done():
        version = seat.version
        seat.submit(format_command(seat.view.legal[0], with_side=False))
        await seat.wait_for(lambda c: c.version == version + 1, TIMEOUT)
    await seat.close()
    await task


def test_the_thresholds():
    assert low_below(PRESETS["fast"]) == low_below(PRESETS["slow"]) == 24 * HOUR
    assert low_below(PRESETS["live"]) == pytest.approx(270) and low_below(PRESETS["daily"]) == pytest.approx(2.4 * HOUR)


async def test_one_notice_a_drop_below_a_day(data_dir, receiver, monkeypatch):
    # seed 1: after both bids Tokugawa chooses the first player (as in test_game_clock_keeper.py)
    monkeypatch.setattr(club_games, "secrets", SimpleNamespace(token_urlsafe=secrets.token_urlsafe, randbelow=lambda _: 1))
    fake = FakeTime()
    club = await start_club(data_dir, clock_now=fake, notices=NoticeOptions(allow_private=True))
    try:
        alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
        for lobby, name in ((alice, "alice"), (bob, "bob")):
            await lobby.set_notices(receiver.url(f"/{name}"), "json", None, ("clock-low",))
        made = await alice.new_game(ISHIDA, "open", clock="fast")  # 72 h + 12 h a hand-over, at most 120 h
        joined = await bob.join(made.game)
        keeper, queue = club.server.clocks, club.server.notices
        game = club.server.games.find(made.game)
        start = fake.now = keeper.clocks[made.game].since
        # the clocks' one timer wakes for the drop below a day (72 h - 24 h), before the time out (72 h)
        due = keeper._timer.when() - asyncio.get_running_loop().time()
        assert abs(due - 48 * HOUR) < 60, due / HOUR

        fake.now = start + 47 * HOUR  # both bid (6.3): 25 h left each, not low
        await keeper.check(fake.now)
        await queue.idle()
        assert receiver.received == []
        fake.now = start + 49 * HOUR  # 23 h left each: one notice each
        await keeper.check(fake.now)
        await wait_until(lambda: len(lows(receiver, "alice")) == 1 and len(lows(receiver, "bob")) == 1, "a notice each")
        fake.now = start + 50 * HOUR  # still low: nothing more
        await keeper.check(fake.now)

        await play(alice, made, lambda: ISHIDA not in game.host.state.decision.sides)  # alice bids: 22 h left
        # bob bids and plays until the decision is alice's: she gains 12 h (34 h), back above a day
        await play(bob, joined, lambda: ISHIDA in game.host.state.decision.sides)
        await queue.idle()
        assert (len(lows(receiver, "alice")), len(lows(receiver, "bob"))) == (1, 1)
        assert keeper.clocks[made.game].left_s[0] == 22 * HOUR + PRESETS["fast"].increment_s
        fake.now += 11 * HOUR  # 23 h: a second drop, a second notice; bob's clock, low and stopped, says nothing
        await keeper.check(fake.now)
        await wait_until(lambda: len(lows(receiver, "alice")) == 2, "alice's second notice")
        await queue.idle()
        assert len(lows(receiver, "bob")) == 1
        body = lows(receiver, "alice")[1]
        assert body["game"] == made.game and body["opponent"] == "bob" and body["clocks"] == "Ishida 23h (running) · Tokugawa 22h"
        assert "running low" in body["text"]
        for got in receiver.received:  # public facts only (R55)
            for side in BOTH_SIDES:
                assert names_in(json.dumps(got.body), side) == set()

        await alice.close()
        await bob.close()
    finally:
        await club.stop()
