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

from attrs import evolve, frozen

from rules.battle import impact_total, initiative
from rules.commands import Command
from rules.components import default_components
from rules.decision_help import DecisionHelp, help_for
from rules.engine import asks, legal_commands
from rules.stack_moves import steps_left, why_no_force_march
from rules.pair import Pair
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

    def blocks_at(self, place: str) -> tuple[str, ...]:
        return tuple(block for block, p in self.own_blocks if p == place)

    def enemy_count_at(self, place: str) -> int:
        return dict(self.enemy_counts).get(place, 0)


def view(state: GameState, side: Side) -> PlayerView:
    c = default_components()
    own: list[tuple[str, str]] = []
    known: list[tuple[str, str]] = []
    # Once the game is over (R56) the blocks are turned face up: the final
    # board hides nothing (hands and draw piles stay private).
    over = state.result is not None
    counts: Counter[str] = Counter()
    for block, place in zip(c.blocks, state.positions):
        if block.side is side:
            own.append((block.id, place))
            continue
        counts[place] += 1
        if place in ALWAYS_PUBLIC_PLACES or block.id in state.revealed or over:
            known.append((block.id, place))
    return PlayerView(
        side=side,
        week=state.week,
        turn=state.turn,
        phase=state.phase,
        first_player=state.first_player,
        active=state.active,
        decision=state.decision,
        own_blocks=tuple(own),
        enemy_counts=tuple(sorted(counts.items())),
        enemy_known=tuple(known),
        mori_box=state.blocks_at(MORI_BOX),
        discs=tuple(DiscView(d.id, d.side, d.location, d.id in state.discs) for d in c.discs),
        bag_sizes=Pair.of(lambda s: len(state.blocks_at(BAG, s))),
        recruitment_box_sizes=Pair.of(lambda s: len(state.blocks_at(RECRUITMENT_BOX[s], s))),
        hand=state.cards[side].hand,
        set_aside=state.secret[side],
        enemy_hand_size=len(state.cards[side.other].hand),
        draw_pile_sizes=state.cards.map(lambda cards: len(cards.draw_pile)),
        discard_pile_sizes=state.cards.map(lambda cards: len(cards.discard_pile)),
        top_discards=state.cards.map(lambda cards: cards.discard_pile[-1] if cards.discard_pile else None),
        resource_control=state.resource_control,
        castle_control=state.castle_control,
        movement=movement_view(state, own=state.active is side),
        combat=combat_view(state.combat),
        result=state.result,
        vp=victory_points(state),
        prompt=asks(state.decision.kind),
        help=help_for(state.decision.kind),
        legal=tuple(legal_commands(state, side)),
        hand_sizes=state.cards.map(lambda cards: len(cards.hand)),
    )


def spectator_view(state: GameState) -> PlayerView:
    """R55 for both sides at once: what someone who plays neither side may
    know. Of each side's blocks, the public ones by name (Mori Box, eliminated,
    revealed) and the rest as counts per place; no hand, no secret choice, no
    stack move in progress, no legal command. Drawn from Ishida's chair."""
    chair = Side.ISHIDA
    seen = view(state, chair)
    over = state.result is not None  # R56: the final board is face up
    public = {block for block, place in seen.own_blocks if place in ALWAYS_PUBLIC_PLACES or block in state.revealed or over}
    hidden: Counter[str] = Counter(place for block, place in seen.own_blocks if block not in public)
    return evolve(
        seen,
        own_blocks=tuple((block, place) for block, place in seen.own_blocks if block in public),
        own_hidden_counts=tuple(sorted(hidden.items())),
        hand=(),
        set_aside=(),
        movement=movement_view(state, own=False),
        legal=(),
        spectator=True,
    )
