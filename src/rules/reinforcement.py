"""6.2 Reinforcement step (skipped in week 1), done by both sides at once (R45)."""

from __future__ import annotations

from rules.commands import ReinforcementDiscard
from rules.components import default_components
from rules.control import castles_controlled, resources_controlled
from rules.decision import Answer, DecisionHelp, DecisionRules, help_text
from rules.decks import discard_cards, draw_cards
from rules.events import BlocksPlaced, CardSetAside, Event, OpponentDecided, OpponentPlacedBlocks
from rules.immutable import evolve
from rules.pair import Pair
from rules.randomness import sample
from rules.sides import BOTH_SIDES, Side
from rules.state import BAG, Decision, DecisionKind, GameState, Phase, recruitment_box, with_positions

CARDS_DRAWN = 5


def discard_requirement(state: GameState, side: Side) -> int:
    """R7: discard floor(n/2) cards of a hand of n."""
    return len(state.cards[side].hand) // 2


def begin_reinforcement(state: GameState) -> tuple[GameState, list[Event]]:
    deciding = frozenset(s for s in BOTH_SIDES if discard_requirement(state, s) > 0)
    state = evolve(
        state,
        phase=Phase.REINFORCEMENT,
        active=None,
        secret=Pair((), ()),
        decision=Decision(DecisionKind.REINFORCEMENT_DISCARD, deciding),
    )
    if not deciding:
        return resolve_reinforcement(state)
    return state, []


def legal_reinforcement_discards(state: GameState, side: Side) -> list[ReinforcementDiscard]:
    chosen = state.secret[side]
    return [ReinforcementDiscard(side, card) for card in state.cards[side].hand if card not in chosen]


def why_reinforcement_discard_illegal(state: GameState, command: ReinforcementDiscard) -> str | None:
    if command.card not in state.cards[command.side].hand:
        return f"{command.card} is not in your hand (6.2)"
    if command.card in state.secret[command.side]:
        return f"{command.card} is already set aside for discarding (6.2)"
    return None


def apply_reinforcement_discard(
    state: GameState, command: ReinforcementDiscard
) -> tuple[GameState, list[Event]]:
    side = command.side
    chosen = state.secret[side] + (command.card,)
    state = evolve(state, secret=state.secret.replace(side, chosen))
    events: list[Event] = [CardSetAside(side, command.card, "reinforcement")]
    if len(chosen) == discard_requirement(state, side):
        deciding = state.decision.sides - {side}
        state = evolve(state, decision=Decision(DecisionKind.REINFORCEMENT_DISCARD, deciding))
        events.append(OpponentDecided(side, "reinforcement"))
        if not deciding:
            state, more = resolve_reinforcement(state)
            events += more
    return state, events


def blocks_to_draw(state: GameState) -> Pair[int]:
    """6.2 step 3: the track's count for the week, +1 to the side controlling
    more resource locations, +1 to both if they are tied."""
    base = default_components().setup.reinforcement[state.week - 1]
    ishida, tokugawa = (resources_controlled(state, s) for s in BOTH_SIDES)
    return Pair(base + (ishida >= tokugawa), base + (tokugawa >= ishida))


def cards_to_draw(state: GameState) -> Pair[int]:
    """6.2 step 2: 5 cards, a 6th for the side controlling more castles (none on a tie, R8)."""
    ishida, tokugawa = (castles_controlled(state, s) for s in BOTH_SIDES)
    return Pair(CARDS_DRAWN + (ishida > tokugawa), CARDS_DRAWN + (tokugawa > ishida))


def resolve_reinforcement(state: GameState) -> tuple[GameState, list[Event]]:
    """Reveal both discards, then each side draws its cards and blocks (6.2, R45).
    Control is counted before anything changes (R8)."""
    cards, blocks = cards_to_draw(state), blocks_to_draw(state)
    events: list[Event] = []
    for side in BOTH_SIDES:
        state, more = discard_cards(state, side, state.secret[side], "reinforcement")
        events += more
    state = evolve(state, secret=Pair((), ()))
    for side in BOTH_SIDES:
        state, more = draw_cards(state, side, cards[side])
        events += more
        state, more = draw_blocks_into_recruitment_box(state, side, blocks[side])
        events += more
    return evolve(state, decision=Decision(DecisionKind.NONE, frozenset())), events


def draw_blocks_into_recruitment_box(
    state: GameState, side: Side, count: int
) -> tuple[GameState, list[Event]]:
    """Draw blocks at random from the side's bag into its Recruitment Box
    (5.2.3, 6.2 step 4). An empty bag gives what it still holds (R45)."""
    drawn, state = sample(state, state.blocks_at(BAG, side), count)
    if not drawn:
        return state, []
    box = recruitment_box(side)
    state = with_positions(state, {block: box for block in drawn})
    return state, [BlocksPlaced(side, box, drawn), OpponentPlacedBlocks(side, box, len(drawn))]


REINFORCEMENT_DISCARD = DecisionRules(
    kind=DecisionKind.REINFORCEMENT_DISCARD,
    asks="discard half of the hand (6.2)",
    help=DecisionHelp(
        title="Discard half your hand",
        rules="6.2, R7, R8, R45",
        text=help_text(
            "Reinforcement step (weeks 2-7): first you discard half your hand, rounded down",
            "(7 cards: 3; 1 card: none). You pick which cards; one command per card.",
            "Both sides choose at the same time and in secret; the discards are shown",
            "only when both have chosen (R45).",
            "Then each side draws 5 cards; whoever controls more castles draws a 6th",
            "(nobody on a tie, R8). Blocks then come from the bag to the Recruitment Box.",
            "Keep cards that match the blocks you expect to fight with, and a high bid card.",
            "Answer with: discard <card>",
        ),
    ),
    legal=legal_reinforcement_discards,
    answers={ReinforcementDiscard: Answer(why_reinforcement_discard_illegal, apply_reinforcement_discard)},
)
