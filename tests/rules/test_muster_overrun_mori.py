"""7.2 Muster (R11, R12), 7.4 Overruns (R21, R50), 9.3 the Mori Box (R40, R42)."""

import pytest
from attrs import evolve

from helpers import movement_phase, run
from rules.commands import BeginMove, EnterFromMoriBox, Muster
from rules.engine import apply, legal_commands
from rules.errors import IllegalCommand
from rules.events import (
    BlocksMustered, CardsDiscarded, BlocksPlaced, BlocksStopped, CardsDrawn, MoriBlockEntered, OpponentPlacedBlocks, Overrun,
)
from rules.notation import parse_command
from rules.sides import Side
from rules.state import ELIMINATED, MORI_BOX, DecisionKind, MovementOption, Phase, with_positions
from rules.view import view

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
FULL, PASS = MovementOption.FULL, MovementOption.PASS


def refused(state, line, message):
    with pytest.raises(IllegalCommand, match=message):
        apply(state, parse_command(line))


# --- 7.2 muster ---------------------------------------------------------------------


def test_7_2_option_2_one_block_of_any_daimyo_hidden():
    state = movement_phase(ISHIDA, FULL, ishida_recruitment=["mori-2-1", "ukita-3-1"])
    state, events = run(state, "ishida: muster aizu ukita-3-1")  # aizu is Uesugi's
    assert state.place_of("ukita-3-1") == "aizu"
    assert events[:2] == [BlocksPlaced(ISHIDA, "aizu", ("ukita-3-1",)), OpponentPlacedBlocks(ISHIDA, "aizu", 1)]
    assert [e.visible_to() for e in events[:2]] == [{ISHIDA}, {TOKUGAWA}]
    assert "ukita-3-1" not in repr(view(state, TOKUGAWA))


def test_7_2_r11_option_1_any_number_of_the_locations_daimyo_shown():
    state = movement_phase(ISHIDA, FULL, ishida_recruitment=["mori-2-1", "mori-2-2", "mori-3-5", "ukita-3-1"])
    state, events = run(state, "ishida: muster himeji mori-2-2 mori-2-1")
    assert events[0] == BlocksMustered(ISHIDA, "himeji", ("mori-2-1", "mori-2-2"))
    assert events[0].visible_to() == {ISHIDA, TOKUGAWA}
    assert state.place_of("mori-3-5") == "ishida_recruitment"


def test_7_2_r11_legal_musters_offer_each_choice_up_to_alike_blocks():
    state = movement_phase(ISHIDA, FULL, ishida_recruitment=["mori-2-1", "mori-2-2", "mori-3-5"])
    himeji = [c.blocks for c in legal_commands(state, ISHIDA) if isinstance(c, Muster) and c.location == "himeji"]
    assert sorted(himeji) == sorted([("mori-2-1",), ("mori-2-2",), ("mori-3-5",), ("mori-2-1", "mori-2-2"),
                                     ("mori-2-1", "mori-3-5"), ("mori-2-1", "mori-2-2", "mori-3-5")])


def test_7_2_option_1_needs_the_locations_mon():
    state = movement_phase(ISHIDA, FULL, ishida_recruitment=["mori-2-1", "mori-2-2"])
    refused(state, "ishida: muster osaka mori-2-1 mori-2-2", r"^several blocks may be mustered only if all are of the daimyo whose mon is at the location \(7.2 option 1, R11\)$")


def test_7_2_only_to_own_recruitment_locations():
    state = movement_phase(ISHIDA, FULL, ishida_recruitment=["mori-2-1"])
    refused(state, "ishida: muster edo mori-2-1", r"edo is not one of your recruitment locations \(7.2\)")
    refused(state, "ishida: muster kyoto mori-2-1", r"kyoto is not one of your recruitment locations \(7.2\)")


def test_7_2_once_a_turn_and_mustered_blocks_do_not_move():
    state = movement_phase(ISHIDA, FULL, ishida_recruitment=["mori-2-1", "mori-2-2"])
    state, _ = run(state, "ishida: muster himeji mori-2-1")
    refused(state, "ishida: muster himeji mori-2-2", r"^you may muster only once a turn \(7.2\)$")
    assert BeginMove(ISHIDA, "himeji") not in legal_commands(state, ISHIDA)
    refused(state, "ishida: move himeji", r"no block at Himeji that may still move this phase \(7.3.1\)")


