"""Log lines: one line of plain English per event, as one side sees it (R55).

The game log is rendered from events, never stored as strings (architecture.md).
`describe(event, side)` speaks to the reader: "You ..." for what `side` did,
"Tokugawa ..." or "Ishida ..." for the other side; `describe_neutral(event)`
names both sides, for a reader who plays neither. Pieces, cards and places are
named from the components, never by id. An event seen by `side` is already
redacted for it, so a line says only what its event carries. Rule numbers from
the rulebook (RULES.md) follow in parentheses where they help.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from rules.components import default_components
from rules.events import (
    BidsRevealed,
    BlockDeployed,
    BlocksDefected,
    BlocksMoved,
    BlocksMustered,
    BlocksPlaced,
    BlocksRetreated,
    BlocksShown,
    BlocksStopped,
    CardsDiscarded,
    CardsDrawn,
    CardSetAside,
    CastleFell,
    ChallengeRefuted,
    CombatDeclared,
    CombatEnded,
    ControlChanged,
    DrawPileReshuffled,
    Event,
    FirstPlayerChosen,
    GameEnded,
    LeaderDeclared,
    LoyaltyChallenged,
    MoriBlockEntered,
    MovementChosen,
    MovementEnded,
    NoCombat,
    OpponentDecided,
    OpponentDrewCards,
    OpponentMovedBlocks,
    OpponentPlacedBlocks,
    OpponentRetreated,
    Overrun,
    PhaseBegan,
    PieceLost,
    SideDone,
    WeekBegan,
    WeekEnded,
)
from rules.sides import Side
from rules.movement import MOVEMENT_OPTIONS
from rules.state import BAG, ELIMINATED, MORI_BOX, RECRUITMENT_BOX
from rules.victory import HIDEYORI_CAPTURED, ISHIDA_ELIMINATED, TOKUGAWA_ELIMINATED, VICTORY_POINTS

__all__ = ["describe", "describe_neutral"]

E = TypeVar("E", bound=Event)
Describer = Callable[[Any, Side], str]

_DESCRIBERS: dict[type[Event], Describer] = {}


def describe(event: Event, side: Side) -> str:
    """One readable log line for `event` as `side` sees it (the event is visible
    to `side`); the empty string for an event that is not written in the log
    (WeekEnded), which the log and the replay leave out."""
    try:
        describer = _DESCRIBERS[type(event)]
    except KeyError:
        raise TypeError(f"no description for event {type(event).__name__}") from None
    return describer(event, side)


def describe_neutral(event: Event) -> str:
    """One log line naming both sides, never "you": for a reader who plays
    neither side (a spectator, a replay). Every line is written for a viewer,
    and no side is this reader."""
    return describe(event, None)  # type: ignore[arg-type]


def _describes(cls: type[E]) -> Callable[[Callable[[E, Side], str]], Callable[[E, Side], str]]:
    def register(fn: Callable[[E, Side], str]) -> Callable[[E, Side], str]:
        _DESCRIBERS[cls] = fn
        return fn

    return register


# --- words ------------------------------------------------------------------------------

PERSONAL_NAMES = {
    "ishida-leader": "Ishida Mitsunari",
    "tokugawa-leader": "Tokugawa Ieyasu",
    "mori-leader": "Mori Terumoto",
    "ii-4": "Ii Naomasa",
    "hideyori": "Toyotomi Hideyori",
    "sanada": "Sanada Masayuki",
}
"""Pieces the rulebook names after their daimyo (2.1, 9.1-9.5)."""

KIND_NAMES = {"leader": "leader", "4": "4-mon", "3": "3-mon", "2": "2-mon", "gun": "gun", "cav": "cavalry"}
"""Block kinds (components.md) as the log names them; a card's kind is its own name."""

