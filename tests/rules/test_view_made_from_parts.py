"""R55: a view made from shared parts (rules/view.py, which the host makes
after every command) is exactly the view worked out the plain way, block by
block, at every step of whole games, for both sides and the spectators."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from attrs import evolve

from rules.components import default_components
from rules.engine import asks, help_for, legal_commands
from rules.pair import Pair
from rules.sides import BOTH_SIDES, Side
from rules.state import BAG, ELIMINATED, MORI_BOX, RECRUITMENT_BOX, GameState
from rules.victory import victory_points
from rules.view import DiscView, PlayerView, combat_view, movement_view, spectator_view, view
from sekigahara_tui.hosting.host import GameHost


def plain_view(state: GameState, side: Side) -> PlayerView:
    """The view as rule 55 reads: every block looked at one by one."""
    c = default_components()
    own, known, counts = [], [], Counter()
    over = state.result is not None  # R56: the final board is face up
    for block, place in zip(c.blocks, state.positions):
        if block.side is side:
            own.append((block.id, place))
            continue
        counts[place] += 1
        if place in (MORI_BOX, ELIMINATED) or block.id in state.revealed or over:
            known.append((block.id, place))
    return PlayerView(
        side=side, week=state.week, turn=state.turn, phase=state.phase, first_player=state.first_player,
        active=state.active, decision=state.decision, own_blocks=tuple(own),
        enemy_counts=tuple(sorted(counts.items())), enemy_known=tuple(known), mori_box=state.blocks_at(MORI_BOX),
        discs=tuple(DiscView(d.id, d.side, d.location, d.id in state.discs) for d in c.discs),
        bag_sizes=Pair.of(lambda s: len(state.blocks_at(BAG, s))),
        recruitment_box_sizes=Pair.of(lambda s: len(state.blocks_at(RECRUITMENT_BOX[s], s))),
        hand=state.cards[side].hand, set_aside=state.secret[side], enemy_hand_size=len(state.cards[side.other].hand),
        draw_pile_sizes=state.cards.map(lambda cards: len(cards.draw_pile)),
        discard_pile_sizes=state.cards.map(lambda cards: len(cards.discard_pile)),
        top_discards=state.cards.map(lambda cards: cards.discard_pile[-1] if cards.discard_pile else None),
        resource_control=state.resource_control, castle_control=state.castle_control,
        movement=movement_view(state, own=state.active is side), combat=combat_view(state.combat),
        result=state.result, vp=victory_points(state), prompt=asks(state.decision.kind),
        help=help_for(state.decision.kind), legal=tuple(legal_commands(state, side)),
        hand_sizes=state.cards.map(lambda cards: len(cards.hand)),
    )


def plain_spectator_view(state: GameState) -> PlayerView:
    seen = plain_view(state, Side.ISHIDA)
    over = state.result is not None
    public = {b for b, p in seen.own_blocks if p in (MORI_BOX, ELIMINATED) or b in state.revealed or over}
    hidden = Counter(p for b, p in seen.own_blocks if b not in public)
    return evolve(
        seen, own_blocks=tuple((b, p) for b, p in seen.own_blocks if b in public),
        own_hidden_counts=tuple(sorted(hidden.items())), hand=(), set_aside=(),
        movement=movement_view(state, own=False), legal=(), spectator=True,
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R55_views_made_from_parts_equal_the_plain_views_over_whole_games(seed):
    host = GameHost.new(seed)
    chooser = random.Random(seed)
    steps = 0
    while True:
        state = host.state
        # In the order a host asks: one side, the other, then the spectators.
        first = chooser.choice(BOTH_SIDES)
        for side in (first, first.other):
            assert view(state, side) == plain_view(state, side)
        assert spectator_view(state) == plain_spectator_view(state)
        if host.is_over:
            break
        side = next(s for s in BOTH_SIDES if legal_commands(state, s))
        host.accept(host.propose_listed(chooser.choice(legal_commands(state, side))))
        steps += 1
    assert steps > 100
    assert view(host.state, Side.ISHIDA).enemy_known  # R56: the final board is face up


@pytest.mark.parametrize("seed", [4, 5])
def test_R55_a_view_lent_parts_by_the_last_equals_the_plain_view_after_moves_and_undos(seed):
    """A host makes each side's view lent the parts of its last view that did
    not change (view's `last`, hosting/chairs.py): still exactly the plain
    view, after every command and after undos (the last view is then of a
    later state), and the parts really are lent (the same objects)."""
    host = GameHost.new(seed)
    chooser = random.Random(seed)
    last: dict[Side, tuple[GameState, PlayerView]] = {}
    lent = undos = 0
    while True:
        state = host.state
        for side in BOTH_SIDES:
            made = view(state, side, last.get(side))
            assert made == plain_view(state, side)
            lent += side in last and made.own_blocks is last[side][1].own_blocks
            last[side] = (state, made)
        if host.is_over:
            break
        undoer = next((s for s in BOTH_SIDES if host.why_no_undo(s) is None), None)
        if undoer is not None and chooser.random() < 0.15:
            host.undo(undoer)
            undos += 1
            continue
        side = next(s for s in BOTH_SIDES if legal_commands(state, s))
        host.accept(host.propose_listed(chooser.choice(legal_commands(state, side))))
    assert undos > 5 and lent > 100


def test_R55_the_moving_sides_own_movement_is_never_lent_to_the_other_side():
    """The parts every chair shares are made once per state, lent by the
    view of whichever chair asks first. The moving side's last view holds its
    own stack move: it must not become the enemy's movement, even when the
    movement is the very same object in the next state."""
    host = GameHost.new(6)
    chooser = random.Random(6)
    while not (host.state.movement is not None and host.state.movement.current is not None):
        state = host.state
        side = next(s for s in BOTH_SIDES if legal_commands(state, s))
        host.accept(host.propose_listed(chooser.choice(legal_commands(state, side))))
    before = host.state
    mover = before.active
    own = view(before, mover)
    assert own.movement.stack_move is not None
    after = evolve(before, turn=before.turn)  # another state, the same movement object
    assert after is not before and after.movement is before.movement
    assert view(after, mover, (before, own)) == plain_view(after, mover)  # the mover's chair asks first
    assert view(after, mover.other) == plain_view(after, mover.other)
    assert view(after, mover.other).movement.stack_move is None
