"""Typed commands: one small frozen class per kind of decision a player makes.

Every command names the side that gives it, so simultaneous decisions (6.2's
discards, 6.3's bid) can come from either side in any order. Each has a
one-line text form (rules.notation).
"""

from __future__ import annotations

from attrs import field, frozen

from rules.sides import Side
from rules.state import MovementOption


def _sorted_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(cards))


@frozen
class ReinforcementDiscard:
    """6.2 step 1: put one card aside, secretly, toward discarding half the hand."""

    side: Side
    card: str


@frozen
class Bid:
    """6.3: bid one card for the choice of first player."""

    side: Side
    card: str


@frozen
class ChooseFirstPlayer:
    """6.3: the bid's winner names the first player of both turns this week."""

    side: Side
    first: Side


@frozen
class ChooseMovement:
    """7.1: take a movement option, discarding the cards it costs."""

    side: Side
    option: MovementOption
    cards: tuple[str, ...] = field(default=(), converter=_sorted_cards)


@frozen
class ExchangeCard:
    """7.1 "no movement": discard one card, to be replaced when the exchange ends."""

    side: Side
    card: str


@frozen
class EndExchange:
    """7.1 "no movement": draw as many cards as were discarded; the phase ends."""

    side: Side


@frozen
class EndMovement:
    """End the Movement Phase (7.1); the Combat Phase follows (6.4)."""

    side: Side


Command = (
    ReinforcementDiscard
    | Bid
    | ChooseFirstPlayer
    | ChooseMovement
    | ExchangeCard
    | EndExchange
    | EndMovement
)

COMMAND_TYPES: tuple[type, ...] = Command.__args__  # type: ignore[attr-defined]
