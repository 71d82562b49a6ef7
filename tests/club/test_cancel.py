"""Cancelling a club game by agreement (issue 24; hosting/results.py): either
player proposes, both see it, the other accepts (no result, counted by
nobody: the game leaves "mine" and the open list) or declines; a standing
proposal survives a restart; only before week 2 (6.1)."""

from __future__ import annotations

import asyncio

from club_helpers import TIMEOUT, start_club
from test_resign import Table, assert_face_up, club, restarted  # noqa: F401  (club: the audited fixture)
from rules.sides import Side
from rules.surface import GameResult
from sekigahara_tui.net.bot import RandomBot

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
CANCELLED = "cancelled by agreement: no result"


def follow(client) -> list[tuple[str, bool, bool]]:
    heard: list[tuple[str, bool, bool]] = []
    client.follower = lambda note, error, to_answer: heard.append((note, error, to_answer))
    return heard


async def test_propose_decline_then_accept(club):
    table = await Table(club).sit()
    alice, bob = follow(table.alice), follow(table.bob)

    # nothing to answer yet
    table.bob.answer_cancel(True)
    await table.bob.wait_for(lambda c: bob, TIMEOUT)
    assert bob.pop() == ("nobody has proposed to cancel this game", True, False)

    table.alice.propose_cancel()
    await table.bob.wait_for(lambda c: c.proposal is not None, TIMEOUT)
    await table.alice.wait_for(lambda c: c.proposal is not None, TIMEOUT)
    assert bob.pop()[1:] == (False, True)  # Bob is asked
    assert alice.pop()[1:] == (False, False)  # Alice sees her own proposal
    assert table.bob.proposal.side is ISHIDA and "proposes to cancel" in table.bob.proposal.note

    # the proposer cannot accept her own, nor propose twice
    table.alice.answer_cancel(True)
    table.alice.propose_cancel()
    await table.alice.wait_for(lambda c: len(alice) >= 2, TIMEOUT)
    assert alice == [("you proposed it: your opponent accepts or declines", True, False),
                     ("you have proposed to cancel already: waiting for Tokugawa's answer", True, False)]
    alice.clear()

    table.bob.answer_cancel(False)
    await table.alice.wait_for(lambda c: c.proposal is None, TIMEOUT)
    await table.bob.wait_for(lambda c: c.proposal is None, TIMEOUT)
    assert alice.pop() == ("Tokugawa declined to cancel: the game goes on", False, False)
    assert club.store.load_game(table.game)[0].cancel_offer is None

    # Bob proposes now, Alice accepts: no result for anyone
    table.bob.propose_cancel()
    await table.alice.wait_for(lambda c: c.proposal is not None, TIMEOUT)
    assert alice.pop()[2] is True
    table.alice.answer_cancel(True)
    for client in table.clients:
        await client.wait_for(lambda c: c.result is not None, TIMEOUT)
        assert client.result == CANCELLED and client.view.result == GameResult(None, "cancelled")
    assert_face_up(table.alice.view, "seat")
    assert_face_up(table.carol.view, "spectator")
    info, _ = club.store.load_game(table.game)
    assert (info.status, info.result) == ("over", CANCELLED)
    assert (info.end.kind, info.end.winner, info.end.by) == ("cancelled", None, "alice")

    for name in ("alice", "bob", "carol"):
        lobby = await table.lobbies[name].lobby()
        assert table.game not in {line.game for line in lobby.mine + lobby.open + lobby.watchable}
    assert [line.result for line in (await table.lobbies["bob"].lobby()).finished] == [CANCELLED]
    refusals = [line for line in club.server.audit.lines() if " refused " in line]
    assert any("nobody has proposed" in line and "member=bob" in line for line in refusals)
    await table.close()


async def test_a_standing_proposal_survives_a_restart(data_dir):
    club = await start_club(data_dir)
    table = await Table(club).sit()
    table.alice.propose_cancel()
    await table.bob.wait_for(lambda c: c.proposal is not None, TIMEOUT)
    await table.close()
    club = await restarted(club)
    try:
        bob_lobby = club.lobby_client("bob")
        seat = bob_lobby.seat_client(await bob_lobby.enter(table.game))
        heard = follow(seat)
        task = asyncio.create_task(seat.run())
        await seat.wait_for(lambda c: c.proposal is not None, TIMEOUT)
        assert seat.proposal.side is ISHIDA and heard[0][2] is True
        seat.answer_cancel(True)
        await seat.wait_for(lambda c: c.result is not None, TIMEOUT)
        assert seat.result == CANCELLED
        await seat.close()
        await task
        await bob_lobby.close()
    finally:
        await club.stop()


class UntilWeek(RandomBot):
    """A random player that stops deciding once the game reaches `week`."""

    def __init__(self, seed: int, week: int) -> None:
        super().__init__(seed)
        self.week = week

    def decide(self, client) -> None:
        if client.view is not None and client.view.week < self.week:
            super().decide(client)


async def test_cancel_in_week_2_is_refused(club):
    table = await Table(club).sit()
    for client, seed in ((table.alice, 1), (table.bob, 2)):
        client.listener = UntilWeek(seed, 2)
        client.listener.decide(client)
    for client in (table.alice, table.bob):
        await client.wait_for(lambda c: c.view.week >= 2, TIMEOUT * 2)
    heard = follow(table.alice)
    table.alice.propose_cancel()
    await table.alice.wait_for(lambda c: heard, TIMEOUT)
    assert heard == [("a game can be cancelled only before week 2 (6.1): this one is in week 2; resign instead", True, False)]
    assert club.store.load_game(table.game)[0].status == "playing" and table.bob.proposal is None
    assert any("only before week 2 (6.1)" in line and "member=alice" in line for line in club.server.audit.lines())
    await table.close()
