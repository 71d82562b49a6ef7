"""The host and the client over real Unix sockets (and TCP loopback), in one
process: whole games between bots, R55 on the raw bytes, refusals, stale and
resent commands, undo, presence, bad input, a failed commit, the host's end."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time

import pytest

from net_helpers import (
    GAME,
    TOKENS,
    RawConnection,
    RecordingProxy,
    TrueGame,
    check_seat_bytes,
    hello,
    play_bots,
    start_hosted,
)
from rules.notation import format_command
from rules.infra.record import replay
from rules.sides import BOTH_SIDES, Side
from sekigahara_tui.cli import main
from sekigahara_tui.net.client import Client
from sekigahara_tui.net.locations import Address
from sekigahara_tui.net.protocol import MAX_CLIENT_LINE, PROTOCOL_VERSION
from sekigahara_tui.hosting.games import SeatAccess
from sekigahara_tui.hosting.store import record_of

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


async def welcomed(hosted, side: Side, seen=None) -> tuple[RawConnection, dict]:
    """A raw connection that has taken `side`'s seat; returns it and its state."""
    raw = await RawConnection.open(hosted.address)
    raw.send(hello(side, seen=seen))
    messages = await raw.receive_until("presence")
    assert [m["type"] for m in messages] == ["welcome", "state", "presence"]
    assert messages[2]["seat"] == side.other.value
    return raw, messages[1]


async def until(condition, timeout: float = 5.0) -> None:
    """Wait for the host to catch up (it notices a closed connection when it reads)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def answer_to(raw: RawConnection, message_id: str) -> dict:
    """The host's answer to a message: the state that replies to it, or its refusal."""
    while True:
        message = (await raw.receive_until("state", "refused"))[-1]
        if message.get("reply_to", message.get("id")) == message_id:
            return message


def first_legal(state: dict) -> str:
    return state["view"]["legal"][0]


# --- whole games -------------------------------------------------------------------


async def test_two_bots_play_a_whole_game_and_the_store_replays_to_the_hosts_state(hosted, capsys):
    ishida, tokugawa = await play_bots(hosted)
    assert ishida.over and tokugawa.over and ishida.result == tokugawa.result
    host = hosted.game.host
    assert host.is_over and ishida.result.startswith(host.state.result.winner.value)
    assert ishida.view == host.view(ISHIDA) and tokugawa.view == host.view(TOKUGAWA)
    assert ishida.log == host.events_for(ISHIDA) and tokugawa.log == host.events_for(TOKUGAWA)
    # the record exported from the store replays to the very state the host holds
    assert main(["export", str(hosted.game_dir)]) == 0
    exported = json.loads(capsys.readouterr().out)
    info, actions = hosted.store.load_game(GAME)
    assert exported["commands"] == list(record_of(info, actions).commands) == list(host.record.commands)
    assert replay(record_of(info, actions)) == host.state
    assert len(actions) == hosted.game.version == ishida.version


async def test_each_seats_raw_bytes_hold_only_what_it_may_know(hosted, runtime_dir):
    """R55 on the wire: every byte the host sends each seat, through a
    recording relay, across a whole game (and a reconnect that catches up)."""
    proxies = {side: RecordingProxy(hosted.address, runtime_dir / f"p-{side.value}.sock") for side in BOTH_SIDES}
    addresses = {side: await proxy.start() for side, proxy in proxies.items()}
    await play_bots(hosted, addresses, seeds=(3, 4))
    # a late reconnect with nothing held gets the whole game's events at once
    late = Client(addresses[ISHIDA], GAME, ISHIDA, TOKENS[ISHIDA], stop_when_over=True)
    await asyncio.wait_for(late.run(), 10)
    truth = TrueGame(hosted.store)
    for side, proxy in proxies.items():
        await proxy.stop()
        checked = check_seat_bytes(proxy.received, side, truth)
        assert checked > 100, f"only {checked} states for {side.value}"
    assert late.log == hosted.game.host.events_for(ISHIDA)


