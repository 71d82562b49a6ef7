"""Invitations, private games and rematches (issue 24), over a real Unix
socket with a real SQLite store: an invitation is its member's only, accepted
by joining or declined (withdrawn, its maker told in the lobby); a private
game is invisible to others and answered byte for byte as a game that does
not exist; a rematch is the swapped invitation; "mine" lists my move first,
the one waiting longest on top. Each refusal is one line and audited."""

from __future__ import annotations

import asyncio
import json

import pytest

from club_helpers import start_club, wait_until
from rules.sides import Side
from sekigahara_tui.club.client import ClubRefused
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.store import Store
from sekigahara_tui.net.protocol import PROTOCOL_VERSION

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


@pytest.fixture
async def audited(data_dir):
    audit = AuditLog(members.prepare_data_dir(data_dir))
    club = await start_club(data_dir, names=("alice", "bob", "carol"), audit=audit)
    yield club, audit
    await club.stop()
    audit.close()


def refused(audit: AuditLog) -> list[str]:
    return [line for line in audit.lines() if " refused " in line]


def ids(lines) -> list[str]:
    return [line.game for line in lines]


async def test_an_invitation_is_listed_to_its_member_only_and_accepted_by_joining(audited):
    club, audit = audited
    alice, bob, carol = (club.lobby_client(name) for name in ("alice", "bob", "carol"))
    made = await alice.new_game(ISHIDA, "open", invite="bob")
    assert made.game in ids((await bob.lobby()).invitations)
    carol_lobby = await carol.lobby()
    assert made.game not in ids(carol_lobby.open + carol_lobby.invitations + carol_lobby.watchable)
    line = (await alice.lobby()).mine[0]
    assert line.game == made.game and line.invited == "bob"
    before = len(refused(audit))
    with pytest.raises(ClubRefused, match="made for another member") as third:
        await carol.join(made.game)
    assert "\n" not in str(third.value) and len(refused(audit)) == before + 1
    assert Store.open(club.store.path, read_only=True).summaries()[0].players == ("alice", None)
    joined = await bob.join(made.game)
    assert joined.seat is TOKUGAWA
    assert made.game in ids((await bob.lobby()).mine)
    assert (await bob.lobby()).invitations == ()
    # The terms survive a restart: the store holds them.
    assert club.store.terms()[made.game].invited == "bob"
    for client in (alice, bob, carol):
        await client.close()


async def test_a_declined_invitation_is_withdrawn_and_its_maker_told(audited):
    club, audit = audited
    alice, bob, carol = (club.lobby_client(name) for name in ("alice", "bob", "carol"))
    made = await alice.new_game(TOKUGAWA, "open", invite="bob")
    await alice.lobby()  # alice follows her lobby
    with pytest.raises(ClubRefused, match="no invitation to you"):
        await carol.decline(made.game)
    await bob.decline(made.game)
    assert made.game not in club.server.catalog
    assert [s.id for s in club.store.summaries()] == []
    assert club.store.terms() == {}
    news = (await alice.lobby()).news
    assert news == (f"bob declined your invitation (game {made.game})",)
    for client in (alice, bob, carol):
        await client.close()


async def test_a_bad_invitation_is_one_line_audited_and_makes_nothing(audited):
    club, audit = audited
    alice = club.lobby_client("alice")
    for name, opponent, words in (("nobody", "open", "not a member"), ("alice", "open", "yourself"),
                                  ("computer", "open", "not a member"), ("bob", "computer", "must be 'open'")):
        before = len(refused(audit))
        with pytest.raises(ClubRefused, match=words) as bad:
            await alice.new_game(ISHIDA, opponent, invite=name)
        assert "\n" not in str(bad.value)
        assert len(refused(audit)) == before + 1
    assert club.store.summaries() == []
    await alice.close()


async def raw_lobby(club, member: str):
    reader, writer = await asyncio.open_unix_connection(str(club.socket))
    hello = {"type": "club_hello", "protocol": PROTOCOL_VERSION, "session": club.server.open_session(member), "member": None}
    writer.write(json.dumps(hello).encode() + b"\n")
    assert json.loads(await reader.readline())["type"] == "club_welcome"
    return reader, writer


async def answer(reader, writer, message: dict) -> bytes:
    writer.write(json.dumps(message).encode() + b"\n")
    return await reader.readline()


async def test_a_private_game_is_invisible_and_answered_as_a_game_that_does_not_exist(audited):
    club, audit = audited
    alice, bob, carol = (club.lobby_client(name) for name in ("alice", "bob", "carol"))
    private = (await alice.new_game(ISHIDA, "open", invite="bob", private=True)).game
    await bob.join(private)
    public = (await alice.new_game(ISHIDA, "open")).game
    lobby = await carol.lobby()
    shown = ids(lobby.mine + lobby.open + lobby.watchable + lobby.finished + lobby.invitations)
    assert public in shown and private not in shown
    # its players see it, and may watch it
    assert private in ids((await bob.lobby()).mine)
    assert (await bob.watch(private)).seat is None
    missing = ("x" if private[0] != "x" else "y") + private[1:]
    reader, writer = await raw_lobby(club, "carol")
    for kind in ("watch", "enter", "join_game", "decline_game", "withdraw_game", "rematch", "get_record"):
        asked = await answer(reader, writer, {"type": kind, "id": "q1", "game": private})
        unknown = await answer(reader, writer, {"type": kind, "id": "q1", "game": missing})
        assert json.loads(asked)["kind"] == "unknown-game", kind
        assert asked.replace(private.encode(), missing.encode()) == unknown, kind
    writer.close()
    for client in (alice, bob, carol):
        await client.close()


