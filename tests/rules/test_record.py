"""Game records: seed, data version, commands; replaying gives the same states."""

import json

import pytest

from rules.components import default_components
from rules.infra.record import (
    GameRecord,
    RecordError,
    load_record,
    record_from_json,
    record_to_json,
    replay,
    replay_states,
    save_record,
)
from rules.infra.selfplay import random_game


def test_replaying_a_record_gives_the_same_states(tmp_path):
    states = []
    game = random_game(11, on_step=lambda before, command, after, events: states.append(after))
    path = tmp_path / "game.json"
    save_record(game.record, path)
    replayed = list(replay_states(load_record(path)))
    assert replayed[1:] == states
    assert replayed[-1] == game.state


def test_a_record_holds_the_seed_data_version_and_commands():
    game = random_game(12)
    data = json.loads(record_to_json(game.record))
    assert data["seed"] == 12
    assert data["data_version"] == default_components().data_version
    assert len(data["commands"]) == game.decisions
    assert data["commands"][0].split(":")[0] in ("ishida", "tokugawa")


def test_a_bad_record_names_its_first_illegal_command():
    record = random_game(13).record
    broken = GameRecord(record.seed, record.data_version, record.commands[:5] + ("ishida: end",) + record.commands[5:])
    with pytest.raises(RecordError, match=r"command 6 \('ishida: end'\) is illegal: "):
        replay(broken)


def test_a_record_from_other_component_data_is_refused():
    with pytest.raises(RecordError, match="made with component data 000000000000"):
        replay(GameRecord(1, "000000000000"))


@pytest.mark.parametrize("text, message", [
    ("[1, 2", "not JSON"),
    ('{"seed": "x", "data_version": "a"}', "not a game record"),
    ('{"seed": 1, "data_version": "a", "format": "chess"}', "format 'chess'"),
])
def test_a_corrupt_record_says_what_is_wrong(text, message):
    with pytest.raises(RecordError, match=message):
        record_from_json(text, "game.json")
