"""The engine's fast paths say what the plain rules say (issue 25).

The legal lists of the Movement Phase are worked out from caches and tables
(stack sources kept with the place index, commands made once, the allowance
tested once per road kind); castle control after an arrival looks only at the
arrival's two places. Each is checked here against the rule written plainly,
at every decision of whole random games, with and without contact.
"""

from __future__ import annotations

import attrs
import pytest

from helpers import no_contact
from itertools import combinations

from rules.arrival import has_enemy_units
from rules.commands import ChooseMovement, BeginMove, EndExchange, EndMovement, EnterFromMoriBox, Deselect, EndStackMove, ForceMarch, Halt, Select, Step
from rules.combat import begin_combat_phase, combat_locations, next_combat
from rules.components import default_components
from rules.events import PhaseBegan
from rules.control import update_castle_control
from rules.engine import legal_commands, start_game
from rules.immutable import evolve, with_field
from rules.mori_box import entry_blocked, legal_mori_entries, next_entrants
from rules.muster import _musters_at, legal_musters, muster_sites
from rules.infra.selfplay import random_game
from rules.places import PlaceIndex, place_index
from rules.sides import BOTH_SIDES, Side
from rules.stack_moves import (
    CAPITALS,
    is_besieged,
    leaders_at,
    legal_begin_moves,
    legal_stack_commands,
    movable_blocks,
    place_leadership,
    why_deselect_illegal,
    why_force_march_illegal,
    why_halt_illegal,
    why_select_illegal,
    why_step_illegal,
)
from rules.movement import apply_end_exchange, apply_end_movement, card_cost, legal_movement_choices
from rules.state import RECRUITMENT_BOX, CombatPhase, DecisionKind, MovementOption, MovementPhase, Phase, with_positions

SEEDS = (4, 6)  # seed 4 leaves a captured castle empty: control reverts at the origin (4.3)


def plain_begin_moves(state, side) -> list[BeginMove]:
    """R15, R17, R57, 7.3.4 read off the map location by location, in map order."""
    commands = []
    for location in default_components().locations:
        source = location.id
        if source in state.movement.sources or is_besieged(state, side, source):
            continue
        if not movable_blocks(state, side, source):
            continue
        commands.append(BeginMove(side, source))
        if leaders_at(state, side, source) and not place_leadership(state, side, source):
            commands.append(BeginMove(side, source, leader=True))
    return commands


def plain_stack_commands(state, side) -> list:
    """Every stack-move command a player could type, kept where its check finds nothing wrong."""
    current = state.movement.current
    c = default_components()
    candidates = (
        [Select(side, p.block) for p in current.blocks]
        + [Deselect(side, b) for b in current.selection]
        + [ForceMarch(side, card) for card in state.cards[side].hand]
        + [Step(side, to) for to in (c.neighbours(current.progress(current.selection[0]).at) if current.selection else ())]
    )
    checks = {Select: why_select_illegal, Deselect: why_deselect_illegal, ForceMarch: why_force_march_illegal,
              Step: why_step_illegal}
    commands = [command for command in candidates if checks[type(command)](state, command) is None]
    if why_halt_illegal(state, Halt(side)) is None:
        commands.append(Halt(side))
    return commands + [EndStackMove(side)]


def plain_movement_choices(state, side) -> list:
    """7.1, R10: each option with each set of cards it costs, from the hand in card order."""
    hand = sorted(state.cards[side].hand)
    return [ChooseMovement(side, option, cards) for option in MovementOption
            for cards in combinations(hand, card_cost(option))]


def plain_muster_sites(state, side) -> list[str]:
    """R12, R61: the side's recruitment locations without enemy units, or with its own blocks there too."""
    return [loc.id for loc in default_components().recruitment_locations(side)
            if not has_enemy_units(state, side, loc.id) or state.blocks_at(loc.id, side)]


def plain_musters(state, side) -> list:
    box = state.blocks_at(RECRUITMENT_BOX[side], side)
    return [muster for site in plain_muster_sites(state, side) for muster in _musters_at(side, site, box)]


def plain_leadership(state, side, location) -> bool:
    """7.3.4, R18: the side's own capital, or a castle of its colour it controls."""
    castle = default_components().location(location).castle
    return CAPITALS[side] == location or (castle is side and dict(state.castle_control)[location] is side)


