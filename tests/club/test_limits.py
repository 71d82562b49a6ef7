"""The club's limits (issue 23, item 7): games in play a member, a rate of
new games a member, failed sign-ins an address at the TCP door; game ids no
one can guess, and an unknown game answered exactly as a wrong token is.
Every refusal is one line to the client, one line in the audit log, and
changes nothing."""

from __future__ import annotations

import asyncio
import json
import os
import re

import pytest

from club_helpers import start_club
from rules.sides import Side
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.hosting import members, web_tokens
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.limits import FAILURES_ALLOWED, TOO_MANY_SIGN_INS, ClubLimits, FailedSignIns, TokenBucket, address_key
from sekigahara_tui.net.protocol import PROTOCOL_VERSION

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
WAIT = 20.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def limited(data_dir):
    """A club with small limits and an audit log."""
    audit = AuditLog(members.prepare_data_dir(data_dir))
    club = await start_club(data_dir, limits=ClubLimits(games_in_play=3, new_games_at_once=100), audit=audit)
    yield club, audit
    await club.stop()
    audit.close()


def refused_lines(audit: AuditLog) -> list[str]:
    return [line for line in audit.lines() if " refused " in line]


def games_stored(club) -> list[str]:
    return sorted(summary.id for summary in club.store.summaries())


async def test_a_member_has_at_most_n_games_in_play_made_or_joined(limited):
    club, audit = limited
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = [await alice.new_game(ISHIDA, "open"), await alice.new_game(TOKUGAWA, "computer"), await alice.new_game(None, "open")]
    before = games_stored(club)
    with pytest.raises(ClubRefused) as refused:
        await alice.new_game(ISHIDA, "open")
    assert refused.value.kind == "not-authorised"
    assert str(refused.value) == "you have 3 games in play, at most 3 a member: finish or withdraw one first"
    assert games_stored(club) == before  # nothing made
    (line,) = refused_lines(audit)
    assert line.endswith(f" refused front=club member=alice address=unix:{os.getuid()}: " + str(refused.value))
    # joining is taking another game too
    for _ in range(3):
        await bob.new_game(TOKUGAWA, "open")
    with pytest.raises(ClubRefused, match="you have 3 games in play"):
        await bob.join(made[0].game)
    assert club.server.catalog.entries[made[0].game].players[TOKUGAWA] is None
    # one withdrawn, alice may make another; another member is not held up meanwhile
    assert (await club.lobby_client("carol").join(made[2].game)).seat is not None
    await alice.withdraw(made[0].game)
    assert (await alice.new_game(ISHIDA, "open")).game not in before
    # the club's own Unix user (the local door) is its administrator: not limited
    admin = ClubClient(club.socket, member="alice")
    assert (await admin.new_game(ISHIDA, "open")).seat is ISHIDA
    assert len(refused_lines(audit)) == 2
    for client in (alice, bob, admin):
        await client.close()


async def test_new_games_a_member_are_rate_limited_by_a_token_bucket(data_dir):
    club = await start_club(data_dir, limits=ClubLimits(games_in_play=100, new_games_at_once=3, new_game_every=6.0))
    clock = Clock()
    club.server.limits.new_games.clock = clock
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    try:
        for _ in range(3):
            await alice.new_game(ISHIDA, "open")
        with pytest.raises(ClubRefused) as refused:
            await alice.new_game(ISHIDA, "open")
        assert refused.value.kind == "not-authorised"
        assert str(refused.value) == "games made too fast (at most 10 a minute after the first 3): wait 6 s, then make it"
        assert len(club.store.summaries()) == 3
        await bob.new_game(ISHIDA, "open")  # each member has a bucket of their own
        clock.now += 6.0
        await alice.new_game(ISHIDA, "open")
        with pytest.raises(ClubRefused, match="wait 6 s"):
            await alice.new_game(ISHIDA, "open")
        clock.now += 3.0
        with pytest.raises(ClubRefused, match="wait 3 s"):
            await alice.new_game(ISHIDA, "open")
        assert len(club.store.summaries()) == 5
    finally:
        await alice.close()
        await bob.close()
        await club.stop()


def test_a_token_bucket_fills_at_its_rate_up_to_its_capacity():
    clock = Clock()
    bucket = TokenBucket(2, 10.0, clock)
    assert bucket.take("a") is None and bucket.take("a") is None
    assert bucket.take("a") == pytest.approx(10.0)
    clock.now += 4.0
    assert bucket.take("a") == pytest.approx(6.0)
    clock.now += 1000.0  # never more than the capacity
    assert [bucket.take("a") for _ in range(3)][:2] == [None, None]
    assert bucket.take("b") is None  # another key


async def test_game_ids_are_random_and_unguessable(club):
    alice = club.lobby_client("alice")
    ids = [(await alice.new_game(ISHIDA, "open")).game for _ in range(5)]
    await alice.close()
    # secrets.token_urlsafe(9): 72 random bits each, nothing counted
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{12}", game_id) for game_id in ids)
    assert len(set(ids)) == 5 and len({game_id[:4] for game_id in ids}) == 5


