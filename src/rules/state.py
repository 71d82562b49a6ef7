"""The game state: a tree of frozen attrs classes (architecture.md).

Blocks are referenced by id; where each block is lives in `positions`, a tuple
indexed like `Components.blocks` (rules.places indexes it by place, beside the
state, for `blocks_at`). A place is a location id or one of the off-map
places below. The bag is a set, not a sequence: a draw picks at random from the
blocks in it, so no bag order exists to leak.
"""

from __future__ import annotations

from enum import Enum
from functools import cache
from typing import ItemsView

from attrs import frozen

from rules.components import Components, default_components
from rules.immutable import with_field
from rules.pair import Pair
from rules.places import moved_positions, place_index
from rules.sides import Side

BAG = "bag"
ELIMINATED = "eliminated"
MORI_BOX = "mori_box"
RECRUITMENT_BOX = Pair("ishida_recruitment", "tokugawa_recruitment")
OFF_MAP = frozenset({BAG, ELIMINATED, MORI_BOX, RECRUITMENT_BOX.ishida, RECRUITMENT_BOX.tokugawa})


class Turn(str, Enum):
    A = "A"
    B = "B"


class Phase(str, Enum):
    """Where the week stands (6.1, 6.4)."""

    REINFORCEMENT = "reinforcement"
    BID = "bid"
    FIRST_PLAYER = "first-player"
    MOVEMENT = "movement"
    COMBAT = "combat"
    OVER = "over"


class DecisionKind(str, Enum):
    """What the game is waiting for. A multi-step action is a chain of these."""

    REINFORCEMENT_DISCARD = "reinforcement-discard"  # 6.2 step 1, simultaneous
    BID = "bid"  # 6.3, simultaneous
    CHOOSE_FIRST_PLAYER = "choose-first-player"  # 6.3
    CHOOSE_MOVEMENT = "choose-movement"  # 7.1
    EXCHANGE_CARDS = "exchange-cards"  # 7.1 "no movement" option
    MOVE = "move"  # 7.2-7.4, 9.3: begin a stack move, muster, Mori entry, or end the phase
    STACK_MOVE = "stack-move"  # 7.3: within one stack move: select, step, halt, end
    DECLARE_COMBAT = "declare-combat"  # 8.1, R47: the attacker picks the next location
    CASTLE_CHOICE = "castle-choice"  # 8.9.2: the castle's owner stays inside or comes out
    DEPLOY = "deploy"  # 8.2-8.5: the side with the initiative deploys or is done
    CHALLENGE = "challenge"  # 8.6, R48: the other side may challenge the play just made
    CASUALTY = "casualty"  # 8.7, R32, R53: choose a block (or disc) to lose
    RETREAT = "retreat"  # 8.8: the loser retreats
    NONE = "none"  # the game is over


class MovementOption(str, Enum):
    """The four options of 7.1, named by the rulebook's words; what each costs
    and allows is rules.movement.MOVEMENT_OPTIONS."""

    PASS = "pass"
    MINIMAL = "minimal"
    LIMITED = "limited"
    FULL = "full"


@frozen
class Decision:
    kind: DecisionKind
    sides: frozenset[Side]


@cache
def deciding(kind: DecisionKind, side: Side) -> Decision:
    """The decision of one side, made once per kind and side: a stack move
    makes two at each of its ends (issue 25)."""
    return Decision(kind, frozenset({side}))


@frozen(slots=False)  # evolved at most steps: rules.immutable copies its dict (issue 25)
class SideCards:
    """One side's deck (3.3). The draw pile's top is index 0; the discard pile's top is last."""

    hand: tuple[str, ...]
    draw_pile: tuple[str, ...]
    discard_pile: tuple[str, ...]