DISCARD_REASONS = {
    "reinforcement": "for reinforcement (6.2)",
    "bid": "after the bid (6.3)",
    "movement": "for movement (7.1)",
    "exchange": "to exchange cards (7.1)",
    "force march": "for a force march (7.3.3)",
    "mori box": "to bring a block out of the Mori Box (9.3)",
}

SECRET_CHOICES = {
    "reinforcement": ("to discard", "the cards to discard", "6.2"),
    "bid": ("as the bid", "a bid card", "6.3"),
}
"""purpose: (what the card is set aside for, what the other side chose, rule)."""

INSTANT_VICTORIES = {
    ISHIDA_ELIMINATED: "Ishida Mitsunari is eliminated",
    TOKUGAWA_ELIMINATED: "Tokugawa Ieyasu is eliminated",
    HIDEYORI_CAPTURED: "Toyotomi Hideyori is captured",
}


def _side_name(side: Side) -> str:
    return side.value.capitalize()


def _who(actor: Side, viewer: Side, start: bool = True) -> str:
    """The subject: "You" for the viewer itself, else the side's name."""
    if actor is viewer:
        return "You" if start else "you"
    return _side_name(actor)


def _whose(owner: Side, viewer: Side, start: bool = True) -> str:
    if owner is viewer:
        return "Your" if start else "your"
    return f"{_side_name(owner)}'s"


def _act(actor: Side, viewer: Side, verb: str, third: str | None = None, start: bool = True) -> str:
    """Subject and verb: "You draw" / "Tokugawa draws" ("have"/"has" via `third`)."""
    form = verb if actor is viewer else (third or verb + "s")
    return f"{_who(actor, viewer, start)} {form}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _listing(names: Iterable[str]) -> str:
    """"A", "A and B", "A, B and C"; repeats grouped as "Mori 3-mon ×2"."""
    counted = [name if n == 1 else f"{name} ×{n}" for name, n in Counter(names).items()]
    if len(counted) <= 1:
        return "".join(counted) or "nothing"
    return f"{', '.join(counted[:-1])} and {counted[-1]}"


def daimyo_name(daimyo_id: str) -> str:
    return default_components().daimyo_of(daimyo_id).id.capitalize()


def piece_name(piece_id: str) -> str:
    """A block's or disc's name: "Ishida Mitsunari", "Mori 3-mon", "Ukita cavalry"."""
    if piece_id in PERSONAL_NAMES:
        return PERSONAL_NAMES[piece_id]
    block = default_components().block(piece_id)
    return f"{daimyo_name(block.daimyo)} {KIND_NAMES[block.kind]}"


def _pieces(piece_ids: Iterable[str]) -> str:
    return _listing(piece_name(p) for p in piece_ids)


def _is_disc(piece_id: str) -> bool:
    return any(disc.id == piece_id for disc in default_components().discs)


def card_name(card_id: str) -> str:
    """A card's name: "Mori double", "Date swords", "Loyalty Challenge"."""
    card = default_components().card(card_id)
    if card.daimyo is None:
        return "Loyalty Challenge"
    return f"{daimyo_name(card.daimyo)} {card.kind}"


def card_text(card_id: str) -> str:
    """A card with its kind and bid value: "Ukita plain (1)", "Loyalty Challenge (1)".
    The bid is in brackets so a card id's number is never read as its value."""
    return f"{card_name(card_id)} ({default_components().card(card_id).bid})"


def _cards(card_ids: Iterable[str]) -> str:
    return _listing(card_name(c) for c in card_ids)


def _location(location_id: str) -> str:
    return default_components().location(location_id).name


def _castle(location_id: str) -> str:
    return f"{_location(location_id)} castle"


def place_name(place: str, viewer: Side) -> str:
    """A location's name, or an off-map place: "the bag", "your Recruitment Box"."""
    if place == BAG:
        return "the bag"
    if place == ELIMINATED:
        return "eliminated"
    if place == MORI_BOX:
        return "the Mori Box"
    for owner in Side:
        if place == RECRUITMENT_BOX[owner]:
            return f"{_whose(owner, viewer, start=False)} Recruitment Box"
    return _location(place)


