"""The club's chat over a real club on loopback (issue 26; hosting/chat.py):
a game's chat reaches its two players only, stored as said; hostile text is
refused with one line (and one audit line) and nothing stored or told, or,
being printable, stored and shown literally; a spectator's raw byte stream
never holds a player's line (R55); the rate limit, the administrator's mute
and deletion; a `chat` notice to a player who is away; the replay's chat to
its players only; the club's channel in the lobby."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from attrs import define

from club_helpers import TIMEOUT, Club, close_all, start_club, wait_until
from notice_helpers import WebhookReceiver, receiver  # noqa: F401 - receiver: a fixture
from rules.sides import Side
from sekigahara_tui.club.client import ClubRefused
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.chat import GUESTS_READ_ONLY, MUTED, NOT_YOUR_GAME, ChatOptions
from sekigahara_tui.hosting.notice_delivery import NoticeOptions
from sekigahara_tui.net.protocol import PROTOCOL_VERSION

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
SRC = Path(__file__).resolve().parents[2] / "src"


@define
class Clock:
    """The rate limit's clock: moved by the test, never by time."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def club(data_dir, clock) -> Club:
    club = await start_club(
        data_dir, audit=AuditLog(members.prepare_data_dir(data_dir)), chat=ChatOptions(now=clock),
        notices=NoticeOptions(allow_private=True, resume="ssh -p 2222 club.test"),
    )
    yield club
    await club.stop()


