"""Records and saved states are read strictly: exact types, no duplicate or
unknown keys, caps, no deep nesting, short escaped messages (issue 10); a
record may start from a position file's text."""

from __future__ import annotations

import json
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.components import default_components
from rules.engine import legal_commands
from rules.infra.position import load_position
from rules.infra.record import (
    MAX_COMMAND_LENGTH,
    MAX_COMMANDS,
    GameRecord,
    RecordError,
    load_record,
    new_record,
    position_record,
    record_from_json,
    record_to_json,
    replay,
    replay_states,
    save_record,
)
from rules.infra.selfplay import random_game
from rules.infra.serialise import CorruptSave, state_from_json, state_to_json
from rules.sides import Side
from rules.infra.untrusted import excerpt, printable
from helpers import position_text

POSITION = position_text("week2_reinforcement")


def record_text(**changes) -> str:
    data = json.loads(record_to_json(new_record(1)))
    data.update(changes)
    return json.dumps(data)


def refused(text, match: str) -> str:
    with pytest.raises(RecordError, match=match) as caught:
        replay(record_from_json(text, "game.json"))
    return str(caught.value)


# --- exact types ---------------------------------------------------------------


@pytest.mark.parametrize("seed, said", [
    ('"7"', "the string '7'"), ("7.0", "the number 7.0"), ("7e0", "the number 7.0"), ("true", "true"), ("null", "null"),
])
def test_a_seed_must_be_a_json_integer(seed, said):
    text = record_text().replace('"seed": 1', f'"seed": {seed}')
    refused(text, f"'seed' must be a whole number, not {said}")


@pytest.mark.parametrize("version", ['"1"', "1.0", "true"])
def test_a_version_must_be_a_json_integer(version):
    refused(record_text().replace('"version": 1', f'"version": {version}'), "'version' must be a whole number")


@pytest.mark.parametrize("text, message", [
    ("[]", "the top level must be an object, not a list"),
    ("null", "the top level must be an object, not null"),
    ("7", "the top level must be an object, not the number 7"),
    ('"x"', "the top level must be an object, not the string 'x'"),
])
def test_the_top_level_must_be_an_object(text, message):
    refused(text, message)


def test_a_seed_of_thousands_of_digits_is_refused():
    message = refused(record_text().replace('"seed": 1', '"seed": ' + "9" * 5000), "a number of 5,000 digits")
    assert "999999" not in message
    refused(record_text(seed=2**63), "must be between -2\\*\\*63 and 2\\*\\*63")
    assert replay(record_from_json(record_text(seed=2**63 - 1))).seed == 2**63 - 1


def test_duplicate_keys_are_refused_at_every_level():
    text = record_text(commands=["ishida: end"])
    refused(text[:-1] + ', "commands": []}', "key 'commands' appears twice")
    refused(record_text(commands=[{"a": 1}]).replace('{"a": 1}', '{"a": 1, "a": 2}'), "key 'a' appears twice")


def test_unknown_keys_are_refused_and_quoted_escaped():
    message = refused(record_text(**{"\x1b[2Jwin": 1}), "unknown key")
    assert "\x1b" not in message and "\\x1b[2Jwin" in message


# --- caps ------------------------------------------------------------------------


def test_more_commands_than_any_game_are_refused():
    refused(record_text(commands=["ishida: end"] * (MAX_COMMANDS + 1)), f"more than any game \\(at most {MAX_COMMANDS:,}\\)")


def test_a_command_longer_than_any_is_refused_without_quoting_it():
    message = refused(record_text(commands=["x" * (MAX_COMMAND_LENGTH + 1)]), "characters long")
    assert "xxx" not in message


def test_the_longest_real_record_is_far_below_the_caps():
    record = max((random_game(seed).record for seed in range(1, 6)), key=lambda r: len(r.commands))
    assert len(record.commands) * 10 < MAX_COMMANDS
    assert max(len(line) for line in record.commands) * 3 < MAX_COMMAND_LENGTH
    assert len(record_to_json(record)) * 50 < 2 * 1024 * 1024


def test_deep_nesting_is_refused_without_recursion_error():
    refused("[" * 100_000 + "]" * 100_000, "nested 100000 levels deep")
    refused('{"a": ' * 10_000, "nested 10000 levels deep")


def test_brackets_inside_strings_are_not_nesting():
    message = refused(record_text(commands=["[" * 400]), "is illegal")
    assert len(message) < 300