def test_r12_no_muster_where_only_enemy_units_stand():
    state = movement_phase(ISHIDA, FULL, himeji=["tokugawa-3-1"], ishida_recruitment=["mori-2-1"])
    refused(state, "ishida: muster himeji mori-2-1",
            r"^Himeji holds 1 Tokugawa block and no Ishida block: an attack cannot come from the Recruitment Box \(7.2, R12\)$")


def test_r12_muster_beside_friendly_blocks_with_enemies_counts_toward_an_overrun():
    state = movement_phase(ISHIDA, FULL, himeji=["ukita-2-1", "ukita-2-2", "ukita-3-1", "tokugawa-3-1"],
                           ishida_recruitment=["mori-2-1"])
    state, events = run(state, "ishida: muster himeji mori-2-1")
    assert Overrun(ISHIDA, "himeji", ("tokugawa-3-1",)) in events
    assert state.place_of("tokugawa-3-1") == ELIMINATED


# --- 7.4 overruns -----------------------------------------------------------------------


def test_7_4_2_overrun_example():
    """An enemy block alone; stack 1 (2 blocks) enters and stops (2:1); stack 2
    (2 blocks) enters: 4:1, the enemy block is destroyed and stack 2 may go on.
    Stack 1 counted but cannot move again."""
    state = movement_phase(ISHIDA, FULL, kyoto=["ukita-2-1", "ukita-2-2"], gifu=["mori-2-1", "mori-2-2"],
                           sawayama=["tokugawa-3-1"])
    state, events = run(state, "ishida: move kyoto", "ishida: select ukita-2-1", "ishida: select ukita-2-2",
                        "ishida: step sawayama")
    assert BlocksStopped(ISHIDA, "sawayama") in events
    state, events = run(state, "ishida: done", "ishida: move gifu", "ishida: select mori-2-1",
                        "ishida: select mori-2-2", "ishida: step sawayama")
    assert Overrun(ISHIDA, "sawayama", ("tokugawa-3-1",)) in events
    assert state.place_of("tokugawa-3-1") == ELIMINATED
    state, _ = run(state, "ishida: step tsuruga", "ishida: done")  # stack 2 goes on
    assert state.place_of("mori-2-1") == "tsuruga"
    refused(state, "ishida: move sawayama", r"no block at Sawayama that may still move")


def test_7_4_1_overrun_counts_blocks_not_strength():
    state = movement_phase(TOKUGAWA, FULL, kiyosu=["tokugawa-gun-1", "tokugawa-cav-1", "tokugawa-leader", "date-leader"],
                           okazaki=[], gifu=[], kuwana=["mori-3-1"])
    state, events = run(state, "tokugawa: move kiyosu", *(f"tokugawa: select {b}" for b in
                        ["tokugawa-gun-1", "tokugawa-cav-1", "tokugawa-leader", "date-leader"]), "tokugawa: step kuwana")
    assert Overrun(TOKUGAWA, "kuwana", ("mori-3-1",)) in events


def test_7_4_3_r21_blocks_controlling_a_castle_cannot_be_overrun():
    state = movement_phase(ISHIDA, FULL, anotsu=["tokugawa-2-1"],
                           kuwana=["mori-2-1", "mori-2-2", "mori-2-3", "mori-3-1"])
    state, events = run(state, "ishida: move kuwana", *(f"ishida: select {b}" for b in
                        ["mori-2-1", "mori-2-2", "mori-2-3", "mori-3-1"]), "ishida: step anotsu")
    assert not any(isinstance(e, Overrun) for e in events)
    assert BlocksStopped(ISHIDA, "anotsu") in events
    assert state.place_of("tokugawa-2-1") == "anotsu"


def test_r21_r36_discs_cannot_be_overrun():
    state = movement_phase(TOKUGAWA, FULL, saku=["date-2-1", "date-2-2", "date-3-1", "date-3-2"])
    state, events = run(state, "tokugawa: move saku", *(f"tokugawa: select {b}" for b in
                        ["date-2-1", "date-2-2", "date-3-1", "date-3-2"]), "tokugawa: step ueda")
    assert BlocksStopped(TOKUGAWA, "ueda") in events and "sanada" in state.discs


def test_7_4_3_blocks_inside_a_castle_count_against_besiegers_outside():
    state = movement_phase(ISHIDA, FULL, gifu=["mori-2-1", "tokugawa-2-1"], sawayama=["mori-2-2", "mori-2-3"],
                           iwamura=["mori-3-1"])
    state = evolve(state, castle_control=tuple(sorted(dict(state.castle_control).items())))
    assert state.control_of_castle("gifu") is ISHIDA  # Ishida inside, Tokugawa outside
    state, events = run(state, "ishida: move sawayama", "ishida: select mori-2-2", "ishida: select mori-2-3",
                        "ishida: step gifu")
    assert not any(isinstance(e, Overrun) for e in events)  # 3:1
    state, events = run(state, "ishida: done", "ishida: move iwamura", "ishida: select mori-3-1", "ishida: step gifu")
    assert Overrun(ISHIDA, "gifu", ("tokugawa-2-1",)) in events  # 4:1 with the garrison