# --- cards ------------------------------------------------------------------------------


@_describes(CardsDrawn)
def _cards_drawn(e: CardsDrawn, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'draw')} {_plural(len(e.cards), 'card')}: {_cards(e.cards)}."


@_describes(OpponentDrewCards)
def _opponent_drew_cards(e: OpponentDrewCards, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'draw')} {_plural(e.count, 'card')}."


@_describes(DrawPileReshuffled)
def _draw_pile_reshuffled(e: DrawPileReshuffled, viewer: Side) -> str:
    return (
        f"{_whose(e.side, viewer)} discard pile is shuffled into a new draw pile "
        f"of {_plural(e.size, 'card')} (3.3)."
    )


@_describes(CardsDiscarded)
def _cards_discarded(e: CardsDiscarded, viewer: Side) -> str:
    why = DISCARD_REASONS.get(e.reason, f"({e.reason})")
    return f"{_act(e.side, viewer, 'discard')} {_cards(e.cards)} {why}."


@_describes(CardSetAside)
def _card_set_aside(e: CardSetAside, viewer: Side) -> str:
    what, _, rule = SECRET_CHOICES.get(e.purpose, (f"for {e.purpose}", "", "R45"))
    return f"{_act(e.side, viewer, 'set', 'sets')} {card_name(e.card)} aside {what}, in secret ({rule})."


@_describes(OpponentDecided)
def _opponent_decided(e: OpponentDecided, viewer: Side) -> str:
    _, chosen, rule = SECRET_CHOICES.get(e.purpose, ("", f"for {e.purpose}", "R45"))
    return f"{_act(e.side, viewer, 'have', 'has')} chosen {chosen}, in secret ({rule})."


# --- blocks off the map and setup -----------------------------------------------------------


@_describes(BlocksPlaced)
def _blocks_placed(e: BlocksPlaced, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'place')} {_pieces(e.blocks)} in {place_name(e.place, viewer)}."


@_describes(OpponentPlacedBlocks)
def _opponent_placed_blocks(e: OpponentPlacedBlocks, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'place')} {_plural(e.count, 'block')} in {place_name(e.place, viewer)}."


@_describes(BlocksShown)
def _blocks_shown(e: BlocksShown, viewer: Side) -> str:
    rule = "9.3" if e.place == MORI_BOX else "R55"
    where = place_name(e.place, viewer)
    return f"{_whose(e.side, viewer)} blocks in {where}, face up: {_pieces(e.blocks)} ({rule})."


# --- the week's sequence ------------------------------------------------------------------


@_describes(WeekBegan)
def _week_began(e: WeekBegan, viewer: Side) -> str:
    return f"Week {e.week} begins (6.1)."


@_describes(WeekEnded)
def _week_ended(e: WeekEnded, viewer: Side) -> str:
    # No line: its figures are drawn on the game-over screen (sekigahara_tui.standing),
    # and issue 22 changes no screen; a line would show in every log after week 1.
    return ""


@_describes(BidsRevealed)
def _bids_revealed(e: BidsRevealed, viewer: Side) -> str:
    bids = f"{_bid(Side.ISHIDA, e.ishida_card)}, {_bid(Side.TOKUGAWA, e.tokugawa_card)}"
    winner = _act(e.winner, viewer, "win", start=False)
    chooses = "choose" if e.winner is viewer else "chooses"
    return f"Bids revealed: {bids}; {winner} and {chooses} the first player (6.3)."


def _bid(side: Side, card_id: str | None) -> str:
    if card_id is None:
        return f"{_side_name(side)} 0 (no card)"
    return f"{_side_name(side)} {default_components().card(card_id).bid} ({card_name(card_id)})"


@_describes(FirstPlayerChosen)
def _first_player_chosen(e: FirstPlayerChosen, viewer: Side) -> str:
    chooser = _act(e.side, viewer, "choose")
    if e.first is e.side:
        return f"{chooser} to move first this week (6.3)."
    return f"{chooser} {_who(e.first, viewer, start=False)} to move first this week (6.3)."


