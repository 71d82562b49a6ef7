"""Issue 14, section 4: where each hidden enemy block can be (Belief.possible),
and the sampler that keeps to it. The belief is built from one side's events
and views only (R55); these tests are the referee and read the true state to
check it: the true place of every enemy block is always among the places the
belief allows (it is sound), and every sampled state puts each block where
the belief allows, with exactly the bot's view."""

from __future__ import annotations

import random

import pytest

from rules.components import default_components
from rules.engine import apply_trusted, start_game
from rules.events import BlocksMustered, OpponentMovedBlocks, PieceLost
from rules.sides import BOTH_SIDES, Side
from rules.state import BAG, ELIMINATED, MORI_BOX, RECRUITMENT_BOX, with_positions
from rules.view import view
from sekigahara_tui.bots import belief as belief_module
from sekigahara_tui.bots.base import make_bot
from sekigahara_tui.bots.belief import Belief
from sekigahara_tui.bots.sampler import Sampler

C = default_components()


def enemy_blocks(side: Side) -> list[str]:
    return [b.id for b in C.blocks if b.side is side.other]


def true_places(state) -> dict[str, str]:
    return {b.id: place for b, place in zip(C.blocks, state.positions)}


def game_steps(seed: int, levels: tuple[str, str], limit: int = 3000):
    """Yield (state, beliefs) at the start and after every command of a whole
    game between bots of `levels` (Ishida, Tokugawa); each side's belief has
    seen that side's events only, and no view since the last command."""
    state, events = start_game(seed)
    bots = {side: make_bot(level, side, seed) for side, level in zip(BOTH_SIDES, levels)}
    beliefs = {side: Belief(side) for side in BOTH_SIDES}
    for side in BOTH_SIDES:
        visible = [e for e in events if side in e.visible_to()]
        bots[side].observe(visible)
        beliefs[side].observe(visible)
    yield state, beliefs
    for _ in range(limit):
        if state.is_over:
            return
        side = sorted(state.decision.sides)[0]
        state, events = apply_trusted(state, bots[side].choose(view(state, side), 1.0))
        for each in BOTH_SIDES:
            visible = [e for e in events if each in e.visible_to()]
            bots[each].observe(visible)
            beliefs[each].observe(visible)
        yield state, beliefs


def unsound(belief: Belief, state) -> list[tuple[str, str, set]]:
    real = true_places(state)
    return [(b, real[b], set(belief.possible[b])) for b in enemy_blocks(belief.side) if real[b] not in belief.possible[b]]


def check_soundness(seed: int, levels: tuple[str, str]) -> int:
    steps = 0
    for state, beliefs in game_steps(seed, levels):
        for side, belief in beliefs.items():
            # From the events alone, then narrowed by the view's counts (R55).
            assert unsound(belief, state) == [], (seed, levels, steps, side, "events")
            belief.see(view(state, side))
            assert unsound(belief, state) == [], (seed, levels, steps, side, "view")
            assert belief.resets == 0, (seed, levels, steps, side)
        steps += 1
    assert state.is_over
    return steps


# --- soundness over whole games ------------------------------------------------------------


@pytest.mark.parametrize("levels", [("random", "random"), ("heuristic", "heuristic"), ("random", "heuristic")])
@pytest.mark.parametrize("seed", [1, 2])
def test_r55_the_true_place_of_every_enemy_block_is_always_possible(seed, levels):
    """Counted moves and retreats (R55), placements from the bag (5.2.2, 5.2.3,
    6.2) and unshown musters (7.2 option 2) only widen; reveals (R62) and
    losses (8.7.3) pin; the view's counts prune. Both sides believe, at every
    step of whole games."""
    assert check_soundness(seed, levels) > 100


@pytest.mark.slow
@pytest.mark.parametrize("levels", [("random", "random"), ("heuristic", "heuristic"), ("heuristic", "random")])
@pytest.mark.parametrize("seed", range(3, 11))
def test_r55_the_belief_is_sound_over_many_games(seed, levels):
    assert check_soundness(seed, levels) > 100


def test_the_belief_is_not_trivial_it_narrows_the_places():
    """A sound belief could allow, for a hidden block, every place where the
    view counts hidden enemy blocks; this one allows far fewer, from the
    counted history (R55), and pins some hidden blocks outright."""
    allowed = live = pinned = hidden = 0
    for n, (state, beliefs) in enumerate(game_steps(4, ("heuristic", "heuristic"))):
        if n % 5:
            continue
        for side, belief in beliefs.items():
            seen = view(state, side)
            belief.see(seen)
            known = dict(seen.enemy_known)
            left = dict(seen.enemy_counts)
            for place in known.values():
                left[place] -= 1
            for block in enemy_blocks(side):
                if block not in known:
                    allowed += len(belief.possible[block])
                    live += sum(1 for n in left.values() if n > 0)
                    pinned += len(belief.possible[block]) == 1
                    hidden += 1
    assert hidden > 1000
    assert allowed < 0.75 * live
    assert pinned > hidden // 10