async def test_the_leak_check_catches_an_enemy_hand_card(hosted, runtime_dir):
    """The R55 check can fail: a line naming a card of the enemy's hand does."""
    raw, state = await welcomed(hosted, ISHIDA)
    tainted = dict(state, reply_to=hosted.game.host.state.cards[TOKUGAWA].hand[0])
    with pytest.raises(AssertionError, match="enemy hand cards"):
        check_seat_bytes([json.dumps(tainted).encode()], ISHIDA, TrueGame(hosted.store))
    await raw.close()


async def test_a_game_over_tcp_loopback(tmp_path, runtime_dir):
    hosted = await start_hosted(tmp_path, runtime_dir, seed=2)
    try:
        host, port = await hosted.server.listen_tcp("127.0.0.1", 0)
        tcp = Address(tcp=(host, port))
        await play_bots(hosted, {ISHIDA: tcp, TOKUGAWA: tcp}, seeds=(5, 6))
        assert hosted.game.host.is_over
    finally:
        await hosted.stop()


# --- refusals ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "kind", "words"),
    [
        (hello(ISHIDA, token="wrong"), "not-authorised", "wrong token for the ishida seat"),
        (hello(ISHIDA, token=TOKENS[TOKUGAWA]), "not-authorised", "wrong token"),
        (hello(ISHIDA, game="no-such-game"), "not-authorised", "wrong token for the ishida seat, or no such game here"),
        (hello(ISHIDA, protocol=99), "protocol", f"speaks protocol {PROTOCOL_VERSION}, not 99"),
        ({"type": "ping"}, "protocol", "the first message must be hello"),
        ({**hello(ISHIDA), "seat": "mori"}, "bad-message", "'mori' is not a valid Side"),
    ],
)
async def test_a_bad_hello_is_refused_with_a_reason_and_closed(hosted, message, kind, words):
    raw = await RawConnection.open(hosted.address)
    raw.send(message)
    refusal = await raw.receive()
    assert refusal["type"] == "refused" and refusal["kind"] == kind and words in refusal["reason"]
    assert "\n" not in refusal["reason"]
    assert await raw.receive() is None  # closed
    assert hosted.game.connections == {}


async def test_a_client_stops_for_good_on_a_fatal_refusal(hosted):
    client = Client(hosted.address, GAME, ISHIDA, "wrong")
    await asyncio.wait_for(client.run(), 5)
    assert client.fatal.kind == "not-authorised" and client.status.startswith("closed: wrong token")


async def test_a_taken_seat_is_refused_and_a_freed_one_taken(hosted):
    first, _ = await welcomed(hosted, TOKUGAWA)
    second = Client(hosted.address, GAME, TOKUGAWA, TOKENS[TOKUGAWA])
    await asyncio.wait_for(second.run(), 5)
    assert second.fatal.kind == "seat-taken" and "already connected" in second.fatal.reason
    await first.close()
    await until(lambda: TOKUGAWA not in hosted.game.connections)
    again, state = await welcomed(hosted, TOKUGAWA)
    assert state["view"]["side"] == "tokugawa"
    await again.close()


async def test_a_silent_connection_is_reaped_and_frees_its_seat(tmp_path, runtime_dir):
    hosted = await start_hosted(tmp_path, runtime_dir, reap_after=0.3)
    try:
        ghost, _ = await welcomed(hosted, ISHIDA)  # then never a ping: half-open, as far as the host knows
        assert await ghost.receive(timeout=20) is None  # the host closes it (20 s: a failure, not a timing)
        await until(lambda: ISHIDA not in hosted.game.connections)
        again, _ = await welcomed(hosted, ISHIDA)
        await again.close()
    finally:
        await hosted.stop()


