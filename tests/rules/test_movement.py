"""7.3 Movement: stack moves, leadership, force marches, size; 7.3.2 and R57."""

import pytest
from attrs import evolve

from helpers import movement_phase, run
from rules.commands import BeginMove, Muster, Select, Step
from rules.engine import apply, legal_commands
from rules.errors import IllegalCommand
from rules.describe import describe
from rules.events import BlocksStopped, CardsDiscarded, ControlChanged, LeaderDeclared
from rules.notation import parse_command
from rules.sides import Side
from rules.stack_moves import size_penalty
from rules.state import DecisionKind, MovementOption
from rules.view import view

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
FULL, LIMITED, MINIMAL = MovementOption.FULL, MovementOption.LIMITED, MovementOption.MINIMAL
FIVE = ["ukita-leader", "ukita-2-1", "ukita-2-2", "ukita-3-1", "ukita-3-2"]


def refused(state, line, message):
    with pytest.raises(IllegalCommand, match=message):
        apply(state, parse_command(line))


# --- the rulebook's movement example (section 7), on the real map -------------------


def test_7_movement_example_stack_a_five_blocks_go_two_locations():
    """Stack A: 5 blocks at Osaka, whose castle gives leadership: 1 +1 highway
    +1 leadership -1 for 5-8 blocks = 2 locations along the Tokaido."""
    state = movement_phase(ISHIDA, FULL, osaka=FIVE)
    state, _ = run(state, "ishida: move osaka", *(f"ishida: select {b}" for b in FIVE),
                   "ishida: step kyoto", "ishida: step minakuchi")
    assert [state.place_of(b) for b in FIVE] == ["minakuchi"] * 5
    refused(state, "ishida: step kuwana", r"may move 2 locations in a group of 5 \(7.3.3-7.3.6\)")


def test_7_movement_example_four_of_them_would_reach_kuwana_and_block_the_segment():
    state = movement_phase(ISHIDA, FULL, osaka=FIVE, kyoto=["mori-2-1"])
    state, _ = run(state, "ishida: move osaka", *(f"ishida: select {b}" for b in FIVE[:4]),
                   "ishida: step kyoto", "ishida: step minakuchi", "ishida: step kuwana", "ishida: done")
    assert [state.place_of(b) for b in FIVE] == ["kuwana"] * 4 + ["osaka"]
    # Stack B may not use the Kyoto-Minakuchi segment stack A used (7.3.1).
    state, _ = run(state, "ishida: move kyoto", "ishida: select mori-2-1")
    refused(state, "ishida: step minakuchi", r"Kyoto–Minakuchi was already used this phase \(7.3.1\)")
    assert Step(ISHIDA, "minakuchi") not in legal_commands(state, ISHIDA)
    state, _ = run(state, "ishida: done")  # B stops in Kyoto
    assert state.place_of("mori-2-1") == "kyoto"


def test_7_movement_example_c_d_e():
    """C: one block, no leader: 1 location. D: with a leader: 2. E: leadership
    but not wholly on the highway: 2."""
    state = movement_phase(ISHIDA, FULL, ayabe=["mori-2-1"], tanabe=["kobayakawa-leader", "kobayakawa-2-1"],
                           osaka=["ukita-2-1"])
    state, _ = run(state, "ishida: move ayabe", "ishida: select mori-2-1", "ishida: step himeji")
    refused(state, "ishida: step osaka", r"may move 1 location ")
    state, events = run(state, "ishida: done", "ishida: move tanabe leader",
                        "ishida: select kobayakawa-2-1", "ishida: step wakayama", "ishida: step osaka")
    assert LeaderDeclared(ISHIDA, "tanabe") in events
    assert state.place_of("kobayakawa-2-1") == "osaka"
    state, _ = run(state, "ishida: done", "ishida: move osaka", "ishida: select ukita-2-1",
                   "ishida: step kyoto", "ishida: step ayabe")
    refused(state, "ishida: step miyazu", r"may move 2 locations")


# --- 7.3.1 basic movement, R13-R15 -------------------------------------------------------


def test_7_3_1_r15_a_location_is_the_source_of_one_stack_move_a_phase():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1", "ukita-2-2"])
    state, _ = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto", "ishida: done")
    refused(state, "ishida: move osaka", r"Osaka was already the source of a stack move this phase \(R15\)")
    assert state.place_of("ukita-2-2") == "osaka"  # left behind, stays


