"""Position files (docs/positions.md): loading, and rejecting impossible positions."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rules.components import default_components
from rules.errors import InvalidPosition
from rules.position import load_position, load_position_file
from rules.serialise import state_from_json, state_to_json
from rules.sides import BOTH_SIDES, Side
from rules.state import BAG, DecisionKind, GameState, Phase, Turn

POSITIONS = Path(__file__).parent / "positions"
EXAMPLES = sorted(POSITIONS.glob("*.toml"))

MOVEMENT = """
[game]
week = 3
phase = "movement"
first_player = "tokugawa"
"""

SMALL = """
[game]
seed = 7
week = 3
turn = "A"
phase = "movement"
first_player = "tokugawa"

[blocks]
osaka = ["ishida-leader", "ukita-2-1"]
edo = ["tokugawa-leader"]
ishida_recruitment = ["mori-2-1"]
mori_box = ["mori-leader", "mori-3-1"]
eliminated = ["date-cav-2"]

[hands]
ishida = ["mori-plain-1", "ukita-swords-2"]
tokugawa = []

[draw_piles]
tokugawa = ["date-double", "tokugawa-plain-3"]

[discard_piles]
ishida = ["uesugi-plain-4", "ishida-loyalty-1"]

[control]
kyoto = "ishida"
kuwana = "tokugawa"
"""

LISTED = {
    "ishida-leader": "osaka",
    "ukita-2-1": "osaka",
    "tokugawa-leader": "edo",
    "mori-2-1": "ishida_recruitment",
    "mori-leader": "mori_box",
    "mori-3-1": "mori_box",
    "date-cav-2": "eliminated",
}


def load(text: str) -> GameState:
    return load_position(text, "test.toml")


def assert_conserved(state: GameState) -> None:
    """96 blocks each in one place; 110 cards, each side's 55 each in one pile (3.3)."""
    c = default_components()
    assert len(state.positions) == len(c.blocks) == 96
    total = 0
    for side in BOTH_SIDES:
        cards = state.cards[side]
        held = cards.hand + cards.draw_pile + cards.discard_pile + state.secret[side]
        assert Counter(held) == Counter(card.id for card in c.cards_of(side))
        total += len(held)
    assert total == 110


# --- loading ----------------------------------------------------------------


def test_blocks_at_listed_places_and_all_others_in_their_bag():
    state = load(SMALL)
    c = default_components()
    for block in c.blocks:
        assert state.place_of(block.id) == LISTED.get(block.id, BAG), block.id
    assert Counter(state.positions) == Counter(
        {"bag": 89, "osaka": 2, "edo": 1, "ishida_recruitment": 1, "mori_box": 2, "eliminated": 1}
    )
    assert len(state.blocks_at(BAG, Side.ISHIDA)) == 48 - 5
    assert len(state.blocks_at(BAG, Side.TOKUGAWA)) == 48 - 2


def test_cards_conserved_with_exact_hands_and_pile_tops():
    state = load(SMALL)
    assert_conserved(state)
    assert state.cards.ishida.hand == ("mori-plain-1", "ukita-swords-2")
    assert state.cards.tokugawa.hand == ()
    assert state.cards.tokugawa.draw_pile[:2] == ("date-double", "tokugawa-plain-3")
    assert len(state.cards.tokugawa.draw_pile) == 55
    assert state.cards.tokugawa.discard_pile == ()
    assert state.cards.ishida.discard_pile == ("uesugi-plain-4", "ishida-loyalty-1")
    assert len(state.cards.ishida.draw_pile) == 55 - 2 - 2


def test_calendar_control_and_movement_decision():
    state = load(SMALL)
    assert (state.week, state.turn, state.phase) == (3, Turn.A, Phase.MOVEMENT)
    assert state.first_player is Side.TOKUGAWA
    assert state.active is Side.TOKUGAWA  # default: the first player
    assert state.decision.kind is DecisionKind.CHOOSE_MOVEMENT
    assert state.decision.sides == frozenset({Side.TOKUGAWA})
    assert state.resource_control == (("kuwana", Side.TOKUGAWA), ("kyoto", Side.ISHIDA))
    assert state.seed == 7
    assert state.discs == frozenset({"hideyori", "sanada"})
    assert state.revealed == frozenset()


