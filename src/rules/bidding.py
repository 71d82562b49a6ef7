"""6.3 Turn order step: a simultaneous, secret bid of one card (R9)."""

from __future__ import annotations

from rules.commands import Bid, ChooseFirstPlayer
from rules.components import default_components
from rules.decision import Answer, DecisionHelp, DecisionRules, always_legal, help_text
from rules.decks import discard_cards
from rules.events import BidsRevealed, CardSetAside, Event, FirstPlayerChosen, OpponentDecided
from rules.immutable import evolve
from rules.pair import Pair
from rules.sides import BOTH_SIDES, Side
from rules.state import Decision, DecisionKind, GameState, Phase


def begin_bid(state: GameState) -> tuple[GameState, list[Event]]:
    """R9: a side with at least one card must bid one; a side with none bids 0."""
    deciding = frozenset(s for s in BOTH_SIDES if state.cards[s].hand)
    state = evolve(
        state,
        phase=Phase.BID,
        active=None,
        first_player=None,
        secret=Pair((), ()),
        decision=Decision(DecisionKind.BID, deciding),
    )
    if not deciding:
        return resolve_bid(state)
    return state, []


def legal_bids(state: GameState, side: Side) -> list[Bid]:
    return [Bid(side, card) for card in state.cards[side].hand]


def why_bid_illegal(state: GameState, command: Bid) -> str | None:
    if command.card not in state.cards[command.side].hand:
        return f"{command.card} is not in your hand (6.3)"
    return None


def apply_bid(state: GameState, command: Bid) -> tuple[GameState, list[Event]]:
    side = command.side
    state = evolve(
        state,
        secret=state.secret.replace(side, (command.card,)),
        decision=Decision(DecisionKind.BID, state.decision.sides - {side}),
    )
    events: list[Event] = [CardSetAside(side, command.card, "bid"), OpponentDecided(side, "bid")]
    if not state.decision.sides:
        state, more = resolve_bid(state)
        events += more
    return state, events


def bid_value(card: str | None) -> int:
    return default_components().card(card).bid if card else 0


def bid_winner(ishida_card: str | None, tokugawa_card: str | None) -> Side:
    """6.3: the higher bid value wins; only 0-0 can tie, and Ishida wins it (R9)."""
    return Side.TOKUGAWA if bid_value(tokugawa_card) > bid_value(ishida_card) else Side.ISHIDA


def resolve_bid(state: GameState) -> tuple[GameState, list[Event]]:
    """Reveal both bids together; both bid cards are discarded (6.3)."""
    bids = state.secret.map(lambda chosen: chosen[0] if chosen else None)
    winner = bid_winner(bids.ishida, bids.tokugawa)
    events: list[Event] = [BidsRevealed(bids.ishida, bids.tokugawa, winner)]
    for side in BOTH_SIDES:
        state, more = discard_cards(state, side, state.secret[side], "bid")
        events += more
    state = evolve(
        state,
        phase=Phase.FIRST_PLAYER,
        secret=Pair((), ()),
        decision=Decision(DecisionKind.CHOOSE_FIRST_PLAYER, frozenset({winner})),
    )
    return state, events


def legal_first_player_choices(state: GameState, side: Side) -> list[ChooseFirstPlayer]:
    return [ChooseFirstPlayer(side, first) for first in BOTH_SIDES]


def apply_choose_first_player(
    state: GameState, command: ChooseFirstPlayer
) -> tuple[GameState, list[Event]]:
    """6.3: the winner decides who moves first in both turns of this week."""
    state = evolve(
        state, first_player=command.first, decision=Decision(DecisionKind.NONE, frozenset())
    )
    return state, [FirstPlayerChosen(command.side, command.first)]


BID = DecisionRules(
    kind=DecisionKind.BID,
    asks="bid a card for first player (6.3)",
    help=DecisionHelp(
        title="Bid for first player",
        rules="6.3, R3, R9",
        text=help_text(
            "Each side bids one card face down; both are revealed together.",
            "The higher bid value (bottom-right number of the card) wins the right to",
            "choose who moves first in both turns of this week. Both bid cards are discarded.",
            "You must bid if you hold a card; with no cards your bid is 0 (R9).",
            "Tokugawa values are even and Ishida values odd, so only 0-0 can tie: Ishida wins it.",
            "A bid spends a card you could otherwise use to move or fight.",
            "Answer with: bid <card>",
        ),
    ),
    legal=legal_bids,
    answers={Bid: Answer(why_bid_illegal, apply_bid)},
)

CHOOSE_FIRST_PLAYER = DecisionRules(
    kind=DecisionKind.CHOOSE_FIRST_PLAYER,
    asks="choose the first player (6.3)",
    help=DecisionHelp(
        title="Choose the first player",
        rules="6.3, 6.4",
        text=help_text(
            "You won the bid: name the side that moves first in turns A and B of this week.",
            "Each turn runs: first player's Movement and Combat Phases, then the second",
            "player's. Going first lets you strike before the enemy can move; going second",
            "lets you answer the enemy's moves and have the last move of the week.",
            "Answer with: first ishida | first tokugawa",
        ),
    ),
    legal=legal_first_player_choices,
    answers={ChooseFirstPlayer: Answer(always_legal, apply_choose_first_player)},
)