def test_7_3_1_no_block_takes_part_in_two_moves():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1"], kyoto=["mori-2-1"])
    state, _ = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto",
                   "ishida: done", "ishida: move kyoto")
    assert [s.block for s in legal_commands(state, ISHIDA) if isinstance(s, Select)] == ["mori-2-1"]
    refused(state, "ishida: select ukita-2-1", r"not in this stack move from Kyoto \(7.3.1\)")


def test_r13_r14_groups_split_at_the_source_and_on_the_way_and_drop_blocks_off():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-leader", "ukita-2-1", "ukita-2-2", "ukita-3-1"])
    state, _ = run(state, "ishida: move osaka",
                   "ishida: select ukita-3-1", "ishida: step himeji", "ishida: halt",  # split at the source
                   "ishida: select ukita-leader", "ishida: select ukita-2-1", "ishida: select ukita-2-2",
                   "ishida: step kyoto", "ishida: deselect ukita-2-2",  # ukita-2-2 is dropped off...
                   "ishida: step minakuchi", "ishida: halt",
                   "ishida: select ukita-2-2", "ishida: step sawayama", "ishida: done")  # ...or goes on alone
    assert {b: state.place_of(b) for b in ("ukita-3-1", "ukita-leader", "ukita-2-1", "ukita-2-2")} == {
        "ukita-3-1": "himeji", "ukita-leader": "minakuchi", "ukita-2-1": "minakuchi", "ukita-2-2": "sawayama"}


def test_r14_a_moving_group_never_picks_blocks_up():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1", "ukita-2-2"], kyoto=["mori-2-1"])
    state, _ = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto")
    refused(state, "ishida: select ukita-2-2",
            r"^a moving group never picks up blocks: select blocks that have moved together \(7.3.1, R14\)$")  # waiting at Osaka, not with the group
    refused(state, "ishida: select mori-2-1", r"not in this stack move")


def test_7_3_1_each_road_segment_carries_one_group_a_phase():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1", "ukita-2-2"])
    state, _ = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto", "ishida: halt",
                   "ishida: select ukita-2-2")
    refused(state, "ishida: step kyoto", r"Osaka–Kyoto was already used this phase \(7.3.1\)")


def test_7_3_2_r57_a_group_entering_enemy_units_stops():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1", "ukita-2-2"], kyoto=["tokugawa-3-1"])
    state, events = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: select ukita-2-2",
                        "ishida: step kyoto")
    assert BlocksStopped(ISHIDA, "kyoto") in events
    assert state.movement.current.selection == ()
    refused(state, "ishida: select ukita-2-1", r"ukita-2-1 has ended its move \(7.3.1\)")


def test_8_9_6_r57_besieged_blocks_cannot_leave():
    state = movement_phase(ISHIDA, FULL, gifu=["ukita-2-1"], sawayama=["mori-2-1"])
    state = evolve(state, besieged=(("gifu", ISHIDA),))
    refused(state, "ishida: move gifu", r"besieged at Gifu cannot leave \(8.9.6, R57\)")
    assert BeginMove(ISHIDA, "gifu") not in legal_commands(state, ISHIDA)


# --- 7.3.3 distance, 7.3.4 leadership, R16-R18 ---------------------------------------------


def test_7_3_3_highway_bonus_only_for_a_move_wholly_on_highways():
    state = movement_phase(ISHIDA, FULL, sawayama=["mori-2-1"], tsuruga=["mori-2-2"])
    state, _ = run(state, "ishida: move sawayama", "ishida: select mori-2-1", "ishida: step kyoto")
    refused(state, "ishida: step ayabe", r"may move 1 location")  # road: no highway bonus
    state, _ = run(state, "ishida: step minakuchi", "ishida: done")  # highway: 2
    assert state.place_of("mori-2-1") == "minakuchi"


def test_7_3_4_r17_a_declared_leader_gives_every_block_starting_there_plus_one():
    state = movement_phase(ISHIDA, FULL, ayabe=["ukita-leader", "ukita-2-1"])
    assert BeginMove(ISHIDA, "ayabe", leader=True) in legal_commands(state, ISHIDA)
    state, events = run(state, "ishida: move ayabe leader", "ishida: select ukita-2-1",
                        "ishida: step himeji", "ishida: step osaka")  # the leader stays behind
    assert events[0] == LeaderDeclared(ISHIDA, "ayabe")
    assert events[0].visible_to() == {ISHIDA, TOKUGAWA}
    assert state.place_of("ukita-2-1") == "osaka"


