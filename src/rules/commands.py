"""Typed commands: one small frozen class per kind of decision a player makes.

Every command names the side that gives it, so simultaneous decisions (6.2's
discards, 6.3's bid) can come from either side in any order. Each has a
one-line text form (rules.notation) that starts with its VERB.

Every field is immutable, so each command caches its hash: the legal lists
are made of commands made once and shared (issue 25), and the club looks each
listed command up in its table of notations at every state (issue 23).
"""

from __future__ import annotations

from typing import ClassVar

from attrs import field, frozen

from rules.sides import Side
from rules.state import MovementOption


def _sorted_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Sets of ids are kept sorted, so each command has one text form."""
    return tuple(sorted(cards))


@frozen(cache_hash=True)
class ReinforcementDiscard:
    """6.2 step 1: put one card aside, secretly, toward discarding half the hand."""

    VERB: ClassVar[str] = "discard"

    side: Side
    card: str


@frozen(cache_hash=True)
class Bid:
    """6.3: bid one card for the choice of first player."""

    VERB: ClassVar[str] = "bid"

    side: Side
    card: str


@frozen(cache_hash=True)
class ChooseFirstPlayer:
    """6.3: the bid's winner names the first player of both turns this week."""

    VERB: ClassVar[str] = "first"

    side: Side
    first: Side


@frozen(cache_hash=True)
class ChooseMovement:
    """7.1: take a movement option, discarding the cards it costs."""

    VERB: ClassVar[str] = "movement"

    side: Side
    option: MovementOption
    cards: tuple[str, ...] = field(default=(), converter=_sorted_cards)


@frozen(cache_hash=True)
class ExchangeCard:
    """7.1 "no movement": discard one card, to be replaced when the exchange ends."""

    VERB: ClassVar[str] = "exchange"

    side: Side
    card: str


@frozen(cache_hash=True)
class EndExchange:
    """7.1 "no movement": draw as many cards as were discarded; the phase ends."""

    VERB: ClassVar[str] = "draw"

    side: Side


@frozen(cache_hash=True)
class EndMovement:
    """End the Movement Phase (7.1); the Combat Phase follows (6.4)."""

    VERB: ClassVar[str] = "end"

    side: Side


@frozen(cache_hash=True)
class BeginMove:
    """7.3.1: start a stack move from a source location. `leader`: the move
    relies on a leader block there for leadership and declares it, without
    showing which (7.3.4, R17)."""

    VERB: ClassVar[str] = "move"

    side: Side
    source: str
    leader: bool = False


@frozen(cache_hash=True)
class Select:
    """Add a block to the group that moves next (7.3.1, R14)."""

    VERB: ClassVar[str] = "select"

    side: Side
    block: str


@frozen(cache_hash=True)
class Deselect:
    """Take a block out of the group that moves next."""

    VERB: ClassVar[str] = "deselect"

    side: Side
    block: str


@frozen(cache_hash=True)
class ForceMarch:
    """7.3.3, R16: discard a card for +1 movement to the selected group,
    which must then move and end together."""

    VERB: ClassVar[str] = "march"

    side: Side
    card: str


@frozen(cache_hash=True)
class Step:
    """Move the selected group one location along a road (7.3)."""

    VERB: ClassVar[str] = "step"

    side: Side
    to: str


@frozen(cache_hash=True)
class Halt:
    """The selected group ends its move where it stands (R14: drop-off)."""

    VERB: ClassVar[str] = "halt"

    side: Side


@frozen(cache_hash=True)
class EndStackMove:
    """The stack move is over: every block of it stops where it stands."""

    VERB: ClassVar[str] = "done"

    side: Side


@frozen(cache_hash=True)
class Muster:
    """7.2: bring blocks from the Recruitment Box to a recruitment location:
    one block of any daimyo, hidden (option 2), or several of the location's
    daimyo, shown (option 1, R11)."""

    VERB: ClassVar[str] = "muster"

    side: Side
    location: str
    blocks: tuple[str, ...] = field(converter=_sorted_cards)


