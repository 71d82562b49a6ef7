"""Issue 27, item 7: no move given without a hand-over ever depended on hidden
information (R55). Over random hot-seat games, at every Combat Phase state
where one side decides: whether its move would be given at once
(screens/forced.py) is the same in states the other side cannot tell apart
from the true one (its hidden blocks shuffled among their places, its hand
dealt again from its hand and draw pile: the other side's view unchanged),
and when it is given it is that side's only legal command in every one of
them. Outside the Combat Phase nothing is given (the view says which phase
it is)."""

from __future__ import annotations

import random
from collections import Counter

from rules.components import default_components
from rules.commands import Challenge
from rules.engine import legal_commands
from rules.state import ELIMINATED, MORI_BOX, GameState, SideCards
from rules.immutable import evolve
from rules.sides import Side
from rules.view import view
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.screens.forced import known_forced, publicly_forced

C = default_components()
SEEDS = range(1, 41)
VARIANTS = 4


def unseen_variant(state: GameState, hider: Side, chooser: random.Random) -> GameState:
    """The state as the hider's enemy may think it is: the hider's blocks that
    are not shown (not revealed, not in the Mori Box or eliminated) shuffled
    among their places, and its hand (but the cards set aside, 6.2) dealt
    again from its hand and draw pile. A superset of the states the enemy
    cannot rule out (its log may know more), so a stricter test."""
    hidden = [i for i, (block, place) in enumerate(zip(C.blocks, state.positions))
              if block.side is hider and place not in (MORI_BOX, ELIMINATED) and block.id not in state.revealed]
    places = [state.positions[i] for i in hidden]
    chooser.shuffle(places)
    positions = list(state.positions)
    for i, place in zip(hidden, places):
        positions[i] = place
    cards = state.cards[hider]
    kept = state.secret[hider]
    pool = [card for card in cards.hand if card not in kept] + list(cards.draw_pile)
    chooser.shuffle(pool)
    dealt = len(cards.hand) - len(kept)
    hand = tuple(kept) + tuple(pool[:dealt])
    return evolve(state, positions=tuple(positions),
                  cards=state.cards.replace(hider, SideCards(hand, tuple(pool[dealt:]), cards.discard_pile)))


def names_only_public(command, state: GameState) -> bool:
    """A command naming no hidden block (a lone casualty may name an
    undeployed one: losing it reveals it, 8.7.2)."""
    piece = getattr(command, "piece", None)
    return piece is None or piece not in {b.id for b in C.blocks} or piece in state.revealed


def check(state: GameState, side: Side, chooser: random.Random, given: Counter) -> None:
    watcher = side.other
    forced = publicly_forced(view(state, side), view(state, watcher))
    kind = known_forced(view(state, watcher), side)  # worked out from the watcher's view alone
    legal = legal_commands(state, side)
    if kind is not None:  # the watcher's view says forced: it is
        assert len(legal) == 1 and type(legal[0]) is kind, (kind, legal)
        assert forced == legal[0]
    if forced is not None:
        assert legal == [forced]
        given[type(forced).__name__] += 1
    else:
        given["near miss" if len(legal) == 1 else "asked"] += 1
    for _ in range(VARIANTS):
        variant = unseen_variant(state, side, chooser)
        assert view(variant, watcher) == view(state, watcher)  # the watcher cannot tell them apart
        again = publicly_forced(view(variant, side), view(variant, watcher))
        assert (again is None) == (forced is None), (forced, again, legal_commands(variant, side))
        if forced is not None:
            assert legal_commands(variant, side) == [again] and type(again) is type(forced)
            if names_only_public(forced, state):
                assert again == forced


def pick(legal: list, chooser: random.Random):
    """A random command, but a Loyalty Challenge whenever one may be made, so
    that blocks defect (8.6) before the casualties (R32)."""
    challenges = [command for command in legal if isinstance(command, Challenge)]
    return chooser.choice(challenges or legal)


def test_no_move_given_without_a_hand_over_depended_on_hidden_information():
    given: Counter = Counter()
    for seed in SEEDS:
        chooser = random.Random(f"forced/{seed}")
        host = GameHost.new(seed)
        seat = None
        while not host.is_over:
            seat = host.side_to_act(seat)
            state = host.state
            if state.combat is not None and len(state.decision.sides) == 1:
                check(state, seat, chooser, given)
            host.submit(pick(legal_commands(state, seat), chooser))
    # Every case comes up, and so do moves forced only by what the watcher cannot see.
    for kind in ("DeclareDone", "ChooseCasualty", "Retreat", "DeclareCombat", "near miss"):
        assert given[kind] > 0, given