def test_r17_a_declared_leader_is_not_shown_to_the_opponent():
    state = movement_phase(ISHIDA, FULL, ayabe=["ukita-leader", "ukita-2-1"])
    state, events = run(state, "ishida: move ayabe leader")
    assert "ukita-leader" not in repr(events) and "ukita-leader" not in repr(view(state, TOKUGAWA))
    assert describe(events[0], TOKUGAWA) == "Ishida declares a leader block in Ayabe for leadership (7.3.4, R17)."


def test_r17_only_a_stack_with_a_leader_block_may_declare_one():
    state = movement_phase(ISHIDA, FULL, ayabe=["ukita-2-1"], kyoto=["ukita-leader"])
    assert BeginMove(ISHIDA, "ayabe", leader=True) not in legal_commands(state, ISHIDA)
    refused(state, "ishida: move ayabe leader", r"you have no leader block at Ayabe to declare \(7.3.4, R17\)")
    refused(state, "ishida: move kyoto leader", r"Kyoto gives leadership already; no leader need be declared")


def test_r17_without_declaring_the_leader_there_is_no_leadership():
    state = movement_phase(ISHIDA, FULL, ayabe=["ukita-leader", "ukita-2-1"])
    state, _ = run(state, "ishida: move ayabe", "ishida: select ukita-2-1", "ishida: step himeji")
    refused(state, "ishida: step osaka", r"may move 1 location")


def test_7_3_4_castle_leadership_needs_the_movers_colour_and_control():
    state = movement_phase(ISHIDA, FULL, anotsu=["mori-2-1"], gifu=["mori-2-2"])
    state, _ = run(state, "ishida: move anotsu", "ishida: select mori-2-1", "ishida: step kumano")
    refused(state, "ishida: step tanabe", r"may move 1 location")  # a black castle gives Ishida nothing
    state, _ = run(state, "ishida: done", "ishida: move gifu", "ishida: select mori-2-2",
                   "ishida: step kiyosu", "ishida: step okazaki")  # gold castle, controlled: 2 by road
    assert state.place_of("mori-2-2") == "okazaki"


def test_r18_own_capital_gives_leadership_without_control():
    state = movement_phase(TOKUGAWA, FULL, edo=["tokugawa-2-1"])
    state = evolve(state, resource_control=(("edo", ISHIDA),))
    state, _ = run(state, "tokugawa: move edo", "tokugawa: select tokugawa-2-1",
                   "tokugawa: step mito", "tokugawa: step iwaki")
    assert state.place_of("tokugawa-2-1") == "iwaki"
    assert BeginMove(TOKUGAWA, "edo", leader=True) not in legal_commands(state, TOKUGAWA)


def test_7_3_3_r16_force_march_costs_a_card_and_adds_one_to_a_group():
    state = movement_phase(ISHIDA, FULL, ayabe=["mori-2-1", "mori-2-2"])
    state, events = run(state, "ishida: move ayabe", "ishida: select mori-2-1", "ishida: select mori-2-2",
                        "ishida: march ukita-plain-1")
    assert CardsDiscarded(ISHIDA, ("ukita-plain-1",), "force march") in events
    refused(state, "ishida: march ukita-plain-2", r"^only one force march may apply to a block \(7.3.3, R16\)$")
    state, _ = run(state, "ishida: step himeji", "ishida: deselect mori-2-2")
    refused(state, "ishida: step osaka", r"^a force-marched group must move and end together \(7.3.3, R16\)$")
    state, _ = run(state, "ishida: select mori-2-2", "ishida: step osaka", "ishida: done")
    assert state.place_of("mori-2-1") == state.place_of("mori-2-2") == "osaka"