async def test_a_seat_bound_to_a_unix_user_checks_the_peer_credential(tmp_path, runtime_dir):
    """SO_PEERCRED: the seat bound to this process's user takes it with no
    token; the seat bound to another user refuses even the right token."""
    seats = {ISHIDA: SeatAccess(TOKENS[ISHIDA], uid=os.getuid()), TOKUGAWA: SeatAccess(TOKENS[TOKUGAWA], uid=os.getuid() + 4242)}
    hosted = await start_hosted(tmp_path, runtime_dir, seats=seats)
    try:
        mine, _ = await welcomed(hosted, ISHIDA)  # hello's token is right; try it empty too
        await mine.close()
        await until(lambda: ISHIDA not in hosted.game.connections)
        empty = await RawConnection.open(hosted.address)
        empty.send(hello(ISHIDA, token=""))
        assert (await empty.receive())["type"] == "welcome"
        await empty.close()
        theirs = await RawConnection.open(hosted.address)
        theirs.send(hello(TOKUGAWA))
        refusal = await theirs.receive()
        assert refusal["kind"] == "not-authorised" and "bound to another Unix user" in refusal["reason"]
        host, port = await hosted.server.listen_tcp("127.0.0.1", 0)
        over_tcp = await RawConnection.open(Address(tcp=(host, port)))
        over_tcp.send(hello(ISHIDA))
        refusal = await over_tcp.receive()
        assert refusal["kind"] == "not-authorised" and "join over the Unix socket" in refusal["reason"]
    finally:
        await hosted.stop()


# --- versions and ids ------------------------------------------------------------------


async def test_a_stale_submit_is_refused_and_not_applied(hosted):
    ishida, state = await welcomed(hosted, ISHIDA)
    tokugawa, _ = await welcomed(hosted, TOKUGAWA)
    bid = first_legal(state)
    ishida.send({"type": "submit", "id": "a1", "version": 0, "command": bid})
    applied = (await ishida.receive_until("state"))[-1]
    assert applied["version"] == 1 and applied["reply_to"] == "a1"
    ishida.send({"type": "submit", "id": "a2", "version": 0, "command": "anything at all"})
    refusal = (await ishida.receive_until("refused"))[-1]
    assert refusal == {"type": "refused", "id": "a2", "kind": "stale", "reason": refusal["reason"]}
    assert "version 1, not 0" in refusal["reason"]
    assert hosted.game.version == 1 == hosted.stored_rows()
    # the other seat saw the change, without a reply_to
    other = (await tokugawa.receive_until("state"))[-1]
    assert other["version"] == 1 and other["reply_to"] is None
    await ishida.close()
    await tokugawa.close()


async def test_R45_a_bid_sent_before_the_other_sides_secret_bid_arrived_is_accepted(hosted):
    """6.3's bid is simultaneous (R45): the second seat's bid, decided at the
    version before the first seat's secret bid, knows all it may know now,
    so it is applied rather than refused as stale."""
    ishida, ishida_state = await welcomed(hosted, ISHIDA)
    tokugawa, tokugawa_state = await welcomed(hosted, TOKUGAWA)
    assert ishida_state["view"]["phase"] == "bid" == tokugawa_state["view"]["phase"]
    ishida.send({"type": "submit", "id": "i1", "version": 0, "command": first_legal(ishida_state)})
    assert (await ishida.receive_until("state"))[-1]["version"] == 1
    bid = first_legal(tokugawa_state)
    tokugawa.send({"type": "submit", "id": "t1", "version": 0, "command": bid})
    answer = await answer_to(tokugawa, "t1")
    assert answer["type"] == "state" and answer["reply_to"] == "t1" and answer["version"] == 2
    info, actions = hosted.store.load_game(GAME)
    assert [(a.side, a.text, a.client_id) for a in actions][1] == (TOKUGAWA, bid, "t1")
    assert hosted.game.version == 2 == hosted.stored_rows()
    # sent again (its answer lost), it is answered and not applied twice
    tokugawa.send({"type": "submit", "id": "t1", "version": 0, "command": bid})
    again = await answer_to(tokugawa, "t1")
    assert again["type"] == "state" and again["reply_to"] == "t1" and hosted.game.version == 2
    await ishida.close()
    await tokugawa.close()