def test_r50_overrunning_ishida_mitsunari_ends_the_game_at_once():
    state = movement_phase(TOKUGAWA, FULL, kiyosu=["date-2-1", "date-2-2", "date-3-1", "date-3-2"],
                           kuwana=["ishida-leader"])
    state, events = run(state, "tokugawa: move kiyosu", *(f"tokugawa: select {b}" for b in
                        ["date-2-1", "date-2-2", "date-3-1", "date-3-2"]), "tokugawa: step kuwana")
    assert state.phase is Phase.OVER
    assert (state.result.winner, state.result.cause) == (TOKUGAWA, "ishida-mitsunari-eliminated")
    assert legal_commands(state, TOKUGAWA) == []


# --- 9.3 the Mori Box ---------------------------------------------------------------------


def mori_state(option=FULL, **where):
    state = movement_phase(ISHIDA, option, **where)
    return with_positions(state, {b: MORI_BOX for b in ("mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4")})


def test_9_3_r40_each_block_costs_a_card_and_the_leader_enters_last():
    state = mori_state()
    offered = {c.block for c in legal_commands(state, ISHIDA) if isinstance(c, EnterFromMoriBox)}
    assert offered == {"mori-3-1"}  # alike blocks; never the leader first
    refused(state, "ishida: mori mori-leader ukita-plain-1", r"^the Mori leader enters last \(9.3, R40\)$")
    state, events = run(state, "ishida: mori mori-3-2 ukita-plain-1")
    assert MoriBlockEntered(ISHIDA, "mori-3-2") in events
    assert state.place_of("mori-3-2") == "osaka" and "ukita-plain-1" not in state.cards[ISHIDA].hand
    assert state.cards[ISHIDA].discard_pile[-1] == "ukita-plain-1"


def test_r42_entry_under_any_option_and_the_blocks_do_not_move_this_turn():
    state = mori_state(PASS)
    assert state.decision.kind is DecisionKind.EXCHANGE_CARDS
    state, _ = run(state, "ishida: mori mori-3-1 mori-plain-1")
    assert state.place_of("mori-3-1") == "osaka"
    state = mori_state(FULL)
    state, _ = run(state, "ishida: mori mori-3-1 ukita-plain-1")
    refused(state, "ishida: move osaka", r"no block at Osaka that may still move this phase")


def test_r42_no_entry_while_osaka_holds_enemy_units_and_no_ishida_blocks():
    state = mori_state(osaka=["tokugawa-3-1"])
    assert not any(isinstance(c, EnterFromMoriBox) for c in legal_commands(state, ISHIDA))
    refused(state, "ishida: mori mori-3-1 ukita-plain-1", r"^Osaka holds 1 Tokugawa block and no Ishida block, "
            r"only the Hideyori disc, which is not a block \(R61\): no Mori block may enter \(R42\)$")


def test_r61_no_muster_into_enemy_blocks_beside_only_a_friendly_disc():
    state = movement_phase(ISHIDA, FULL, osaka=["tokugawa-3-1", "tokugawa-3-2"], ishida_recruitment=["kobayakawa-2-1"])
    assert "hideyori" in state.discs
    assert not any(isinstance(c, Muster) and c.location == "osaka" for c in legal_commands(state, ISHIDA))
    refused(state, "ishida: muster osaka kobayakawa-2-1",
            r"^Osaka holds 2 Tokugawa blocks and no Ishida block, only the Hideyori disc, which is not a block "
            r"\(R61\): an attack cannot come from the Recruitment Box \(7.2, R12\)$")


# --- R62: how long a revealed block stays known -------------------------------------------


def known_to(state, side):
    return dict(view(state, side).enemy_known)