def test_movement_phase_of_the_second_player_in_turn_b():
    state = load(MOVEMENT.replace('phase = "movement"', 'phase = "movement"\nturn = "B"\nactive = "ishida"'))
    assert (state.turn, state.first_player, state.active) == (Turn.B, Side.TOKUGAWA, Side.ISHIDA)
    assert state.decision.kind is DecisionKind.CHOOSE_MOVEMENT
    assert state.decision.sides == frozenset({Side.ISHIDA})


def test_6_3_bid_waits_for_the_sides_with_cards():
    state = load('[game]\nweek = 4\nphase = "bid"\n[hands]\nishida = ["mori-plain-1"]\n')
    assert state.phase is Phase.BID
    assert state.decision.kind is DecisionKind.BID
    assert state.decision.sides == frozenset({Side.ISHIDA})
    assert state.first_player is None
    assert_conserved(state)


def test_r9_bid_with_no_cards_goes_to_ishida_choosing_first_player():
    state = load('[game]\nweek = 1\nphase = "bid"\n')
    assert state.decision.kind is DecisionKind.CHOOSE_FIRST_PLAYER
    assert state.decision.sides == frozenset({Side.ISHIDA})


def test_6_2_reinforcement_waits_for_sides_discarding_half_their_hand():
    state = load(
        '[game]\nweek = 2\nphase = "reinforcement"\n'
        '[hands]\nishida = ["mori-plain-1", "mori-plain-2", "mori-plain-3"]\ntokugawa = ["date-double"]\n'
    )
    assert state.phase is Phase.REINFORCEMENT
    assert state.decision.kind is DecisionKind.REINFORCEMENT_DISCARD
    assert state.decision.sides == frozenset({Side.ISHIDA})  # 1 card: discard 0 (R7)


def test_6_2_reinforcement_with_nothing_to_discard_runs_on_to_the_bid():
    state = load('[game]\nweek = 5\nphase = "reinforcement"\n')
    assert state.phase is Phase.BID
    assert state.decision.kind is DecisionKind.BID
    # 5 cards each, and a 6th for Tokugawa: 5 castles by alignment to Ishida's 4 (4.3, 6.2)
    assert len(state.cards.ishida.hand) == 5 and len(state.cards.tokugawa.hand) == 6
    # 1 block a side in week 5, +1 each on the tied resource count (1 each, R6)
    assert len(state.blocks_at("ishida_recruitment")) == 2
    assert len(state.blocks_at("tokugawa_recruitment")) == 2
    assert_conserved(state)


def test_r6_start_control_when_the_control_table_is_absent():
    state = load(MOVEMENT)
    assert state.resource_control == (("edo", Side.TOKUGAWA), ("kyoto", Side.ISHIDA))


def test_empty_control_table_leaves_everything_uncontrolled():
    assert load(MOVEMENT + "[control]\n").resource_control == ()


def test_4_3_castles_follow_the_units_and_revert_to_their_alignment():
    state = load(MOVEMENT + '[blocks]\ngifu = ["date-2-1"]\nanotsu = ["mori-2-1"]\n')
    control = dict(state.castle_control)
    assert control["gifu"] is Side.TOKUGAWA
    assert control["anotsu"] is Side.ISHIDA
    assert control["okazaki"] is Side.TOKUGAWA  # empty: natural alignment
    assert control["aizu"] is Side.ISHIDA
    assert len(control) == 9


def test_r54_contested_castle_owner_comes_from_the_castles_table():
    text = MOVEMENT + '[blocks]\ngifu = ["date-2-1", "mori-2-1"]\n[castles]\ngifu = "tokugawa"\n'
    assert load(text).control_of_castle("gifu") is Side.TOKUGAWA


def test_r36_a_disc_alone_keeps_its_castle_for_its_side():
    state = load(MOVEMENT + '[blocks]\nosaka = ["tokugawa-2-1"]\nueda = ["tokugawa-2-2"]\n')
    assert state.control_of_castle("osaka") is Side.ISHIDA  # Hideyori inside
    assert state.control_of_castle("ueda") is Side.ISHIDA  # Sanada inside


def test_discs_left_out_are_gone_and_their_castle_follows_the_blocks():
    text = MOVEMENT.replace("[game]\n", '[game]\ndiscs = ["hideyori"]\n')
    text += '[blocks]\nueda = ["tokugawa-2-2"]\n'
    state = load(text)
    assert state.discs == frozenset({"hideyori"})
    assert state.control_of_castle("ueda") is Side.TOKUGAWA


