"""Position files (docs/positions.md): loading, and rejecting impossible positions."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rules.commands import BeginMove, DeclareCombat
from rules.components import default_components
from rules.engine import apply, legal_commands, why_illegal
from rules.errors import IllegalCommand, InvalidPosition
from rules.notation import parse_command
from rules.infra.position import load_position, load_position_file
from rules.infra.serialise import state_from_json, state_to_json
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

# Tokugawa's Combat Phase in turn A, Ishida first: Ishida has moved and fought.
COMBAT = """
[game]
week = 3
phase = "combat"
first_player = "ishida"
active = "tokugawa"
"""

# Both sides at two castle locations: Ishida owns Gifu, Tokugawa owns Okazaki (R54).
TWO_SIEGES = """
[blocks]
gifu = ["mori-2-1", "date-2-1"]
okazaki = ["ukita-2-1", "date-2-2"]
[castles]
gifu = "ishida"
okazaki = "tokugawa"
"""

# Battle-ready forces at Kuwana (no castle) and Gifu (castle, Ishida's 2 blocks inside).
TWO_COMBATS = """
[blocks]
kuwana = ["ukita-leader", "ukita-2-1", "fukushima-leader", "fukushima-2-1"]
gifu = ["kobayakawa-2-1", "kobayakawa-gun-1", "date-2-1", "date-2-2", "date-3-1"]
[castles]
gifu = "ishida"
[hands]
ishida = ["ukita-plain-1"]
tokugawa = ["fukushima-plain-1"]
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
    assert [path.name for path in EXAMPLES] == [
        "battle_at_kuwana.toml", "siege_at_gifu.toml", "week2_reinforcement.toml",
    ]


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
    assert state.besieged == (("gifu", Side.ISHIDA),)  # 8.9.4 step 5: inferred, no [besieged]
    assert state.entered_from == ()
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


# --- sieges (8.9.4 step 5, 8.9.6, R57) ---------------------------------------------


def test_8_9_4_castle_with_both_sides_means_owner_besieged():
    state = load(MOVEMENT + TWO_SIEGES)
    assert state.besieged == (("gifu", Side.ISHIDA), ("okazaki", Side.TOKUGAWA))


def test_r36_disc_facing_enemy_blocks_is_besieged_for_its_side():
    state = load(MOVEMENT + '[blocks]\nosaka = ["date-2-1"]\nueda = ["date-2-2", "ukita-2-1"]\n')
    assert state.besieged == (("osaka", Side.ISHIDA), ("ueda", Side.ISHIDA))


def test_8_9_4_no_siege_where_one_side_holds_a_castle_alone():
    state = load(MOVEMENT + '[blocks]\ngifu = ["mori-2-1"]\nkuwana = ["ukita-2-1", "date-2-1"]\n')
    assert state.besieged == ()  # Kuwana has no castle: no siege there (8.9.1)


def test_8_9_6_besieged_table_lists_exactly_the_sieges():
    state = load(MOVEMENT + TWO_SIEGES + '[besieged]\nokazaki = "tokugawa"\n')
    assert state.besieged == (("okazaki", Side.TOKUGAWA),)


def test_8_9_6_empty_besieged_table_means_no_siege_anywhere():
    assert load(MOVEMENT + TWO_SIEGES + "[besieged]\n").besieged == ()


def test_8_9_6_besieged_table_in_a_bid_position():
    """Sieges last from week to week (8.9.4 step 5), so any phase may list them."""
    text = '[game]\nweek = 4\nphase = "bid"\n' + TWO_SIEGES + '[besieged]\ngifu = "ishida"\n'
    assert load(text).besieged == (("gifu", Side.ISHIDA),)


def _full_movement_at_gifu(extra: str = "") -> GameState:
    text = (POSITIONS / "siege_at_gifu.toml").read_text(encoding="utf-8") + extra
    state = load(text)
    state, _ = apply(state, parse_command("ishida: movement full kobayakawa-plain-3 ukita-swords-1"))
    return state


def test_r57_besieged_block_cannot_begin_a_stack_move():
    state = _full_movement_at_gifu()
    move = parse_command("ishida: move gifu")
    assert why_illegal(state, move) == "your blocks besieged at Gifu cannot leave (8.9.6, R57)"
    assert [c.source for c in legal_commands(state, Side.ISHIDA) if isinstance(c, BeginMove)] == [
        "osaka", "kyoto", "aizu",
    ]
    with pytest.raises(IllegalCommand, match=r"8\.9\.6, R57"):
        apply(state, move)