class Table:
    """Alice (Ishida) and Bob (Tokugawa) in one club game; Carol may watch."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.tasks: list[asyncio.Task] = []
        self.seats = []

    async def sit(self, bob_sits: bool = True) -> Table:
        self.lobbies = {name: self.club.lobby_client(name) for name in ("alice", "bob", "carol")}
        self.made = await self.lobbies["alice"].new_game(ISHIDA, "open")
        self.game = self.made.game
        self.joined = await self.lobbies["bob"].join(self.game)
        self.alice = await self.seat(self.lobbies["alice"], self.made)
        self.bob = await self.seat(self.lobbies["bob"], self.joined) if bob_sits else None
        return self

    async def seat(self, lobby, entry):
        client = lobby.seat_client(entry)
        self.seats.append(client)
        self.tasks.append(asyncio.create_task(client.run()))
        await client.wait_for(lambda c: c.view is not None and c.connected, TIMEOUT)
        return client

    async def close(self) -> None:
        await close_all(self.seats, self.tasks, self.lobbies.values())


def stored(club: Club, game: str | None) -> list[str]:
    return [line.text for line in club.server.chat.store.lines(game)]


def refusals_in_audit(club: Club, reason_part: str) -> int:
    return sum(1 for line in club.server.audit.lines() if line.split(" ", 2)[1] == "refused" and reason_part in line)


async def raw_lobby(club: Club, member: str):
    """A lobby connection of raw bytes, signed in as a front end signs in."""
    reader, writer = await asyncio.open_unix_connection(str(club.socket), limit=2**24)
    session = club.server.open_session(member)
    writer.write(json.dumps({"type": "club_hello", "protocol": PROTOCOL_VERSION, "session": session, "member": None}).encode() + b"\n")
    assert json.loads(await reader.readline())["type"] == "club_welcome"
    return reader, writer


# --- a game's chat -----------------------------------------------------------------


async def test_a_line_reaches_both_players_as_said_and_is_stored_with_the_game(club):
    table = await Table(club).sit()
    said = "[red]x[/red] [bold]gg[/] :smile: \\x1b ' \" <b>"  # markup and look-alikes: printable, kept literally
    asked = table.alice.say(said)
    await table.bob.wait_for(lambda c: c.chat.lines, TIMEOUT)
    await table.alice.wait_for(lambda c: c.chat.lines and not c.chat.pending, TIMEOUT)
    heard = table.bob.chat.lines[0]
    assert (heard.text, heard.member, heard.side, heard.game, heard.reply_to) == (said, "alice", ISHIDA, table.game, None)
    assert table.alice.chat.lines[0].reply_to == asked and table.alice.chat.lines[0].number == heard.number
    assert stored(club, table.game) == [said] and stored(club, None) == []
    await table.close()


HOSTILE = {
    "an ANSI escape": "\x1b[31mred\x1b[0m",
    "an OSC title escape": "\x1b]0;owned\x07",
    "a line break": "one\ntwo",
    "a carriage return": "over\rwrite",
    "a bell": "ding\x07",
    "a NUL": "a\x00b",
    "a right-to-left override": "abc\u202edcba",
    "a zero-width space": "a\u200bb",
    "501 characters": "x" * 501,
    "an empty line": "",
    "spaces only": "   ",
}


async def test_hostile_text_is_refused_with_one_line_each_audited_and_nothing_stored_or_told(club):
    table = await Table(club).sit()
    for what, text in HOSTILE.items():
        before = len(club.server.audit.lines())
        asked = table.alice.say(text)
        await table.alice.wait_for(lambda c: asked not in c.chat.pending, TIMEOUT)
        refusal = table.alice.refusals[-1] if table.alice.refusals else None
        problem = table.alice.chat.problem
        assert problem is not None and "\n" not in problem and len(problem) < 200, what
        assert len(club.server.audit.lines()) == before + 1, what
        assert refusal is None or refusal.id != asked  # told as the chat's problem, not as a game's refusal
    assert stored(club, table.game) == []
    # a good line after them all: it is the first and only line bob ever got
    table.alice.say("x" * 500)
    await table.bob.wait_for(lambda c: c.chat.lines, TIMEOUT)
    assert [line.text for line in table.bob.chat.lines] == ["x" * 500]
    await table.close()


async def test_ten_megabytes_and_invalid_utf8_on_the_raw_socket_are_refused_and_change_nothing(club):
    table = await Table(club).sit()
    reader, writer = await raw_lobby(club, "carol")
    writer.write(b'{"type":"chat_say","id":"u1","text":"\xff\xfe caf\xc3"}\n')
    refusal = json.loads(await reader.readline())
    assert refusal["type"] == "refused" and refusal["kind"] == "bad-message" and "UTF-8" in refusal["reason"]
    writer.write(b'{"type":"chat_say","id":"ok","text":"still here"}\n')  # the connection lives on
    line = json.loads(await reader.readline())
    assert line["type"] == "chat_line" and line["reply_to"] == "ok" and line["text"] == "still here"
    # 10 MB: refused in one line, and the lobby connection closed (a lobby forgives no long line)
    writer.write(b'{"type":"chat_say","id":"big","text":"' + b"A" * (10 * 1024 * 1024) + b'"}\n')
    refusal = json.loads(await reader.readline())
    assert refusal["type"] == "refused" and "longer than" in refusal["reason"]
    try:
        rest = await reader.read()
    except ConnectionResetError:  # closed with our bytes unread: a reset, not a FIN
        rest = b""
    assert rest == b""
    writer.transport.abort()
    # a seat's connection: the same 10 MB line is refused, and it is closed (too much to skip); the client comes back
    table.alice._write_line(b'{"type":"chat_say","id":"big2","text":"' + b"B" * (10 * 1024 * 1024) + b'"}\n')
    await table.alice.wait_for(lambda c: any("longer than" in r.reason for r in c.refusals), TIMEOUT)
    assert stored(club, None) == ["still here"] and stored(club, table.game) == []
    assert table.bob.chat.lines == []
    await table.close()


async def test_a_spectators_raw_stream_never_holds_a_players_chat(club):
    """R55: a spectator's connection, read byte for byte while both players chat."""
    table = await Table(club).sit()
    watch = await table.lobbies["carol"].watch(table.game)
    reader, writer = await asyncio.open_unix_connection(str(club.socket), limit=2**24)
    writer.write(json.dumps({"type": "watch_game", "protocol": PROTOCOL_VERSION, "game": table.game,
                             "token": watch.token, "seen": None}).encode() + b"\n")
    got = [await reader.readline()]  # welcome and state
    marks = ("SECRET-ALICE-7431", "SECRET-BOB-9913")
    table.alice.say(f"{marks[0]} my plan is Osaka")
    table.bob.say(f"{marks[1]} mine is Edo")
    for seat in (table.alice, table.bob):
        await seat.wait_for(lambda c: len(c.chat.lines) == 2, TIMEOUT)
    # a ping answered after both lines were told: anything leaked was written before the pong
    writer.write(b'{"type":"ping"}\n')
    while True:
        line = await reader.readline()
        got.append(line)
        if json.loads(line)["type"] == "pong":
            break
    stream = b"".join(got)
    assert b"pong" in stream and b"state" in stream  # it is a spectator's stream
    for mark in marks:
        assert mark.encode() not in stream
    assert b"chat" not in stream
    # asking for the game's chat on the spectator's connection: refused, nothing told
    writer.write(b'{"type":"get_chat","id":"g1"}\n')
    refusal = json.loads(await reader.readline())
    assert refusal["type"] == "refused" and not any(mark in refusal["reason"] for mark in marks)
    writer.close()
    # nor through a lobby: carol plays no seat of it
    with pytest.raises(ClubRefused, match=NOT_YOUR_GAME):
        await table.lobbies["carol"].game_chat(table.game)
    with pytest.raises(ClubRefused, match=NOT_YOUR_GAME):  # an unknown game is said the same way
        await table.lobbies["carol"].game_chat("no-such-game")
    await table.close()