def test_r16_any_number_of_force_marches_one_card_each():
    state = movement_phase(ISHIDA, FULL, ayabe=["mori-2-1", "mori-2-2"])
    state, _ = run(state, "ishida: move ayabe", "ishida: select mori-2-1", "ishida: march ukita-plain-1",
                   "ishida: step himeji", "ishida: step osaka", "ishida: halt",
                   "ishida: select mori-2-2", "ishida: march ukita-plain-2", "ishida: step kyoto", "ishida: step sawayama")
    assert state.cards[ISHIDA].hand == ()
    assert state.place_of("mori-2-2") == "sawayama"


def test_r60_two_groups_of_one_stack_each_force_marched_move_on_their_own():
    state = movement_phase(ISHIDA, FULL, ayabe=["mori-2-1", "mori-2-2"])
    state, _ = run(state, "ishida: move ayabe", "ishida: select mori-2-1", "ishida: march ukita-plain-1",
                   "ishida: deselect mori-2-1", "ishida: select mori-2-2", "ishida: march ukita-plain-2",
                   "ishida: deselect mori-2-2")
    state, _ = run(state, "ishida: select mori-2-1")
    refused(state, "ishida: select mori-2-2", r"^a force-marched block moves only with the group it was force-marched with \(R60\)$")
    state, _ = run(state, "ishida: step himeji", "ishida: step osaka", "ishida: halt",
                   "ishida: select mori-2-2", "ishida: step kyoto", "ishida: step sawayama", "ishida: done")
    assert (state.place_of("mori-2-1"), state.place_of("mori-2-2")) == ("osaka", "sawayama")
    assert state.cards[ISHIDA].hand == ()


def test_r60_a_force_marched_block_cannot_join_an_unmarched_group():
    state = movement_phase(ISHIDA, FULL, ayabe=["mori-2-1", "mori-2-2"])
    state, _ = run(state, "ishida: move ayabe", "ishida: select mori-2-1", "ishida: march ukita-plain-1",
                   "ishida: deselect mori-2-1", "ishida: select mori-2-2")
    refused(state, "ishida: select mori-2-1", r"\(R60\)")
    assert Select(ISHIDA, "mori-2-1") not in legal_commands(state, ISHIDA)


# --- 7.3.5 force size, R19, R20 -----------------------------------------------------------


def test_7_3_6_r20_size_penalty_chart():
    assert [size_penalty(n) for n in range(1, 18)] == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4 + [4]


def test_r19_groups_parting_at_the_source_are_judged_separately():
    state = movement_phase(ISHIDA, FULL, osaka=FIVE)
    state, _ = run(state, "ishida: move osaka", *(f"ishida: select {b}" for b in FIVE[:4]),
                   "ishida: step kyoto", "ishida: step minakuchi", "ishida: step kuwana", "ishida: halt",
                   f"ishida: select {FIVE[4]}", "ishida: step wakayama", "ishida: step tanabe")
    assert state.place_of(FIVE[4]) == "tanabe"


def test_r19_a_block_keeps_the_penalty_of_the_largest_group_it_moved_with():
    state = movement_phase(ISHIDA, FULL, osaka=FIVE)
    state, _ = run(state, "ishida: move osaka", *(f"ishida: select {b}" for b in FIVE),
                   "ishida: step kyoto", *(f"ishida: deselect {b}" for b in FIVE[1:]), "ishida: step minakuchi")
    refused(state, "ishida: step kuwana", r"may move 2 locations in a group of 5")


def test_7_3_6_seventeen_blocks_cannot_move():
    many = ["mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4", "mori-3-5", "mori-2-1", "mori-2-2",
            "mori-2-3", "mori-gun-1", "mori-gun-2", "mori-cav-1", "mori-cav-2", "mori-cav-3",
            "ukita-2-1", "ukita-2-2", "ukita-2-3"]
    state = movement_phase(ISHIDA, FULL, osaka=many)
    state, _ = run(state, "ishida: move osaka", *(f"ishida: select {b}" for b in many))
    assert [c for c in legal_commands(state, ISHIDA) if isinstance(c, Step)] == []
    refused(state, "ishida: step kyoto", r"may move 0 locations in a group of 17")


# --- 7.1 what each option allows ---------------------------------------------------------


