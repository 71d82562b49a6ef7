"""Level 1, "heuristic": rules of thumb, one small scoring function per kind of
decision, in the spirit of GMT's COIN bots. It sees only its side's view and
events (rules.surface) and answers in a few milliseconds.

- Movement: each stack keeps a guard (the side's great leader with at least
  four blocks at home, one block in a captured castle, more under threat);
  single blocks raid undefended castles and resource locations in reach; the
  rest attack only where they outnumber the enemy well (an overrun, or at
  least 2:1), else march on the nearest prize. Cards buy as many stack moves
  as there are useful ones (7.1).
- Musters: as many blocks as possible, where the enemy is near.
- Bids and discards: the least useful card (plain cards of daimyo with few
  blocks on the map first); the winner of the bid moves first.
- Battles: deploy the play with the most Impact (same-daimyo bonus 8.3.3,
  cavalry and guns only with swords cards 8.4.1), never risking the great
  leader; a card is spent only while the battle can still be won with what
  is left, or to bring the enemy's next casualty (8.7.1), and never for a
  leader that may enter free (8.2.4); challenge when the chance that the
  enemy cannot refute (R48), worked out from the cards it may hold, times the
  Impact at stake is large and the defection would change something.
- Casualties: the weakest blocks, never the great leader or Hideyori first;
  retreats toward friends and away from the enemy.

This module is the bot: what it remembers, and ANSWERS, which decision kind
each rule of thumb answers. The rules live by decision: heuristic_cards
(discards, bids, first player), heuristic_movement and heuristic_plans (the
Movement Phase), heuristic_battle (combat, casualties, retreats), on what
heuristic_situation reads of the view.
"""

from __future__ import annotations

import copy
import random
from typing import Callable, Sequence

from rules.surface import (
    AllowPlay,
    BeginMove,
    Bid,
    Challenge,
    ChooseMovement,
    ComeOutside,
    Command,
    DecisionKind,
    DeclareDone,
    EndMovement,
    Event,
    MovementOption,
    Muster,
    PlayerView,
    ReinforcementDiscard,
    Retreat,
    Side,
    StayInside,
    default_components,
)
from sekigahara_tui.bots import heuristic_battle, heuristic_cards, heuristic_movement
from sekigahara_tui.bots.heuristic_plans import Plan, plans
from sekigahara_tui.bots.heuristic_situation import Situation
from sekigahara_tui.bots.knowledge import CardMemory