async def test_R45_a_bid_sent_before_the_other_side_took_its_bid_back_is_stale(hosted):
    """An undo is not a secret choice: what the other side did since may
    matter, so the old bid is refused as stale and nothing changes."""
    ishida, ishida_state = await welcomed(hosted, ISHIDA)
    tokugawa, tokugawa_state = await welcomed(hosted, TOKUGAWA)
    ishida.send({"type": "submit", "id": "i1", "version": 0, "command": first_legal(ishida_state)})
    assert (await ishida.receive_until("state"))[-1]["version"] == 1
    ishida.send({"type": "undo", "id": "i2", "version": 1})
    assert (await ishida.receive_until("state"))[-1]["version"] == 2
    tokugawa.send({"type": "submit", "id": "t1", "version": 0, "command": first_legal(tokugawa_state)})
    refusal = await answer_to(tokugawa, "t1")
    assert refusal["kind"] == "stale" and "version 2, not 0" in refusal["reason"]
    assert hosted.game.version == 2 == hosted.stored_rows()
    await ishida.close()
    await tokugawa.close()


async def test_a_submit_sent_before_an_open_command_of_the_other_side_is_stale(hosted):
    """Once the bid is settled the other side's commands are seen (R55
    allows it): a command decided before one of them is refused as stale."""
    ishida, ishida_state = await welcomed(hosted, ISHIDA)
    tokugawa, tokugawa_state = await welcomed(hosted, TOKUGAWA)
    ishida.send({"type": "submit", "id": "i1", "version": 0, "command": first_legal(ishida_state)})
    tokugawa.send({"type": "submit", "id": "t1", "version": 1, "command": first_legal(tokugawa_state)})
    states = {ISHIDA: None, TOKUGAWA: None}
    for side, raw in ((ISHIDA, ishida), (TOKUGAWA, tokugawa)):
        while states[side] is None or states[side]["version"] < 2:
            states[side] = (await raw.receive_until("state"))[-1]
    acting = next(side for side in BOTH_SIDES if states[side]["view"]["legal"])
    waiting = acting.other
    raws = {ISHIDA: ishida, TOKUGAWA: tokugawa}
    raws[acting].send({"type": "submit", "id": "a3", "version": 2, "command": first_legal(states[acting])})
    assert (await raws[acting].receive_until("state"))[-1]["version"] == 3
    raws[waiting].send({"type": "submit", "id": "w3", "version": 2, "command": "anything at all"})
    refusal = (await raws[waiting].receive_until("refused"))[-1]
    assert refusal["kind"] == "stale" and "version 3, not 2" in refusal["reason"]
    assert hosted.game.version == 3 == hosted.stored_rows()
    await ishida.close()
    await tokugawa.close()


async def test_a_resent_id_after_a_reconnect_is_answered_and_applied_once(hosted):
    ishida, state = await welcomed(hosted, ISHIDA)
    submit = {"type": "submit", "id": "once", "version": 0, "command": first_legal(state)}
    ishida.send(submit)
    assert (await ishida.receive_until("state"))[-1]["reply_to"] == "once"
    await ishida.close()
    await until(lambda: ISHIDA not in hosted.game.connections)
    again, state = await welcomed(hosted, ISHIDA, seen=1)
    assert state["first_step"] == 2 and state["events"] == []  # it holds all it needs
    again.send(submit)  # the same id, and now a stale version: answered, not applied
    answer = (await again.receive_until("state"))[-1]
    assert answer["reply_to"] == "once" and answer["version"] == 1
    assert hosted.game.version == 1 == hosted.stored_rows()
    await again.close()


async def test_a_client_resends_what_a_dropped_connection_left_unanswered(hosted):
    """The Client queues a submit made while disconnected and sends it after
    reconnecting; the host applies it once."""
    client = hosted.client(ISHIDA)
    running = asyncio.create_task(client.run())
    await client.wait_for(lambda c: c.view is not None, 5)
    client._writer.transport.abort()  # the connection drops
    await client.wait_for(lambda c: not c.connected, 5)
    sent = client.submit(format_command(client.view.legal[0]))
    await client.wait_for(lambda c: c.reply_to == sent, 5)
    assert hosted.game.version == 1 and client.version == 1 and client.pending == ()
    await client.close()
    await running