def test_r57_without_the_siege_the_same_blocks_may_move():
    state = _full_movement_at_gifu("\n[besieged]\n")
    assert state.besieged == ()
    assert why_illegal(state, parse_command("ishida: move gifu")) is None


def test_8_9_6_besiegers_may_move_away():
    text = MOVEMENT + '[blocks]\ngifu = ["mori-2-1", "date-2-1"]\n[castles]\ngifu = "ishida"\n'
    text += '[hands]\ntokugawa = ["date-plain-1", "date-plain-2"]\n'
    state = load(text)
    assert state.besieged == (("gifu", Side.ISHIDA),)
    state, _ = apply(state, parse_command("tokugawa: movement full date-plain-1 date-plain-2"))
    assert why_illegal(state, parse_command("tokugawa: move gifu")) is None


# --- the R51 record ------------------------------------------------------------------


def test_r51_entered_from_record_is_loaded():
    text = COMBAT + TWO_COMBATS + (
        '[entered_from]\nkuwana = { tokugawa = ["kiyosu"], ishida = ["minakuchi", "anotsu"] }\n'
        'kiyosu = { tokugawa = ["okazaki"] }\n'
    )
    assert load(text).entered_from == (
        ("kiyosu", Side.TOKUGAWA, "okazaki"),
        ("kuwana", Side.ISHIDA, "anotsu"),
        ("kuwana", Side.ISHIDA, "minakuchi"),
        ("kuwana", Side.TOKUGAWA, "kiyosu"),
    )


def test_r51_record_without_the_table_is_empty():
    assert load(COMBAT + TWO_COMBATS).entered_from == ()


def test_r51_record_in_the_second_players_movement_phase():
    text = MOVEMENT.replace('phase = "movement"', 'phase = "movement"\nactive = "ishida"')
    text += '[entered_from]\nkuwana = { tokugawa = ["kiyosu"] }\n'
    assert load(text).entered_from == (("kuwana", Side.TOKUGAWA, "kiyosu"),)


def _kuwana_battle_lost_by_tokugawa() -> GameState:
    state = load_position_file(POSITIONS / "battle_at_kuwana.toml")
    for line in (
        "tokugawa: combat kuwana",
        "tokugawa: lead fukushima-leader",
        "ishida: deploy ukita-double ukita-2-1 ukita-3-1",
        "tokugawa: allow",
        "tokugawa: pass",
        "ishida: pass",
        "tokugawa: lose fukushima-leader",
    ):
        state, _ = apply(state, parse_command(line))
    return state


def test_r51_8_8_2_loaded_record_sends_the_beaten_attacker_back_where_it_came_from():
    state = _kuwana_battle_lost_by_tokugawa()
    assert state.decision.kind is DecisionKind.RETREAT
    assert legal_commands(state, Side.TOKUGAWA) == [parse_command("tokugawa: retreat kiyosu")]
    assert why_illegal(state, parse_command("tokugawa: retreat anotsu")) == (
        "anotsu is not a legal retreat: choose among kiyosu (8.8.2, 8.8.3)"
    )


def test_r51_record_is_reset_when_the_next_turn_begins():
    state, _ = apply(_kuwana_battle_lost_by_tokugawa(), parse_command("tokugawa: retreat kiyosu"))
    assert (state.turn, state.phase, state.active) == (Turn.B, Phase.MOVEMENT, Side.ISHIDA)
    assert state.entered_from == ()
    assert state.besieged == (("gifu", Side.ISHIDA),)  # the siege goes on (8.9.4 step 5)


# --- combat-phase positions (8.1) ----------------------------------------------------


def test_8_1_position_in_combat_phase_reaches_a_battle_in_one_command():
    state = load_position_file(POSITIONS / "battle_at_kuwana.toml")
    assert legal_commands(state, Side.TOKUGAWA) == [DeclareCombat(Side.TOKUGAWA, "kuwana")]
    state, _ = apply(state, parse_command("tokugawa: combat kuwana"))
    assert state.decision.kind is DecisionKind.DEPLOY
    assert state.decision.sides == frozenset({Side.TOKUGAWA})  # the attacker deploys first (8.2.1)
    assert state.combat is not None and state.combat.battle is not None
    battle = state.combat.battle
    assert (battle.location, battle.attacker, battle.siege) == ("kuwana", Side.TOKUGAWA, False)
    assert state.combat.pending == frozenset()