# --- the rules the belief rests on -----------------------------------------------------------


def setup_beliefs():
    state, events = start_game(7)
    beliefs = {side: Belief(side) for side in BOTH_SIDES}
    for side in BOTH_SIDES:
        beliefs[side].observe([e for e in events if side in e.visible_to()])
        beliefs[side].see(view(state, side))
    return state, beliefs


def test_5_2_1_the_fixed_setup_and_the_mori_box_are_known_the_rest_came_from_the_bag():
    state, beliefs = setup_beliefs()
    for side, belief in beliefs.items():
        fixed = {b: place for place, blocks in C.setup.fixed for b in blocks if C.block(b).side is side.other}
        assert fixed and all(belief.possible[b] == {place} for b, place in fixed.items())
        if side is Side.TOKUGAWA:
            assert {b for b, place in fixed.items() if place == MORI_BOX}
        random_places = {loc for s, placements in C.setup.random if s is side.other for loc, _ in placements}
        drawn = set(random_places) | {BAG, RECRUITMENT_BOX[side.other]}
        for block in enemy_blocks(side):
            if block not in fixed:
                assert belief.possible[block] <= drawn, block
                assert len(belief.possible[block]) > 1, block  # a bag draw is not seen (5.2.2)
        assert unsound(belief, state) == []


def test_recruitment_box_names_match_the_engine():
    assert belief_module.RECRUITMENT == {side: RECRUITMENT_BOX[side] for side in BOTH_SIDES}
    assert (belief_module.BAG, belief_module.ELIMINATED, belief_module.MORI) == (BAG, ELIMINATED, MORI_BOX)


def test_r55_a_counted_move_spreads_every_block_that_could_be_at_its_origin():
    state, beliefs = setup_beliefs()
    belief = beliefs[Side.ISHIDA]  # believes about Tokugawa
    before = {b: set(belief.possible[b]) for b in enemy_blocks(Side.ISHIDA)}
    at_edo = {b for b, places in before.items() if "edo" in places}
    assert at_edo and len(at_edo) < len(before)
    belief.observe([OpponentMovedBlocks(Side.TOKUGAWA, 2, "edo", "oyama")])
    for block, places in before.items():
        assert belief.possible[block] == (places | {"oyama"} if block in at_edo else places), block


def test_7_2_a_shown_muster_pins_and_8_7_3_a_loss_pins_to_eliminated():
    state, beliefs = setup_beliefs()
    belief = beliefs[Side.TOKUGAWA]
    block = next(b for b in enemy_blocks(Side.TOKUGAWA) if len(belief.possible[b]) > 1)
    belief.observe([BlocksMustered(Side.ISHIDA, "kyoto", (block,))])
    assert belief.possible[block] == {"kyoto"}
    belief.observe([PieceLost(Side.ISHIDA, block, "kyoto")])
    assert belief.possible[block] == {ELIMINATED}
    belief.observe([PieceLost(Side.TOKUGAWA, "tokugawa-leader", "edo")])  # its own loss: no enemy block
    assert "tokugawa-leader" not in belief.possible


def test_r55_a_place_the_view_shows_empty_holds_no_block():
    """Every block leaves Sendai (the Date blocks of 5.2.1 and a bag draw): the
    view shows Sendai empty, so the Date blocks, known there, are pinned where
    they went, and no block can be at Sendai any more."""
    state, beliefs = setup_beliefs()
    side = Side.ISHIDA
    belief = beliefs[side]
    real = true_places(state)
    source, destination = "sendai", "yamagata"
    moving = [b for b in enemy_blocks(side) if real[b] == source]
    date = [b for b in moving if belief.possible[b] == {source}]
    assert len(date) == 3 and len(moving) == 4
    moved = with_positions(state, {b: destination for b in moving})  # the move, for real
    belief.observe([OpponentMovedBlocks(side.other, len(moving), source, destination)])
    belief.see(view(moved, side))
    assert unsound(belief, moved) == []
    assert all(source not in belief.possible[b] for b in enemy_blocks(side))
    assert all(belief.possible[b] == {destination} for b in date)