async def test_the_replay_chat_is_its_players_only(club):
    table = await Table(club).sit()
    table.alice.say("good luck")
    await table.bob.wait_for(lambda c: c.chat.lines, TIMEOUT)
    assert table.alice.resign() is not None
    await table.bob.wait_for(lambda c: c.result is not None, TIMEOUT)
    for player in ("alice", "bob"):
        lines = (await table.lobbies[player].game_chat(table.game)).lines
        assert [(line.member, line.text) for line in lines] == [("alice", "good luck")]
    with pytest.raises(ClubRefused, match=NOT_YOUR_GAME):
        await table.lobbies["carol"].game_chat(table.game)
    await table.close()


# --- the rate limit, the administrator ----------------------------------------------


async def test_the_rate_limit_is_five_at_once_then_one_every_two_seconds(club, clock):
    table = await Table(club).sit()
    for n in range(5):
        table.alice.say(f"line {n}")
    await table.bob.wait_for(lambda c: len(c.chat.lines) == 5, TIMEOUT)
    asked = table.alice.say("line 5")
    await table.alice.wait_for(lambda c: asked not in c.chat.pending, TIMEOUT)
    assert "too many chat lines" in table.alice.chat.problem and "wait 2.0 s" in table.alice.chat.problem
    # the member's bucket is shared: the club's channel is empty to alice too
    with pytest.raises(ClubRefused, match="too many chat lines"):
        await table.lobbies["alice"].say("in the lobby")
    assert refusals_in_audit(club, "too many chat lines") == 2
    # bob has a bucket of his own
    table.bob.say("bob's own")
    await table.alice.wait_for(lambda c: len(c.chat.lines) == 6, TIMEOUT)
    clock.now += 1.5  # three quarters of a line's token
    with pytest.raises(ClubRefused, match="wait 0.5 s"):
        await table.lobbies["alice"].say("not yet")
    clock.now += 0.5  # two seconds after the fifth: one line more, and one only
    await table.lobbies["alice"].say("now")
    with pytest.raises(ClubRefused, match="too many"):
        await table.lobbies["alice"].say("again")
    assert stored(club, table.game) == [f"line {n}" for n in range(5)] + ["bob's own"]
    assert stored(club, None) == ["now"]
    await table.close()


def cli(*args: str) -> subprocess.CompletedProcess:
    """The `sekigahara` command of this checkout, in a process of its own."""
    env = dict(os.environ, PYTHONPATH=str(SRC))
    return subprocess.run([sys.executable, "-m", "sekigahara_tui", *args], capture_output=True, text=True, env=env, timeout=TIMEOUT)


