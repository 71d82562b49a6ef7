"""R55: what each side may see. The UI, bots and network layer read views only.

A view holds the side's own pieces, hand and secret choices; of the enemy, block
counts per place, hand size and only the blocks that are revealed: the Mori
Box, eliminated blocks, and blocks shown at a muster (option 1), on entering
from the Mori Box or by deployment, where they stand until they next move or
retreat or their battle ends (R62). It never holds a bag or draw pile order,
the seed or the generator's state.
"""

from __future__ import annotations

from collections import Counter
from functools import cache, lru_cache
from operator import itemgetter
from typing import Callable, Iterable

from attrs import evolve, frozen

from rules.battle import impact_total, initiative
from rules.commands import Command
from rules.components import default_components
from rules.decision import DecisionHelp
from rules.engine import asks, finishing_type, help_for, legal_commands
from rules.events import Event
from rules.stack_moves import steps_left, why_no_force_march
from rules.pair import Pair
from rules.places import place_index
from rules.sides import Side
from rules.victory import victory_points
from rules.state import (
    BAG,
    ELIMINATED,
    RECRUITMENT_BOX,
    Battle,
    CombatPhase,
    Deployment,
    MORI_BOX,
    Decision,
    GameResult,
    GameState,
    MovementOption,
    Phase,
    StackMove,
    Turn,
)

ALWAYS_PUBLIC_PLACES = frozenset({MORI_BOX, ELIMINATED})


@frozen
class DiscView:
    """A disc (3.4): public, always inside its castle (R36) while in play."""

    id: str
    side: Side
    location: str
    in_play: bool


@frozen
class MovementView:
    """The Movement Phase as a side sees it: the option, what has been used,
    and, for the moving side only, which blocks are in the stack move."""

    option: MovementOption | None
    exchanged: int
    stack_moves: int
    mustered: bool
    sources: frozenset[str]
    segments: frozenset[str]
    current_source: str | None
    stack_move: StackMove | None  # the active side's own view only
    fixed: frozenset[str]  # the active side's own view only
    # The moving side's own view only: each block's steps left if the selected
    # group goes on by highway (7.3.3-7.3.6), and why the selected group may
    # not force march now (None when it may).
    steps_left: tuple[tuple[str, int], ...] = ()
    why_no_force_march: str | None = None


def movement_view(state: GameState, own: bool) -> MovementView | None:
    movement = state.movement
    if movement is None:
        return None
    current = movement.current
    mine = own and current is not None
    return MovementView(
        option=movement.option,
        exchanged=movement.exchanged,
        stack_moves=movement.stack_moves,
        mustered=movement.mustered,
        sources=movement.sources,
        segments=movement.segments,
        current_source=current.source if current else None,
        stack_move=current if own else None,
        fixed=movement.fixed if own else frozenset(),
        steps_left=tuple((p.block, steps_left(current, p)) for p in current.blocks if not p.done) if mine else (),
        why_no_force_march=why_no_force_march(state, state.active) if mine and state.active else None,
    )


@frozen
class BattleView:
    """A battle or siege as both sides see it: everything on the table is public
    (8.2.3: deployed blocks face up, cards played), with the Impact totals and
    the initiative worked out for the screens."""

    location: str
    attacker: Side
    defender: Side
    siege: bool
    castle_owner: Side | None
    deployments: tuple[Deployment, ...]
    cards_played: Pair[tuple[str, ...]]
    done: Pair[bool]
    open_play: int | None  # a Loyalty Challenge window is open on this play (R48)
    losses: Pair[int]  # still to be chosen (8.7)
    lost: Pair[int]
    winner: Side | None
    impact: Pair[int]  # 8.3.1, defectors counted for their new side (R31)
    initiative: Side | None  # 8.5: who deploys next, None when both are done