async def test_a_rematch_is_the_swapped_invitation_to_the_same_opponent(audited):
    club, audit = audited
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    first = await alice.new_game(ISHIDA, "open")
    await bob.join(first.game)
    with pytest.raises(ClubRefused, match="not over"):
        await alice.rematch(first.game)
    game = club.server.games.find(first.game)
    await club.server.results.end_outside_rules(game, "resigned", TOKUGAWA, "bob")
    offered = await alice.rematch(first.game)
    assert offered.seat is TOKUGAWA  # alice played Ishida: now Tokugawa
    assert offered.game in ids((await bob.lobby()).invitations)
    assert club.store.terms()[offered.game].rematch_of == first.game
    accepted = await bob.join(offered.game)
    assert accepted.seat is ISHIDA
    carol = club.lobby_client("carol")
    with pytest.raises(ClubRefused, match="neither seat"):
        await carol.rematch(first.game)
    for client in (alice, bob, carol):
        await client.close()


async def test_a_rematch_keeps_the_clock_preset_and_the_time_out_rule(audited):
    club, _audit = audited
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    first = await alice.new_game(ISHIDA, "open", clock="fast", on_time_out="stand-in:random")
    await bob.join(first.game)
    await club.server.results.end_outside_rules(club.server.games.find(first.game), "resigned", ISHIDA, "alice")
    offered = await bob.rematch(first.game)
    assert club.store.clock_terms(offered.game) == ("fast", "stand-in:random")
    await alice.join(offered.game)  # both seats taken: its clock starts
    await wait_until(lambda: offered.game in club.server.clocks.clocks, "the rematch's clock")
    assert club.server.clocks.clocks[offered.game].preset.name == "fast"
    assert club.server.clocks.kept[offered.game].on_time_out == "stand-in:random"
    # a game without a clock gives a rematch without one
    plain = await alice.new_game(ISHIDA, "open")
    await bob.join(plain.game)
    await club.server.results.end_outside_rules(club.server.games.find(plain.game), "resigned", ISHIDA, "alice")
    assert club.store.clock_terms((await bob.rematch(plain.game)).game) == ("none", "lose")
    for client in (alice, bob):
        await client.close()


async def test_mine_lists_my_move_first_the_longest_waiting_on_top(audited):
    club, audit = audited
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    games = []
    for _ in range(3):
        made = await alice.new_game(ISHIDA, "open")
        await bob.join(made.game)
        games.append(made.game)
    catalog = club.server.catalog
    await alice.lobby()  # loads her games: whose move it is needs them
    await wait_until(lambda: all(catalog.get(g).to_move is not None for g in games), "whose move is known")
    # Made up times and moves: game 0 waits for alice since 100, game 2 since 50,
    # game 1 waits for bob only (so it is not alice's move).
    for game, to_move, updated in ((games[0], (ISHIDA, TOKUGAWA), 100.0), (games[1], (TOKUGAWA,), 10.0), (games[2], (ISHIDA,), 50.0)):
        catalog.get(game).to_move, catalog.get(game).updated = to_move, updated
    assert ids((await alice.lobby()).mine) == [games[2], games[0], games[1]]
    line = (await alice.lobby()).mine[0]
    assert line.where is not None and line.where.startswith("week 1")
    for client in (alice, bob):
        await client.close()


async def test_an_invitation_notice_goes_to_the_invited_member_only_when_away(data_dir):
    from notice_helpers import WebhookReceiver
    from sekigahara_tui.hosting.notice_delivery import NoticeOptions

    receiver = await WebhookReceiver().start()
    club = await start_club(data_dir, notices=NoticeOptions(allow_private=True, resume="ssh -p 2222 club.test"))
    try:
        bob = club.lobby_client("bob")
        await bob.set_notices(receiver.url("/bob"), "json", None, ("invitation", "rematch"))
        await bob.close()
        await wait_until(lambda: "bob" not in club.server.lobby.connections, "bob away")
        alice = club.lobby_client("alice")
        first = await alice.new_game(ISHIDA, "open", invite="bob")
        bob = club.lobby_client("bob")
        await bob.lobby()  # bob is in the lobby: he sees the second one there, no notice
        second = await alice.new_game(ISHIDA, "open", invite="bob")
        await bob.close()
        await wait_until(lambda: "bob" not in club.server.lobby.connections, "bob away again")
        third = await alice.new_game(ISHIDA, "open", invite="bob")
        await wait_until(lambda: len(receiver.received) >= 2, "two notices")
        bodies = [got.body for got in receiver.received]
        assert [(b["kind"], b["game"], b["opponent"]) for b in bodies] == [("invitation", first.game, "alice"), ("invitation", third.game, "alice")]
        assert second.game not in json.dumps(bodies)
        assert bodies[0]["resume"] == "ssh -p 2222 club.test" and bodies[0]["week"] is None  # names the game and inviter only
        await alice.close()
    finally:
        await club.stop()
        await receiver.runner.cleanup()