async def test_a_muted_member_is_refused_in_one_line_audited_and_still_reads(club):
    table = await Table(club).sit()
    done = await asyncio.to_thread(cli, "member", "mute", "bob", "--data", str(club.data_dir))
    assert done.returncode == 0 and done.stdout.strip() == "bob: muted"
    asked = table.bob.say("let me speak")
    await table.bob.wait_for(lambda c: asked not in c.chat.pending, TIMEOUT)
    assert table.bob.chat.problem == MUTED
    with pytest.raises(ClubRefused, match="muted"):
        await table.lobbies["bob"].say("in the channel then")
    assert refusals_in_audit(club, MUTED) == 2 and stored(club, table.game) == [] and stored(club, None) == []
    table.alice.say("you are muted")  # he still reads
    await table.bob.wait_for(lambda c: c.chat.lines, TIMEOUT)
    again = await asyncio.to_thread(cli, "member", "mute", "bob", "--data", str(club.data_dir))
    assert again.returncode == 1 and again.stderr.count("\n") == 1 and "muted already" in again.stderr
    assert (await asyncio.to_thread(cli, "member", "unmute", "bob", "--data", str(club.data_dir))).returncode == 0
    table.bob.say("thanks")
    await table.alice.wait_for(lambda c: len(c.chat.lines) == 2, TIMEOUT)
    assert stored(club, table.game) == ["you are muted", "thanks"]
    assert any(" mute front=cli member=bob" in line for line in club.server.audit.lines())
    await table.close()


async def test_the_administrator_deletes_a_line_and_every_screen_drops_it(club):
    table = await Table(club).sit()
    table.alice.say("fine line")
    table.bob.say("rude line")
    await table.alice.wait_for(lambda c: len(c.chat.lines) == 2, TIMEOUT)
    await table.bob.wait_for(lambda c: len(c.chat.lines) == 2, TIMEOUT)
    await table.lobbies["carol"].channel_history()  # carol follows the channel
    await table.lobbies["alice"].say("rude in the channel")
    await wait_until(lambda: len(table.lobbies["carol"].channel.lines) == 1, "carol hears the channel")
    rude = next(line.number for line in table.bob.chat.lines if line.text == "rude line")
    listed = await asyncio.to_thread(cli, "chat", "list", "--game", table.game, "--data", str(club.data_dir))
    assert f"{rude}\t" in listed.stdout and "rude line" in listed.stdout
    done = await asyncio.to_thread(cli, "chat", "delete", str(rude), "--data", str(club.data_dir))
    assert done.returncode == 0, done.stderr
    for seat in (table.alice, table.bob):
        await seat.wait_for(lambda c: [line.text for line in c.chat.lines] == ["fine line"], TIMEOUT)
    channel_line = table.lobbies["carol"].channel.lines[0].number
    assert (await asyncio.to_thread(cli, "chat", "delete", str(channel_line), "--data", str(club.data_dir))).returncode == 0
    await wait_until(lambda: table.lobbies["carol"].channel.lines == [], "the channel's line dropped")
    assert stored(club, table.game) == ["fine line"] and stored(club, None) == []
    again = await asyncio.to_thread(cli, "chat", "delete", str(rude), "--data", str(club.data_dir))
    assert again.returncode == 1 and "deleted already" in again.stderr
    assert any("chat-deleted" in line and "member=bob" in line for line in club.server.audit.lines())
    await table.close()


# --- notices, the channel -------------------------------------------------------------


def chat_notices(receiver: WebhookReceiver, member: str) -> list[dict]:
    return [got.body for got in receiver.received if got.path == f"/{member}" and got.body.get("kind") == "chat"]