def battle_view(battle: Battle) -> BattleView:
    return BattleView(
        location=battle.location,
        attacker=battle.attacker,
        defender=battle.defender,
        siege=battle.siege,
        castle_owner=battle.castle_owner,
        deployments=battle.deployments,
        cards_played=battle.cards_played,
        done=battle.done,
        open_play=battle.open_play,
        losses=battle.losses,
        lost=battle.lost,
        winner=battle.winner,
        impact=Pair.of(lambda side: impact_total(battle, side)),
        initiative=initiative(battle),
    )


@frozen
class CombatView:
    """The Combat Phase (8.1): where combat is still to be declared, the battles
    retreats caused (R52), and the battle under way. All public."""

    pending: frozenset[str]
    immediate: tuple[tuple[str, Side], ...]
    battle: BattleView | None


def combat_view(combat: CombatPhase | None) -> CombatView | None:
    if combat is None:
        return None
    return CombatView(combat.pending, combat.immediate, battle_view(combat.battle) if combat.battle else None)


@frozen
class PlayerView:
    side: Side
    week: int
    turn: Turn
    phase: Phase
    first_player: Side | None
    active: Side | None
    decision: Decision
    own_blocks: tuple[tuple[str, str], ...]  # (block id, place) for all of the side's blocks
    enemy_counts: tuple[tuple[str, int], ...]  # (place, number of enemy blocks there)
    enemy_known: tuple[tuple[str, str], ...]  # (block id, place) of revealed enemy blocks (R55, R62)
    mori_box: tuple[str, ...]  # face up, public (5.1, 9.3)
    discs: tuple[DiscView, ...]
    bag_sizes: Pair[int]
    recruitment_box_sizes: Pair[int]
    hand: tuple[str, ...]
    set_aside: tuple[str, ...]  # own secret choices not yet revealed (6.2, 6.3)
    enemy_hand_size: int
    draw_pile_sizes: Pair[int]
    discard_pile_sizes: Pair[int]
    top_discards: Pair[str | None]
    resource_control: tuple[tuple[str, Side], ...]
    castle_control: tuple[tuple[str, Side], ...]
    movement: MovementView | None
    combat: CombatView | None
    result: GameResult | None
    vp: Pair[int]  # 2.2: public, from the control markers
    prompt: str  # what the decision asks, with its rule ("bid a card for first player (6.3)")
    help: DecisionHelp  # the `?` text for the decision, with its rule numbers
    legal: tuple[Command, ...]
    hand_sizes: Pair[int] = Pair(0, 0)  # public (R55): how many cards each side holds
    # A spectator plays neither side: `side` is only the chair the view is drawn
    # from (Ishida), own_blocks hold only that side's public blocks and
    # own_hidden_counts the rest as counts per place, as enemy_counts do.
    spectator: bool = False
    own_hidden_counts: tuple[tuple[str, int], ...] = ()

    @property
    def finishing_command(self) -> Command | None:
        """The legal command that finishes the current decision (ends the stack
        move, the Movement Phase or the exchange, passes, allows the play), if
        one does and this side may give it. Worked out from the decision and
        `legal`, never sent: a client works it out from what it received."""
        finishing = finishing_type(self.decision.kind)
        if finishing is None:
            return None
        return next((command for command in self.legal if type(command) is finishing), None)

    def blocks_at(self, place: str) -> tuple[str, ...]:
        return tuple(block for block, p in self.own_blocks if p == place)

    def enemy_count_at(self, place: str) -> int:
        return dict(self.enemy_counts).get(place, 0)


# --- making views -------------------------------------------------------------
# A host makes both sides' views (and the spectators') after every command, so
# a view is made from parts: what every chair sees alike is worked out once per
# state, and a side's blocks are picked out of the positions in C (itemgetter),
# not looked at one by one.


@cache
def _side_blocks(side: Side) -> tuple[tuple[str, ...], Callable[[tuple[str, ...]], tuple[str, ...]]]:
    """The side's block ids in component order, and a getter of their places."""
    blocks = default_components().blocks
    own = [n for n, block in enumerate(blocks) if block.side is side]
    return tuple(blocks[n].id for n in own), _getter(own)