def check_control_and_leadership(state) -> None:
    """control_of_castle's slot lookup and place_leadership's table say what a scan says."""
    control = dict(state.castle_control)
    for castle in default_components().castles():
        assert state.control_of_castle(castle.id) is control[castle.id]
    for side in BOTH_SIDES:
        for location in default_components().location_ids:
            assert place_leadership(state, side, location) is plain_leadership(state, side, location), (side, location)


def plain_mori_entries(state, side) -> list:
    """R42: each next entrant (R40) for each card of the hand, unless Osaka is held against Ishida."""
    if side is not Side.ISHIDA or entry_blocked(state):
        return []
    return [EnterFromMoriBox(side, block, card) for block in next_entrants(state) for card in state.cards[side].hand]


def check_step(before, command, after, events) -> None:
    state = after
    check_control_and_leadership(state)
    if state.decision.kind is DecisionKind.MOVE:
        side = state.active
        assert legal_mori_entries(state, side) == plain_mori_entries(state, side)
        assert legal_begin_moves(state, side) == plain_begin_moves(state, side)
        assert legal_musters(state, side) == plain_musters(state, side)
        for each in BOTH_SIDES:
            assert muster_sites(state, each) == plain_muster_sites(state, each)
    if state.decision.kind is DecisionKind.CHOOSE_MOVEMENT:
        side = state.active
        assert legal_movement_choices(state, side) == plain_movement_choices(state, side)
    if state.decision.kind is DecisionKind.STACK_MOVE:
        side = state.active
        assert legal_stack_commands(state, side) == plain_stack_commands(state, side)
    # Control was brought up to date at the arrival's places: a rescan of every castle finds nothing to change.
    assert update_castle_control(state) == (state, [])
    # The stacks kept with a patched index are those of an index built afresh.
    fresh = PlaceIndex(state.positions)
    for side in BOTH_SIDES:
        assert place_index(state.positions).on_map(side) == fresh.on_map(side)
        assert place_index(state.positions).table(side) == fresh.table(side)  # off the map too


def test_movement_lists_and_castle_control_agree_with_the_plain_rules() -> None:
    for seed in SEEDS:
        random_game(seed, on_step=check_step, trusted=True)
        random_game(seed, on_step=check_step, trusted=True, avoid=no_contact)


def test_listed_commands_are_made_once() -> None:
    """Two states' lists share their commands (the club's notation table hashes
    each listed command at every state: a cached hash is computed once)."""
    seen: dict = {}
    shared = []

    def on_step(before, command, after, events) -> None:
        for side in after.decision.sides:
            for listed in legal_commands(after, side):
                if type(listed) in (BeginMove, Select, Step, EndStackMove):
                    shared.append(seen.setdefault(listed, listed) is listed)

    random_game(3, on_step=on_step, trusted=True)
    assert len(shared) > 1000 and all(shared)


def test_evolve_and_with_field_copy_as_attrs_evolve() -> None:
    """rules.immutable copies a state class's instance dict instead of calling
    __init__: the copy equals attrs.evolve's, the original is untouched, and a
    name that is no field is refused as attrs refuses it."""
    state, _ = start_game(1)
    before = attrs.evolve(state)
    changed = {"week": 3, "revealed": frozenset({"x"}), "movement": MovementPhase()}
    for name, value in changed.items():
        assert with_field(state, name, value) == evolve(state, **{name: value}) == attrs.evolve(state, **{name: value})
    assert evolve(state, **changed) == attrs.evolve(state, **changed)
    assert state == before and state.week == 1
    for change in (lambda: evolve(state, nonsense=1), lambda: with_field(state, "nonsense", 1)):
        with pytest.raises(TypeError):
            change()


def test_control_of_castle_reads_a_state_kept_otherwise() -> None:
    """A castle_control not in the game's own order (a state built by hand) is scanned."""
    state, _ = start_game(1)
    shuffled = tuple(reversed(state.castle_control))
    other = with_field(state, "castle_control", shuffled)
    for place, side in shuffled:
        assert other.control_of_castle(place) is side
    with pytest.raises(KeyError):
        other.control_of_castle("kyoto-not-a-castle")