async def test_a_player_away_gets_one_chat_notice_until_they_come_back(club, receiver):
    table = await Table(club).sit(bob_sits=False)
    for name in ("alice", "bob"):
        await table.lobbies[name].set_notices(receiver.url(f"/{name}"), "json", None, ("your-move", "chat"))
    table.alice.say("SECRET-PLAN are you there?")
    table.alice.say("hello?")
    await table.alice.wait_for(lambda c: len(c.chat.lines) == 2, TIMEOUT)
    await wait_until(lambda: chat_notices(receiver, "bob"), "bob's chat notice")
    table.alice.say("third")  # told already: no second notice while he stays away
    await table.alice.wait_for(lambda c: len(c.chat.lines) == 3, TIMEOUT)
    await club.server.notices.idle()  # every notice queued is delivered
    [notice] = chat_notices(receiver, "bob")
    assert notice["game"] == table.game and notice["opponent"] == "alice" and notice["member"] == "bob"
    assert "SECRET-PLAN" not in json.dumps(notice)  # the notice names the game, never the text
    # bob comes and goes: the next line tells him again
    bob = await table.seat(table.lobbies["bob"], table.joined)
    assert [line.text for line in (await table.lobbies["bob"].game_chat(table.game)).lines] == ["SECRET-PLAN are you there?", "hello?", "third"]
    bob.say("back")  # bob is here: alice, connected, gets no notice
    await table.alice.wait_for(lambda c: len(c.chat.lines) == 4, TIMEOUT)
    await bob.close()
    await wait_until(lambda: table.alice.other_connected is False, "bob gone")
    table.alice.say("gone again?")
    await wait_until(lambda: len(chat_notices(receiver, "bob")) == 2, "the second notice")
    assert chat_notices(receiver, "alice") == []
    await table.close()


async def test_the_clubs_channel_reaches_the_lobbies_that_follow_it_and_not_guests_words(club):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    assert (await alice.channel_history()).lines == ()
    said = await bob.say("[blink]hello[/blink] club")
    assert said.text == "[blink]hello[/blink] club" and said.game is None and said.side is None
    await wait_until(lambda: [line.text for line in alice.channel.lines] == [said.text], "alice hears it")
    assert [line.text for line in (await alice.channel_history()).lines] == [said.text]
    with pytest.raises(ClubRefused, match="printable characters only") as refused:
        await alice.say("\x1b[2J")
    assert "\n" not in str(refused.value)
    await alice.close()
    await bob.close()
    # a guest reads it and may not write in it
    club.server.generations.guests = True  # as `serve --guest` lets them in
    guest = club.lobby_client("guest-zed")
    assert [line.text for line in (await guest.channel_history()).lines] == [said.text]
    with pytest.raises(ClubRefused, match=GUESTS_READ_ONLY):
        await guest.say("hi")
    await guest.close()
    assert stored(club, None) == [said.text] and refusals_in_audit(club, GUESTS_READ_ONLY) == 1


async def test_every_line_a_player_saw_survives_kill_9(data_dir):
    """A line is stored before anyone is told of it: after SIGKILL and a restart,
    the game's chat and the channel hold every line a client was sent."""
    from test_kill import reap, start_serve, stop_serve
    from sekigahara_tui.club.client import ClubClient
    from club_helpers import fake_key

    data_dir = members.prepare_data_dir(data_dir)
    for name in ("alice", "bob"):
        members.add(data_dir, name, fake_key())
    process = await asyncio.to_thread(start_serve, data_dir)
    socket = data_dir / "club.sock"
    try:
        alice, bob = ClubClient(socket, member="alice"), ClubClient(socket, member="bob")
        made = await alice.new_game(ISHIDA, "open")
        seat = bob.seat_client(await bob.join(made.game))
        running = asyncio.create_task(seat.run())
        await seat.wait_for(lambda c: c.view is not None and c.connected, TIMEOUT)
        for n in range(3):
            seat.say(f"line {n}")
        await seat.wait_for(lambda c: len(c.chat.lines) == 3, TIMEOUT)  # each one told back: stored
        await alice.say("in the channel")
        process.kill()
        await asyncio.to_thread(process.wait, 10)
        await seat.close()
        await running
        await alice.close()
        await bob.close()
        process = await asyncio.to_thread(start_serve, data_dir)
        alice = ClubClient(socket, member="alice")
        assert [line.text for line in (await alice.game_chat(made.game)).lines] == ["line 0", "line 1", "line 2"]
        assert [line.text for line in (await alice.channel_history()).lines] == ["in the channel"]
        await alice.close()
        await asyncio.to_thread(stop_serve, process)
    finally:
        reap(process)