def _is_side(block: str, side: Side) -> bool:
    return default_components().block(block).side is side


def _getter(indexes: list[int]) -> Callable[[tuple[str, ...]], tuple[str, ...]]:
    get = itemgetter(*indexes)
    return get if len(indexes) > 1 else lambda positions: (get(positions),)


# The parts of the last few states' views that every chair shares, by the
# identity of the state (each entry holds its state, so an id is not reused
# while the entry lives); emptied when full, as a host needs only the latest.
_SHARED: dict[int, tuple[GameState, dict[str, object]]] = {}
_MAX_SHARED = 64


def _shared_parts(state: GameState, last: tuple[GameState, PlayerView] | None = None) -> dict[str, object]:
    """The fields of a view that are the same whoever looks (public, R55).
    `last` (an earlier state and a view of it) lends the fields made from
    parts of the state that are the very same objects in both."""
    hit = _SHARED.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    before, seen = last if last is not None else (None, None)
    cards = state.cards
    parts: dict[str, object] = dict(
        week=state.week,
        turn=state.turn,
        phase=state.phase,
        first_player=state.first_player,
        active=state.active,
        decision=state.decision,
        discs=_disc_views(state.discs),
        resource_control=state.resource_control,
        castle_control=state.castle_control,
        result=state.result,
        prompt=asks(state.decision.kind),
        help=help_for(state.decision.kind),
    )
    if seen is not None and before.positions is state.positions:
        parts.update(mori_box=seen.mori_box, bag_sizes=seen.bag_sizes, recruitment_box_sizes=seen.recruitment_box_sizes)
    else:
        places = place_index(state.positions)
        parts.update(
            mori_box=places.at(MORI_BOX),
            bag_sizes=Pair(len(places.at(BAG, Side.ISHIDA)), len(places.at(BAG, Side.TOKUGAWA))),
            recruitment_box_sizes=Pair(
                len(places.at(RECRUITMENT_BOX[Side.ISHIDA], Side.ISHIDA)),
                len(places.at(RECRUITMENT_BOX[Side.TOKUGAWA], Side.TOKUGAWA)),
            ),
        )
    if seen is not None and before.cards is cards:
        parts.update(
            draw_pile_sizes=seen.draw_pile_sizes, discard_pile_sizes=seen.discard_pile_sizes,
            top_discards=seen.top_discards, hand_sizes=seen.hand_sizes,
        )
    else:
        parts.update(
            draw_pile_sizes=Pair(len(cards.ishida.draw_pile), len(cards.tokugawa.draw_pile)),
            discard_pile_sizes=Pair(len(cards.ishida.discard_pile), len(cards.tokugawa.discard_pile)),
            top_discards=cards.map(lambda pile: pile.discard_pile[-1] if pile.discard_pile else None),
            hand_sizes=Pair(len(cards.ishida.hand), len(cards.tokugawa.hand)),
        )
    lend = seen is not None and before.castle_control is state.castle_control and before.resource_control is state.resource_control
    parts["vp"] = seen.vp if lend else victory_points(state)
    parts["combat"] = seen.combat if seen is not None and before.combat is state.combat else combat_view(state.combat)
    # The movement every chair sees (the active side's own is made in view()), lent only by a view that held it.
    lend = seen is not None and before.movement is state.movement and before.active is not seen.side
    parts["movement"] = seen.movement if lend else movement_view(state, own=False)
    if len(_SHARED) >= _MAX_SHARED:
        _SHARED.clear()
    _SHARED[id(state)] = (state, parts)
    return parts


def _active_parts(state: GameState, last: tuple[GameState, PlayerView] | None = None) -> dict[str, object]:
    return {**_shared_parts(state, last), "movement": movement_view(state, own=True)}


@lru_cache(maxsize=64)  # a few sets of discs in play recur all game
def _disc_views(in_play: frozenset[str]) -> tuple[DiscView, ...]:
    return tuple(DiscView(d.id, d.side, d.location, d.id in in_play) for d in default_components().discs)