class HeuristicBot:
    def __init__(self, side: Side, seed: int) -> None:
        self.side = side
        self.random = random.Random(f"heuristic/{side.value}/{seed}")
        self.cards = CardMemory(side)
        # This Movement Phase (heuristic_movement.new_phase): the stack move
        # under way, the targets already taken, and which phase it is.
        self.plan: Plan | None = None
        self.claimed: set[str] = set()
        self.phase_key: tuple | None = None

    # --- the interface -------------------------------------------------------------

    def observe(self, events: Sequence[Event]) -> None:
        self.cards.observe(events)

    def choose(self, view: PlayerView, budget_s: float) -> Command:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        answer = ANSWERS.get(view.decision.kind)
        command = answer(self, view) if answer is not None else None
        if command is None or command not in legal:
            command = legal[0]
        return command

    # --- for level 2: ranked alternatives, and taking another's choice ----------------

    def candidates(self, view: PlayerView, limit: int = 4) -> list[Command]:
        """Level 1's own choice first, then the next best legal commands of this
        decision by level 1's scores, at most `limit` in all, none twice. Leaves
        this bot as it was (the choice is worked out on a copy)."""
        first = copy.deepcopy(self).choose(view, 0.0)
        ranked: list[Command] = [first]
        kind = view.decision.kind
        legal = view.legal
        situation = Situation.of(view)
        if kind in (DecisionKind.BID, DecisionKind.REINFORCEMENT_DISCARD):
            offered = [c for c in legal if isinstance(c, (Bid, ReinforcementDiscard))]
            by_value = sorted(offered, key=lambda c: (heuristic_cards.card_value(view, c.card), c.card))
            if kind is DecisionKind.BID and offered:  # the strongest bid, to take the initiative
                by_value.insert(1, max(offered, key=lambda c: (default_components().card(c.card).bid, c.card)))
            ranked += by_value
        elif kind is DecisionKind.CHOOSE_MOVEMENT:
            for option in (MovementOption.FULL, MovementOption.LIMITED, MovementOption.MINIMAL, MovementOption.PASS):
                choices = [c for c in legal if isinstance(c, ChooseMovement) and c.option is option]
                cheap = heuristic_cards.cheapest(view, choices, lambda c: c.cards)
                if cheap is not None:
                    ranked.append(cheap)
        elif kind is DecisionKind.MOVE:
            shadow = copy.deepcopy(self)
            heuristic_movement.new_phase(shadow, view)
            worth = sorted((p for p in plans(shadow, view, situation) if p.value >= 1.0), key=lambda p: -p.value)
            ranked += [BeginMove(self.side, p.source, p.leader) for p in worth]
            musters = [c for c in legal if isinstance(c, Muster)]
            if musters:
                ranked.append(max(musters, key=lambda c: heuristic_movement.muster_score(self.side, c, situation)))
            ranked.append(EndMovement(self.side))
        elif kind is DecisionKind.DEPLOY:
            ranked += [c for _, c in sorted(heuristic_battle.deploy_scores(self.side, view), key=lambda sc: -sc[0])]
            ranked.append(DeclareDone(self.side))
        elif kind is DecisionKind.CHALLENGE:
            ranked += [c for c in legal if isinstance(c, Challenge)][:1] + [AllowPlay(self.side)]
        elif kind is DecisionKind.RETREAT:
            ranked += sorted(
                (x for x in legal if isinstance(x, Retreat)),
                key=lambda x: (-heuristic_battle.retreat_score(self.side, view, x, situation), x.to, x.garrison),
            )
        elif kind is DecisionKind.CASTLE_CHOICE:
            ranked += [StayInside(self.side), ComeOutside(self.side)]
        found: list[Command] = []
        for command in ranked:
            if command in legal and command not in found:
                found.append(command)
            if len(found) >= limit:
                break
        return found

    def adopt(self, view: PlayerView, command: Command) -> None:
        """Take `command` as this bot's own choice at `view` (level 2 chose it):
        a stack move begun follows level 1's plan for that stack."""
        if isinstance(command, BeginMove):
            heuristic_movement.new_phase(self, view)
            ranked = sorted(plans(self, view, Situation.of(view)), key=lambda p: -p.value)
            self.plan = None
            for plan in ranked:
                if plan.source == command.source and plan.leader == command.leader:
                    self.plan = plan
                    for group in plan.groups:
                        self.claimed.add(group.target)
                    break


# Which rule of thumb answers each decision (rules.state.DecisionKind); a kind
# not here, or an answer not legal, gets the first legal command.
ANSWERS: dict[DecisionKind, Callable[[HeuristicBot, PlayerView], Command | None]] = {
    DecisionKind.REINFORCEMENT_DISCARD: heuristic_cards.reinforcement_discard,
    DecisionKind.BID: heuristic_cards.bid,
    DecisionKind.CHOOSE_FIRST_PLAYER: heuristic_cards.choose_first_player,
    DecisionKind.CHOOSE_MOVEMENT: heuristic_movement.choose_movement,
    DecisionKind.EXCHANGE_CARDS: heuristic_movement.exchange_cards,
    DecisionKind.MOVE: heuristic_movement.move,
    DecisionKind.STACK_MOVE: heuristic_movement.stack_move,
    DecisionKind.DECLARE_COMBAT: heuristic_battle.declare_combat,
    DecisionKind.CASTLE_CHOICE: heuristic_battle.castle_choice,
    DecisionKind.DEPLOY: heuristic_battle.deploy,
    DecisionKind.CHALLENGE: heuristic_battle.challenge,
    DecisionKind.CASUALTY: heuristic_battle.casualty,
    DecisionKind.RETREAT: heuristic_battle.retreat,
}