def test_example_battle_at_kuwana():
    state = load_position_file(POSITIONS / "battle_at_kuwana.toml")
    assert (state.week, state.turn, state.phase) == (4, Turn.A, Phase.COMBAT)
    assert (state.first_player, state.active) == (Side.ISHIDA, Side.TOKUGAWA)
    assert state.decision.kind is DecisionKind.DECLARE_COMBAT
    assert state.decision.sides == frozenset({Side.TOKUGAWA})
    assert state.combat is not None
    assert state.combat.pending == frozenset({"kuwana"})  # Gifu was fought earlier this phase
    assert state.combat.battle is None
    assert state.besieged == (("gifu", Side.ISHIDA),)
    assert state.entered_from == (("kuwana", Side.ISHIDA, "minakuchi"), ("kuwana", Side.TOKUGAWA, "kiyosu"))
    assert state.control_of_resource("kuwana") is Side.TOKUGAWA


def test_8_1_combats_default_to_every_location_with_both_sides():
    text = (POSITIONS / "battle_at_kuwana.toml").read_text(encoding="utf-8")
    state = load(text.replace('combats = ["kuwana"]', ""))
    assert state.combat is not None
    assert state.combat.pending == frozenset({"gifu", "kuwana"})
    assert legal_commands(state, Side.TOKUGAWA) == [
        DeclareCombat(Side.TOKUGAWA, "gifu"), DeclareCombat(Side.TOKUGAWA, "kuwana"),
    ]


def test_8_9_2_combat_at_a_castle_asks_its_owner_inside_or_outside():
    state = load(COMBAT.replace("[game]\n", '[game]\ncombats = ["gifu"]\n') + TWO_COMBATS)
    assert state.combat is not None and state.combat.pending == frozenset({"gifu"})
    state, _ = apply(state, parse_command("tokugawa: combat gifu"))
    assert state.decision.kind is DecisionKind.CASTLE_CHOICE
    assert state.decision.sides == frozenset({Side.ISHIDA})  # 2 blocks: may stay inside (8.9.2)


def test_8_1_combat_position_in_turn_b_with_the_first_player_active():
    text = COMBAT.replace('active = "tokugawa"', 'active = "ishida"\nturn = "B"') + TWO_COMBATS
    state = load(text)
    assert (state.turn, state.phase, state.active) == (Turn.B, Phase.COMBAT, Side.ISHIDA)
    assert state.decision.kind is DecisionKind.DECLARE_COMBAT
    assert state.decision.sides == frozenset({Side.ISHIDA})


def test_8_1_empty_combats_ends_the_phase_and_goes_on_to_the_next():
    state = load(COMBAT.replace("[game]\n", "[game]\ncombats = []\n") + TWO_COMBATS)
    # 6.4: Tokugawa was second in turn A, so turn B begins with Ishida's Movement Phase.
    assert (state.turn, state.phase, state.active) == (Turn.B, Phase.MOVEMENT, Side.ISHIDA)
    assert state.decision.kind is DecisionKind.CHOOSE_MOVEMENT
    assert state.combat is None


def test_8_1_combat_phase_with_no_combat_goes_on_to_the_next_phase():
    state = load(COMBAT.replace('active = "tokugawa"', 'active = "ishida"'))
    assert (state.turn, state.phase, state.active) == (Turn.A, Phase.MOVEMENT, Side.TOKUGAWA)
    assert state.decision.kind is DecisionKind.CHOOSE_MOVEMENT


# --- bad input ------------------------------------------------------------------------

DEEP = 5000
TOO_DEEP = {
    "nested arrays": "a = " + "[" * DEEP + "]" * DEEP + "\n",
    "nested inline tables": MOVEMENT + "[blocks]\nosaka = " + "{ b = " * DEEP + "1" + " }" * DEEP + "\n",
    "nested arrays in a table": MOVEMENT + "[blocks]\nosaka = " + "[" * DEEP + "]" * DEEP + "\n",
    "dotted keys": MOVEMENT + "[blocks]\nosaka" + ".b" * 3000 + " = 1\n",
    "dotted table header": "[" + ".".join(["blocks"] * 3000) + "]\n",
    "just too deep": MOVEMENT + '[blocks]\nosaka = [[[[["ukita-2-1"]]]]]\n',
}


@pytest.mark.parametrize("text", TOO_DEEP.values(), ids=TOO_DEEP.keys())
def test_deeply_nested_toml_is_refused_in_one_line(text):
    with pytest.raises(InvalidPosition) as caught:
        load_position(text, "deep.toml")
    message = str(caught.value)
    assert message.startswith("deep.toml: ")
    assert message.endswith(
        "nested more than 4 lists or tables deep; no entry of a position needs more than 2 (a list in an inline table)"
    )
    assert "\n" not in message and len(message) < 200


