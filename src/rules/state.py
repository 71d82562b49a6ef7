"""The game state: a tree of frozen attrs classes (architecture.md).

Blocks are referenced by id; where each block is lives in `positions`, a tuple
indexed like `Components.blocks`. A place is a location id or one of the off-map
places below. The bag is a set, not a sequence: a draw picks at random from the
blocks in it, so no bag order exists to leak.
"""

from __future__ import annotations

from enum import Enum

from attrs import evolve, frozen

from rules.components import Components, default_components
from rules.pair import Pair
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
    MOVE = "move"  # 7.2-7.4: stack moves and musters, then end of phase
    NONE = "none"  # the game is over


class MovementOption(str, Enum):
    """The four options of 7.1, named by the rulebook's words."""

    PASS = "pass"
    MINIMAL = "minimal"
    LIMITED = "limited"
    FULL = "full"

    @property
    def card_cost(self) -> int:
        return {"pass": 0, "minimal": 0, "limited": 1, "full": 2}[self.value]


@frozen
class Decision:
    kind: DecisionKind
    sides: frozenset[Side]


@frozen
class SideCards:
    """One side's deck (3.3). The draw pile's top is index 0; the discard pile's top is last."""

    hand: tuple[str, ...]
    draw_pile: tuple[str, ...]
    discard_pile: tuple[str, ...]


@frozen
class MovementPhase:
    """The active player's Movement Phase so far (7.1)."""

    option: MovementOption | None = None
    exchanged: int = 0  # cards discarded so far under the "no movement" option


@frozen
class GameResult:
    winner: Side
    cause: str  # "vp" or an instant-victory cause (2.1): see rules.victory
    vp: Pair[int] | None = None


@frozen
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

    # --- reading the state ---------------------------------------------------

    def place_of(self, block_id: str, components: Components | None = None) -> str:
        c = components or default_components()
        return self.positions[c.block_index(block_id)]

    def blocks_at(self, place: str, side: Side | None = None) -> tuple[str, ...]:
        """Block ids at a place, optionally only one side's, in component order."""
        c = default_components()
        return tuple(
            b.id
            for b, p in zip(c.blocks, self.positions)
            if p == place and (side is None or b.side is side)
        )

    def control_of_resource(self, location: str) -> Side | None:
        return dict(self.resource_control).get(location)

    def control_of_castle(self, location: str) -> Side:
        return dict(self.castle_control)[location]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER


def with_positions(state: GameState, moves: dict[str, str]) -> GameState:
    """A new state with the given blocks moved to the given places."""
    c = default_components()
    positions = list(state.positions)
    for block_id, place in moves.items():
        positions[c.block_index(block_id)] = place
    return evolve(state, positions=tuple(positions))


def sorted_pairs(mapping: dict[str, Side]) -> tuple[tuple[str, Side], ...]:
    return tuple(sorted(mapping.items()))


def recruitment_box(side: Side) -> str:
    return RECRUITMENT_BOX[side]

