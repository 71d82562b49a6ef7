"""The random simulation test (architecture.md): seeded games of random legal
commands, checking the invariants at every step. A failing seed is printed in
the assertion so the game can be replayed (`sekigahara selfplay --seed S`)."""

from __future__ import annotations

import os
import re
from collections import Counter

import pytest

from rules.components import default_components
from rules.engine import legal_commands
from rules.notation import format_command, parse_command
from rules.pair import Pair
from helpers import no_contact
from knowledge_model import BLOCK_IDS, CARD_IDS, KnowledgeModel, hidden_variant  # hidden_variant: tests/bots import it from here
from rules.infra.selfplay import MAX_DECISIONS, random_game
from rules.infra.serialise import state_from_json, state_to_json
from rules.sides import BOTH_SIDES, Side
from rules.state import GameState
from rules.view import spectator_view, view

FAST_GAMES = 200
SLOW_GAMES = int(os.environ.get("SEKIGAHARA_FUZZ_GAMES", "2000"))
PIECE_IDS = BLOCK_IDS | CARD_IDS


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


def check_views(state: GameState, model: KnowledgeModel, seen: dict, watched) -> None:
    """R55: changing what a side hides (by the knowledge model, not the view)
    changes neither the other side's view nor a spectator's."""
    for hider in BOTH_SIDES:
        variant = hidden_variant(state, hider, shown=set(model.known_now(hider.other, state)))
        if variant is not None:
            assert view(variant, hider.other) == seen[hider.other], f"{hider.value}'s hidden state leaks"
            assert spectator_view(variant) == watched, f"{hider.value}'s hidden state leaks to spectators"


def check_step(before: GameState, command, after: GameState, events) -> None:
    check_conservation(after)
    assert parse_command(format_command(command)) == command, "notation round trip failed"
    if not after.is_over:
        assert any(legal_commands(after, side) for side in after.decision.sides), "dead end"
    for event in events:
        assert event.visible_to(), f"{event} is seen by nobody"


def quoted_ids(value) -> set[str]:
    """Every block or card id quoted in the repr of a value."""
    return set(re.findall(r"'([^']*)'", repr(value))) & PIECE_IDS


def check_no_hidden_ids(state: GameState, model: KnowledgeModel, seen: dict, watched) -> None:
    """No block or card id the knowledge model does not allow appears anywhere
    in a side's view (`seen`), and none that both sides do not know in a
    spectator's (`watched`)."""
    for viewer in BOTH_SIDES:
        leaked = quoted_ids(seen[viewer]) - model.may_name_in_view(viewer, state)
        assert not leaked, f"{viewer.value}'s view shows hidden {sorted(leaked)}"
    leaked = quoted_ids(watched) - model.may_name_in_view(None, state)
    assert not leaked, f"a spectator's view shows hidden {sorted(leaked)}"


def check_events_seen(events, model: KnowledgeModel) -> None:
    """R55, R62: the events a side sees name no enemy block or card the model
    says it has not been shown (the log keeps every reveal)."""
    for viewer in BOTH_SIDES:
        named = quoted_ids([e for e in events if viewer in e.visible_to()])
        leaked = named and named - model.may_name_in_log(viewer)
        assert not leaked, f"{viewer.value}'s events name hidden {sorted(leaked)}"


def check_known_blocks(state: GameState, model: KnowledgeModel, seen: dict, watched) -> None:
    """R55, R62: each view (`seen`) names exactly the enemy blocks the model
    says the side knows, where they stand; a spectator's (`watched`), those
    both sides know."""
    for viewer in BOTH_SIDES:
        shown = dict(seen[viewer].enemy_known)
        expected = model.known_now(viewer, state)
        assert shown == expected, f"{viewer.value} knows {sorted(set(shown.items()) ^ set(expected.items()))} wrongly (R62)"
    shown = dict(watched.own_blocks) | dict(watched.enemy_known)
    expected = model.spectator_known_now(state)
    assert shown == expected, f"a spectator knows {sorted(set(shown.items()) ^ set(expected.items()))} wrongly (R55)"


def play_and_check(seed: int, check_every: int = 1, avoid=None) -> None:
    steps = [0]
    model: list[KnowledgeModel] = []

    def on_step(before, command, after, events):
        steps[0] += 1
        try:
            check_step(before, command, after, events)
            if not model:
                model.append(KnowledgeModel(before))
            model[0].follow(before, command, after, events)
            check_events_seen(events, model[0])
            if steps[0] % check_every == 0:
                assert state_from_json(state_to_json(after)) == after, "save/load changed the state"
                if not after.is_over:  # the final board is face up (R56)
                    seen = {side: view(after, side) for side in BOTH_SIDES}
                    watched = spectator_view(after)
                    check_known_blocks(after, model[0], seen, watched)
                    check_views(after, model[0], seen, watched)
                    check_no_hidden_ids(after, model[0], seen, watched)
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
