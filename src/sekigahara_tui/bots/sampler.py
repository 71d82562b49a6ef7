"""Complete game states a bot can play out, drawn from its view and its belief.

The bot never sees the real GameState (R55). To look ahead it builds states of
its own: everything its view shows is kept exactly (its blocks, hand and
secret choice, the public counts, control, discs, the battle on the table,
the decision and the movement so far), and everything hidden is drawn at
random, consistent with the view and the belief (bots/belief.py):

- the enemy's hidden blocks go to the places the view counts for them, each
  place's count exactly and each block to a place it can be (the belief's
  `possible`, from the public history of counted moves: a hard constraint);
  among those assignments, blocks are drawn with weights that favour the
  place each was last known (the fixed setup, a muster, a deployment) and its
  neighbourhood. A slot no remaining block can fill is filled by an
  augmenting path (bipartite matching); should the belief admit no
  assignment at all, the blocks are drawn from the view alone and
  `fallbacks` counts it;
- the enemy's hand is its refuting cards shown (R48) plus cards drawn from
  those not seen (its deck less its discard pile and the cards on the table),
  its set-aside card (a secret bid or discard) and its draw pile the rest;
- both draw piles are shuffled: the bot's own draw order is as hidden from it
  as the enemy's;
- a fresh seed for the generator, so that the sampled future draws are not
  the game's (the real seed is never in a view).

`view(sampled, side) == the bot's view` always holds (tests/bots/test_sampler.py).
This module builds GameStates, so it imports the rules' state classes; it is
given views and events only, never the game's state.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from rules.components import default_components
from rules.pair import Pair
from rules.state import (
    Battle,
    CombatPhase,
    GameState,
    MovementPhase,
    SideCards,
    StackMove,
    BlockProgress,
)
from rules.sides import BOTH_SIDES, Side
from rules.view import PlayerView
from sekigahara_tui.bots.belief import Belief
from sekigahara_tui.bots.knowledge import map_data

NEAR = 1.2  # how strongly a block is believed to stay near its last known place


@lru_cache(maxsize=None)  # pure, and asked for each slot and block of every sample
def _weight(last: str | None, place: str) -> float:
    if last is None:
        return 1.0
    if last == place:
        return 8.0
    d = map_data().distance(last, place)
    if d >= 99:  # an off-map place and a location, or two off-map places
        return 0.3
    return 4.0 * math.exp(-NEAR * d)


def _repair(placed: dict[str, str], free_slots: list[str], unplaced: list[str], can_be, rng: random.Random) -> bool:
    """Place each of `unplaced` into `free_slots` by augmenting paths (Kuhn's
    bipartite matching): a block takes a free slot it can fill, or the place
    of a block that can move on to another, and so on. Updates `placed`;
    False if some block cannot be placed at all."""
    free: dict[str, int] = {}
    for place in free_slots:
        free[place] = free.get(place, 0) + 1
    at: dict[str, list[str]] = {}
    for block, place in placed.items():
        at.setdefault(place, []).append(block)

    def augment(block: str, seen: set[str]) -> bool:
        options = sorted(place for place in can_be(block) if place not in seen)  # sorted: a set's order is not its contents'
        rng.shuffle(options)
        for place in options:
            if free.get(place, 0):
                free[place] -= 1
                placed[block] = place
                at.setdefault(place, []).append(block)
                return True
        for place in options:
            if place in seen:
                continue
            seen.add(place)
            for other in list(at.get(place, ())):
                if augment(other, seen):  # `other` moved on: `block` takes its slot
                    at[place].remove(other)
                    placed[block] = place
                    at[place].append(block)
                    return True
        return False

    return all(augment(block, set()) for block in unplaced)


class Sampler:
    """Draws complete states for one side from its view and belief."""

    def __init__(self, side: Side, belief: Belief | None = None, rng: random.Random | None = None) -> None:
        self.side = side
        self.belief = belief if belief is not None else Belief(side)
        self.rng = rng or random.Random()
        self.fallbacks = 0  # card piles or block places the belief could not explain, drawn from the view alone
        self.place_fallbacks = 0  # of which block places
        self.repairs = 0  # slots greedy filling left empty, filled by an augmenting path

    # --- blocks --------------------------------------------------------------------------

    def _positions(self, view: PlayerView) -> tuple[str, ...]:
        c = default_components()
        enemy = self.side.other
        where: dict[str, str] = dict(view.own_blocks)
        known = dict(view.enemy_known)
        where.update(known)
        counts = dict(view.enemy_counts)
        for place in known.values():
            counts[place] -= 1
        hidden = [b.id for b in c.blocks if b.side is enemy and b.id not in known]
        places = [place for place, n in counts.items() for _ in range(n)]
        assert len(places) == len(hidden), "the view's counts and the enemy's blocks disagree"
        self.rng.shuffle(places)
        possible = self.belief.possible
        placed = self._assign(hidden, places, lambda block: possible.get(block, ()))
        if placed is None:  # the belief admits no assignment: the view alone (counts only)
            self.fallbacks += 1
            self.place_fallbacks += 1
            placed = self._assign(hidden, places, lambda block: counts)
        assert placed is not None
        where.update(placed)
        return tuple(where[b.id] for b in c.blocks)

    def _assign(self, hidden: list[str], places: list[str], can_be) -> dict[str, str] | None:
        """Hidden block -> place, each slot of `places` (shuffled) filled by a
        block that can be there (`can_be(block)`): a block that can be in one
        place goes there; then the places fewest blocks can fill come first,
        each slot drawn by the prior; a slot left empty is filled by an
        augmenting path (`_repair`). None if no assignment exists."""
        last = self.belief.last_known
        remaining = []
        placed: dict[str, str] = {}
        slots: dict[str, int] = {}
        for place in places:
            slots[place] = slots.get(place, 0) + 1
        for block in hidden:
            where = can_be(block)
            if len(where) == 1:
                (place,) = where
                if not slots.get(place):
                    return None
                slots[place] -= 1
                placed[block] = place
            else:
                remaining.append((block, where, last.get(block)))
        fitting: dict[str, int] = {}
        for _, where, _ in remaining:
            for place in where:
                fitting[place] = fitting.get(place, 0) + 1
        stuck: list[str] = []
        for place in sorted(places, key=lambda place: fitting.get(place, 0)):  # stable: ties stay shuffled
            if not slots[place]:
                continue
            slots[place] -= 1
            fits = [i for i, (_, where, _) in enumerate(remaining) if place in where]
            if not fits:
                stuck.append(place)
                continue
            weights = [_weight(remaining[i][2], place) for i in fits]
            placed[remaining.pop(fits[self.rng.choices(range(len(fits)), weights)[0]])[0]] = place
        if stuck:
            self.repairs += len(stuck)
            if not _repair(placed, stuck, [block for block, _, _ in remaining], can_be, self.rng):
                return None
        return placed

    # --- cards ---------------------------------------------------------------------------

    def _discard(self, view: PlayerView, side: Side, pool: list[str]) -> list[str]:
        """The side's discard pile: as the belief knows it if it matches the
        view's size and top card, else drawn from `pool` with the top card kept."""
        known = list(self.belief.discards[side])
        size, top = view.discard_pile_sizes[side], view.top_discards[side]
        if len(known) == size and (known[-1] if known else None) == top and all(card in pool for card in known):
            return known
        self.fallbacks += 1
        rest = [card for card in pool if card != top]
        self.rng.shuffle(rest)
        return (rest[: size - 1] + [top]) if size else []

    def _cards(self, view: PlayerView) -> tuple[Pair[SideCards], Pair[tuple[str, ...]]]:
        c = default_components()
        battle = view.combat.battle if view.combat else None
        cards: dict[Side, SideCards] = {}
        secret: dict[Side, tuple[str, ...]] = {}
        for side in BOTH_SIDES:
            deck = [card.id for card in c.cards_of(side)]
            on_table = set(battle.cards_played[side]) if battle else set()
            if side is self.side:
                held = set(view.hand) | set(view.set_aside)
                pool = [card for card in deck if card not in held and card not in on_table]
                discard = self._discard(view, side, pool)
                draw = [card for card in pool if card not in discard]
                self.rng.shuffle(draw)
                cards[side] = SideCards(view.hand, tuple(draw), tuple(discard))
                secret[side] = view.set_aside
                continue
            pool = [card for card in deck if card not in on_table]
            discard = self._discard(view, side, pool)
            unseen = [card for card in pool if card not in discard]
            hand_size, draw_size = view.enemy_hand_size, view.draw_pile_sizes[side]
            secret_size = len(unseen) - hand_size - draw_size
            if secret_size < 0:
                raise ValueError("the enemy's cards do not add up")
            shown = [card for card in unseen if card in self.belief.shown][:hand_size]
            rest = [card for card in unseen if card not in shown]
            self.rng.shuffle(rest)
            hand = shown + rest[: hand_size - len(shown)]
            rest = rest[hand_size - len(shown):]
            secret[side] = tuple(rest[:secret_size])
            cards[side] = SideCards(tuple(hand), tuple(rest[secret_size:]), tuple(discard))
        return Pair(cards[Side.ISHIDA], cards[Side.TOKUGAWA]), Pair(secret[Side.ISHIDA], secret[Side.TOKUGAWA])

    # --- the phases ----------------------------------------------------------------------

    def _movement(self, view: PlayerView, positions) -> MovementPhase | None:
        m = view.movement
        if m is None:
            return None
        current = m.stack_move
        if current is None and m.current_source is not None:  # the enemy's stack move: its blocks hidden
            c = default_components()
            at_source = [b.id for b, place in zip(c.blocks, positions) if place == m.current_source and b.side is view.active]
            current = StackMove(m.current_source, False, False, tuple(BlockProgress(b, (m.current_source,)) for b in at_source))
        return MovementPhase(
            option=m.option,
            exchanged=m.exchanged,
            stack_moves=m.stack_moves,
            mustered=m.mustered,
            sources=m.sources,
            segments=m.segments,
            fixed=m.fixed,
            current=current,
        )

    def _combat(self, view: PlayerView) -> CombatPhase | None:
        combat = view.combat
        if combat is None:
            return None
        battle = None
        b = combat.battle
        if b is not None:
            battle = Battle(
                location=b.location,
                attacker=b.attacker,
                siege=b.siege,
                castle_owner=b.castle_owner,
                deployments=b.deployments,
                cards_played=b.cards_played,
                card_deployed=Pair.of(lambda s: any(d.owner is s and d.card is not None for d in b.deployments)),
                done=b.done,
                plays=max((d.play for d in b.deployments), default=0),
                open_play=b.open_play,
                losses=b.losses,
                lost=b.lost,
                winner=b.winner,
            )
        return CombatPhase(pending=combat.pending, battle=battle, immediate=combat.immediate)

    # --- a whole state -------------------------------------------------------------------

    def sample(self, view: PlayerView) -> GameState:
        """One complete state consistent with `view` (and the belief), with a fresh seed."""
        belief = self.belief
        belief.see(view)
        positions = self._positions(view)
        cards, secret = self._cards(view)
        enemy_revealed = {block for block, _ in view.enemy_known}
        return GameState(
            seed=self.rng.randrange(2**62),
            rng_counter=0,
            week=view.week,
            turn=view.turn,
            phase=view.phase,
            first_player=view.first_player,
            active=view.active,
            decision=view.decision,
            positions=positions,
            revealed=frozenset(enemy_revealed | belief.own_revealed),
            discs=frozenset(d.id for d in view.discs if d.in_play),
            cards=cards,
            resource_control=view.resource_control,
            castle_control=view.castle_control,
            secret=secret,
            movement=self._movement(view, positions),
            result=view.result,
            entered_from=tuple(sorted(belief.entered_from)),
            besieged=belief.sieges(view),
            combat=self._combat(view),
        )