def test_7_1_minimal_allows_one_stack_move_or_one_muster():
    state = movement_phase(ISHIDA, MINIMAL, osaka=["ukita-2-1"], kyoto=["mori-2-1"],
                           ishida_recruitment=["mori-2-2"])
    state, _ = run(state, "ishida: move osaka", "ishida: done")
    assert state.decision.kind is DecisionKind.MOVE
    refused(state, "ishida: move kyoto", r"minimal movement allows no more stack moves \(7.1\)")
    refused(state, "ishida: muster himeji mori-2-2", r"minimal movement allows no more musters \(7.1\)")


def test_7_1_limited_allows_three_actions_one_of_which_may_be_a_muster():
    state = movement_phase(ISHIDA, LIMITED, osaka=["ukita-2-1"], kyoto=["mori-2-1"], gifu=["mori-2-2"],
                           ueda=["mori-2-3"], ishida_recruitment=["mori-3-5"])
    state, _ = run(state, "ishida: muster himeji mori-3-5", "ishida: move osaka", "ishida: done",
                   "ishida: move kyoto", "ishida: done")
    refused(state, "ishida: move gifu", r"limited movement allows no more stack moves \(7.1\)")


def test_7_1_full_moves_every_stack_plus_one_muster():
    places = {"osaka": ["ukita-2-1"], "kyoto": ["mori-2-1"], "gifu": ["mori-2-2"], "ueda": ["mori-2-3"]}
    state = movement_phase(ISHIDA, FULL, **places, ishida_recruitment=["mori-3-5"])
    for source in places:
        state, _ = run(state, f"ishida: move {source}", "ishida: done")
    state, _ = run(state, "ishida: muster himeji mori-3-5")
    assert legal_commands(state, ISHIDA)[-1:] == [parse_command("ishida: end")]


def test_r4_passing_through_a_resource_location_takes_control():
    state = movement_phase(ISHIDA, FULL, miyazu=["ukita-leader", "ukita-2-1"])
    state, events = run(state, "ishida: move miyazu leader", "ishida: select ukita-2-1",
                        "ishida: step tsuruga", "ishida: step sawayama")
    assert ControlChanged("tsuruga", ISHIDA) in events
    assert state.control_of_resource("tsuruga") is ISHIDA


def test_7_3_3_the_moving_side_sees_each_blocks_steps_left_and_why_it_may_not_force_march():
    """The view of the moving side (only) carries what 7.3.3-7.3.6 allow each
    block of the stack move, and why the selected group may not force march."""
    state = movement_phase(ISHIDA, FULL, osaka=FIVE)
    state, _ = run(state, "ishida: move osaka", *(f"ishida: select {b}" for b in FIVE))
    movement = view(state, ISHIDA).movement
    assert dict(movement.steps_left) == {b: 2 for b in FIVE}  # 1 +1 highway +1 leadership -1 for 5 (stack A)
    assert movement.why_no_force_march is None
    state, _ = run(state, "ishida: step kyoto")
    movement = view(state, ISHIDA).movement
    assert dict(movement.steps_left) == {b: 1 for b in FIVE}
    assert movement.why_no_force_march == "a force march applies to a group that starts its move together (7.3.3, R16)"
    enemy = view(state, TOKUGAWA).movement
    assert enemy.steps_left == () and enemy.why_no_force_march is None  # R55: the enemy sees none of it


def test_7_3_3_a_block_that_has_used_its_whole_move_has_no_step_left():
    """Ayabe, no leadership: 1 location; the view says 0 more once it is spent
    (a road that is not a highway took the highway bonus away)."""
    state = movement_phase(ISHIDA, FULL, ayabe=["mori-2-1"])
    state, _ = run(state, "ishida: move ayabe", "ishida: select mori-2-1", "ishida: step himeji")
    assert dict(view(state, ISHIDA).movement.steps_left) == {"mori-2-1": 0}


def test_7_3_3_r16_a_force_march_adds_one_to_the_steps_left():
    state = movement_phase(ISHIDA, FULL, ayabe=["mori-2-1"])
    state, _ = run(state, "ishida: move ayabe", "ishida: select mori-2-1")
    assert dict(view(state, ISHIDA).movement.steps_left) == {"mori-2-1": 2}  # 1 +1 if by highway
    state, _ = run(state, "ishida: march ukita-plain-1")
    assert dict(view(state, ISHIDA).movement.steps_left) == {"mori-2-1": 3}