async def test_illegal_commands_are_refused_naming_the_rule(hosted):
    ishida, state = await welcomed(hosted, ISHIDA)
    for text, words in [
        ("tokugawa: bid tokugawa-plain-1", "a command for tokugawa is not yours"),
        ("bid no-such-card", "6.3"),
        ("fly osaka", "unknown command 'fly'"),
    ]:
        ishida.send({"type": "submit", "id": "x" + str(len(words)), "version": 0, "command": text})
        refusal = (await ishida.receive_until("refused"))[-1]
        assert refusal["kind"] == "illegal" and words in refusal["reason"], refusal
    assert hosted.game.version == 0 == hosted.stored_rows()
    await ishida.close()


async def test_undo_over_the_wire_follows_r58_and_cuts_the_log(hosted):
    client = hosted.client(ISHIDA)
    running = asyncio.create_task(client.run())
    await client.wait_for(lambda c: c.view is not None, 5)
    assert client.why_no_undo == "there is nothing to undo"
    refused = client.undo()
    await client.wait_for(lambda c: refused not in c.pending, 5)
    assert client.refusals[-1].kind == "illegal" and "nothing to undo" in client.refusals[-1].reason
    # a bid is secret until both bid: R58 lets Ishida take it back
    before = list(client.log)
    sent = client.submit(format_command(client.view.legal[0]))
    await client.wait_for(lambda c: c.reply_to == sent, 5)
    assert len(client.log) > len(before) and client.why_no_undo is None
    taken = client.undo()
    await client.wait_for(lambda c: c.reply_to == taken, 5)
    assert client.log == before == hosted.game.host.events_for(ISHIDA)
    assert client.steps == 1 and client.version == 2 == hosted.stored_rows()
    assert [a.kind for a in hosted.store.load_game(GAME)[1]] == ["command", "undo"]
    await client.close()
    await running


# --- presence, bad input, failures, the end --------------------------------------------


class Recorder:
    def __init__(self):
        self.calls = []

    def on_state(self, client):
        self.calls.append(("state", client.version))

    def on_refused(self, client, refusal):
        self.calls.append(("refused", refusal.kind))

    def on_presence(self, client, connected):
        self.calls.append(("presence", connected))

    def on_connection(self, client, status):
        self.calls.append(("connection", status.split(" ")[0]))


async def test_presence_and_connection_status_reach_the_listener(hosted):
    recorder = Recorder()
    client = hosted.client(ISHIDA, recorder)
    running = asyncio.create_task(client.run())
    await client.wait_for(lambda c: c.other_connected is False, 5)
    other, _ = await welcomed(hosted, TOKUGAWA)
    await client.wait_for(lambda c: c.other_connected is True, 5)
    await other.close()
    await client.wait_for(lambda c: c.other_connected is False, 5)
    await client.close()
    await running
    assert recorder.calls == [
        ("connection", "connecting"), ("connection", "connected"), ("state", 0),
        ("presence", False), ("presence", True), ("presence", False), ("connection", "closed:"),
    ]


async def test_bad_messages_are_refused_one_by_one_and_change_nothing(hosted):
    ishida, _ = await welcomed(hosted, ISHIDA)
    bad = [
        (b"not json\n", None, "not JSON"),
        (b'{"type":"submit","id":"b1","version":"0","command":"bid x"}\n', "b1", "expected int"),
        (b'{"type":"submit","id":"b2","version":0,"command":"bid x","extra":1}\n', "b2", "extra fields"),
        (b'{"type":"submit","id":"b3","id":"b3","version":0,"command":"bid x"}\n', None, "appears twice"),
        (b'{"type":"launch"}\n', None, "unknown message type 'launch'"),
        (b'[[[[[[[[[[]]]]]]]]]]\n', None, "nested"),
        (b'{"type":"undo","id":"\\u001b[2J","version":0}\n', None, "control"),
        (b"\xff\xfe\n", None, "not UTF-8"),
        (b'{"type":"submit","id":"b4","version":0,"command":"' + b"x" * MAX_CLIENT_LINE + b'"}\n', None, f"longer than {MAX_CLIENT_LINE}"),
        (json.dumps(hello(ISHIDA)).encode() + b"\n", None, "hello was already said"),
    ]
    for line, message_id, words in bad:
        ishida.send(line)
        refusal = await ishida.receive()
        assert refusal["type"] == "refused" and refusal["kind"] == "bad-message", refusal
        assert refusal["id"] == message_id and words in refusal["reason"], refusal
        assert refusal["reason"].isprintable()
    ishida.send({"type": "ping"})
    assert await ishida.receive() == {"type": "pong"}  # the connection stayed open
    assert hosted.game.version == 0 == hosted.stored_rows()
    await ishida.close()