def test_mori_entries_follow_osaka() -> None:
    """The kept Mori entries (R42) are dropped when Osaka changes: Tokugawa
    blocks there and no Ishida block block the entry (R61), and they come back
    once an Ishida block stands there again."""
    seen = []

    def on_step(before, command, after, events) -> None:
        if after.decision.kind is DecisionKind.MOVE and after.active is Side.ISHIDA and after.blocks_at("mori_box"):
            seen.append(after)

    random_game(2, on_step=on_step, trusted=True)
    state = seen[0]
    assert legal_mori_entries(state, Side.ISHIDA) == plain_mori_entries(state, Side.ISHIDA) != []
    ishida_there = state.blocks_at("osaka", Side.ISHIDA)
    tokugawa = state.blocks_at("edo", Side.TOKUGAWA)[0]
    held = with_positions(state, {**{block: "eliminated" for block in ishida_there}, tokugawa: "osaka"})
    assert legal_mori_entries(held, Side.ISHIDA) == plain_mori_entries(held, Side.ISHIDA) == []
    freed = with_positions(held, {ishida_there[0]: "osaka"} if ishida_there else {tokugawa: "edo"})
    assert legal_mori_entries(freed, Side.ISHIDA) == plain_mori_entries(freed, Side.ISHIDA) != []


def test_a_combat_phase_without_combat_ends_as_next_combat_ends_it() -> None:
    """begin_combat_phase ends a phase with nothing to declare at once (8.1):
    the state and events next_combat gives, at the end of every Movement Phase."""
    ends = []

    def on_step(before, command, after, events) -> None:
        if isinstance(command, (EndMovement, EndExchange)):
            ends.append(before)

    for seed in SEEDS:
        random_game(seed, on_step=on_step, trusted=True)
    quiet = 0
    for before in ends:
        side = before.active
        state, _ = (apply_end_movement if before.decision.kind is DecisionKind.MOVE else apply_end_exchange)(
            before, EndMovement(side) if before.decision.kind is DecisionKind.MOVE else EndExchange(side))
        fast = begin_combat_phase(state, side)
        began = evolve(state, phase=Phase.COMBAT, active=side, movement=None,
                       combat=CombatPhase(pending=frozenset(combat_locations(state))))
        plain_state, plain_events = next_combat(began)
        assert fast == (plain_state, [PhaseBegan(state.week, state.turn, Phase.COMBAT, side), *plain_events])
        quiet += not combat_locations(state)
    assert 0 < quiet < len(ends)


def test_begin_moves_worked_out_again_only_where_something_changed(monkeypatch) -> None:
    """legal_begin_moves patches the side's previous list where the stacks,
    the used sources, the fixed blocks, castle control or the sieges changed
    (7.3.1, 7.3.4, R15, R17, R57): asked in any order, over states of other
    phases and other games, its list is the plain rules' list."""
    import random

    from rules import stack_sources

    states = []

    def on_step(before, command, after, events) -> None:
        if after.decision.kind is DecisionKind.MOVE:
            states.append(after)

    for seed in SEEDS:
        random_game(seed, on_step=on_step, trusted=True)
        random_game(seed, on_step=on_step, trusted=True, avoid=no_contact)
    afresh = []
    worked_out = stack_sources._afresh
    monkeypatch.setattr(stack_sources, "_afresh", lambda *args: afresh.append(1) or worked_out(*args))
    order = random.Random("begins")
    # in game order (small changes), then shuffled (another phase, another game), then near neighbours swapped
    shuffled = order.sample(states, len(states))
    neighbours = [s for i in range(0, len(states) - 1, 2) for s in (states[i + 1], states[i])]
    asked = 0
    for state in states + shuffled + neighbours:
        for side in BOTH_SIDES:  # the side not moving too: its list is asked by nobody, but must hold
            assert legal_begin_moves(state, side) == plain_begin_moves(state, side)
            asked += 1
    assert any(state.besieged for state in states)
    assert 0 < len(afresh) < asked // 2  # both ways were taken, the patch most often


def test_begin_moves_follow_a_change_of_sources_control_or_sieges_alone() -> None:
    """States made by hand from game states, each changing one thing the list
    rests on while the stacks stay: a source used (R15), a castle's control
    (leadership, 7.3.4, R17), a siege (R57). Asked right after the state they
    come from, the patched list is the plain rules' list."""
    states = []

    def on_step(before, command, after, events) -> None:
        if after.decision.kind is DecisionKind.MOVE:
            states.append(after)

    random_game(SEEDS[0], on_step=on_step, trusted=True)
    castles = {loc.id for loc in default_components().castles()}
    changes = 0
    for state in states[::3]:
        side = state.active
        stacks = [place for place, _ in place_index(state.positions).on_map(side)]
        held = [place for place in stacks if place in castles]
        variants = [with_field(state, "movement", evolve(state.movement, sources=state.movement.sources | {stacks[0]})),
                    with_field(state, "besieged", tuple(sorted(state.besieged + ((stacks[-1], side),))))]
        if held:
            flipped = tuple((place, side.other if place == held[0] else owner) for place, owner in state.castle_control)
            variants.append(with_field(state, "castle_control", flipped))
        for variant in variants:
            for asked in (state, variant, state):
                assert legal_begin_moves(asked, side) == plain_begin_moves(asked, side)
            changes += plain_begin_moves(variant, side) != plain_begin_moves(state, side)
    assert changes > len(states[::3])  # most variants change the list