def test_7_3_3_a_force_march_costs_a_card_so_an_empty_hand_cannot_pay_for_one():
    from helpers import with_hand

    state = movement_phase(ISHIDA, FULL, ayabe=["mori-2-1"])
    state, _ = run(state, "ishida: move ayabe", "ishida: select mori-2-1")
    state = with_hand(state, ISHIDA, ())
    assert view(state, ISHIDA).movement.why_no_force_march == "a force march costs a card, and your hand is empty (7.3.3)"


def refused_exactly(state, line, message):
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, parse_command(line))
    assert str(refusal.value) == message


def test_r14_a_group_that_halts_has_ended_its_move():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1", "ukita-3-1"])
    state, _ = run(state, "ishida: move osaka", "ishida: select ukita-3-1", "ishida: step himeji", "ishida: halt")
    assert [c.block for c in legal_commands(state, ISHIDA) if isinstance(c, Select)] == ["ukita-2-1"]
    refused_exactly(state, "ishida: select ukita-3-1", "ukita-3-1 has ended its move (7.3.1)")


def test_7_3_1_once_a_stack_move_ends_none_is_under_way():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1"])
    state, _ = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto", "ishida: done")
    assert state.movement.current is None
    assert view(state, ISHIDA).movement.current_source is None
    assert state.decision.kind is DecisionKind.MOVE


def test_7_3_1_r55_a_step_tells_the_owner_which_blocks_and_the_opponent_how_many():
    state = movement_phase(ISHIDA, FULL, sawayama=["ukita-2-1", "ukita-2-2"])
    state, _ = run(state, "ishida: move sawayama", "ishida: select ukita-2-1", "ishida: select ukita-2-2")
    _, events = apply(state, parse_command("ishida: step tsuruga"))
    from rules.events import BlocksMoved, OpponentMovedBlocks

    assert list(events) == [BlocksMoved(ISHIDA, ("ukita-2-1", "ukita-2-2"), "sawayama", "tsuruga", "sawayama"),
                            OpponentMovedBlocks(ISHIDA, 2, "sawayama", "tsuruga", "sawayama"),
                            ControlChanged("tsuruga", ISHIDA)]  # R4: entering a resource location


def test_7_3_every_step_of_a_stack_move_tells_both_sides_where_the_move_began():
    """7.3: the opponent sees the stack leave its source, so a step on from a
    reached place says it continues the move from there (7.3.1, R15). Two
    highway segments: 2 locations (7.3.3)."""
    state = movement_phase(ISHIDA, FULL, sawayama=["ukita-2-1", "ukita-2-2"])
    state, _ = run(state, "ishida: move sawayama", "ishida: select ukita-2-1", "ishida: step gifu")
    _, events = apply(state, parse_command("ishida: step iwamura"))
    from rules.events import BlocksMoved, OpponentMovedBlocks

    moved = [e for e in events if isinstance(e, (BlocksMoved, OpponentMovedBlocks))]
    assert moved == [BlocksMoved(ISHIDA, ("ukita-2-1",), "gifu", "iwamura", "sawayama"),
                     OpponentMovedBlocks(ISHIDA, 1, "gifu", "iwamura", "sawayama")]
    assert TOKUGAWA in moved[1].visible_to() and moved[1].for_spectators  # public (R55)


def test_7_3_3_a_move_that_took_a_road_gets_no_highway_bonus_on_later_highways():
    """Himeji-Osaka is a road, Osaka-Kyoto a highway: 1 location, not 2."""
    state = movement_phase(ISHIDA, FULL, himeji=["mori-2-1"])
    state, _ = run(state, "ishida: move himeji", "ishida: select mori-2-1", "ishida: step osaka")
    refused_exactly(state, "ishida: step kyoto", "mori-2-1 may move 1 location in a group of 1 (7.3.3-7.3.6)")
    assert dict(view(state, ISHIDA).movement.steps_left) == {"mori-2-1": 0}


def test_7_3_2_r14_blocks_left_at_the_source_may_still_move_after_a_group_stops():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1", "ukita-2-2"], kyoto=["tokugawa-3-1"])
    state, events = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto")
    assert BlocksStopped(ISHIDA, "kyoto") in events
    assert [c.block for c in legal_commands(state, ISHIDA) if isinstance(c, Select)] == ["ukita-2-2"]
    state, _ = run(state, "ishida: select ukita-2-2", "ishida: step himeji")
    assert state.place_of("ukita-2-2") == "himeji"


