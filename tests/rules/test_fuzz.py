"""The random simulation test (architecture.md): seeded games of random legal
commands, checking the invariants at every step. A failing seed is printed in
the assertion so the game can be replayed (`sekigahara selfplay --seed S`)."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from attrs import evolve

from rules.components import default_components
from rules.events import (
    BlockDeployed, BlocksMoved, BlocksMustered, BlocksRetreated, MoriBlockEntered, Overrun, PieceLost,
)
from rules.engine import legal_commands
from rules.notation import format_command, parse_command
from rules.pair import Pair
from helpers import no_contact
from rules.selfplay import MAX_DECISIONS, random_game
from rules.serialise import state_from_json, state_to_json
from rules.sides import BOTH_SIDES, Side
from rules.state import ELIMINATED, MORI_BOX, GameState, SideCards
from rules.view import spectator_view, view

FAST_GAMES = 200
SLOW_GAMES = int(os.environ.get("SEKIGAHARA_FUZZ_GAMES", "2000"))


def check_conservation(state: GameState) -> None:
    """96 blocks and 110 cards, every one in exactly one place."""
    c = default_components()
    assert len(state.positions) == 96
    for side in BOTH_SIDES:
        cards = state.cards[side]
        in_battle = state.combat.battle.cards_played[side] if state.combat and state.combat.battle else ()
        every = cards.hand + cards.draw_pile + cards.discard_pile + in_battle
        assert Counter(every) == Counter(card.id for card in c.cards_of(side)), "cards lost or duplicated"
        assert set(state.secret[side]) <= set(cards.hand)


def hidden_variant(state: GameState, hider: Side) -> GameState | None:
    """The same state but for what `hider` keeps hidden: two of its hidden
    blocks at different places swapped, its hand swapped with its draw pile's
    cards, and another random generator. None if there is nothing to swap."""
    c = default_components()
    public = {ELIMINATED, MORI_BOX}
    hidden = [
        i for i, (b, p) in enumerate(zip(c.blocks, state.positions))
        if b.side is hider and p not in public and b.id not in state.revealed
    ]
    positions = list(state.positions)
    pair = next(((i, j) for i in hidden for j in hidden if positions[i] != positions[j]), None)
    if pair is not None:
        i, j = pair
        positions[i], positions[j] = positions[j], positions[i]
    cards = state.cards[hider]
    secret = state.secret[hider]
    keep = len(secret)  # the set-aside cards must stay in hand
    swap = min(len(cards.hand) - keep, len(cards.draw_pile))
    hand = cards.hand[:keep] + cards.draw_pile[:swap] + cards.hand[keep + swap:]
    draw = cards.hand[keep:keep + swap] + cards.draw_pile[swap:]
    variant = evolve(
        state,
        positions=tuple(positions),
        cards=state.cards.replace(hider, SideCards(hand, draw, cards.discard_pile)),
        seed=state.seed + 1,
        rng_counter=state.rng_counter + 7,
    )
    return variant if variant != state else None


def check_views(state: GameState) -> None:
    for hider in BOTH_SIDES:
        variant = hidden_variant(state, hider)
        if variant is not None:
            assert view(variant, hider.other) == view(state, hider.other), f"{hider.value}'s hidden state leaks"
            assert spectator_view(variant) == spectator_view(state), f"{hider.value}'s hidden state leaks to spectators"


def check_step(before: GameState, command, after: GameState, events) -> None:
    check_conservation(after)
    assert parse_command(format_command(command)) == command, "notation round trip failed"
    if not after.is_over:
        assert any(legal_commands(after, side) for side in after.decision.sides), "dead end"
    for event in events:
        assert event.visible_to(), f"{event} is seen by nobody"


def check_no_hidden_ids(state: GameState) -> None:
    """No enemy block id the viewer may not know appears anywhere in its view,
    and no hidden block id of either side in a spectator's."""
    c = default_components()
    for viewer in BOTH_SIDES:
        seen = view(state, viewer)
        known = {block for block, _ in seen.enemy_known}
        text = repr(seen)
        for block in c.blocks_of(viewer.other):
            if block.id not in known:
                assert f"'{block.id}'" not in text, f"{viewer.value}'s view shows hidden {block.id}"
    watched = spectator_view(state)
    public = {block for block, _ in watched.own_blocks} | {block for block, _ in watched.enemy_known}
    text = repr(watched)
    for block in c.blocks:
        if block.id not in public:
            assert f"'{block.id}'" not in text, f"a spectator's view shows hidden {block.id}"


class RevealTracker:
    """R62 followed from the events alone: a block shown to the opponent (a
    muster with option 1, a Mori Box entry, a deployment) stays known where it
    stands until it moves or retreats, or the combat it stands in ends."""

    def __init__(self) -> None:
        self.known: set[str] = set()

    def follow(self, before: GameState, after: GameState, events) -> None:
        for event in events:
            if isinstance(event, BlocksMustered):
                self.known |= set(event.blocks)
            elif isinstance(event, (MoriBlockEntered, BlockDeployed)):
                self.known.add(event.block)
            elif isinstance(event, (BlocksMoved, BlocksRetreated)):
                self.known -= set(event.blocks)
            elif isinstance(event, Overrun):
                self.known -= set(event.eliminated)
            elif isinstance(event, PieceLost):
                self.known.discard(event.piece)
        ended = before.combat and before.combat.battle
        going_on = after.combat and after.combat.battle
        if ended and (not going_on or going_on.location != ended.location):
            self.known -= set(before.blocks_at(ended.location)) | set(after.blocks_at(ended.location))

    def check(self, state: GameState) -> None:
        c = default_components()
        for viewer in BOTH_SIDES:
            shown = {b for b, p in view(state, viewer).enemy_known if p not in (ELIMINATED, MORI_BOX)}
            expected = {b for b in self.known if c.block(b).side is viewer.other}
            assert shown == expected, f"{viewer.value} knows {sorted(shown ^ expected)} wrongly (R62)"