def test_r62_blocks_mustered_with_option_1_stay_known_where_they_stand_until_they_move():
    state = movement_phase(ISHIDA, FULL, ishida_recruitment=["mori-2-1", "mori-2-2"])
    state, _ = run(state, "ishida: muster himeji mori-2-1 mori-2-2")
    assert known_to(state, TOKUGAWA) == {"mori-2-1": "himeji", "mori-2-2": "himeji"}
    # Tokugawa's phases pass; in turn B Ishida moves one of them on.
    state, _ = run(state, "ishida: end", "tokugawa: movement pass", "tokugawa: draw", "ishida: movement minimal")
    assert known_to(state, TOKUGAWA) == {"mori-2-1": "himeji", "mori-2-2": "himeji"}
    state, _ = run(state, "ishida: move himeji", "ishida: select mori-2-1", "ishida: step ayabe")
    assert known_to(state, TOKUGAWA) == {"mori-2-2": "himeji"}  # the one that moved is hidden again


def test_r62_a_block_from_the_mori_box_stays_known_in_osaka():
    state = mori_state()
    state, _ = run(state, "ishida: mori mori-3-2 ukita-plain-1")
    assert known_to(state, TOKUGAWA)["mori-3-2"] == "osaka"


def test_r62_a_single_mustered_block_is_never_shown():
    state = movement_phase(ISHIDA, FULL, ishida_recruitment=["mori-2-1"])
    state, _ = run(state, "ishida: muster himeji mori-2-1")
    assert "mori-2-1" not in known_to(state, TOKUGAWA)


# --- R38: overruns replenish the side overrun ---------------------------------------------


def test_r38_the_side_overrun_draws_one_card_per_two_blocks_lost():
    eight = ["ukita-2-1", "ukita-2-2", "ukita-2-3", "ukita-3-1", "ukita-3-2", "ukita-gun-1", "ukita-cav-1", "ukita-leader"]
    state = movement_phase(ISHIDA, FULL, kyoto=eight, sawayama=["date-2-1", "date-2-2"])
    hands = state.cards.map(lambda cards: cards.hand)
    top = state.cards[TOKUGAWA].draw_pile[0]
    state, events = run(state, "ishida: move kyoto", *(f"ishida: select {b}" for b in eight), "ishida: step sawayama")
    assert Overrun(ISHIDA, "sawayama", ("date-2-1", "date-2-2")) in events
    assert CardsDrawn(TOKUGAWA, (top,)) in events
    assert state.cards[TOKUGAWA].hand == hands.tokugawa + (top,)
    assert state.cards[ISHIDA].hand == hands.ishida  # the overrunning side draws nothing


def test_r38_an_overrun_of_one_block_draws_nothing():
    state = movement_phase(ISHIDA, FULL, kyoto=["ukita-2-1", "ukita-2-2", "ukita-3-1", "ukita-3-2"],
                           sawayama=["date-2-1"])
    hands = state.cards.map(lambda cards: cards.hand)
    state, events = run(state, "ishida: move kyoto", *(f"ishida: select {b}" for b in
                        ["ukita-2-1", "ukita-2-2", "ukita-3-1", "ukita-3-2"]), "ishida: step sawayama")
    assert Overrun(ISHIDA, "sawayama", ("date-2-1",)) in events
    assert not any(isinstance(e, CardsDrawn) for e in events)
    assert state.cards.map(lambda cards: cards.hand) == hands


def test_r38_a_muster_that_overruns_two_blocks_gives_their_side_a_card():
    state = movement_phase(ISHIDA, FULL, himeji=[f"ukita-{k}" for k in ("2-1", "2-2", "2-3", "3-1", "3-2", "gun-1", "cav-1")]
                           + ["tokugawa-3-1", "tokugawa-3-2"], ishida_recruitment=["mori-2-1"])
    size = len(state.cards[TOKUGAWA].hand)
    state, events = run(state, "ishida: muster himeji mori-2-1")
    assert Overrun(ISHIDA, "himeji", ("tokugawa-3-1", "tokugawa-3-2")) in events
    assert len(state.cards[TOKUGAWA].hand) == size + 1


def test_r42_a_mori_entry_can_overrun():
    state = mori_state(osaka=["ukita-2-1", "ukita-2-2", "ukita-3-1", "tokugawa-3-1"])
    state, events = run(state, "ishida: mori mori-3-1 ukita-plain-1")
    assert Overrun(ISHIDA, "osaka", ("tokugawa-3-1",)) in events


def test_9_3_only_ishida_has_the_mori_box():
    state = movement_phase(TOKUGAWA, FULL)
    refused(state, "tokugawa: mori mori-3-1 tokugawa-plain-3", r"^only Ishida has the Mori Box \(9.3\)$")