@frozen(cache_hash=True)
class EnterFromMoriBox:
    """9.3, R40, R42: discard a card to bring one Mori block into Osaka."""

    VERB: ClassVar[str] = "mori"

    side: Side
    block: str
    card: str


@frozen(cache_hash=True)
class DeclareCombat:
    """8.1, R47: the attacker names the next location where combat is fought."""

    VERB: ClassVar[str] = "combat"

    side: Side
    location: str


@frozen(cache_hash=True)
class StayInside:
    """8.9.2: the castle's owner (2 blocks or fewer) stays inside: a siege,
    or no combat if the owner is the active player (R37)."""

    VERB: ClassVar[str] = "inside"

    side: Side


@frozen(cache_hash=True)
class ComeOutside:
    """8.9.2: the castle's owner fights outside: a battle."""

    VERB: ClassVar[str] = "outside"

    side: Side


@frozen(cache_hash=True)
class Deploy:
    """8.2.2-8.2.3: play a card to deploy a block of its mon (a double card
    one or two, 8.4.2); Ishida Mitsunari and Ii Naomasa take any daimyo card."""

    VERB: ClassVar[str] = "deploy"

    side: Side
    card: str
    blocks: tuple[str, ...] = field(converter=_sorted_cards)


@frozen(cache_hash=True)
class DeployLeader:
    """8.2.4: deploy a leader without a card, before the side's first card deployment."""

    VERB: ClassVar[str] = "lead"

    side: Side
    block: str


@frozen(cache_hash=True)
class DeclareDone:
    """8.5, R23, R29: deploy no more in this battle; the initiative passes for good."""

    VERB: ClassVar[str] = "pass"

    side: Side


@frozen(cache_hash=True)
class Challenge:
    """8.6, R48: play a Loyalty Challenge card against the play just made."""

    VERB: ClassVar[str] = "challenge"

    side: Side
    card: str


@frozen(cache_hash=True)
class AllowPlay:
    """R48: let the play just made stand without a challenge."""

    VERB: ClassVar[str] = "allow"

    side: Side


@frozen(cache_hash=True)
class ChooseCasualty:
    """8.7.2, R32, R53: lose this block (or, in a siege, disc)."""

    VERB: ClassVar[str] = "lose"

    side: Side
    piece: str


@frozen(cache_hash=True)
class Retreat:
    """8.8, R34: retreat to an adjacent location (`to`), putting up to 2
    blocks (`garrison`) into the castle; `to` is "castle" when all stay inside."""

    VERB: ClassVar[str] = "retreat"

    side: Side
    to: str
    garrison: tuple[str, ...] = field(default=(), converter=_sorted_cards)


Command = (
    ReinforcementDiscard
    | Bid
    | ChooseFirstPlayer
    | ChooseMovement
    | ExchangeCard
    | EndExchange
    | EndMovement
    | BeginMove
    | Select
    | Deselect
    | ForceMarch
    | Step
    | Halt
    | EndStackMove
    | Muster
    | EnterFromMoriBox
    | DeclareCombat
    | StayInside
    | ComeOutside
    | Deploy
    | DeployLeader
    | DeclareDone
    | Challenge
    | AllowPlay
    | ChooseCasualty
    | Retreat
)

COMMAND_TYPES: tuple[type, ...] = Command.__args__  # type: ignore[attr-defined]

# The fields that name a location: a stack move's source, a step's or a
# retreat's destination, a muster site, a combat's location.
_PLACE_FIELDS = ("source", "to", "location")


def places(command: Command) -> tuple[str, ...]:
    """The locations a command concerns, for screens that show them on the map
    (a client never has to read them out of the notation)."""
    return tuple(getattr(command, name) for name in _PLACE_FIELDS if hasattr(command, name))