def test_nesting_within_the_limit_gets_the_entrys_own_message():
    with pytest.raises(InvalidPosition, match=r"^deep\.toml: \[blocks\] osaka: must be a list of ids in quotes"):
        load_position(MOVEMENT + '[blocks]\nosaka = [[["ukita-2-1"]]]\n', "deep.toml")


def test_a_file_that_is_not_utf8_is_refused_in_one_line(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(MOVEMENT.encode() + "# Sekigahara \u00e9t\u00e9\n".encode("latin-1"))
    with pytest.raises(InvalidPosition) as caught:
        load_position_file(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: not UTF-8 text: ")
    assert "\n" not in message


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
    "unknown phase": ('[game]\nweek = 2\nphase = "battle"\n', "[game] phase: unknown phase 'battle'"),
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
    # [besieged] (8.9.4 step 5, 8.9.6, R54)
    "siege at a location with no castle": (
        MOVEMENT + '[blocks]\nkuwana = ["mori-2-1", "date-2-1"]\n[besieged]\nkuwana = "ishida"\n',
        "[besieged] kuwana: kuwana is not a castle location (8.9)",
    ),
    "siege at an unknown location": (
        MOVEMENT + '[besieged]\ngifuu = "ishida"\n',
        "[besieged] gifuu: unknown location 'gifuu'",
    ),
    "besieged side unknown": (
        MOVEMENT + TWO_SIEGES + '[besieged]\ngifu = "hojo"\n',
        "[besieged] gifu: unknown side 'hojo'",
    ),
    "besieged side with no units there": (
        MOVEMENT + '[blocks]\ngifu = ["date-2-1"]\n[besieged]\ngifu = "ishida"\n',
        "[besieged] gifu: no ishida units at gifu to be besieged (8.9.6)",
    ),
    "siege with nobody besieging": (
        MOVEMENT + '[blocks]\ngifu = ["mori-2-1"]\n[besieged]\ngifu = "ishida"\n',
        "[besieged] gifu: no tokugawa units at gifu: nobody besieges it (8.9.4)",
    ),
    "besieged side that does not own the castle": (
        MOVEMENT + TWO_SIEGES + '[besieged]\nokazaki = "ishida"\n',
        "[besieged] okazaki: tokugawa owns the castle at okazaki (R54, R36), "
        "so only tokugawa can be besieged inside (8.9.1)",
    ),
    "besieged against a disc": (
        MOVEMENT + '[blocks]\nueda = ["date-2-1"]\n[besieged]\nueda = "tokugawa"\n',
        "[besieged] ueda: ishida owns the castle at ueda (R54, R36), so only ishida can be besieged inside",
    ),
    "besieged given as a value": ('besieged = "gifu"\n' + MOVEMENT, "top level: besieged: must be a table"),
    # [entered_from] (R51)
    "entered_from at an unknown location": (
        COMBAT + '[entered_from]\nkuwanna = { ishida = ["kiyosu"] }\n',
        "[entered_from] kuwanna: unknown location 'kuwanna'",
    ),
    "entered_from with an unknown side": (
        COMBAT + '[entered_from]\nkuwana = { hojo = ["kiyosu"] }\n',
        "[entered_from] kuwana.hojo: unknown side 'hojo'",
    ),
    "entered_from an origin that is not adjacent": (
        COMBAT + '[entered_from]\nkuwana = { tokugawa = ["gifu"] }\n',
        "[entered_from] kuwana.tokugawa: 'gifu' is not adjacent to kuwana by road (R51); "
        "expected one of: anotsu, kiyosu, minakuchi",
    ),
    "entered_from an unknown origin": (
        COMBAT + '[entered_from]\nkuwana = { tokugawa = ["kiyosuu"] }\n',
        "[entered_from] kuwana.tokugawa: 'kiyosuu' is not adjacent to kuwana by road (R51)",
    ),
    "entered_from the location itself": (
        COMBAT + '[entered_from]\nkuwana = { tokugawa = ["kuwana"] }\n',
        "[entered_from] kuwana.tokugawa: 'kuwana' is not adjacent to kuwana by road (R51)",
    ),
    "entered_from an origin twice": (
        COMBAT + '[entered_from]\nkuwana = { tokugawa = ["kiyosu", "kiyosu"] }\n',
        "[entered_from] kuwana.tokugawa: location 'kiyosu' is listed twice",
    ),
    "entered_from origins not a list": (
        COMBAT + '[entered_from]\nkuwana = { tokugawa = "kiyosu" }\n',
        "[entered_from] kuwana.tokugawa: must be a list of ids in quotes",
    ),
    "entered_from entry not a table": (
        COMBAT + '[entered_from]\nkuwana = ["kiyosu"]\n',
        "[entered_from] kuwana: must be a table { side = [...] }",
    ),
    "entered_from in a reinforcement position": (
        '[game]\nweek = 2\nphase = "reinforcement"\n[entered_from]\nkuwana = { tokugawa = ["kiyosu"] }\n',
        "[entered_from]: the record starts empty each turn (R51): give it only in a Combat Phase "
        "or in the second player's Movement Phase (6.4)",
    ),
    "entered_from in a bid position": (
        '[game]\nweek = 2\nphase = "bid"\n[entered_from]\n',
        "[entered_from]: the record starts empty each turn (R51)",
    ),
    "entered_from in the first player's Movement Phase": (
        MOVEMENT + '[entered_from]\nkuwana = { tokugawa = ["kiyosu"] }\n',
        "[entered_from]: the record starts empty each turn (R51)",
    ),
    # phase = "combat" and [game] combats (8.1)
    "combat without first player": (
        '[game]\nweek = 3\nphase = "combat"\n',
        '[game] first_player: is required with phase = "movement" or "combat" (6.3, 6.4)',
    ),
    "combats outside a combat position": (
        MOVEMENT.replace("[game]\n", '[game]\ncombats = ["kuwana"]\n'),
        '[game] combats: give it only with phase = "combat" (8.1)',
    ),
    "combats at an unknown location": (
        COMBAT.replace("[game]\n", '[game]\ncombats = ["kuwanna"]\n'),
        "[game] combats: unknown location 'kuwanna'",
    ),
    "combats listing a location twice": (
        COMBAT.replace("[game]\n", '[game]\ncombats = ["kuwana", "kuwana"]\n') + TWO_COMBATS,
        "[game] combats: location 'kuwana' is listed twice",
    ),
    "combats where one side only has units": (
        COMBAT.replace("[game]\n", '[game]\ncombats = ["kuwana", "edo"]\n')
        + TWO_COMBATS.replace("[blocks]\n", '[blocks]\nedo = ["tokugawa-leader"]\n'),
        "[game] combats: no combat at edo: only tokugawa has units there (8.1)",
    ),
    "combats where nobody is": (
        COMBAT.replace("[game]\n", '[game]\ncombats = ["kiyosu"]\n'),
        "[game] combats: no combat at kiyosu: neither side has units there (8.1)",
    ),
    "combats not a list": (
        COMBAT.replace("[game]\n", '[game]\ncombats = "kuwana"\n'),
        "[game] combats: must be a list of ids in quotes",
    ),
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


DOCS = Path(__file__).parents[2] / "docs" / "positions.md"
DOCUMENTED = [block.split("```", 1)[0] for block in DOCS.read_text(encoding="utf-8").split("```toml\n")[1:]]


def test_the_documented_example_loads_like_its_file():
    assert load_position(DOCUMENTED[0], "docs/positions.md") == load_position_file(POSITIONS / "siege_at_gifu.toml")


def test_8_1_documented_combat_example_waits_for_kuwana():
    state = load_position(DOCUMENTED[1], "docs/positions.md")
    assert state.combat is not None and state.combat.pending == frozenset({"kuwana"})
    assert state.besieged == (("gifu", Side.ISHIDA),)
    assert state.decision.kind is DecisionKind.DECLARE_COMBAT
    assert state.decision.sides == frozenset({Side.TOKUGAWA})


def test_8_9_6_documented_besieged_example_lists_aizu_only():
    state = load_position(DOCUMENTED[2], "docs/positions.md")
    assert state.besieged == (("aizu", Side.ISHIDA),)
    assert state.combat is not None and state.combat.pending == frozenset({"aizu", "gifu"})


def test_r51_documented_entered_from_example():
    state = load_position(DOCUMENTED[3], "docs/positions.md")
    assert state.entered_from == (("kuwana", Side.ISHIDA, "minakuchi"), ("kuwana", Side.TOKUGAWA, "kiyosu"))
    assert (state.turn, state.phase, state.active) == (Turn.B, Phase.COMBAT, Side.TOKUGAWA)


def test_there_are_four_documented_examples():
    assert len(DOCUMENTED) == 4