@_describes(PhaseBegan)
def _phase_began(e: PhaseBegan, viewer: Side) -> str:
    phase = e.phase.value.replace("-", " ").capitalize()
    return f"Week {e.week}, turn {e.turn.value}: {_whose(e.active, viewer, start=False)} {phase} Phase (6.4)."


@_describes(GameEnded)
def _game_ended(e: GameEnded, viewer: Side) -> str:
    winner = _act(e.winner, viewer, "win", start=False)
    if e.cause == VICTORY_POINTS:
        score = f"Ishida {e.ishida_vp} VP, Tokugawa {e.tokugawa_vp} VP"
        return f"Game over after week 7: {score}; {winner} (2.2)."
    if e.cause in INSTANT_VICTORIES:
        return f"Game over: {INSTANT_VICTORIES[e.cause]}; {winner} (2.1)."
    return f"Game over: {winner} ({e.cause})."


# --- movement -------------------------------------------------------------------------------


@_describes(MovementChosen)
def _movement_chosen(e: MovementChosen, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'choose')} {MOVEMENT_OPTIONS[e.option].chosen} (7.1)."


@_describes(MovementEnded)
def _movement_ended(e: MovementEnded, viewer: Side) -> str:
    return f"{_whose(e.side, viewer)} Movement Phase ends."


@_describes(LeaderDeclared)
def _leader_declared(e: LeaderDeclared, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'declare')} a leader block in {_location(e.location)} for leadership (7.3.4, R17)."


@_describes(BlocksMoved)
def _blocks_moved(e: BlocksMoved, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'move')} {_pieces(e.blocks)} {_route(e.origin, e.destination)} (7.3)."


@_describes(OpponentMovedBlocks)
def _opponent_moved_blocks(e: OpponentMovedBlocks, viewer: Side) -> str:
    moves = _act(e.side, viewer, "move")
    return f"{moves} {_plural(e.count, 'block')} {_route(e.origin, e.destination)} (7.3)."


def _route(origin: str, destination: str) -> str:
    return f"from {_location(origin)} to {_location(destination)}"


@_describes(BlocksStopped)
def _blocks_stopped(e: BlocksStopped, viewer: Side) -> str:
    enemy = "your" if e.side.other is viewer else _side_name(e.side.other)
    where = _location(e.location)
    return f"{_whose(e.side, viewer)} blocks stop in {where}, which holds {enemy} units (7.3.2)."


@_describes(Overrun)
def _overrun(e: Overrun, viewer: Side) -> str:
    victim = _who(e.side.other, viewer, start=False)
    where = _location(e.location)
    overruns = _act(e.side, viewer, "overrun")
    return f"{overruns} {victim} in {where}; eliminated: {_pieces(e.eliminated)} (7.4)."


@_describes(BlocksMustered)
def _blocks_mustered(e: BlocksMustered, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'muster')} {_pieces(e.blocks)} to {_location(e.location)} (7.2)."


@_describes(MoriBlockEntered)
def _mori_block_entered(e: MoriBlockEntered, viewer: Side) -> str:
    return f"{_whose(e.side, viewer)} {piece_name(e.block)} enters Osaka from the Mori Box (9.3)."


# --- combat ---------------------------------------------------------------------------------


@_describes(CombatDeclared)
def _combat_declared(e: CombatDeclared, viewer: Side) -> str:
    declares = _act(e.attacker, viewer, "declare")
    if e.siege:
        return f"{declares} a siege of {_castle(e.location)} (8.9)."
    return f"{declares} a battle at {_location(e.location)} (8.1)."


@_describes(NoCombat)
def _no_combat(e: NoCombat, viewer: Side) -> str:
    stays = _act(e.side, viewer, "stay")
    return f"{stays} inside {_castle(e.location)}: no combat there this phase (8.9.2)."