def test_r41_hook_empties_the_mori_box_into_osaka_leader_last():
    from rules.mori_box import enter_all_from_mori_box

    state = mori_state(osaka=["ukita-2-1"])
    hand = state.cards[ISHIDA].hand
    state, events = enter_all_from_mori_box(state)
    assert [e.block for e in events if isinstance(e, MoriBlockEntered)] == [
        "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4", "mori-leader"]
    assert state.blocks_at(MORI_BOX) == () and state.cards[ISHIDA].hand == hand


def test_r51_entries_are_recorded_for_the_turn_and_cleared_at_the_next():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1"], ishida_recruitment=["mori-2-1"])
    state, _ = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto",
                   "ishida: done", "ishida: muster himeji mori-2-1")
    assert state.entered_from == (("kyoto", ISHIDA, "osaka"),)  # the muster entered from nowhere
    state, _ = run(state, "ishida: end")  # Tokugawa's phase of the same turn keeps the record
    assert state.entered_from == (("kyoto", ISHIDA, "osaka"),)
    state, _ = run(state, "tokugawa: movement minimal", "tokugawa: end")
    assert state.turn.value == "B" and state.entered_from == ()


def test_r5_a_muster_into_a_resource_location_takes_control():
    state = movement_phase(TOKUGAWA, FULL, tokugawa_recruitment=["tokugawa-2-1"])
    state = evolve(state, resource_control=(("edo", ISHIDA),))
    state, events = run(state, "tokugawa: muster edo tokugawa-2-1")
    assert state.control_of_resource("edo") is TOKUGAWA


def test_r41_r62_blocks_the_hook_brings_from_the_mori_box_stay_known_in_osaka():
    from rules.mori_box import enter_all_from_mori_box

    state, _ = enter_all_from_mori_box(mori_state(osaka=["ukita-2-1"]))
    assert known_to(state, TOKUGAWA) == {b: "osaka" for b in ("mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4")}


def test_7_4_3_r36_a_disc_no_longer_in_play_does_not_stop_an_overrun():
    """Ueda held by Tokugawa, an Ishida block beside it and the Sanada disc
    gone: 4 Tokugawa blocks to 1 overrun it (the garrison counts, 7.4.3)."""
    from helpers import fresh_game

    start = evolve(fresh_game(), discs=fresh_game().discs - {"sanada"})
    state = movement_phase(TOKUGAWA, FULL, state=start, ueda=["tokugawa-2-1", "ukita-2-1"],
                           saku=["date-2-1", "date-2-2", "date-3-1"])
    state = evolve(state, castle_control=tuple(sorted({**dict(state.castle_control), "ueda": TOKUGAWA}.items())))
    state, events = run(state, "tokugawa: move saku", *(f"tokugawa: select {b}" for b in
                        ["date-2-1", "date-2-2", "date-3-1"]), "tokugawa: step ueda")
    assert Overrun(TOKUGAWA, "ueda", ("ukita-2-1",)) in events


def test_7_2_a_muster_names_its_blocks():
    state = movement_phase(ISHIDA, FULL, ishida_recruitment=["mori-2-1"])
    with pytest.raises(IllegalCommand, match=r"^name the blocks to muster \(7.2\)$"):
        apply(state, Muster(ISHIDA, "himeji", ()))


def test_9_3_r40_the_leader_waits_while_one_other_block_is_left_in_the_box():
    state = with_positions(movement_phase(ISHIDA, FULL), {"mori-leader": MORI_BOX, "mori-3-1": MORI_BOX})
    refused(state, "ishida: mori mori-leader ukita-plain-1", r"^the Mori leader enters last \(9.3, R40\)$")
    state, events = run(state, "ishida: mori mori-3-1 ukita-plain-1")
    assert CardsDiscarded(ISHIDA, ("ukita-plain-1",), "mori box") in events  # R40: one card a block, public (R2)
    state, _ = run(state, "ishida: mori mori-leader ukita-plain-2")  # now the last
    assert state.place_of("mori-leader") == "osaka"


def test_7_4_2_r62_an_overrun_block_is_no_longer_a_revealed_block_on_the_map():
    state = movement_phase(ISHIDA, FULL, kyoto=["ukita-2-1", "ukita-2-2", "ukita-3-1", "ukita-3-2"],
                           sawayama=["date-2-1"])
    state = evolve(state, revealed=frozenset({"date-2-1"}))
    state, events = run(state, "ishida: move kyoto", *(f"ishida: select {b}" for b in
                        ["ukita-2-1", "ukita-2-2", "ukita-3-1", "ukita-3-2"]), "ishida: step sawayama")
    assert Overrun(ISHIDA, "sawayama", ("date-2-1",)) in events
    assert state.revealed == frozenset()