def test_muster_sites_held_by_enemy_blocks_read_off_the_tables() -> None:
    """muster_sites (R12, R61) against the plain rule where an enemy block
    stands on each recruitment location in turn, with and without a friendly
    block beside it."""
    state, _ = start_game(SEEDS[0])
    compared = refused = 0
    for side in BOTH_SIDES:
        enemy = state.blocks_at(RECRUITMENT_BOX[side.other], side.other) or state.blocks_at("bag", side.other)
        own = state.blocks_at(RECRUITMENT_BOX[side], side)
        for loc in default_components().recruitment_locations(side):
            held = with_positions(state, {enemy[0]: loc.id, **{b: "eliminated" for b in state.blocks_at(loc.id, side)}})
            shared = with_positions(held, {own[0]: loc.id})
            for asked in (held, shared):
                assert muster_sites(asked, side) == plain_muster_sites(asked, side)
                compared += 1
            refused += loc.id not in muster_sites(held, side)
            assert loc.id in muster_sites(shared, side)
    assert refused == compared // 2 > 0


def test_movement_choices_of_a_hand_holding_a_card_of_the_other_deck() -> None:
    """The choices are looked up in tables of the side's own deck (7.1, R10);
    a hand made by hand with the other side's card is worked out plainly."""
    from rules.state import SideCards

    state, _ = start_game(SEEDS[1])
    for side in BOTH_SIDES:
        cards = state.cards[side]
        foreign = state.cards[side.other].hand[0]
        odd = with_field(state, "cards", state.cards.replace(side, SideCards(cards.hand + (foreign,), cards.draw_pile, ())))
        for asked in (state, odd):
            assert legal_movement_choices(asked, side) == plain_movement_choices(asked, side)
        assert len(legal_movement_choices(odd, side)) > len(legal_movement_choices(state, side))


def test_a_step_of_blocks_not_where_it_starts_takes_the_general_patch() -> None:
    """stepped_positions patches two places of one side's table (7.3); blocks
    that do not all stand at the step's start are moved the general way, and
    either way the index is the one built afresh."""
    from rules.places import stepped_positions

    state, _ = start_game(SEEDS[0])
    place_index(state.positions)
    for side in BOTH_SIDES:
        (at, here), (elsewhere, there) = [(p, b) for p, b in place_index(state.positions).on_map(side)][:2]
        for blocks in (here, here[:1], (here[0], there[0])):
            stepped = stepped_positions(state.positions, side, blocks, at, "kyoto")
            expected = with_positions(state, dict.fromkeys(blocks, "kyoto")).positions
            assert stepped == expected
            fresh = PlaceIndex(stepped)
            for each in BOTH_SIDES:
                assert place_index(stepped).table(each) == fresh.table(each)


def test_a_step_carries_the_kept_answers_as_the_general_patch_does() -> None:
    """PlaceIndex.stepped keeps an answer over a step exactly when `after`
    keeps it: one that rests on the other side's blocks, or on places the
    step neither left nor reached."""
    state, _ = start_game(SEEDS[0])
    for side in BOTH_SIDES:
        index = PlaceIndex(state.positions)
        (at, blocks), (to, _) = [(p, b) for p, b in index.on_map(side)][:2]
        for key, kept_side, places in (("own", side, None), ("other", side.other, None),
                                       ("left", None, frozenset({at})), ("reached", None, frozenset({to})),
                                       ("far", None, frozenset({"bag"}))):
            index.keep(key, key, side=kept_side, places=places)
        moved = with_positions(state, dict.fromkeys(blocks, to)).positions
        general = index.after(moved, dict.fromkeys(blocks, to))
        stepped = index.stepped(moved, side, blocks, at, to)
        assert stepped.memo == general.memo and set(stepped.memo) >= {"other", "far"}
        assert stepped.table(side) == general.table(side) == PlaceIndex(moved).table(side)
