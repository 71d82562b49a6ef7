"""In-game help for each decision the engine asks for (rules.state.DecisionKind).

The `?` key shows the help of the current decision: a short title, the rule
numbers (as in the rulebook and its Rulings R1..R58), and a few lines saying
what is being decided, what the choices mean, and which commands answer it.
The texts are our own summaries of the rules, not the rulebook's words.
"""

from __future__ import annotations

from attrs import frozen

from rules.state import DecisionKind


@frozen
class DecisionHelp:
    """Help for one kind of decision.

    `title`: a short heading; `rules`: the rule numbers it rests on, comma
    separated ("6.3, R9"); `text`: 3 to 10 lines of plain text.
    """

    title: str
    rules: str
    text: str

    def rule_numbers(self) -> tuple[str, ...]:
        """The cited rule numbers, one by one: ("6.3", "R9")."""
        return tuple(part.strip() for part in self.rules.split(",") if part.strip())


def _text(*lines: str) -> str:
    return "\n".join(lines)


DECISION_HELP: dict[DecisionKind, DecisionHelp] = {
    DecisionKind.REINFORCEMENT_DISCARD: DecisionHelp(
        title="Discard half your hand",
        rules="6.2, R7, R8, R45",
        text=_text(
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
    DecisionKind.BID: DecisionHelp(
        title="Bid for first player",
        rules="6.3, R3, R9",
        text=_text(
            "Each side bids one card face down; both are revealed together.",
            "The higher bid value (bottom-right number of the card) wins the right to",
            "choose who moves first in both turns of this week. Both bid cards are discarded.",
            "You must bid if you hold a card; with no cards your bid is 0 (R9).",
            "Tokugawa values are even and Ishida values odd, so only 0-0 can tie: Ishida wins it.",
            "A bid spends a card you could otherwise use to move or fight.",
            "Answer with: bid <card>",
        ),
    ),
    DecisionKind.CHOOSE_FIRST_PLAYER: DecisionHelp(
        title="Choose the first player",
        rules="6.3, 6.4",
        text=_text(
            "You won the bid: name the side that moves first in turns A and B of this week.",
            "Each turn runs: first player's Movement and Combat Phases, then the second",
            "player's. Going first lets you strike before the enemy can move; going second",
            "lets you answer the enemy's moves and have the last move of the week.",
            "Answer with: first ishida | first tokugawa",
        ),
    ),
    DecisionKind.CHOOSE_MOVEMENT: DecisionHelp(
        title="Choose a movement option",
        rules="7.1, 7.2, R10, R42",
        text=_text(
            "Start of your Movement Phase: pay 0, 1 or 2 cards for one option.",
            "pass (0 cards): no moves; instead you may exchange any cards for new ones.",
            "minimal (0 cards): one stack move OR one muster.",
            "limited (1 card): three stack moves; one of them may be a muster instead.",
            "full (2 cards): every stack may move, plus one muster.",
            "Mori Box entries (Ishida, 9.3) are separate and possible under any option (R42).",
            "Answer with: movement <option> [cards...]   e.g. movement full <card> <card>",
        ),
    ),
    DecisionKind.EXCHANGE_CARDS: DecisionHelp(
        title="Exchange cards (no movement)",
        rules="7.1, 9.3, R42",
        text=_text(
            "You chose not to move this phase. You may discard cards you do not want,",
            "one per command, and then draw as many new cards as you discarded.",
            "Drawing ends your Movement Phase; your Combat Phase follows.",
            "Ishida may still bring Mori Box blocks into Osaka here, 1 card each (R42).",
            "Answer with: exchange <card> (repeat), then draw; mori <block> <card>",
        ),
    ),
    DecisionKind.MOVE: DecisionHelp(
        title="Move, muster, or end movement",
        rules="7.1, 7.2, 7.3.1, 7.3.4, 7.4, 9.3, R12, R15, R17, R42",
        text=_text(
            "Begin a stack move from a location (each location is the source of at most",
            "one move per phase, R15), muster, bring in Mori blocks, or end the phase.",
            "Add 'leader' to move if the stack relies on a leader block for leadership (+1):",
            "the opponent learns a leader is there, not which; a friendly controlled castle",
            "or your own capital gives it without a declaration (R17).",
            "Muster (once per turn): one block of any daimyo, hidden, or several blocks of the",
            "location's daimyo, shown. Never into enemy blocks unless you have blocks there (R12, R61).",
            "Mustered and Mori blocks cannot move this turn; their arrival can overrun (7.4).",
            "Answer with: move <location> [leader]; muster <location> <blocks...>;",
            "mori <block> <card>; end",
        ),
    ),
    DecisionKind.STACK_MOVE: DecisionHelp(
        title="Move this stack",
        rules="7.3, 7.3.3, 7.3.5, 7.4, R14, R16, R19, R57",
        text=_text(
            "Select the blocks that travel together, then step them one location at a time.",
            "Reach: 1, +1 if the whole move is on highway, +1 leadership, +1 force march (a card);",
            "-1 for 5-8 blocks, -2 for 9-12, -3 for 13-16 in the largest group it moved with (R19).",
            "A group may drop blocks off on the way (halt them) but never picks any up (R14).",
            "Entering a location with enemy units stops the group unless it overruns them",
            "(4 to 1 in blocks); a road segment can be used by only one group per phase (R57).",
            "Answer with: select/deselect <block>, march <card>, step <location>, halt,",
            "and done when the whole stack move is over.",
        ),
    ),
    DecisionKind.DECLARE_COMBAT: DecisionHelp(
        title="Declare the next combat",
        rules="8.1, 8.9.4, 9.3, R37, R41, R47",
        text=_text(
            "Combat Phase: every location where both sides have units must see combat.",
            "You choose the order, one location at a time; each is resolved before the next.",
            "You are the attacker. At a castle the owner then chooses inside or outside (8.9).",
            "A siege left standing must be declared again in each Combat Phase (R37).",
            "Tokugawa declaring at Osaka brings every Mori Box block into the fight (R41).",
            "Answer with: combat <location>",
        ),
    ),
    DecisionKind.CASTLE_CHOICE: DecisionHelp(
        title="Stay inside the castle or come out",
        rules="8.9.1, 8.9.2, 8.9.3, 8.9.5, R36, R37, R54",
        text=_text(
            "Combat was declared at your castle. With 2 blocks or fewer you may stay inside:",
            "a siege, where only the attacker deploys and only you take losses (1 per 7 Impact).",
            "Sieges have no gun or cavalry bonus and no Loyalty Challenges.",
            "Outside, it is a normal battle with the usual deployment, casualties and retreat.",
            "If it is your own Combat Phase, staying inside means no combat here (R37).",
            "Discs are always inside and do not count toward the 2-block limit (8.9.3).",
            "Answer with: inside | outside",
        ),
    ),
    DecisionKind.DEPLOY: DecisionHelp(
        title="Deploy a block or pass",
        rules="8.2.2, 8.2.4, 8.3, 8.4, 8.5, R23, R28, R29",
        text=_text(
            "You hold the initiative: play a card to deploy a block of the same mon.",
            "Impact = its mon, +1 per block of that daimyo you already deployed here; with a",
            "swords card a gun/cavalry block adds +2, and +2 per earlier block with that symbol.",
            "A double card deploys one or two blocks of its mon, with no special attack (R28).",
            "Any card (not Loyalty) deploys Ishida Mitsunari or Ii Naomasa. Leaders may be",
            "deployed without a card until your first card deployment in this combat (8.2.4).",
            "You deploy until you lead; passing hands the initiative over for good (R29).",
            "Answer with: deploy <card> <blocks...>; lead <leader block>; pass",
        ),
    ),
    DecisionKind.CHALLENGE: DecisionHelp(
        title="Challenge the play, or allow it",
        rules="8.6, 8.6.2, 8.6.3, R31, R48",
        text=_text(
            "The enemy just deployed with a card. With a Loyalty Challenge card you may",
            "challenge that play; this is asked whenever you hold any card, so the question",
            "itself gives nothing away.",
            "If the deployer holds another card that could have deployed the block(s), the",
            "challenge fails (shown automatically, R48). Otherwise the block(s) defect: their",
            "Impact, less any special attack, moves to your side for this battle (R31).",
            "Leaders deployed without a card are immune; no challenges in sieges.",
            "Answer with: challenge <loyalty card> | allow",
        ),
    ),
    DecisionKind.CASUALTY: DecisionHelp(
        title="Choose a casualty",
        rules="8.7.1, 8.7.2, 8.7.3, R32, R49, R53, 9.1, 9.2",
        text=_text(
            "Each side loses 1 block per full 7 Impact against it; a battle's loser loses 1 more",
            "(not in a siege). The attacker chooses first, then the defender.",
            "Order: your blocks that defected, then other deployed blocks, then undeployed ones;",
            "you choose within each group (R32). Lost blocks are revealed and gone for good.",
            "In a siege the defender may lose a disc: Sanada may replace a block at Ueda,",
            "Hideyori is always the last piece lost at Osaka (R53).",
            "Answer with: lose <block or disc>",
        ),
    ),
    DecisionKind.RETREAT: DecisionHelp(
        title="Retreat",
        rules="8.8, 8.8.2, 8.8.3, 8.8.4, 8.8.5, R33, R34, R51, R52",
        text=_text(
            "You lost the battle: all your surviving blocks go to one adjacent location.",
            "Attacker: back to a location your blocks came from, else any neighbour (R51).",
            "Defender: to a neighbour with no enemy units that no enemy came from, if one exists.",
            "If you controlled the castle here, up to 2 blocks may go inside it (R34);",
            "the rest retreat together to one location.",
            "Retreating into enemy units can cause an overrun or a new battle at once (R52).",
            "Answer with: retreat <location> [garrison blocks]; retreat castle <blocks>",
        ),
    ),
    DecisionKind.NONE: DecisionHelp(
        title="Game over",
        rules="2.1, 2.2, R50, R56",
        text=_text(
            "Nothing is left to decide: the game has ended.",
            "Instant victory: Tokugawa wins when Ishida Mitsunari is eliminated or the",
            "Hideyori disc is captured; Ishida wins when Tokugawa Ieyasu is eliminated.",
            "If both happen in the same combat, Ishida wins (R50).",
            "Otherwise, after turn B of week 7, count points: 2 per castle and 1 per resource",
            "location controlled. The higher total wins; a tie goes to Ishida (R56).",
        ),
    ),
}


def help_for(kind: DecisionKind) -> DecisionHelp:
    """The help text for a decision kind."""
    return DECISION_HELP[kind]
