"""Events: what happened, each tagged with who may see it (R55).

An event is public unless it says otherwise. Private facts come in two events:
the full one for the side that knows, and a redacted one (counts only) for the
other side. Log lines are rendered from events (rules.describe), never stored.
"""

from __future__ import annotations

from typing import ClassVar

from attrs import frozen

from rules.sides import BOTH_SIDES, Side
from rules.state import MovementOption, Phase, Turn


class Event:
    # R55 for someone who plays neither side (a spectator, rules.view.events_for):
    # an event both sides see, yes; a side's private event, never (it names
    # hidden blocks or hand cards); a count-only twin, decided class by class.
    for_spectators: ClassVar[bool | None] = True

    def visible_to(self) -> frozenset[Side]:
        return frozenset(BOTH_SIDES)


class PrivateEvent(Event):
    """Seen only by `self.side`."""

    for_spectators = False
    side: Side

    def visible_to(self) -> frozenset[Side]:
        return frozenset({self.side})


class OpponentEvent(Event):
    """The redacted twin of a private event, seen only by the other side.
    Both sides know all a twin says (its owner from the full event), so a
    spectator may have it too: each twin says so, after a look at its fields."""

    for_spectators = None  # undecided: SPECTATOR_TWINS refuses to load
    side: Side

    def visible_to(self) -> frozenset[Side]:
        return frozenset({self.side.other})


@frozen
class CardsDrawn(PrivateEvent):
    side: Side
    cards: tuple[str, ...]


@frozen
class OpponentDrewCards(OpponentEvent):
    for_spectators = True  # side, count: how many cards were drawn; hand sizes are public (R55)
    side: Side
    count: int


@frozen
class DrawPileReshuffled(Event):
    """3.3: the discard pile became the new draw pile."""

    side: Side
    size: int


@frozen
class CardsDiscarded(Event):
    """Cards played or discarded are public (3.3, R2)."""

    side: Side
    cards: tuple[str, ...]
    reason: str  # "reinforcement", "bid", "movement", "exchange"


@frozen
class CardSetAside(PrivateEvent):
    """A secret choice toward a simultaneous decision (R45)."""

    side: Side
    card: str
    purpose: str  # "reinforcement" or "bid"


@frozen
class OpponentDecided(OpponentEvent):
    """The other side made a secret choice; what it was stays hidden."""

    for_spectators = True  # side, purpose ("bid"/"reinforcement"): a secret choice was made, not which card
    side: Side
    purpose: str


@frozen
class BlocksPlaced(PrivateEvent):
    """Hidden blocks reached a place (setup, 5.2; reinforcement, 6.2)."""

    side: Side
    place: str
    blocks: tuple[str, ...]


@frozen
class OpponentPlacedBlocks(OpponentEvent):
    for_spectators = True  # side, place, count: hidden blocks reached a place; counts are public (R55)
    side: Side
    place: str
    count: int


@frozen
class BlocksShown(Event):
    """Blocks both sides see: the Mori Box's face-up blocks (5.1), reveals (R55)."""

    side: Side
    place: str
    blocks: tuple[str, ...]


@frozen
class WeekBegan(Event):
    week: int


@frozen
class WeekEnded(Event):
    """6.4: turn B is over (or, R56, the game ended at once mid-week: the week
    ends with it). The standing as the week ended: each side's victory points
    (2.2, rules.victory) and blocks on the map. Public: control markers and
    how many blocks stand in each location are seen by both sides (R55)."""

    week: int
    ishida_vp: int
    tokugawa_vp: int
    ishida_blocks: int
    tokugawa_blocks: int


@frozen
class BidsRevealed(Event):
    """6.3, R9: the two bids (None for a side with no card, which bids 0)."""

    ishida_card: str | None
    tokugawa_card: str | None
    winner: Side


@frozen
class FirstPlayerChosen(Event):
    side: Side
    first: Side


@frozen
class PhaseBegan(Event):
    week: int
    turn: Turn
    phase: Phase
    active: Side


@frozen
class MovementChosen(Event):
    side: Side
    option: MovementOption


@frozen
class MovementEnded(Event):
    side: Side


@frozen
class ControlChanged(Event):
    """4.2 / 4.3: a resource location or castle changed hands."""

    location: str
    side: Side | None


@frozen
class GameEnded(Event):
    winner: Side
    cause: str
    ishida_vp: int | None = None
    tokugawa_vp: int | None = None


@frozen
class LeaderDeclared(Event):
    """7.3.4, R17: a stack move relies on a leader block at this location for
    leadership; which leader is not said."""

    side: Side
    location: str