async def first_answer(address: tuple[str, int], message: dict) -> tuple[bytes, bytes]:
    """The raw first line the club answers `message` with, and what follows it (b"": closed)."""
    reader, writer = await asyncio.open_connection(*address)
    writer.write(json.dumps(message).encode() + b"\n")
    line = await asyncio.wait_for(reader.readline(), WAIT)
    rest = await asyncio.wait_for(reader.read(), WAIT)
    writer.close()
    return line, rest


async def test_an_unknown_game_is_answered_exactly_as_a_wrong_token(limited):
    club, audit = limited
    tcp = await club.server.listen_tcp("127.0.0.1", 0)
    alice = club.lobby_client("alice")
    made = await alice.new_game(ISHIDA, "open")
    await alice.close()
    unknown = "x" + made.game[1:] if made.game[0] != "x" else "y" + made.game[1:]

    def hello(game: str, token: str) -> dict:
        return {"type": "hello", "protocol": PROTOCOL_VERSION, "game": game, "seat": "ishida", "token": token, "seen": None}

    def watch_game(game: str, token: str) -> dict:
        return {"type": "watch_game", "protocol": PROTOCOL_VERSION, "game": game, "token": token, "seen": None}

    for opening in (hello, watch_game):
        wrong = await first_answer(tcp, opening(made.game, "not-the-token"))
        missing = await first_answer(tcp, opening(unknown, "not-the-token"))
        assert wrong == missing  # the same bytes, and both closed
        assert wrong[1] == b""
        refusal = json.loads(wrong[0])
        assert refusal["type"] == "refused" and refusal["kind"] == "not-authorised" and "\n" not in refusal["reason"]
    lines = refused_lines(audit)
    assert len(lines) == 4
    assert all(" address=127.0.0.1" in line for line in lines)
    assert {re.search(r" game=(\S+)", line).group(1) for line in lines} == {made.game, unknown}


async def test_failed_sign_ins_at_the_tcp_door_are_limited_per_address(limited, monkeypatch):
    club, audit = limited
    tcp = await club.server.listen_tcp("127.0.0.1", 0)
    token = web_tokens.issue_web_token(club.data_dir, "alice")
    monkeypatch.setattr(web_tokens, "FAILED_SIGN_IN_DELAY", 0.0)
    checked = []
    check = web_tokens.signed_in_generation  # the TCP door's check (it binds the sign-in to the token)

    def counted(*arguments):
        checked.append(arguments[1])
        return check(*arguments)

    monkeypatch.setattr(web_tokens, "signed_in_generation", counted)

    async def sign_in(token_given: str) -> str:
        client = ClubClient(None, member="alice", token=token_given, tcp=tcp)
        try:
            return await client.connect()
        except ClubRefused as refusal:
            return str(refusal)
        finally:
            await client.close()

    # a burst of wrong tokens at once: checks under way count, so no more than the allowed start
    answers = await asyncio.gather(*(sign_in("wrong") for _ in range(3 * FAILURES_ALLOWED)))
    assert len(checked) == FAILURES_ALLOWED
    assert answers.count("that member's name and token do not match") == FAILURES_ALLOWED
    assert answers.count(TOO_MANY_SIGN_INS) == 2 * FAILURES_ALLOWED
    # now even the right token is refused, unchecked, from this address ...
    assert await sign_in(token) == TOO_MANY_SIGN_INS
    assert len(checked) == FAILURES_ALLOWED
    # ... and each refusal was one audit line
    assert len([line for line in refused_lines(audit) if "address=127.0.0.1" in line]) == 3 * FAILURES_ALLOWED + 1
    # another address still gets in (the loopback's 127.0.0.2)
    reader, writer = await asyncio.open_connection(*tcp, local_addr=("127.0.0.2", 0))
    writer.write(json.dumps({"type": "club_hello", "protocol": PROTOCOL_VERSION, "session": None, "member": "alice", "token": token}).encode() + b"\n")
    welcome = json.loads(await asyncio.wait_for(reader.readline(), WAIT))
    assert welcome["type"] == "club_welcome" and welcome["member"] == "alice"
    writer.close()
    assert any(line.endswith("sign-in front=tcp member=alice address=127.0.0.2") for line in audit.lines())


def test_failed_sign_ins_are_forgotten_after_the_window_and_counted_by_ipv6_prefix():
    clock = Clock()
    failures = FailedSignIns(2, 60.0, clock)
    failures.failed("2001:db8::1")
    failures.failed("2001:db8::ffff")  # the same /64
    assert failures.too_many("2001:db8::2") and not failures.too_many("2001:db8:0:1::1")
    failures.forgive("2001:db8::1")
    assert not failures.too_many("2001:db8::1")
    failures.failed("2001:db8::1")
    clock.now += 60.0
    assert not failures.too_many("2001:db8::1")
    assert address_key("::ffff:192.0.2.7") == address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("local") == "local"
