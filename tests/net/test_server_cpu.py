"""The club server's CPU a command (issue 23): what its shortcuts give is
exactly what the long way gives, and a shortcut that saves work is taken
(counted by identity, never timed)."""

from __future__ import annotations

import json
import random

import pytest

from rules.engine import legal_commands
from rules.infra.record import replay_steps
from rules.infra.selfplay import random_game
from rules.sides import BOTH_SIDES
from rules.view import view
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.net.protocol import BadMessage, ClientMessage, Submit, _CLIENT_NAMES, _structure, client_message_of, compact_json
from sekigahara_tui.net.state_encoding import ViewEncoder, find_listed, notation


@pytest.mark.parametrize("value", [
    0, -7, 2**70, 1.5, -0.0, 1e300, float("nan"), True, None, "", "plain", 'quote " and \\ and \n\t', "Ishida 石田 ✓",
    [], (), {}, [1, [2, [3, None]]], ("a", ("b", 1)), {"b": 1, "a": [True, {"c": "é"}]},
])
def test_compact_json_writes_what_json_dumps_writes(value):
    assert compact_json(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_a_view_whose_fields_are_all_the_same_objects_is_not_joined_again():
    """Encoding a chair's view again with nothing changed gives back the very
    text made last time (no field looked at twice, nothing joined)."""
    encoder = ViewEncoder()
    seen = [view(state, side) for _, state, _ in list(replay_steps(random_game(4).record))[:40] for side in BOTH_SIDES]
    for one in seen:
        first = encoder.encode(one)
        assert encoder.encode(one) is first
    changed = [encoder.encode(one) for one in seen[:2]]
    assert changed[0] is not changed[1] and changed[0] != changed[1]


@pytest.mark.parametrize("seed", [2, 9])
def test_a_listed_command_is_found_by_its_notation_as_a_scan_finds_it(seed):
    for _, state, _ in replay_steps(random_game(seed).record):
        for side in BOTH_SIDES:
            legal = legal_commands(state, side)
            for command in legal:
                expected = next(c for c in legal if notation(c) == notation(command))
                assert find_listed(legal, notation(command)) is expected
            assert find_listed(legal, "ishida: no such command") is None


def submit_lines(seed: int):
    chooser = random.Random(seed)
    for n in range(200):
        message = {"type": "submit", "id": f"m{n}-{chooser.random():.6f}", "version": chooser.randrange(0, 3000),
                   "command": chooser.choice(["ishida: bid card-3", "tokugawa: pass", "ishida: move A B"])}
        yield message


def test_a_submit_made_without_the_converter_is_the_converters():
    for message in submit_lines(5):
        made = client_message_of(dict(message))
        assert type(made) is Submit
        assert made == _structure(dict(message), ClientMessage, _CLIENT_NAMES)


@pytest.mark.parametrize("message", [
    {"type": "submit", "id": "", "version": 1, "command": "x"},
    {"type": "submit", "id": "a\x07", "version": 1, "command": "x"},
    {"type": "submit", "id": "a", "version": True, "command": "x"},
    {"type": "submit", "id": "a", "version": "1", "command": "x"},
    {"type": "submit", "id": "a", "version": 1.0, "command": "x"},
    {"type": "submit", "id": "a", "version": 1, "command": "x" * 501},
    {"type": "submit", "id": "a", "version": 1, "command": "x\x00"},
    {"type": "submit", "id": "a", "version": 1, "command": None},
])
def test_a_bad_submit_is_refused_in_the_converters_words(message):
    with pytest.raises(BadMessage) as fast:
        client_message_of(dict(message))
    with pytest.raises(BadMessage) as slow:
        _structure(dict(message), ClientMessage, _CLIENT_NAMES)
    assert str(fast.value) == str(slow.value) and fast.value.id == slow.value.id


def test_R58_a_command_accepted_with_its_known_text_records_what_its_notation_records():
    told, worked_out = GameHost.new(6), GameHost.new(6)
    chooser = random.Random(6)
    while not told.is_over and told.step_count < 300:
        side = next(s for s in BOTH_SIDES if legal_commands(told.state, s))
        command = chooser.choice(legal_commands(told.state, side))
        told.accept(told.propose_listed(command), notation(command))
        worked_out.accept(worked_out.propose_listed(command))
        assert told.record == worked_out.record


def test_an_id_sent_again_at_another_version_is_known_among_the_recent_rows_and_only_for_its_side():
    from sekigahara_tui.hosting.games import RECENT_ROWS, HostedGame
    from sekigahara_tui.hosting.store import Action

    rows = [Action("command", BOTH_SIDES[n % 2], "x", f"id-{n}", 0.0) for n in range(40)]
    game = HostedGame(None, GameHost.new(1), rows, {}, {})
    for n, row in enumerate(rows):
        assert game.applied(row.side, row.client_id, n)  # at its own version: however old
        recent = n >= len(rows) - RECENT_ROWS
        assert game.applied(row.side, row.client_id, n + 1) is recent  # at another: only a recent one
        assert not game.applied(row.side.other, row.client_id, n + 1)
    assert not game.applied(BOTH_SIDES[0], "never-sent", len(rows))