def test_7_3_1_r14_steps_halts_and_force_marches_need_a_selected_group():
    state = movement_phase(ISHIDA, FULL, osaka=["ukita-2-1"])
    state, _ = run(state, "ishida: move osaka")
    refused_exactly(state, "ishida: step kyoto", "select the blocks to move first (7.3.1)")
    refused_exactly(state, "ishida: halt", "select the blocks that end their move (R14)")
    refused_exactly(state, "ishida: march ukita-plain-1", "select the group to force march first (7.3.3)")
    state, _ = run(state, "ishida: select ukita-2-1")
    refused_exactly(state, "ishida: halt", "blocks that have not moved simply stay behind (7.3.1)")
    refused_exactly(state, "ishida: step edo", "Osaka and Edo are not connected by a road (7.3.1)")


def test_7_3_6_seventeen_blocks_or_more_lose_4_however_many():
    assert [size_penalty(n) for n in (17, 21, 25, 48)] == [4, 4, 4, 4]


def test_r16_a_force_marched_group_cannot_halt_without_all_of_it():
    state = movement_phase(ISHIDA, FULL, ayabe=["mori-2-1", "mori-2-2"])
    state, _ = run(state, "ishida: move ayabe", "ishida: select mori-2-1", "ishida: select mori-2-2",
                   "ishida: march ukita-plain-1", "ishida: step himeji", "ishida: deselect mori-2-2")
    refused_exactly(state, "ishida: halt", "a force-marched group must move and end together (7.3.3, R16)")


def test_7_1_limited_after_three_stack_moves_allows_no_muster():
    state = movement_phase(ISHIDA, LIMITED, osaka=["ukita-2-1"], kyoto=["mori-2-1"], gifu=["mori-2-2"],
                           ishida_recruitment=["mori-3-5"])
    state, _ = run(state, "ishida: move osaka", "ishida: done", "ishida: move kyoto", "ishida: done",
                   "ishida: move gifu", "ishida: done")
    assert not any(isinstance(c, Muster) for c in legal_commands(state, ISHIDA))
    refused_exactly(state, "ishida: muster himeji mori-3-5", "limited movement allows no more musters (7.1)")


def test_8_9_6_besiegers_move_away_without_the_blocks_they_besiege():
    """Tokugawa besieges Ishida in Gifu; the stack move from Gifu is
    Tokugawa's blocks only, and the Ishida leader inside gives them nothing to declare."""
    state = movement_phase(TOKUGAWA, FULL, gifu=["mori-leader", "mori-2-1", "date-2-1", "date-2-2"])
    state = evolve(state, besieged=(("gifu", ISHIDA),))
    assert BeginMove(TOKUGAWA, "gifu", leader=True) not in legal_commands(state, TOKUGAWA)
    refused_exactly(state, "tokugawa: move gifu leader", "you have no leader block at Gifu to declare (7.3.4, R17)")
    state, _ = run(state, "tokugawa: move gifu")
    assert [p.block for p in state.movement.current.blocks] == ["date-2-1", "date-2-2"]
    assert [c.block for c in legal_commands(state, TOKUGAWA) if isinstance(c, Select)] == ["date-2-1", "date-2-2"]


def test_8_9_6_besiegers_whose_blocks_have_all_moved_have_none_left_to_move():
    state = movement_phase(TOKUGAWA, FULL, gifu=["mori-2-1", "date-2-1"], ishida_recruitment=[])
    state = evolve(state, besieged=(("gifu", ISHIDA),))
    state = evolve(state, movement=evolve(state.movement, fixed=frozenset({"date-2-1"})))
    refused_exactly(state, "tokugawa: move gifu", "you have no block at Gifu that may still move this phase (7.3.1)")


def test_r17_a_declared_leader_is_recorded_and_no_leader_is_declared_where_the_place_leads():
    state = movement_phase(ISHIDA, FULL, gifu=["mori-leader", "mori-2-1"], tanabe=["kobayakawa-leader"])
    refused_exactly(state, "ishida: move gifu leader",
                    "Gifu gives leadership already; no leader need be declared (7.3.4, R17)")
    state, _ = run(state, "ishida: move tanabe leader")
    assert state.movement.current.leader_declared is True and state.movement.current.leadership is True
