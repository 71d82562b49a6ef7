"""Choice labels: one line of plain words per command, for the choices list and
the palette. Beside the log's lines for events (rules.describe), with the same
names for pieces, cards and places; the notation stays on the command line.

One entry per command type (rules.commands.COMMAND_TYPES), registered with
`_labels`; tests/rules/test_describe_commands.py fails on a type without one.
A label may read the seat's view for what the seat knows (how far a block of
the stack move under way has come).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from rules.commands import (
    AllowPlay,
    BeginMove,
    Bid,
    Challenge,
    ChooseCasualty,
    ChooseFirstPlayer,
    ChooseMovement,
    ComeOutside,
    DeclareCombat,
    DeclareDone,
    Deploy,
    DeployLeader,
    Deselect,
    EndExchange,
    EndMovement,
    EndStackMove,
    EnterFromMoriBox,
    ExchangeCard,
    ForceMarch,
    Halt,
    Muster,
    ReinforcementDiscard,
    Retreat,
    Select,
    StayInside,
    Step,
)
from rules.components import default_components
from rules.describe import card_text, daimyo_name, piece_name, place_name
from rules.movement import MOVEMENT_OPTIONS
from rules.retreat import CASTLE
from rules.sides import Side

if TYPE_CHECKING:
    from rules.view import PlayerView

__all__ = ["COMMAND_LABELS", "command_label"]

C = TypeVar("C")
Labeller = Callable[[Any, "PlayerView | None"], str]

COMMAND_LABELS: dict[type, Labeller] = {}
"""command type -> its labeller (command, the seat's view or None) -> words."""


def command_label(command: Any, view: PlayerView | None = None) -> str:
    """A command in plain words, for the choices list; `view`, the seat's
    PlayerView, adds what the seat knows, like how far a block has moved."""
    try:
        labeller = COMMAND_LABELS[type(command)]
    except KeyError:
        raise TypeError(f"no label for command {type(command).__name__}") from None
    return labeller(command, view)


def _labels(cls: type[C]) -> Callable[[Callable[[C, Any], str]], Callable[[C, Any], str]]:
    def register(fn: Callable[[C, Any], str]) -> Callable[[C, Any], str]:
        if cls in COMMAND_LABELS:
            raise TypeError(f"two labels for {cls.__name__}")
        COMMAND_LABELS[cls] = fn
        return fn

    return register


# --- words ------------------------------------------------------------------------------


def _place(place: str) -> str:
    return place_name(place, Side.ISHIDA)


def _blocks(block_ids: tuple[str, ...]) -> str:
    return ", ".join(piece_name(b) for b in block_ids)


def _moved(view: PlayerView | None, block: str) -> str:
    """' (moved 2)': how far a block of the stack move under way has come."""
    move = view.movement.stack_move if view is not None and view.movement else None
    if move is None or not any(p.block == block for p in move.blocks):
        return ""
    steps = len(move.progress(block).path) - 1
    return f" (moved {steps})" if steps else ""


# --- 6.2, 6.3: the week's start ---------------------------------------------------------


@_labels(ReinforcementDiscard)
def _reinforcement_discard(c: ReinforcementDiscard, view: Any) -> str:
    return f"Discard: {card_text(c.card)}"


@_labels(Bid)
def _bid(c: Bid, view: Any) -> str:
    return f"Bid: {card_text(c.card)}"


@_labels(ChooseFirstPlayer)
def _choose_first_player(c: ChooseFirstPlayer, view: Any) -> str:
    return f"{c.first.value.capitalize()} plays first"


# --- 7: movement ------------------------------------------------------------------------


@_labels(ChooseMovement)
def _choose_movement(c: ChooseMovement, view: Any) -> str:
    words = MOVEMENT_OPTIONS[c.option].choice
    return words + (f"; pay {' + '.join(card_text(card) for card in c.cards)}" if c.cards else "")


@_labels(ExchangeCard)
def _exchange_card(c: ExchangeCard, view: Any) -> str:
    return f"Exchange {card_text(c.card)}"


@_labels(EndExchange)
def _end_exchange(c: EndExchange, view: Any) -> str:
    return "Draw the replacements (ends the phase)"


@_labels(EndMovement)
def _end_movement(c: EndMovement, view: Any) -> str:
    return "End the Movement Phase"


@_labels(BeginMove)
def _begin_move(c: BeginMove, view: Any) -> str:
    return f"Move a stack from {_place(c.source)}" + (" (a leader leads)" if c.leader else "")


@_labels(Select)
def _select(c: Select, view: PlayerView | None) -> str:
    return f"Select {piece_name(c.block)}{_moved(view, c.block)}"


@_labels(Deselect)
def _deselect(c: Deselect, view: PlayerView | None) -> str:
    return f"Leave {piece_name(c.block)} behind{_moved(view, c.block)}"


@_labels(ForceMarch)
def _force_march(c: ForceMarch, view: Any) -> str:
    return f"Force march (+1), discard {card_text(c.card)}"


@_labels(Step)
def _step(c: Step, view: Any) -> str:
    return f"Step to {_place(c.to)}"


@_labels(Halt)
def _halt(c: Halt, view: Any) -> str:
    return "Halt the selected group here"


@_labels(EndStackMove)
def _end_stack_move(c: EndStackMove, view: Any) -> str:
    return "Done: end this stack move"


@_labels(Muster)
def _muster(c: Muster, view: Any) -> str:
    """7.2: one block hidden (option 2), or several of one daimyo shown (option 1)."""
    if len(c.blocks) == 1:
        return f"Muster {piece_name(c.blocks[0])} at {_place(c.location)} (hidden)"
    daimyos = {default_components().block(b).daimyo for b in c.blocks}
    who = daimyo_name(next(iter(daimyos))) if len(daimyos) == 1 else "several daimyo"
    kinds = ", ".join(piece_name(b).removeprefix(who + " ") for b in c.blocks)
    return f"Muster {len(c.blocks)} blocks of {who} at {_place(c.location)} (shown): {kinds}"


@_labels(EnterFromMoriBox)
def _enter_from_mori_box(c: EnterFromMoriBox, view: Any) -> str:
    return f"Mori Box: {piece_name(c.block)} into Osaka for {card_text(c.card)}"


# --- 8: combat --------------------------------------------------------------------------


@_labels(DeclareCombat)
def _declare_combat(c: DeclareCombat, view: Any) -> str:
    return f"Combat at {_place(c.location)}"


@_labels(StayInside)
def _stay_inside(c: StayInside, view: Any) -> str:
    return "Stay inside the castle"


@_labels(ComeOutside)
def _come_outside(c: ComeOutside, view: Any) -> str:
    return "Come outside and fight a battle"


@_labels(Deploy)
def _deploy(c: Deploy, view: Any) -> str:
    return f"Deploy {_blocks(c.blocks)} with {card_text(c.card)}"


@_labels(DeployLeader)
def _deploy_leader(c: DeployLeader, view: Any) -> str:
    return f"Deploy {piece_name(c.block)}, no card"


@_labels(DeclareDone)
def _declare_done(c: DeclareDone, view: Any) -> str:
    return "Pass: deploy no more"


@_labels(Challenge)
def _challenge(c: Challenge, view: Any) -> str:
    return f"Challenge with {card_text(c.card)}"


@_labels(AllowPlay)
def _allow_play(c: AllowPlay, view: Any) -> str:
    return "Allow the play"


@_labels(ChooseCasualty)
def _choose_casualty(c: ChooseCasualty, view: Any) -> str:
    return f"Lose {piece_name(c.piece)}"


@_labels(Retreat)
def _retreat(c: Retreat, view: Any) -> str:
    if c.to == CASTLE:
        return f"Retreat into the castle: {_blocks(c.garrison)}"
    if c.garrison:
        return f"Retreat: {_blocks(c.garrison)} into the castle, the rest to {_place(c.to)}"
    return f"Retreat all to {_place(c.to)}"
