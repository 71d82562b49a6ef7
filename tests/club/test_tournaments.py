"""Tournaments run to the end in a real club (issue 26): members and the
computer sign up over the lobby's socket, the club makes the games, the
computer ("random", the fastest level) plays them, and the standings and
pairings are checked against the recorded results by the hand rule
(tournament_pairing.py's docstring)."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from club_helpers import TIMEOUT, start_club, wait_until
from sekigahara_tui.club.client import ClubRefused
from sekigahara_tui.club.protocol_tournaments import GetTournament, JoinTournament, NewTournament, StartTournament
from sekigahara_tui.hosting import clocks as clock_presets
from sekigahara_tui.hosting.clocks import ClockPreset
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.tournament_pairing import Played, most_swiss_rounds, standings, swiss_round

SHORT = ClockPreset("test-short", 5.0, 2.0, 10.0, correspondence=False)  # seconds: a member who never moves loses


@pytest.fixture(autouse=True)
def short_preset(monkeypatch):
    monkeypatch.setitem(clock_presets.PRESETS, SHORT.name, SHORT)


def fresh() -> str:
    import secrets

    return secrets.token_urlsafe(6)


async def ask(client, message):
    return await client.tournament(message)


def recorded(club, shown) -> list[Played]:
    """Each board's score from the store's results table, by the hand rule: a win 1, cancelled 0.5, a bye 1."""
    played = []
    for b in shown.boards:
        if b.tokugawa is None:
            played.append(Played(b.round, b.ishida, None, 1.0))
            continue
        info, _ = club.store.load_game(b.game)
        assert info.status == "over" and info.end is not None
        score = 0.5 if info.end.winner is None else (1.0 if info.end.winner.value == "ishida" else 0.0)
        played.append(Played(b.round, b.ishida, b.tokugawa, score))
    return played


async def run_to_the_end(club, admin, name):
    async def over():
        return (await ask(admin, GetTournament(fresh(), name))).status == "over"

    done = False
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT * 6
    while not done:
        assert loop.time() < deadline, "the tournament did not finish"
        done = await over()
        await asyncio.sleep(0.2)
    return await ask(admin, GetTournament(fresh(), name))


async def test_a_round_robin_of_four_computer_entrants_runs_to_the_end(data_dir):
    club = await start_club(data_dir, computer_seed=7)
    admin = club.lobby_client("alice")  # a session: a member, not the administrator
    try:
        made = await ask(admin, NewTournament(fresh(), "Mini Cup", "round-robin", SHORT.name))
        assert (made.status, made.entrants, made.boards) == ("sign-up", (), ())
        for _ in range(4):
            shown = await ask(admin, JoinTournament(fresh(), "Mini Cup", computer="random"))
        assert shown.entrants == ("computer#1", "computer#2", "computer#3", "computer#4")
        started = await ask(admin, StartTournament(fresh(), "Mini Cup"))
        assert started.status == "playing" and started.rounds == 6 and len(started.boards) == 12
        # every ordered pair once: each pair twice, sides swapped
        assert Counter((b.ishida, b.tokugawa) for b in started.boards) == Counter(
            {(a, b): 1 for a in shown.entrants for b in shown.entrants if a != b})
        for b in started.boards:  # made by the club, both seats the computer's, the clock set
            entry = club.server.catalog.get(b.game)
            assert set(entry.players.values()) == {COMPUTER}
            assert club.server.clocks.store.clocked_game(b.game).clocks.preset == SHORT
        final = await run_to_the_end(club, admin, "Mini Cup")
        played = recorded(club, final)
        table = standings(list(final.entrants), played, "round-robin")
        assert [(s.rank, s.entrant, s.points, s.sonneborn_berger) for s in final.standings] == [
            (i, s.entrant, s.points, s.sonneborn_berger) for i, s in enumerate(table, start=1)]
        assert sum(s.points for s in final.standings) == 12 and all(s.played == 6 for s in final.standings)
        # Sonneborn-Berger by the hand rule, from the recorded results alone
        points = {s.entrant: s.points for s in final.standings}
        for s in final.standings:
            sb = sum((p.score if p.ishida == s.entrant else 1 - p.score) * points[p.tokugawa if p.ishida == s.entrant else p.ishida]
                     for p in played if s.entrant in (p.ishida, p.tokugawa))
            assert s.sonneborn_berger == sb
        with pytest.raises(ClubRefused, match="sign-up is closed"):
            await ask(admin, JoinTournament(fresh(), "Mini Cup", computer="random"))
    finally:
        await admin.close()
        await club.stop()


async def test_a_swiss_of_six_pairs_each_round_from_the_one_before(data_dir):
    club = await start_club(data_dir, computer_seed=11)
    admin = club.lobby_client("alice")
    try:
        await ask(admin, NewTournament(fresh(), "Swiss", "swiss", SHORT.name, rounds=3))
        for _ in range(6):
            shown = await ask(admin, JoinTournament(fresh(), "Swiss", computer="random"))
        entrants = list(shown.entrants)
        first = await ask(admin, StartTournament(fresh(), "Swiss"))
        assert [(b.round, b.ishida, b.tokugawa) for b in first.boards] == [
            (1, "computer#1", "computer#2"), (1, "computer#4", "computer#3"), (1, "computer#5", "computer#6")]
        final = await run_to_the_end(club, admin, "Swiss")
        played = recorded(club, final)
        assert [b.round for b in final.boards] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
        for r in (2, 3):  # each round is the pairing of the rounds before it, exactly
            expected = swiss_round(entrants, [p for p in played if p.round < r])
            assert [(p.ishida, p.tokugawa) for p in played if p.round == r] == [(e.ishida, e.tokugawa) for e in expected]
        pairs = [frozenset((p.ishida, p.tokugawa)) for p in played]
        assert len(set(pairs)) == 9  # no rematch
        table = standings(entrants, played, "swiss")
        assert [(s.entrant, s.points, s.buchholz, s.sonneborn_berger) for s in final.standings] == [
            (s.entrant, s.points, s.buchholz, s.sonneborn_berger) for s in table]
        assert sum(s.points for s in final.standings) == 9
    finally:
        await admin.close()
        await club.stop()


async def test_a_member_out_of_time_loses_the_tournament_game(data_dir):
    """bob signs up and never comes: in each game he must bid (6.3) and his
    clock runs out (SHORT: 5 s); a time-out is a loss. Waited for, not timed."""
    club = await start_club(data_dir, computer_seed=3)
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    try:
        await ask(alice, NewTournament(fresh(), "Cup", "round-robin", SHORT.name))
        await ask(bob, JoinTournament(fresh(), "Cup"))
        await ask(alice, JoinTournament(fresh(), "Cup", computer="random"))
        started = await ask(alice, StartTournament(fresh(), "Cup"))
        assert [(b.ishida, b.tokugawa) for b in started.boards] == [("bob", "computer#1"), ("computer#1", "bob")]
        final = await run_to_the_end(club, alice, "Cup")
        for b in final.boards:
            info, _ = club.store.load_game(b.game)
            bob_side = "ishida" if b.ishida == "bob" else "tokugawa"
            assert (info.end.kind, info.end.seat.value) == ("timed-out", bob_side)
        assert [(s.entrant, s.points, s.played, s.sonneborn_berger) for s in final.standings] == [
            ("computer#1", 2, 2, 0), ("bob", 0, 2, 0)]
    finally:
        await alice.close()
        await bob.close()
        await club.stop()


async def test_requests_refused_in_one_line_and_audited(data_dir):
    from sekigahara_tui.hosting import members
    from sekigahara_tui.hosting.audit import AuditLog

    club = await start_club(data_dir, audit=AuditLog(members.prepare_data_dir(data_dir)))
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    try:
        await ask(alice, NewTournament(fresh(), "Cup", "swiss", SHORT.name, rounds=2))
        before = club.store.summaries()
        refusals = []

        async def refused(client, message, reason):
            with pytest.raises(ClubRefused, match=reason.replace("(", r"\(")) as refusal:
                await ask(client, message)
            assert "\n" not in str(refusal.value)
            refusals.append(reason)

        await refused(alice, NewTournament(fresh(), "Cup", "round-robin", SHORT.name), "there is a tournament called 'Cup' already")
        await refused(alice, NewTournament(fresh(), "Other", "swiss", SHORT.name), "a Swiss needs --rounds N")
        await refused(alice, NewTournament(fresh(), "Other", "round-robin", SHORT.name, rounds=2), "a round-robin takes none")
        await refused(bob, JoinTournament(fresh(), "Nope"), "no tournament called 'Nope'")
        await refused(bob, JoinTournament(fresh(), "Cup", computer="random"), "only the tournament's maker or the administrator")
        await refused(bob, StartTournament(fresh(), "Cup"), "only the tournament's maker or the administrator starts it")
        await refused(alice, StartTournament(fresh(), "Cup"), "'Cup' has 0 entrants: it needs at least 2")
        await ask(bob, JoinTournament(fresh(), "Cup"))
        await refused(bob, JoinTournament(fresh(), "Cup"), "bob has signed up for 'Cup' already")
        await ask(alice, JoinTournament(fresh(), "Cup", computer="random"))
        await refused(alice, JoinTournament(fresh(), "Cup", computer="heuristic"), "plays at level random already")
        await refused(alice, StartTournament(fresh(), "Cup"), "a Swiss of 2 has at most 1 rounds")
        assert club.store.summaries() == before  # no game made
        shown = await ask(bob, GetTournament(fresh(), "Cup"))
        assert (shown.status, shown.entrants, shown.boards) == ("sign-up", ("bob", "computer#1"), ())
        listed = await ask(bob, GetTournament(fresh()))
        assert [(t.name, t.format, t.status, t.entrants) for t in listed.tournaments] == [("Cup", "swiss", "sign-up", 2)]
        await wait_until(lambda: sum(" refused " in f" {line} " for line in club.server.audit.lines()) >= len(refusals), "the audit lines")
        lines = [line for line in club.server.audit.lines() if "refused" in line]
        for reason in refusals:
            assert any(reason in line for line in lines), reason
    finally:
        await alice.close()
        await bob.close()
        await club.stop()


async def test_hostile_tournament_messages_are_refused_in_one_line_and_change_nothing(data_dir):
    import json

    from sekigahara_tui.net.protocol import PROTOCOL_VERSION

    club = await start_club(data_dir)
    reader, writer = await asyncio.open_unix_connection(str(club.socket), limit=1 << 20)
    try:
        writer.write(json.dumps({"type": "club_hello", "protocol": PROTOCOL_VERSION, "session": None, "member": "alice"}).encode() + b"\n")
        assert json.loads(await reader.readline())["type"] == "club_welcome"
        hostile = [
            {"type": "new_tournament", "id": "1", "name": "x" * 41, "format": "swiss", "clock": "live", "rounds": 2},
            {"type": "new_tournament", "id": "2", "name": "\x1b[31mred", "format": "swiss", "clock": "live", "rounds": 2},
            {"type": "new_tournament", "id": "3", "name": " Cup", "format": "swiss", "clock": "live", "rounds": 2},
            {"type": "new_tournament", "id": "4", "name": "Cup", "format": "knockout", "clock": "live"},
            {"type": "new_tournament", "id": "5", "name": "Cup", "format": "swiss", "clock": "blitz", "rounds": 2},
            {"type": "new_tournament", "id": "6", "name": "Cup", "format": "swiss", "clock": "live", "rounds": 0},
            {"type": "new_tournament", "id": "7", "name": "Cup", "format": "swiss", "clock": "live", "rounds": 2, "prize": 1},
            {"type": "join_tournament", "id": "8", "name": "Cup", "computer": "grandmaster"},
            {"type": "get_tournament", "id": "9", "name": ["Cup"]},
        ]
        for message in hostile:
            writer.write(json.dumps(message).encode() + b"\n")
            reply = json.loads(await reader.readline())
            assert (reply["type"], reply["kind"]) == ("refused", "bad-message"), reply
            assert "\n" not in reply["reason"] and "\x1b" not in reply["reason"]
        writer.write(json.dumps({"type": "get_tournament", "id": "10", "name": None}).encode() + b"\n")
        assert json.loads(await reader.readline()) == {"type": "tournaments", "reply_to": "10", "tournaments": []}
    finally:
        writer.close()
        await club.stop()


async def test_a_cancelled_game_is_half_a_point_each_and_a_resignation_a_loss(data_dir):
    """Ended through results.py, the one place a game ends outside the rules;
    the standings follow from the stored results, and the round-robin is over."""
    from rules.sides import Side

    club = await start_club(data_dir)
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    try:
        await ask(alice, NewTournament(fresh(), "Cup", "round-robin", "none"))
        await ask(alice, JoinTournament(fresh(), "Cup"))
        await ask(bob, JoinTournament(fresh(), "Cup"))
        started = await ask(alice, StartTournament(fresh(), "Cup"))
        first, second = (b.game for b in started.boards)
        assert [(b.ishida, b.tokugawa) for b in started.boards] == [("alice", "bob"), ("bob", "alice")]
        await club.server.results.end_outside_rules(club.server.games.find(first), "cancelled", Side.TOKUGAWA, "bob")
        middle = await ask(bob, GetTournament(fresh(), "Cup"))
        assert [(s.entrant, s.points, s.played) for s in middle.standings] == [("alice", 0.5, 1), ("bob", 0.5, 1)]
        assert middle.status == "playing"
        await club.server.results.end_outside_rules(club.server.games.find(second), "resigned", Side.ISHIDA, "bob")
        final = await ask(bob, GetTournament(fresh(), "Cup"))
        # alice: 0.5 + 1; SB: half of bob's 0.5 + all of it = 0.75; bob: half of alice's 1.5
        assert [(s.entrant, s.points, s.sonneborn_berger) for s in final.standings] == [("alice", 1.5, 0.75), ("bob", 0.5, 0.75)]
        assert final.status == "over" and [b.result for b in final.boards] == [
            "cancelled by agreement: no result", "ishida resigned: tokugawa wins"]
    finally:
        await alice.close()
        await bob.close()
        await club.stop()