def test_r55_a_place_with_as_many_candidates_as_blocks_holds_them_all():
    """Hakone holds one hidden block (5.2.2); once the belief rules every block
    but the true one out of Hakone, the counts pin that block there."""
    state, beliefs = setup_beliefs()
    side = Side.ISHIDA
    belief = beliefs[side]
    real = true_places(state)
    (there,) = [b for b in enemy_blocks(side) if real[b] == "hakone"]
    assert len(belief.possible[there]) > 1
    for block in enemy_blocks(side):
        if block != there:
            belief.possible[block].discard("hakone")  # still sound
    belief.see(view(state, side))  # a fresh view: pruned again
    assert belief.possible[there] == {"hakone"}
    assert unsound(belief, state) == [] and belief.resets == 0


def test_r58_a_view_the_events_cannot_explain_widens_the_belief():
    """A move the belief was never told of (a hand-built position, or events
    taken back by an undo, R58) shows in the view's counts: the belief starts
    again from the view alone, counts it, and stays sound."""
    state, beliefs = setup_beliefs()
    side = Side.ISHIDA
    belief = beliefs[side]
    real = true_places(state)
    block = next(b for b in enemy_blocks(side) if real[b] == "edo")
    moved = with_positions(state, {block: "oyama"})
    assert all("oyama" not in belief.possible[b] for b in enemy_blocks(side))
    sampler = Sampler(side, belief, random.Random(1))
    sampled = sampler.sample(view(moved, side))
    assert belief.resets == 1 and unsound(belief, moved) == []
    assert view(sampled, side) == view(moved, side) and sampler.place_fallbacks == 0


# --- the sampler keeps to the belief ----------------------------------------------------------


def check_samples(seed: int, levels: tuple[str, str], every: int) -> int:
    checked = 0
    for n, (state, beliefs) in enumerate(game_steps(seed, levels)):
        if n % every or state.is_over:
            continue
        for side in state.decision.sides:
            belief = beliefs[side]
            seen = view(state, side)
            sampler = Sampler(side, belief, random.Random(n))
            for _ in range(2):
                sampled = sampler.sample(seen)
                assert view(sampled, side) == seen, (seed, n, side)
                places = true_places(sampled)
                assert all(places[b] in belief.possible[b] for b in enemy_blocks(side)), (seed, n, side)
            assert sampler.fallbacks == 0 and sampler.place_fallbacks == 0, (seed, n, side)
            checked += 1
    return checked


@pytest.mark.parametrize("levels", [("heuristic", "heuristic"), ("random", "heuristic")])
def test_r55_sampled_states_keep_every_block_where_it_can_be_and_give_exactly_the_view(levels):
    assert check_samples(3, levels, every=4) > 50


def test_the_sampler_repairs_a_greedy_dead_end_by_an_augmenting_path():
    """A chain where greedy filling sometimes gets stuck (a slot no remaining
    block fits): an augmenting path always finds an assignment, each block
    where it can be and each place's count exact, still at random."""
    sampler = Sampler(Side.ISHIDA, Belief(Side.ISHIDA))
    can = {"a": {"x", "y"}, "b": {"x"}, "c": {"y", "z"}, "d": {"z", "w"}, "e": {"w", "x", "y", "z"}}
    places = ["x", "x", "y", "z", "w"]
    results = set()
    for k in range(60):
        sampler.rng = random.Random(k)
        slots = list(places)
        sampler.rng.shuffle(slots)
        placed = sampler._assign(list(can), slots, lambda block: can[block])
        assert placed is not None
        assert sorted(placed.values()) == sorted(places)
        assert all(placed[b] in can[b] for b in can)
        results.add(tuple(sorted(placed.items())))
    assert sampler.repairs > 0  # the repair was needed, and worked
    assert len(results) > 1  # still random among the feasible assignments


def test_the_sampler_falls_back_on_the_view_when_the_belief_admits_nothing():
    """A belief that contradicts the view (it cannot happen to a sound one):
    the sample still gives exactly the view, and the fallback is counted."""
    state, beliefs = setup_beliefs()
    side = Side.TOKUGAWA
    belief = beliefs[side]
    seen = view(state, side)
    sampler = Sampler(side, belief, random.Random(3))
    sampler.sample(seen)
    assert sampler.place_fallbacks == 0
    hidden = [b for b in enemy_blocks(side) if len(belief.possible[b]) > 1]
    for block in hidden:  # all squeezed into one place, more than it holds
        belief.possible[block] = {BAG}
    sampled = sampler.sample(seen)
    assert view(sampled, side) == seen
    assert sampler.place_fallbacks == 1 and sampler.fallbacks == 1