@_describes(BlockDeployed)
def _block_deployed(e: BlockDeployed, viewer: Side) -> str:
    deploys = f"{_act(e.side, viewer, 'deploy')} {piece_name(e.block)}"
    if e.card is None:
        return f"{deploys} without a card for {e.impact} Impact (8.2.4)."
    return f"{deploys} with {card_name(e.card)} for {e.impact} Impact (8.2.3)."


@_describes(SideDone)
def _side_done(e: SideDone, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'are', 'is')} done deploying in this combat (8.5)."


@_describes(LoyaltyChallenged)
def _loyalty_challenged(e: LoyaltyChallenged, viewer: Side) -> str:
    target = _whose(e.side.other, viewer, start=False)
    return f"{_act(e.side, viewer, 'play')} a Loyalty Challenge against {target} {_pieces(e.blocks)} (8.6.1)."


@_describes(ChallengeRefuted)
def _challenge_refuted(e: ChallengeRefuted, viewer: Side) -> str:
    shows, keeps = _act(e.side, viewer, "show"), "keep" if e.side is viewer else "keeps"
    return f"{shows} {card_name(e.shown)} and {keeps} it: the challenge fails (8.6.1, R48)."


@_describes(BlocksDefected)
def _blocks_defected(e: BlocksDefected, viewer: Side) -> str:
    verb = "defects" if len(e.blocks) == 1 else "defect"
    to = _who(e.side.other, viewer, start=False)
    return f"{_whose(e.side, viewer)} {_pieces(e.blocks)} {verb} to {to} (8.6.1)."


@_describes(CombatEnded)
def _combat_ended(e: CombatEnded, viewer: Side) -> str:
    impact = f"Impact Ishida {e.ishida_impact}, Tokugawa {e.tokugawa_impact}"
    losses = f"losses Ishida {e.ishida_losses}, Tokugawa {e.tokugawa_losses}"
    if e.winner is None:
        return f"Siege of {_castle(e.location)} ends: {impact}; {losses} (8.9.4)."
    winner = _act(e.winner, viewer, "win", start=False)
    return f"Battle at {_location(e.location)} ends: {impact}; {winner}; {losses} (8.7.1)."


@_describes(PieceLost)
def _piece_lost(e: PieceLost, viewer: Side) -> str:
    rule = "8.9.3" if _is_disc(e.piece) else "8.7.2"
    return f"{_act(e.side, viewer, 'lose')} {piece_name(e.piece)} at {_location(e.location)} ({rule})."


@_describes(BlocksRetreated)
def _blocks_retreated(e: BlocksRetreated, viewer: Side) -> str:
    return f"{_act(e.side, viewer, 'retreat')} {_pieces(e.blocks)} {_route(e.origin, e.destination)} (8.8)."


@_describes(OpponentRetreated)
def _opponent_retreated(e: OpponentRetreated, viewer: Side) -> str:
    line = f"{_act(e.side, viewer, 'retreat')} {_plural(e.count, 'block')} {_route(e.origin, e.destination)}"
    if e.garrison:
        stay = "stays" if e.garrison == 1 else "stay"
        return f"{line}; {e.garrison} {stay} inside {_castle(e.origin)} (8.8.4)."
    return f"{line} (8.8)."


@_describes(CastleFell)
def _castle_fell(e: CastleFell, viewer: Side) -> str:
    return f"{_castle(e.location)} falls to {_who(e.side, viewer, start=False)} (8.9.4)."


@_describes(ControlChanged)
def _control_changed(e: ControlChanged, viewer: Side) -> str:
    castle = default_components().location(e.location).is_castle
    where, rule = (_castle(e.location), "4.3") if castle else (_location(e.location), "4.2")
    if e.side is None:
        return f"Nobody controls {where} now ({rule})."
    return f"{_act(e.side, viewer, 'now control', 'now controls')} {where} ({rule})."