def test_unlisted_cards_can_go_to_the_discard_pile():
    text = SMALL + '[unlisted_cards]\nishida = "discard_pile"\n'
    state = load(text)
    assert state.cards.ishida.draw_pile == ()
    assert state.cards.ishida.discard_pile[-2:] == ("uesugi-plain-4", "ishida-loyalty-1")
    assert len(state.cards.ishida.discard_pile) == 53
    assert_conserved(state)


def test_the_same_position_loads_to_equal_states():
    assert load(SMALL) == load(SMALL)


def test_the_seed_shuffles_the_unlisted_cards():
    other = load(SMALL.replace("seed = 7", "seed = 8"))
    state = load(SMALL)
    assert state.cards.tokugawa.draw_pile[:2] == other.cards.tokugawa.draw_pile[:2]
    assert state.cards.tokugawa.draw_pile != other.cards.tokugawa.draw_pile
    assert sorted(state.cards.tokugawa.draw_pile) == sorted(other.cards.tokugawa.draw_pile)


def test_a_loaded_position_round_trips_through_serialise():
    state = load(SMALL)
    assert state_from_json(state_to_json(state)) == state


# --- the example files ----------------------------------------------------------


def test_there_are_example_positions():
    assert [path.name for path in EXAMPLES] == ["siege_at_gifu.toml", "week2_reinforcement.toml"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_example_loads_conserves_pieces_and_round_trips(path):
    state = load_position_file(path)
    assert_conserved(state)
    assert load_position_file(path) == state
    assert state_from_json(state_to_json(state)) == state


def test_example_siege_at_gifu():
    state = load_position_file(POSITIONS / "siege_at_gifu.toml")
    assert (state.week, state.turn, state.phase) == (3, Turn.B, Phase.MOVEMENT)
    assert (state.first_player, state.active) == (Side.TOKUGAWA, Side.ISHIDA)
    assert state.decision.kind is DecisionKind.CHOOSE_MOVEMENT
    assert state.decision.sides == frozenset({Side.ISHIDA})
    assert state.blocks_at("gifu") == (
        "kobayakawa-2-1", "kobayakawa-gun-1", "fukushima-leader", "fukushima-cav-1", "ii-4",
    )
    assert state.control_of_castle("gifu") is Side.ISHIDA  # R54, from [castles]
    assert state.control_of_castle("ueda") is Side.TOKUGAWA  # Sanada gone (4.3)
    assert state.control_of_castle("osaka") is Side.ISHIDA
    assert state.discs == frozenset({"hideyori"})
    assert state.cards.ishida.hand == (
        "mori-double", "ukita-swords-1", "kobayakawa-plain-3", "ishida-loyalty-2",
    )
    assert state.cards.ishida.draw_pile[:2] == ("uesugi-swords-1", "mori-plain-4")
    assert state.cards.tokugawa.discard_pile == ("tokugawa-plain-5", "tokugawa-loyalty-1")
    assert dict(state.resource_control) == {
        "kyoto": Side.ISHIDA, "kiso": Side.ISHIDA, "edo": Side.TOKUGAWA, "kuwana": Side.TOKUGAWA,
    }
    assert Counter(state.positions)["bag"] == 96 - 40  # 40 blocks listed


def test_example_week2_reinforcement():
    state = load_position_file(POSITIONS / "week2_reinforcement.toml")
    assert (state.week, state.phase) == (2, Phase.REINFORCEMENT)
    assert state.decision.kind is DecisionKind.REINFORCEMENT_DISCARD
    assert state.decision.sides == frozenset(BOTH_SIDES)
    assert len(state.cards.ishida.hand) == 5 and len(state.cards.tokugawa.hand) == 3


def test_file_errors_name_the_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text(MOVEMENT + '[blocks]\nosaka = ["mori-3-9"]\n', encoding="utf-8")
    with pytest.raises(InvalidPosition, match=r"broken\.toml: \[blocks\] osaka: unknown block 'mori-3-9'"):
        load_position_file(path)


# --- rejections -------------------------------------------------------------------

REJECTED = {
    "block in two places": (
        MOVEMENT + '[blocks]\nosaka = ["ukita-2-1"]\nkyoto = ["ukita-2-1"]\n',
        "[blocks] kyoto: block 'ukita-2-1' is already at osaka",
    ),
    "block twice in one list": (
        MOVEMENT + '[blocks]\nosaka = ["ukita-2-1", "ukita-2-1"]\n',
        "[blocks] osaka: block 'ukita-2-1' is already at osaka",
    ),
    "a 49th Ishida block": (
        MOVEMENT + '[blocks]\nosaka = ["mori-3-9"]\n',
        "[blocks] osaka: unknown block 'mori-3-9'",
    ),
    "unknown place": (
        MOVEMENT + '[blocks]\nosakajo = ["ukita-2-1"]\n',
        "[blocks] osakajo: unknown place 'osakajo'",
    ),
    "other side's recruitment box": (
        MOVEMENT + '[blocks]\ntokugawa_recruitment = ["ukita-2-1"]\n',
        "[blocks] tokugawa_recruitment: 'ukita-2-1' is a block of the ishida side, "
        "not of this Recruitment Box's (4.4)",
    ),
    "non-Mori block in the Mori Box": (
        MOVEMENT + '[blocks]\nmori_box = ["ukita-2-1"]\n',
        "[blocks] mori_box: 'ukita-2-1' cannot be in the Mori Box",
    ),
    "Mori block that did not start in the Mori Box": (
        MOVEMENT + '[blocks]\nmori_box = ["mori-2-1"]\n',
        "[blocks] mori_box: 'mori-2-1' cannot be in the Mori Box",
    ),
    "Mori leader left the box first": (
        MOVEMENT + '[blocks]\nosaka = ["mori-leader"]\nmori_box = ["mori-3-1"]\n',
        "[blocks] mori_box: 'mori-3-1' is in the Mori Box but 'mori-leader' is not",
    ),
    "blocks entry not a list": (
        MOVEMENT + '[blocks]\nosaka = "ukita-2-1"\n',
        "[blocks] osaka: must be a list of ids",
    ),
    "card in hand and draw pile": (
        MOVEMENT + '[hands]\nishida = ["mori-plain-1"]\n[draw_piles]\nishida = ["mori-plain-1"]\n',
        "[draw_piles] ishida: card 'mori-plain-1' is already in [hands] ishida",
    ),
    "card twice in one hand": (
        MOVEMENT + '[hands]\nishida = ["mori-plain-1", "mori-plain-1"]\n',
        "[hands] ishida: card 'mori-plain-1' is already in [hands] ishida",
    ),
    "card in the other side's deck": (
        MOVEMENT + '[hands]\nishida = ["tokugawa-plain-1"]\n',
        "[hands] ishida: 'tokugawa-plain-1' is a card of the tokugawa deck, not the ishida deck (3.3)",
    ),
    "unknown card": (
        MOVEMENT + '[discard_piles]\nishida = ["mori-plain-11"]\n',
        "[discard_piles] ishida: unknown card 'mori-plain-11'",
    ),
    "unknown side in hands": (
        MOVEMENT + '[hands]\nhojo = ["mori-plain-1"]\n',
        "[hands] hojo: unknown side 'hojo'",
    ),
    "unknown side in control": (
        MOVEMENT + '[control]\nkyoto = "hojo"\n',
        "[control] kyoto: unknown side 'hojo'",
    ),
    "unknown first player": (
        MOVEMENT.replace('first_player = "tokugawa"', 'first_player = "hojo"'),
        "[game] first_player: unknown side 'hojo'",
    ),
    "unknown side in unlisted_cards": (
        MOVEMENT + '[unlisted_cards]\nhojo = "draw_pile"\n',
        "[unlisted_cards] hojo: unknown side 'hojo'",
    ),
    "unknown destination in unlisted_cards": (
        MOVEMENT + '[unlisted_cards]\nishida = "hand"\n',
        "[unlisted_cards] ishida: 'hand': expected",
    ),
    "week 0": (MOVEMENT.replace("week = 3", "week = 0"), "[game] week: week 0 is outside 1..7"),
    "week 8": (MOVEMENT.replace("week = 3", "week = 8"), "[game] week: week 8 is outside 1..7"),
    "week as text": (MOVEMENT.replace("week = 3", 'week = "3"'), "[game] week: must be a whole number"),
    "seed true": (
        MOVEMENT.replace("week = 3", "week = 3\nseed = true"),
        "[game] seed: must be a whole number",
    ),
    "reinforcement in week 1": (
        '[game]\nweek = 1\nphase = "reinforcement"\n',
        "[game] phase: week 1 has no reinforcement step (6.1)",
    ),
    "unknown phase": ('[game]\nweek = 2\nphase = "combat"\n', "[game] phase: unknown phase 'combat'"),
    "movement without first player": (
        '[game]\nweek = 3\nphase = "movement"\n',
        "[game] first_player: is required",
    ),
    "first player named before the bid": (
        '[game]\nweek = 3\nphase = "bid"\nfirst_player = "ishida"\n',
        "[game] first_player: the bid decides it (6.3)",
    ),
    "turn B in the bid": ('[game]\nweek = 3\nphase = "bid"\nturn = "B"\n', "[game] turn: the bid step"),
    "unknown turn": (MOVEMENT.replace("week = 3", 'week = 3\nturn = "C"'), "[game] turn: unknown turn 'C'"),
    "missing game table": ('[blocks]\nosaka = ["ukita-2-1"]\n', "[game]: this table is required"),
    "missing week": ('[game]\nphase = "bid"\n', "[game] week: is required"),
    "control of a non-resource location": (
        MOVEMENT + '[control]\nosaka = "ishida"\n',
        "[control] osaka: osaka is not a resource location",
    ),
    "control of an unknown location": (
        MOVEMENT + '[control]\nkyot = "ishida"\n',
        "[control] kyot: unknown location 'kyot'",
    ),
    "castle entry that is not a castle": (
        MOVEMENT + '[castles]\nkyoto = "ishida"\n',
        "[castles] kyoto: kyoto is not a castle location",
    ),
    "castle owner against 4.3": (
        MOVEMENT + '[castles]\ngifu = "tokugawa"\n',
        "[castles] gifu: no siege at gifu: 4.3 gives the castle to ishida, not tokugawa",
    ),
    "contested castle without an owner": (
        MOVEMENT + '[blocks]\ngifu = ["date-2-1", "mori-2-1"]\n',
        "[castles] gifu: both sides have units at gifu: name the castle's owner (R54)",
    ),
    "castle owner against its disc": (
        MOVEMENT + '[blocks]\nosaka = ["date-2-1"]\n[castles]\nosaka = "tokugawa"\n',
        "[castles] osaka: the hideyori disc is inside the castle, so ishida owns it (R36)",
    ),
    "unknown disc": (
        MOVEMENT.replace("[game]\n", '[game]\ndiscs = ["hideyori", "sanda"]\n'),
        "[game] discs: unknown disc 'sanda'",
    ),
    "Hideyori captured": (
        MOVEMENT.replace("[game]\n", '[game]\ndiscs = ["sanada"]\n'),
        "[game] discs: without 'hideyori' the game is already over (2.1, 9.1)",
    ),
    "Ishida Mitsunari eliminated": (
        MOVEMENT + '[blocks]\neliminated = ["ishida-leader"]\n',
        "[blocks] eliminated: 'ishida-leader' eliminated: the game is already over (2.1)",
    ),
    "unknown top-level table": (
        MOVEMENT + '[blockz]\nosaka = ["ukita-2-1"]\n',
        "top level: blockz: unknown table 'blockz'",
    ),
    "unknown key in game": (
        MOVEMENT.replace("week = 3", "week = 3\nweak = 4"),
        "[game] weak: unknown key 'weak'",
    ),
    "discs written after a table": (
        MOVEMENT + '[castles]\ndiscs = ["hideyori"]\n',
        "[castles] discs: unknown location 'discs'",
    ),
    "table given as a value": ('hands = 3\n' + MOVEMENT, "top level: hands: must be a table [hands]"),
}


@pytest.mark.parametrize("text, message", REJECTED.values(), ids=REJECTED.keys())
def test_impossible_positions_are_rejected(text, message):
    with pytest.raises(InvalidPosition) as caught:
        load_position(text, "bad.toml")
    assert str(caught.value).startswith("bad.toml: ")
    assert message in str(caught.value)


def test_malformed_toml_names_the_line():
    with pytest.raises(InvalidPosition, match=r"^bad\.toml: not valid TOML: .*line 3"):
        load_position('[game]\nweek = 3\nphase = movement\n', "bad.toml")


def test_default_source_name():
    with pytest.raises(InvalidPosition, match=r"^position: \[game\]: this table is required"):
        load_position("")


def test_the_documented_example_loads_like_its_file():
    docs = Path(__file__).parents[2] / "docs" / "positions.md"
    example = docs.read_text(encoding="utf-8").split("```toml\n", 1)[1].split("```", 1)[0]
    assert load_position(example, "docs/positions.md") == load_position_file(POSITIONS / "siege_at_gifu.toml")