@frozen
class BlocksMoved(PrivateEvent):
    side: Side
    blocks: tuple[str, ...]
    origin: str
    destination: str
    # Where the stack move began (7.3.1, R15), as its twin says; None in events
    # made before it was told (issue 25).
    source: str | None = None


@frozen
class OpponentMovedBlocks(OpponentEvent):
    # side, count, origin, destination, source: blocks are counted publicly (R55),
    # and the opponent sees the stack leave its source (7.3), so it knows a step
    # from B continues the move that began at A rather than begins one at B (7.3.1)
    for_spectators = True
    side: Side
    count: int
    origin: str
    destination: str
    source: str | None = None  # where the stack move began; None in events made before it was told


@frozen
class BlocksStopped(Event):
    """7.3.2: moving blocks entered a location with enemy units and stop there."""

    side: Side
    location: str


@frozen
class Overrun(Event):
    """7.4: the overrun blocks are destroyed; eliminated blocks are public (8.7.3)."""

    side: Side  # the overrunning side
    location: str
    eliminated: tuple[str, ...]


@frozen
class BlocksMustered(Event):
    """7.2 option 1: mustered blocks shown to prove they match the location."""

    side: Side
    location: str
    blocks: tuple[str, ...]


@frozen
class MoriBlockEntered(Event):
    """9.3: a Mori Box block (face up) entered Osaka."""

    side: Side
    block: str


@frozen
class CombatDeclared(Event):
    """8.1: combat at a location; a siege if a force stays inside the castle (8.9)."""

    location: str
    attacker: Side
    siege: bool


@frozen
class NoCombat(Event):
    """8.9.2, R37: the active player owns the castle and stays inside."""

    location: str
    side: Side


@frozen
class BlockDeployed(Event):
    """8.2.3: the deployed block is shown; its Impact goes on the track."""

    side: Side
    block: str
    card: str | None
    impact: int


@frozen
class SideDone(Event):
    """8.5: the side deploys no more in this battle."""

    side: Side


@frozen
class LoyaltyChallenged(Event):
    side: Side  # the challenger
    card: str
    blocks: tuple[str, ...]


@frozen
class ChallengeRefuted(Event):
    """R48: the deployer shows a card that could have deployed the block(s); it goes back to his hand."""

    side: Side
    shown: str


@frozen
class BlocksDefected(Event):
    """8.6.1, R31: the blocks now count for the challenger."""

    side: Side  # the blocks' owner
    blocks: tuple[str, ...]


@frozen
class CombatEnded(Event):
    """8.7.1: the result, and the losses each side takes (R49: no more than it has there)."""

    location: str
    winner: Side | None  # None for a siege (8.9.4)
    ishida_impact: int
    tokugawa_impact: int
    ishida_losses: int
    tokugawa_losses: int


@frozen
class PieceLost(Event):
    """8.7.2, R53: an eliminated block or disc, shown to both sides."""

    side: Side
    piece: str
    location: str


@frozen
class BlocksRetreated(PrivateEvent):
    side: Side
    blocks: tuple[str, ...]
    origin: str
    destination: str


@frozen
class OpponentRetreated(OpponentEvent):
    for_spectators = True  # side, count, origin, destination, garrison (a count): counts (R55)
    side: Side
    count: int
    origin: str
    destination: str
    garrison: int


@frozen
class CastleFell(Event):
    """8.9.4 step 4: every piece inside was destroyed; the castle is the attacker's."""

    location: str
    side: Side


def _spectator_twins() -> frozenset[type]:
    twins = {cls for cls in _subclasses(OpponentEvent)}
    undecided = sorted(cls.__name__ for cls in twins if cls.for_spectators is None)
    if undecided:  # a new twin: say whether a spectator may see it (R55)
        raise TypeError(f"for_spectators undecided for {', '.join(undecided)}")
    return frozenset(cls for cls in twins if cls.for_spectators)


def _subclasses(cls: type) -> list[type]:
    """The event classes of this module under `cls` (attrs' slotted classes
    replace the ones they were made from, which linger as subclasses)."""
    return [sub for sub in globals().values() if isinstance(sub, type) and issubclass(sub, cls) and sub is not cls]


SPECTATOR_TWINS = _spectator_twins()
"""The count-only twins a spectator is given (R55)."""
NOT_FOR_SPECTATORS = frozenset(_subclasses(PrivateEvent))
"""The private events a spectator never is: they name hidden blocks or hand cards."""
