"""A record's `end` (issue 25): a club game ended outside the rules (resigned,
timed out, cancelled) or finished by the computer for a seat says so in its
record, so the exported file replays and is analysed as over. Records
without it load as before; a corrupt end is a one-line RecordError."""

from __future__ import annotations

import json

import attrs
import pytest

from rules.infra.record import RecordEnd, RecordError, record_from_json, record_to_json, replay
from rules.sides import Side
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.replay_model import ReplayModel
from tui.positions import finished_game

RESIGNED = RecordEnd("resigned", Side.TOKUGAWA, Side.ISHIDA)


def unfinished():
    game = finished_game()
    return attrs.evolve(game, commands=game.commands[:-1])  # one step before Tokugawa's overrun (7.4)


def test_an_end_goes_through_the_file_and_ends_the_replay():
    record = attrs.evolve(unfinished(), end=RESIGNED)
    text = record_to_json(record)
    assert json.loads(text)["end"] == {"cause": "resigned", "winner": "tokugawa", "seat": "ishida"}
    loaded = record_from_json(text)
    assert loaded == record
    final = replay(loaded)
    assert final.is_over and (final.result.winner, final.result.cause) == (Side.TOKUGAWA, "resigned")
    # a loaded game is over (nothing more to play), and its step-by-step replay shows both sides
    assert GameHost.from_record(loaded).state.is_over
    assert ReplayModel.from_record(loaded).over
    cancelled = record_from_json(record_to_json(attrs.evolve(record, end=RecordEnd("cancelled", None, None))))
    assert replay(cancelled).result.winner is None


def test_a_record_without_an_end_loads_as_before():
    data = json.loads(record_to_json(unfinished()))
    assert "end" not in data
    loaded = record_from_json(json.dumps(data))
    assert loaded.end is None and not replay(loaded).is_over


def test_a_game_the_computer_finished_must_end_by_the_rules():
    stood_in = RecordEnd("finished-by-stand-in", Side.TOKUGAWA, Side.TOKUGAWA)  # it may win for that seat
    final = replay(record_from_json(record_to_json(attrs.evolve(finished_game(), end=stood_in))))
    assert final.result.winner is Side.TOKUGAWA and final.result.cause != "resigned"
    with pytest.raises(RecordError, match="do not end it so"):
        replay(attrs.evolve(unfinished(), end=stood_in))
    with pytest.raises(RecordError, match="end the game by the rules"):
        replay(attrs.evolve(finished_game(), end=RESIGNED))


@pytest.mark.parametrize("end, said", [
    ("resigned", "'end' must be an object, not the string 'resigned'"),
    ({"cause": "resigned", "winner": "tokugawa"}, "must hold exactly 'cause', 'winner' and 'seat'"),
    ({"cause": "resigned", "winner": "tokugawa", "seat": "ishida", "x": 1}, "must hold exactly"),
    ({"cause": "vp", "winner": "tokugawa", "seat": "ishida"}, "the cause must be one of"),
    ({"cause": 3, "winner": "tokugawa", "seat": "ishida"}, "not the number 3"),
    ({"cause": "resigned", "winner": "\x1b[2Jmori", "seat": "ishida"}, "the winner must be ishida, tokugawa or null"),
    ({"cause": "resigned", "winner": None, "seat": "ishida"}, "only a cancelled game has no winner"),
    ({"cause": "cancelled", "winner": "ishida", "seat": None}, "only a cancelled game has no winner"),
    ({"cause": "timed-out", "winner": "ishida", "seat": "ishida"}, "the seat must be the side that lost"),
    ({"cause": "resigned", "winner": "ishida", "seat": None}, "the seat must be"),
])
def test_a_corrupt_end_is_one_line(end, said):
    data = json.loads(record_to_json(unfinished()))
    data["end"] = end
    with pytest.raises(RecordError) as caught:
        record_from_json(json.dumps(data), "game.json")
    message = str(caught.value)
    assert said in message and "\n" not in message and "\x1b" not in message and message.startswith("game.json: ")