@frozen(slots=False)  # evolved at most steps: rules.immutable copies its dict (issue 25)
class BlockProgress:
    """One block's move so far, within a stack move (7.3.3, 7.3.5)."""

    block: str
    path: tuple[str, ...]  # the source first, then every location entered
    highway_only: bool = True  # every segment so far was a highway
    largest_group: int = 0  # most blocks that travelled with it over one segment (R19)
    force_march: int = 0  # which force march of this stack move it belongs to, 0 for none (R16, R60)
    done: bool = False  # it has ended its move

    @property
    def at(self) -> str:
        return self.path[-1]

    @property
    def steps(self) -> int:
        return len(self.path) - 1


@frozen(slots=False)  # evolved at most steps: rules.immutable copies its dict (issue 25)
class StackMove:
    """The stack move under way: its source and every block that may take part (7.3.1)."""

    source: str
    leadership: bool  # leadership present at the source (7.3.4, R17)
    leader_declared: bool  # the leadership comes from a declared leader block (R17)
    blocks: tuple[BlockProgress, ...]
    selection: tuple[str, ...] = ()  # the group about to move next

    def progress(self, block: str) -> BlockProgress:
        return next(p for p in self.blocks if p.block == block)


@frozen(slots=False)  # evolved at most steps: rules.immutable copies its dict (issue 25)
class MovementPhase:
    """The active player's Movement Phase so far (7.1-7.3)."""

    option: MovementOption | None = None
    exchanged: int = 0  # cards discarded so far under the "no movement" option
    stack_moves: int = 0  # stack moves begun (7.1)
    mustered: bool = False  # at most one muster a turn (7.2)
    sources: frozenset[str] = frozenset()  # R15: each location is the source of one stack move at most
    segments: frozenset[str] = frozenset()  # road segments used this phase, as "a~b" sorted (7.3.1)
    fixed: frozenset[str] = frozenset()  # blocks that may not move again: moved, mustered, or from the Mori Box
    current: StackMove | None = None


@frozen
class Deployment:
    """A block deployed in a battle or siege (8.2.3)."""

    block: str
    owner: Side
    side: Side  # the side it counts for: the challenger's after a defection (8.6.1)
    card: str | None  # None: a leader deployed without a card (8.2.4)
    impact: int  # as scored at deployment, special attack included (8.3, 8.4)
    special: int  # the special-attack part of `impact` (8.4.1)
    play: int  # deployments made by one card share a play number (8.4.2, R28)
    challenged: bool = False

    @property
    def defected(self) -> bool:
        return self.side is not self.owner

    @property
    def counted(self) -> int:
        """R31, 8.6.2: a defected block counts for its new side without its special attack."""
        return self.impact - self.special if self.defected else self.impact


@frozen(slots=False)  # evolved at most steps: rules.immutable copies its dict (issue 25)
class Battle:
    """A battle or siege under way at one location (8.2-8.10)."""

    location: str
    attacker: Side
    siege: bool
    castle_owner: Side | None  # who controlled the castle when combat began (R54), if any
    deployments: tuple[Deployment, ...] = ()
    cards_played: Pair[tuple[str, ...]] = Pair((), ())  # 8.10, R48
    card_deployed: Pair[bool] = Pair(False, False)  # 8.2.4
    done: Pair[bool] = Pair(False, False)  # 8.5
    plays: int = 0
    open_play: int | None = None  # the play whose Loyalty Challenge window is open (R48)
    losses: Pair[int] = Pair(0, 0)  # still to be chosen (8.7)
    lost: Pair[int] = Pair(0, 0)  # blocks lost so far (8.10)
    winner: Side | None = None

    @property
    def defender(self) -> Side:
        return self.attacker.other


@frozen(slots=False)  # evolved at most steps: rules.immutable copies its dict (issue 25)
class CombatPhase:
    """The active player's Combat Phase (8.1)."""

    pending: frozenset[str]  # locations where combat is still to be declared
    battle: Battle | None = None
    # R52: battles caused by retreats, fought at once: (location, attacker).
    immediate: tuple[tuple[str, Side], ...] = ()