def play_and_check(seed: int, check_every: int = 1, avoid=None) -> None:
    steps = [0]
    reveals = RevealTracker()

    def on_step(before, command, after, events):
        steps[0] += 1
        try:
            check_step(before, command, after, events)
            reveals.follow(before, after, events)
            if steps[0] % check_every == 0 and not after.is_over:
                reveals.check(after)
            if steps[0] % check_every == 0:
                assert state_from_json(state_to_json(after)) == after, "save/load changed the state"
                if not after.is_over:  # the final board is face up (R56)
                    check_views(after)
                    check_no_hidden_ids(after)
        except AssertionError as error:
            raise AssertionError(f"seed {seed}, decision {steps[0]} ({format_command(command)}): {error}") from None

    game = random_game(seed, on_step=on_step, avoid=avoid)
    assert game.state.is_over, f"seed {seed} did not end"
    assert game.decisions < MAX_DECISIONS
    return game


@pytest.mark.parametrize("block", range(10))
def test_fuzz_200_seeded_games_keep_every_invariant(block):
    """Fully random games: they move, muster, overrun, fight battles and sieges."""
    for seed in range(block * FAST_GAMES // 10, (block + 1) * FAST_GAMES // 10):
        play_and_check(seed, check_every=7)


@pytest.mark.parametrize("block", range(4))
def test_fuzz_moving_games_that_avoid_contact_run_to_the_end(block):
    """Random games that move every turn but never step into enemy units."""
    for seed in range(block * 5, (block + 1) * 5):
        game = play_and_check(10_000 + seed, check_every=7, avoid=no_contact)
        assert game.state.is_over
        moved = sum(1 for line in game.record.commands if ": step " in line)
        assert moved > 20, f"seed {10_000 + seed}: only {moved} steps"


@pytest.mark.slow
def test_fuzz_long_run():
    for seed in range(FAST_GAMES, FAST_GAMES + SLOW_GAMES):
        play_and_check(seed, check_every=1)
        play_and_check(20_000 + seed, check_every=1, avoid=no_contact)


def test_views_hide_enemy_blocks_hand_and_generator(started):
    for hider in BOTH_SIDES:
        variant = hidden_variant(started, hider)
        assert variant is not None and variant.positions != started.positions
        assert view(variant, hider.other) == view(started, hider.other)
        assert view(variant, hider) != view(started, hider)


def test_views_show_enemy_counts_not_identities(started):
    seen = view(started, Side.TOKUGAWA)
    assert seen.enemy_count_at("osaka") == 8
    assert not any(place == "osaka" for _, place in seen.enemy_known)
    assert not any(a.name in ("seed", "rng_counter", "positions") for a in type(seen).__attrs_attrs__)


def test_r55_the_view_carries_every_public_fact(started):
    """The Mori Box, the discs, the bags, the Recruitment Boxes and the discard
    piles are public (R2, R55): both views carry them, the same."""
    c = default_components()
    for side in BOTH_SIDES:
        seen = view(started, side)
        assert seen.mori_box == ("mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4")
        assert [(d.id, d.location, d.in_play) for d in seen.discs] == [("hideyori", "osaka", True), ("sanada", "ueda", True)]
        for other in BOTH_SIDES:
            assert seen.bag_sizes[other] == sum(1 for b, p in zip(c.blocks, started.positions) if b.side is other and p == "bag")
            assert seen.recruitment_box_sizes[other] == 4  # 5.2.3
            assert seen.discard_pile_sizes[other] == len(started.cards[other].discard_pile)
    assert view(started, Side.ISHIDA).bag_sizes == view(started, Side.TOKUGAWA).bag_sizes


def test_r55_a_spectator_sees_both_sides_as_counts_and_no_hand(started):
    """A spectator plays neither side (R55 for both): each side's hidden blocks
    as counts per place, no hand, no secret, no legal command."""
    watched = spectator_view(started)
    assert watched.spectator and watched.legal == ()
    assert watched.own_blocks == tuple((block, "mori_box") for block in watched.mori_box)  # public (5.1)
    assert watched.hand == () and watched.set_aside == ()
    assert dict(watched.own_hidden_counts)["osaka"] == 8  # Ishida's eight blocks at Osaka (setup)
    assert watched.enemy_count_at("edo") == view(started, Side.ISHIDA).enemy_count_at("edo") > 0
    assert watched.hand_sizes == Pair(5, 5) == view(started, Side.TOKUGAWA).hand_sizes
    for hider in BOTH_SIDES:
        assert spectator_view(hidden_variant(started, hider)) == watched


def test_r56_once_the_game_is_over_every_block_is_shown_face_up():
    """The final board hides no block from either side or a spectator; hands stay private."""
    final = random_game(3).state
    assert final.is_over
    c = default_components()
    for side in BOTH_SIDES:
        seen = view(final, side)
        assert dict(seen.enemy_known) == {b.id: p for b, p in zip(c.blocks, final.positions) if b.side is side.other}
        assert seen.hand == final.cards[side].hand and seen.enemy_hand_size == len(final.cards[side.other].hand)
    watched = spectator_view(final)
    assert watched.own_hidden_counts == () and len(watched.own_blocks) + len(watched.enemy_known) == len(c.blocks)
