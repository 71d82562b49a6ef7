"""The wire format: every message round-trips, decoding is strict and bounded,
the limits hold the largest messages, and the client side imports only the
client surface of the engine."""

from __future__ import annotations

import ast
import asyncio
import json
from pathlib import Path

import pytest

from rules.infra.record import replay_steps
from rules.infra.selfplay import random_game
from rules.sides import BOTH_SIDES, Side
from rules.view import view
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.net.protocol import (
    MAX_CLIENT_LINE,
    MAX_HOST_LINE,
    BadMessage,
    GameOver,
    Hello,
    LineTooLong,
    Ping,
    Pong,
    Presence,
    Refused,
    State,
    Submit,
    Undo,
    Welcome,
    decode_client_message,
    decode_host_message,
    encode,
    read_line,
)

NET = Path(__file__).parents[2] / "src" / "sekigahara_tui" / "net"


def states_of_a_game(seed: int):
    game = random_game(seed)
    for number, (_, state, events) in enumerate(replay_steps(game.record)):
        for side in BOTH_SIDES:
            seen = tuple(e for e in events if side in e.visible_to())
            yield side, State(number, number + 1, None, view(state, side), number, (seen,), None, state.is_over)


def test_every_message_type_round_trips():
    messages = [
        Hello(1, "game-1", Side.ISHIDA, "token", None),
        Hello(1, "game-1", Side.TOKUGAWA, "", 7),
        Submit("a1", 3, "bid ishida-plain-1"),
        Undo("a2", 4),
        Ping(),
    ]
    for message in messages:
        line = encode(message)
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        assert decode_client_message(line) == message
    for message in [Welcome(1, "g", Side.ISHIDA), Refused(None, "stale", "why"), Presence(Side.TOKUGAWA, True), Pong(), GameOver("ishida wins (VP 9-3)")]:
        assert decode_host_message(encode(message)) == message
    assert json.loads(encode(Ping())) == {"type": "ping"}


def test_a_whole_games_states_round_trip_with_commands_as_notation_and_enums_as_enums():
    for side, state in states_of_a_game(2):
        back = decode_host_message(encode(state))
        assert back == state
        assert type(back.view.side) is Side and type(back.view.decision.kind) is type(state.view.decision.kind)
        assert all(isinstance(text, str) for text in json.loads(encode(state))["view"]["legal"])


def test_states_fit_the_line_limit_by_far():
    """Measured over 200 games in protocol.py; here a quick check of one game:
    a single-step state under 64 KB, a whole game's catch-up far under the cap."""
    largest = max(len(encode(state)) for _, state in states_of_a_game(94))
    assert 4_000 < largest < 64 * 1024
    host = GameHost.from_record(random_game(94).record)
    catch_up = State(1, host.step_count, None, host.view(Side.ISHIDA), 0,
                     tuple(tuple(s) for s in host.step_events(Side.ISHIDA)), None, True)
    assert len(encode(catch_up)) < MAX_HOST_LINE // 50


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b'{"type":"submit","id":"a","version":"3","command":"bid x"}', "expected int @ $.version"),
        (b'{"type":"submit","id":"a","version":true,"command":"bid x"}', "expected int"),
        (b'{"type":"submit","id":"a","version":3,"command":"bid x","more":1}', "extra fields"),
        (b'{"type":"submit","version":3,"command":"bid x"}', "required field missing"),
        (b'{"type":"hello","protocol":1,"game":"g","seat":"ISHIDA","token":"t","seen":null}', "not a valid Side"),
        (b'{"type":"hello","protocol":1,"game":"g","seat":"ishida","token":"t","seen":"3"}', "seen"),
        (b'{"type":"undo","id":"' + b"a" * 65 + b'","version":1}', "must be <= 64"),
        (b'{"type":"submit","id":"a","version":1,"command":""}', "command is empty"),
        (b'{"type":"submit","id":"a","version":1,"command":"bid\\u0007"}', "control or unprintable"),
        (b'{"type":"ping","type":"ping"}', "appears twice"),
        (b'{"type":"ping","n":1' + b"0" * 40 + b"}", "digits"),
        (b'{"type":"ping","n":NaN}', "not a JSON number"),
        (b'{"a":' * 10 + b"1" + b"}" * 10, "nested"),
        (b'"ping"', "must be a JSON object"),
        (b'{"type":"state"}', "unknown message type 'state'"),
        (b"\xc3\x28", "not UTF-8"),
        (b"x" * (MAX_CLIENT_LINE + 1), "more than 4096 bytes"),
    ],
)
def test_bad_client_lines_are_refused_in_one_line(line, words):
    with pytest.raises(BadMessage) as refused:
        decode_client_message(line)
    reason = str(refused.value)
    assert words in reason and reason.isprintable() and len(reason) < 300


def test_a_refusal_names_the_id_when_it_can_be_read():
    with pytest.raises(BadMessage) as refused:
        decode_client_message(b'{"type":"submit","id":"m7","version":"1","command":"x"}')
    assert refused.value.id == "m7"


async def read_lines(data: bytes, limit: int) -> list:
    reader = asyncio.StreamReader(limit=limit)
    reader.feed_data(data)
    reader.feed_eof()
    results = []
    while True:
        try:
            line = await read_line(reader)
        except LineTooLong as error:
            results.append(("too long", error.recoverable))
            if not error.recoverable:
                return results
            continue
        if line is None:
            return results
        results.append(line)


async def test_an_over_long_line_is_skipped_and_the_next_read():
    assert await read_lines(b"ok\n" + b"x" * 100 + b"\nnext\n", limit=16) == [b"ok\n", ("too long", True), b"next\n"]
    assert await read_lines(b"x" * 5000 + b"\nnext\n", limit=16) == [("too long", True), b"next\n"]
    # without its newline, an endless line is given up on
    assert await read_lines(b"x" * 5000, limit=16) == [("too long", False)]


CLIENT_MODULES = ("client.py", "bot.py", "protocol.py", "locations.py", "tls.py")  # tls.py: the client's TLS context (issue 28)
# rules.infra.untrusted: the bounded JSON reader (strict_json), which records use too.
CLIENT_RULES = {"rules.surface", "rules.notation", "rules.describe", "rules.infra.untrusted"}


@pytest.mark.parametrize("module", CLIENT_MODULES)
def test_the_client_side_imports_only_the_client_surface(module):
    tree = ast.parse((NET / module).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    from_rules = {name for name in imported if name == "rules" or name.startswith("rules.")}
    assert from_rules <= CLIENT_RULES, f"{module} imports {from_rules - CLIENT_RULES}"
    net = {name for name in imported if name.startswith("sekigahara_tui")}
    allowed = {f"sekigahara_tui.net.{m[:-3]}" for m in CLIENT_MODULES}
    assert net <= allowed, f"{module} imports the host side: {net - allowed}"
