"""Hot seat: a forced move given without a hand-over (issue 27, item 7).

When the decision passes to the other seat and that seat's only legal command
is one the player at the keyboard can see is its only one, the command is
given for it at once: no hand-over, the keyboard stays, and the player is
told. Whether a move is so given is worked out from the watching seat's view
alone (`known_forced`; a retreat, see below): a view holds only what that side may know (R55), so
giving it or not tells the watcher nothing, and the command itself shows no
more than its outcome shows both sides anyway. The cases, each public:

- pass, every one of the side's blocks in the battle deployed (face up, 8.2.3;
  the blocks in a location are counted publicly, R55);
- pass, an empty hand (hand sizes are public, R55) after a card deployment in
  this battle (cards are played face up, 8.2.3), so no leader may come
  without a card (8.2.4): no card, no deployment;
- a lone casualty (8.7.2, R32): the groups are the defected and the other
  deployed blocks (face up), then the undeployed ones, counted publicly; in a
  siege the blocks there (counted) and the discs (public, R53). A lost block
  is revealed (8.7.2, R49), so naming it tells nothing;
- a lone retreat (8.8.1): a side that may put blocks into the castle (8.8.4,
  R34; its owner is public) always has two choices or more; otherwise the
  choices are the destinations of 8.8.2/8.8.3, which follow from where the
  blocks came from (R51: both sides saw every move) and where the watcher's
  own units stand (`retreat_count_is_public`);
- a lone combat to declare (8.1, R47): the locations still to declare are public.

Not given so, each telling a secret: a pass forced by the hand's contents (no
card for the blocks left, or an undeployed block that is not a leader), and
a lone allow (R48: it tells that the hand holds no Loyalty Challenge card; the
seat's own auto-allow setting decides that, auto_allow.py). A castle choice
(8.9.2) always has two. `sekigahara --ask-forced` hands over for all."""

from __future__ import annotations

from rules.surface import (
    ChooseCasualty,
    Command,
    DeclareCombat,
    DeclareDone,
    DecisionKind,
    PlayerView,
    Retreat,
    Side,
)

HIDEYORI = "hideyori"  # 9.1, R53: the last piece lost at Osaka


def known_forced(watcher: PlayerView, side: Side) -> type | None:
    """The command type that the watcher can tell from its own view is the
    only legal command of `side` (its enemy) now, or None."""
    decision = watcher.decision
    combat = watcher.combat
    if decision.sides != frozenset({side}) or side is watcher.side or combat is None:
        return None
    if decision.kind is DecisionKind.DECLARE_COMBAT:
        return DeclareCombat if len(combat.pending) == 1 else None
    battle = combat.battle
    if battle is None:
        return None
    if decision.kind is DecisionKind.DEPLOY:
        return DeclareDone if _no_deployment_left(watcher, side) else None
    if decision.kind is DecisionKind.CASUALTY:
        return ChooseCasualty if _casualty_choices(watcher, side) == 1 else None
    return None


def retreat_count_is_public(watcher: PlayerView, side: Side) -> bool:
    """8.8.4, R34: a side that may put blocks into the castle (its owner, public)
    always has two retreats or more. Any other has one per destination (8.8.2,
    8.8.3), which follow from the R51 record of where each side came from and
    from where the watcher's units stand: every entry of that record was shown
    to both sides as it was made (OpponentMovedBlocks, OpponentRetreated; a
    position file's [entered_from]). The view does not carry the record, so
    how many there are is read from the seat's legal list, and
    tests/tui/test_forced_moves_public.py checks that it is the same in states
    the watcher cannot tell apart."""
    combat = watcher.combat
    return (watcher.decision.kind is DecisionKind.RETREAT and watcher.decision.sides == frozenset({side}) and side is not watcher.side
            and combat is not None and combat.battle is not None and combat.battle.castle_owner is not side)


def _no_deployment_left(watcher: PlayerView, side: Side) -> bool:
    battle = watcher.combat.battle
    deployed = {d.block for d in battle.deployments if d.owner is side}
    if watcher.enemy_count_at(battle.location) == len(deployed):
        return True  # every block deployed (blocks stay put during the deployments)
    card_deployed = any(d.owner is side and d.card is not None for d in battle.deployments)
    return watcher.hand_sizes[side] == 0 and card_deployed


def _casualty_choices(watcher: PlayerView, side: Side) -> int:
    """How many pieces `side` may choose from (casualties.casualty_choices),
    counted from the watcher's view."""
    battle = watcher.combat.battle
    here = watcher.enemy_count_at(battle.location)
    if battle.siege:
        discs = [d.id for d in watcher.discs if d.side is side and d.in_play and d.location == battle.location]
        others = here + sum(1 for disc in discs if disc != HIDEYORI)
        return others or here + len(discs)
    known = dict(watcher.enemy_known)  # deployed blocks are shown where they stand; lost ones are eliminated
    mine = [d for d in battle.deployments if d.owner is side and known.get(d.block) == battle.location]
    for group in ([d for d in mine if d.defected], [d for d in mine if not d.defected]):
        if group:
            return len(group)
    return here


def publicly_forced(view: PlayerView | None, watcher: PlayerView | None) -> Command | None:
    """The seat's only legal command, if the watcher (the other seat) can see
    from its own view that it is the only one."""
    if view is None or watcher is None:
        return None
    kind = known_forced(watcher, view.side) or (Retreat if retreat_count_is_public(watcher, view.side) else None)
    if kind is None or len(view.legal) != 1 or type(view.legal[0]) is not kind:
        return None  # never so when `kind` is known (tests/tui/test_forced_moves.py plays games to check)
    return view.legal[0]


ONE = ", the only choice (no hand-over)."
SEVERAL = ", the only choices (no hand-over)."


def told(name: str, label: str, said: str) -> str:
    """The message line for a given move; after another given in the same
    chain (the line still tells it: a command of the player's own would have
    replaced it), both: "Tokugawa: Lose ...; Retreat to ..., the only choices"."""
    for ending in (ONE, SEVERAL):
        if said.startswith(f"{name}: ") and said.endswith(ending):
            return f"{said[:-len(ending)]}; {label}{SEVERAL}"
    return f"{name}: {label}{ONE}"


def give_forced_move(table, current, say, said: str = "") -> bool:
    """Hot seat: if the seat the decision passes to has a publicly forced
    command, give it for that seat and tell the player at the keyboard
    (`say`; `said`: the message line now). True if it did: the change comes
    back to the screen, which may give the next one."""
    from rules.notation import format_command
    from rules.surface import command_label
    from sekigahara_tui.labels import side_name

    if not table.hot_seat:
        return False
    other = table.next_seat(current)
    command = publicly_forced(other.view, current.view) if other is not current else None
    if command is None:
        return False
    say(told(side_name(other.side), command_label(command, other.view), said))
    other.submit(format_command(command, with_side=False))
    return True
