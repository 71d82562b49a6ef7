"""Hot seat: a forced move given without a hand-over (issue 27, item 7).

When the decision passes to the other seat and that seat's only legal command
is one the first player can see is its only one, the command is given for it
at once: no hand-over, the keyboard stays, and the player is told. Only
where the forcing is public (R55): "Pass: deploy no more" when every one of
that side's blocks in the battle is deployed already (deployed blocks are
face up, 8.2.3, and how many blocks stand in a location is public). A pass
forced by the hand (no card for the blocks left) is not given so: giving it
at once would tell the other player that hand has no such card; it gets its
hand-over like any decision. So does a lone allow (R48: the seat's own
auto-allow setting decides that, auto_allow.py)."""

from __future__ import annotations

from rules.surface import Command, DeclareDone, PlayerView


def publicly_forced(view: PlayerView | None) -> Command | None:
    """The seat's only legal command, if everyone can see it is the only one."""
    if view is None or len(view.legal) != 1:
        return None
    command = view.legal[0]
    battle = view.combat.battle if view.combat is not None else None
    if isinstance(command, DeclareDone) and battle is not None:
        deployed = {d.block for d in battle.deployments if d.owner is view.side}
        if all(block in deployed for block in view.blocks_at(battle.location)):
            return command
    return None


def give_forced_move(table, current, say) -> bool:
    """Hot seat: if the seat the decision passes to has a publicly forced
    command, give it for that seat and tell the player at the keyboard
    (`say`). True if it did: the change comes back to the screen."""
    from rules.notation import format_command
    from rules.surface import command_label
    from sekigahara_tui.labels import side_name

    if not table.hot_seat:
        return False
    other = table.next_seat(current)
    command = publicly_forced(other.view) if other is not current else None
    if command is None:
        return False
    say(f"{side_name(other.side)}: {command_label(command, other.view)}, the only choice (no hand-over).")
    other.submit(format_command(command, with_side=False))
    return True
