"""Level 1's movement decisions (7.1-7.4, 9.3): the movement option (as many
stack moves as it has useful plans, bots/heuristic_plans.py), the cards to
exchange, which stack to move or where to muster, the Mori entry, and each
step of a stack move, following the plan it began."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rules.surface import (
    BeginMove,
    ChooseMovement,
    Command,
    Deselect,
    EndExchange,
    EndMovement,
    EndStackMove,
    EnterFromMoriBox,
    ExchangeCard,
    Halt,
    MovementOption,
    Muster,
    PlayerView,
    Select,
    Side,
    Step,
)
from sekigahara_tui.bots.heuristic_cards import card_value, cheapest
from sekigahara_tui.bots.heuristic_plans import plans
from sekigahara_tui.bots.heuristic_situation import Situation, kind_of
from sekigahara_tui.bots.knowledge import HOME, MAIN_LEADERS, map_data

if TYPE_CHECKING:
    from sekigahara_tui.bots.heuristic import HeuristicBot


def new_phase(bot: HeuristicBot, view: PlayerView) -> None:
    """A new Movement Phase forgets the last one's plan and claimed targets."""
    key = (view.week, view.turn, view.active)
    if key != bot.phase_key:
        bot.phase_key = key
        bot.claimed = set()
        bot.plan = None


def choose_movement(bot: HeuristicBot, view: PlayerView) -> Command | None:
    new_phase(bot, view)
    found = [p for p in plans(bot, view, Situation.of(view)) if p.value >= 1.0]
    muster = view.recruitment_box_sizes[bot.side] > 0
    needed = len(found) + (1 if muster else 0)
    hand = len(view.hand)
    if needed >= 4 and hand >= 4:
        option = MovementOption.FULL
    elif needed >= 2 and hand >= 3:
        option = MovementOption.LIMITED
    elif needed >= 1:
        option = MovementOption.MINIMAL
    else:
        option = MovementOption.PASS
    choices = [c for c in view.legal if isinstance(c, ChooseMovement) and c.option is option]
    return cheapest(view, choices, lambda c: c.cards)


def exchange_cards(bot: HeuristicBot, view: PlayerView) -> Command | None:
    exchanges = [c for c in view.legal if isinstance(c, ExchangeCard)]
    cheap = cheapest(view, exchanges, lambda c: (c.card,))
    if cheap is not None and card_value(view, cheap.card) < 1.3 and (view.movement is None or view.movement.exchanged < 3):
        return cheap
    return EndExchange(bot.side)


def move(bot: HeuristicBot, view: PlayerView) -> Command | None:
    new_phase(bot, view)
    situation = Situation.of(view)
    movement = view.movement
    mori = _mori(bot, view, situation)
    if mori is not None:
        return mori
    found = [p for p in plans(bot, view, situation) if p.value >= 1.0]
    found.sort(key=lambda p: -p.value)
    option = movement.option if movement else None
    slots = {MovementOption.MINIMAL: 1, MovementOption.LIMITED: 3}.get(option, 99) - (movement.stack_moves if movement else 0)
    musters = [c for c in view.legal if isinstance(c, Muster)]
    if musters and (option is MovementOption.FULL or len(found) < slots or not found):
        return max(musters, key=lambda c: muster_score(bot.side, c, situation))
    for plan in found:
        begin = BeginMove(bot.side, plan.source, plan.leader)
        if begin in view.legal:
            bot.plan = plan
            for group in plan.groups:
                bot.claimed.add(group.target)
            return begin
    return EndMovement(bot.side)


def _mori(bot: HeuristicBot, view: PlayerView, situation: Situation) -> Command | None:
    entries = [c for c in view.legal if isinstance(c, EnterFromMoriBox)]
    if not entries:
        return None
    home = HOME[bot.side]
    pressed = situation.threat(home) + situation.enemy.get(home, 0) >= situation.mine(home)
    if len(view.hand) >= 7 or (pressed and len(view.hand) >= 3):
        return cheapest(view, entries, lambda c: (c.card,))
    return None


def muster_score(side: Side, command: Muster, situation: Situation) -> float:
    place = command.location
    score = 3.0 * len(command.blocks) + min(situation.threat(place), 4.0)
    if MAIN_LEADERS[side] in situation.own.get(place, ()):
        score += 1.0
    return score


def stack_move(bot: HeuristicBot, view: PlayerView) -> Command | None:
    movement = view.movement
    current = movement.stack_move if movement else None
    plan = bot.plan
    done = EndStackMove(bot.side)
    if current is None or plan is None or plan.source != current.source:
        return done
    plan.commands += 1
    if plan.commands > 80:
        return done
    legal = view.legal
    m = map_data()
    while plan.index < len(plan.groups):
        group = plan.groups[plan.index]
        selection = current.selection
        if plan.selecting:
            have = Counter(kind_of(b) for b in selection)
            need = group.kinds - have
            extra = have - group.kinds
            for command in legal:
                if isinstance(command, Deselect) and kind_of(command.block) in extra:
                    return command
            for command in legal:
                if isinstance(command, Select) and kind_of(command.block) in need:
                    return command
            if not selection:
                plan.index += 1
                continue
            plan.selecting = False
        if not selection:  # the group has ended its move
            plan.index += 1
            plan.selecting = True
            continue
        at = current.progress(selection[0]).at
        steps = [c for c in legal if isinstance(c, Step) and m.distance(c.to, group.target) < m.distance(at, group.target)]
        if at != group.target and steps:
            return min(steps, key=lambda c: (m.distance(c.to, group.target), c.to))
        plan.index += 1
        plan.selecting = True
        halt = Halt(bot.side)
        if halt in legal:
            return halt
    return done