def view(state: GameState, side: Side, last: tuple[GameState, PlayerView] | None = None) -> PlayerView:
    """`side`'s view of `state`. `last`: an earlier state and `side`'s view of
    it (a host's previous view, the same game's); the parts of that view made
    from what did not change are taken over as they are, the very objects
    (a host re-encodes only the fields that are not)."""
    lender = last if last is not None and last[1].side is side and not last[1].spectator else None
    parts = _shared_parts(state, lender) if state.active is not side else _active_parts(state, lender)
    return _made(state, side, tuple(legal_commands(state, side)), parts, lender)


def _made(
    state: GameState, side: Side, legal: tuple[Command, ...], parts: dict[str, object], last: tuple[GameState, PlayerView] | None = None
) -> PlayerView:
    if last is not None and last[0].positions is state.positions:  # `last`: side's own view (view())
        before, seen = last
        own_blocks, enemy_counts = seen.own_blocks, seen.enemy_counts
        same_known = before.revealed is state.revealed and before.result is state.result
        known = seen.enemy_known if same_known else _enemy_known(state, side)
    else:
        own_ids, own_places = _side_blocks(side)
        own_blocks = tuple(zip(own_ids, own_places(state.positions)))
        places = place_index(state.positions)
        enemy_counts = tuple(sorted((place, len(blocks)) for place, blocks in places.by_place(side.other)))
        known = _enemy_known(state, side)
    return PlayerView(
        side=side,
        own_blocks=own_blocks,
        enemy_counts=enemy_counts,
        enemy_known=known,
        hand=state.cards[side].hand,
        set_aside=state.secret[side],
        enemy_hand_size=len(state.cards[side.other].hand),
        legal=legal,
        **parts,
    )


def _enemy_known(state: GameState, side: Side) -> tuple[tuple[str, str], ...]:
    """The enemy's blocks `side` sees by name, where they stand (a function
    of the positions, the revealed blocks and the result alone)."""
    places = place_index(state.positions)
    enemy = side.other
    # Once the game is over (R56) the blocks are turned face up: the final
    # board hides nothing (hands and draw piles stay private).
    if state.result is not None:
        shown = [block for _, blocks in places.by_place(enemy) for block in blocks]
    else:
        shown = [*places.at(MORI_BOX, enemy), *places.at(ELIMINATED, enemy)]
        shown += [block for block in state.revealed if _is_side(block, enemy) and state.place_of(block) not in ALWAYS_PUBLIC_PLACES]
    block_index = default_components().block_index
    return tuple((block, state.place_of(block)) for block in sorted(shown, key=block_index))


def events_for(viewer: Side | None, events: Iterable[Event]) -> tuple[Event, ...]:
    """R55: the events `viewer` may see, in order. None is a spectator, who
    plays neither side: the events both sides see and the count-only twins
    of private ones (Event.for_spectators), never a side's private event."""
    if viewer is None:
        return tuple(event for event in events if event.for_spectators)
    return tuple(event for event in events if viewer in event.visible_to())


def spectator_view(state: GameState) -> PlayerView:
    """R55 for both sides at once: what someone who plays neither side may
    know. Of each side's blocks, the public ones by name (Mori Box, eliminated,
    revealed) and the rest as counts per place; no hand, no secret choice, no
    stack move in progress, no legal command. Drawn from Ishida's chair."""
    seen = _made(state, Side.ISHIDA, (), _shared_parts(state))  # the stack move unseen: own=False
    over = state.result is not None  # R56: the final board is face up
    public = {block for block, place in seen.own_blocks if place in ALWAYS_PUBLIC_PLACES or block in state.revealed or over}
    hidden: Counter[str] = Counter(place for block, place in seen.own_blocks if block not in public)
    return evolve(
        seen,
        own_blocks=tuple((block, place) for block, place in seen.own_blocks if block in public),
        own_hidden_counts=tuple(sorted(hidden.items())),
        hand=(),
        set_aside=(),
        spectator=True,
    )