async def test_a_failed_commit_is_refused_and_changes_nothing(hosted):
    """Another writer took the next row: the host's insert fails, so the
    command is neither applied in memory nor broadcast."""
    ishida, state = await welcomed(hosted, ISHIDA)
    intruder = sqlite3.connect(hosted.store.path)
    intruder.execute("INSERT INTO actions VALUES (?, 1, 'undo', 'tokugawa', NULL, 'intruder', 0)", (GAME,))
    intruder.commit()
    intruder.close()
    ishida.send({"type": "submit", "id": "c1", "version": 0, "command": first_legal(state)})
    refusal = await ishida.receive()
    assert refusal["kind"] == "host-error" and "nothing changed" in refusal["reason"]
    assert hosted.game.version == 0 and hosted.game.host.step_count == 1
    await ishida.close()


async def test_the_host_is_done_after_the_game_ends_and_both_leave(tmp_path, runtime_dir):
    hosted = await start_hosted(tmp_path, runtime_dir, seed=7, grace=0.2)
    try:
        await play_bots(hosted, seeds=(7, 8))
        await asyncio.wait_for(hosted.server.done.wait(), 5)
        assert hosted.store.load_game(GAME)[0].status == "over"
    finally:
        await hosted.stop()


async def test_the_host_is_done_after_idling_with_nobody_connected(tmp_path, runtime_dir):
    hosted = await start_hosted(tmp_path, runtime_dir, idle_timeout=0.3)
    try:
        raw, _ = await welcomed(hosted, ISHIDA)
        # A guard that holds for a time: the host's watcher looks after idle_timeout
        # has passed, and the host is not done because somebody is connected.
        connected = time.monotonic()
        await until(lambda: hosted.server.looked_at > connected + 0.3, timeout=20)
        assert not hosted.server.done.is_set()  # somebody is connected
        await raw.close()
        await asyncio.wait_for(hosted.server.done.wait(), 5)
        assert not hosted.game.host.is_over
    finally:
        await hosted.stop()


async def test_a_resumed_game_catches_a_client_up_from_what_it_saw(tmp_path, runtime_dir):
    """A host restarted on the same store replays it; a client that saw
    version 1 gets the steps after it, and ends with the same log as a client
    that saw nothing."""
    first = await start_hosted(tmp_path / "g", runtime_dir, seed=3)
    raw, state = await welcomed(first, ISHIDA)
    raw.send({"type": "submit", "id": "r1", "version": 0, "command": first_legal(state)})
    await raw.receive_until("state")
    tokugawa, state = await welcomed(first, TOKUGAWA)
    tokugawa.send({"type": "submit", "id": "r2", "version": 1, "command": first_legal(state)})
    await tokugawa.receive_until("state")
    await raw.close()
    await tokugawa.close()
    await first.server.close()
    from sekigahara_tui.hosting.game_server import GameServer

    again = GameServer.of_store(first.store)
    game = again.games.add(GAME, {side: SeatAccess(TOKENS[side]) for side in BOTH_SIDES})
    await again.listen_unix(first.socket.with_name("again.sock"))
    try:
        assert game.host.state == first.game.host.state and game.version == 2
        behind, state = await welcomed(type(first)(again, game, first.store, first.game_dir, first.socket.with_name("again.sock")), ISHIDA, seen=1)
        assert state["first_step"] == 2 and len(state["events"]) == 1
    finally:
        await again.close()
        first.store.close()