def test_invalid_utf8_is_refused_naming_the_byte(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(record_text().encode().replace(b"sekigahara-record", b"sekigahara-\xffrecord"))
    with pytest.raises(RecordError, match=r"not UTF-8 text \(byte 0xff at offset \d+\)"):
        load_record(path)


def test_an_illegal_command_is_quoted_short_and_escaped():
    message = refused(record_text(commands=["ishida: bid [/]" + "\u202e" * 3 + "y" * 400]), "command 1")
    assert len(message) < 300 and message.isprintable() and "[/]" in message


# --- the excerpts ----------------------------------------------------------------


def test_excerpts_escape_and_truncate():
    assert excerpt("\x1b[2J" + "x" * 100) == repr("\x1b[2J" + "x" * 36) + "..."
    assert printable("a\nb\x1b[0m", 300) == "a\\nb\\x1b[0m"
    assert len(printable("\x00" * 1000, 50)) == 50


# --- well-formed records are unchanged -----------------------------------------------


def test_a_record_without_a_position_has_the_same_keys_as_before():
    data = json.loads(record_to_json(random_game(3).record))
    assert list(data) == ["seed", "data_version", "commands", "format", "version"]
    assert record_from_json(record_to_json(random_game(3).record)) == random_game(3).record


def test_a_save_is_private_and_replaces_the_old_one_atomically(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("old")
    save_record(random_game(3).record, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_record(path) == random_game(3).record
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_a_failed_save_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    save_record(new_record(1), path)

    def full(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", full)
    with pytest.raises(OSError):
        save_record(random_game(3).record, path)
    assert load_record(path) == new_record(1)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# --- positions in records -------------------------------------------------------------


def test_a_position_record_replays_from_the_position():
    record = position_record(POSITION, "week2.toml")
    assert record.seed == 42 and record.position == POSITION
    start = load_position(POSITION)
    assert list(replay_states(record)) == [start]
    command = legal_commands(start, Side.ISHIDA)[0]
    longer = record.with_command(command)
    assert longer.position == POSITION and longer.without_last_command() == record
    assert record_from_json(record_to_json(longer)) == longer
    assert json.loads(record_to_json(longer))["position"] == POSITION
    assert replay(longer) != start


def test_a_bad_position_in_a_record_is_a_record_error():
    record = GameRecord(42, default_components().data_version, position="[game]\nweek = 9\n")
    with pytest.raises(RecordError, match="the record's position"):
        replay(record)
    with pytest.raises(RecordError, match="seed 7 is not its position's seed 42"):
        replay(GameRecord(7, default_components().data_version, position=POSITION))
    with pytest.raises(RecordError, match="week2.toml"):
        position_record("[game", "week2.toml")


# --- saved states -------------------------------------------------------------------------


def test_a_state_with_a_wrong_number_of_block_positions_is_corrupt():
    data = json.loads(state_to_json(random_game(2).state))
    data["positions"] = data["positions"][:-1]
    with pytest.raises(CorruptSave, match="95 block positions for 96 blocks"):
        state_from_json(json.dumps(data))


def test_a_state_with_a_block_at_an_unknown_place_is_corrupt():
    data = json.loads(state_to_json(random_game(2).state))
    data["positions"][0] = "atlantis\x1b"
    with pytest.raises(CorruptSave, match=r"unknown place 'atlantis\\x1b'"):
        state_from_json(json.dumps(data))


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000, "nested 100000 levels deep"),
    ('{"seed": 1, "seed": 1}', "key 'seed' appears twice"),
    ('{"seed": ' + "1" * 5000 + "}", "a number of 5,000 digits"),
])
def test_a_hostile_state_is_corrupt_not_a_crash(text, message):
    with pytest.raises(CorruptSave, match=message):
        state_from_json(text)


def test_a_state_with_a_number_as_text_is_corrupt():
    data = json.loads(state_to_json(random_game(2).state))
    data["week"] = "1"
    with pytest.raises(CorruptSave, match=r"expected int @ \$.week"):
        state_from_json(json.dumps(data))


@pytest.mark.parametrize("key, value", [("active", "nobody"), ("phase", "lunch"), ("turn", 3)])
def test_a_state_with_an_enum_value_that_does_not_exist_is_corrupt(key, value):
    data = json.loads(state_to_json(random_game(2).state))
    data[key] = value
    with pytest.raises(CorruptSave, match=rf"\$.{key}"):
        state_from_json(json.dumps(data))


# --- anything at all ------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=20,
)
GOOD_FIELDS = {**json.loads(record_to_json(new_record(1))), "commands": ["ishida: end"], "position": POSITION}
RECORD_LIKE = st.fixed_dictionaries(
    {}, optional={key: JSON_VALUES | st.just(good) for key, good in GOOD_FIELDS.items()}
)


def only_record_errors(text) -> None:
    try:
        record = record_from_json(text, "fuzz.json")
    except RecordError as error:
        message = str(error)
        assert "\n" not in message and message.isprintable() and len(message) <= 300
        return
    assert isinstance(record, GameRecord)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_gives_a_record_or_a_record_error(text):
    only_record_errors(text)


@settings(max_examples=300, deadline=None)
@given(st.binary())
def test_any_bytes_give_a_record_or_a_record_error(data):
    only_record_errors(data)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES | RECORD_LIKE)
def test_any_json_value_gives_a_record_or_a_record_error(value):
    only_record_errors(json.dumps(value))


@settings(max_examples=100, deadline=None)
@given(RECORD_LIKE)
def test_a_record_like_value_replays_or_gives_a_record_error(value):
    try:
        replay(record_from_json(json.dumps(value)))
    except RecordError as error:
        assert str(error).isprintable() and len(str(error)) <= 300


# --- a game against the computer -------------------------------------------------


def test_a_record_names_the_computer_s_side_and_level_and_keeps_it():
    record = GameRecord(seed=3, data_version=new_record(3).data_version, computer="tokugawa:heuristic")
    text = record_to_json(record)
    assert json.loads(text)["computer"] == "tokugawa:heuristic"
    assert record_from_json(text, "game.json") == record
    assert "computer" not in json.loads(record_to_json(new_record(3)))  # hot seat: no such key


@pytest.mark.parametrize("computer", ["", "tokugawa", "mori:heuristic", "tokugawa:", "TOKUGAWA:heuristic", "tokugawa:heuristic\n", 7])
def test_a_bad_computer_entry_is_refused_with_what_is_wrong(computer):
    said = "'computer' must be a string" if not isinstance(computer, str) else "'computer' must be a side and a level"
    refused(record_text(computer=computer), said)