@frozen
class GameResult:
    # None only for a game ended outside the rules with no winner (cancelled by agreement)
    winner: Side | None
    cause: str  # "vp", an instant-victory cause (2.1), or an end outside the rules: see rules.victory
    vp: Pair[int] | None = None


@frozen(slots=False)  # evolved at most steps: rules.immutable copies its dict (issue 25)
class GameState:
    seed: int
    rng_counter: int
    week: int
    turn: Turn
    phase: Phase
    first_player: Side | None
    active: Side | None
    decision: Decision
    positions: tuple[str, ...]
    revealed: frozenset[str]
    discs: frozenset[str]
    cards: Pair[SideCards]
    resource_control: tuple[tuple[str, Side], ...]
    castle_control: tuple[tuple[str, Side], ...]
    secret: Pair[tuple[str, ...]] = Pair((), ())
    movement: MovementPhase | None = None
    result: GameResult | None = None
    # R51: (location, side, adjacent location it was entered from) during this turn.
    entered_from: tuple[tuple[str, Side, str], ...] = ()
    # 8.9.4 step 5: (location, besieged side). Set by sieges; read by movement (R57).
    besieged: tuple[tuple[str, Side], ...] = ()
    combat: CombatPhase | None = None

    # --- reading the state ---------------------------------------------------

    def place_of(self, block_id: str, components: Components | None = None) -> str:
        c = components or default_components()
        return self.positions[c.block_index(block_id)]

    def blocks_at(self, place: str, side: Side | None = None) -> tuple[str, ...]:
        """Block ids at a place, optionally only one side's, in component order."""
        return place_index(self.positions).at(place, side)

    def sides_with_blocks_at(self, place: str) -> frozenset[Side]:
        """The sides with blocks at a place (discs not counted: control.sides_present)."""
        return place_index(self.positions).sides_at(place)

    def blocks_by_place(self, side: Side) -> ItemsView[str, tuple[str, ...]]:
        """(place, block ids) for every place, on the map or off it, holding
        blocks of `side`; the ids in component order."""
        return place_index(self.positions).by_place(side)

    # A scan of a few pairs, asked many times a decision: cheaper than a dict
    # built each time, and a plain loop is cheaper than a generator.
    def control_of_resource(self, location: str) -> Side | None:
        for place, side in self.resource_control:
            if place == location:
                return side
        return None

    def control_of_castle(self, location: str) -> Side:
        return castle_control_in(self.castle_control, location)

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER


@cache
def _castle_slots() -> dict[str, int]:
    """Each castle's place in `castle_control` as the game keeps it: one pair
    per castle, sorted by location id (setup, rules.control); a state read
    from elsewhere is scanned instead."""
    return {castle: i for i, castle in enumerate(sorted(loc.id for loc in default_components().castles()))}


def castle_control_in(control: tuple[tuple[str, Side], ...], location: str) -> Side:
    """Who controls the castle at `location`, read from a state's castle_control."""
    at = _castle_slots().get(location)  # where the pair stands when every castle has one (issue 25)
    if at is not None and at < len(control):
        place, side = control[at]
        if place == location and side is not None:
            return side
    for place, side in control:
        if place == location and side is not None:
            return side
    raise KeyError(location)


_OVER = Phase.OVER  # read at every decision: a module name, not the Enum class's (rules.sides)


def with_positions(state: GameState, moves: dict[str, str]) -> GameState:
    """A new state with the given blocks moved to the given places."""
    return with_field(state, "positions", moved_positions(state.positions, moves))


def sorted_pairs(mapping: dict[str, Side]) -> tuple[tuple[str, Side], ...]:
    return tuple(sorted(mapping.items()))


def segment_key(a: str, b: str) -> str:
    """A road segment's id, the same in both directions."""
    return f"{a}~{b}" if a <= b else f"{b}~{a}"


def recruitment_box(side: Side) -> str:
    return RECRUITMENT_BOX[side]

