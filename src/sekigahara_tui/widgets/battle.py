"""The battle view: deployed blocks, the Impact track, the initiative (8.2-8.9)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from rules.describe import card_name
from rules.surface import BOTH_SIDES, BattleView, PlayerView, default_components
from sekigahara_tui.labels import block_label, place_label, side_name

TRACK_MAX = 48  # the Impact track runs 0-48; beyond that the marker turns over


def impact_track(battle: BattleView, width: int = 48, styles: dict | None = None) -> Table:
    """Both sides' Impact on the 0-48 track, as bars."""
    table = Table.grid(padding=(0, 1))
    table.add_column(width=9)
    table.add_column(justify="right", width=3)
    table.add_column()
    for side in BOTH_SIDES:
        impact = battle.impact[side]
        filled = min(impact, TRACK_MAX) * width // TRACK_MAX
        bar = Text("█" * filled, style=(styles or {}).get(side, "")) + Text("·" * (width - filled), style="dim")
        table.add_row(side_name(side), str(impact), bar)
    return table


def battle_renderable(view: PlayerView, track_width: int = 40, styles: dict | None = None) -> Group:
    assert view.combat is not None and view.combat.battle is not None
    battle = view.combat.battle
    kind = "Siege" if battle.siege else "Battle"
    lead = battle.initiative
    parts: list = [
        Text(f"{kind} at {place_label(battle.location)}", style="bold"),
        Text(
            f"attacker {side_name(battle.attacker)}, defender {side_name(battle.defender)}; "
            f"initiative: {side_name(lead) if lead else 'none'} (8.5)"
        ),
        impact_track(battle, track_width, styles),
    ]
    deployed = Table(box=None, expand=True, padding=(0, 1))
    for side in BOTH_SIDES:
        deployed.add_column(f"{side_name(side)} deployed")
    columns = [
        [
            f"{block_label(d.block)} {d.counted}"
            + (" (defected)" if d.defected else "")
            + (f" [{card_name(d.card)}]" if d.card else " [no card]")
            for d in battle.deployments
            if d.side is side
        ]
        for side in BOTH_SIDES
    ]
    for row in range(max(map(len, columns), default=0)):
        deployed.add_row(*(col[row] if row < len(col) else "" for col in columns))
    parts.append(deployed)
    if any(battle.losses):
        parts.append(Text(f"losses to take: Ishida {battle.losses.ishida}, Tokugawa {battle.losses.tokugawa} (8.7)"))
    if battle.winner is not None:
        parts.append(Text(f"winner: {side_name(battle.winner)}", style="bold"))
    parts.append(Text(undeployed_line(view, battle)))
    return Group(*parts)


def undeployed_line(view: PlayerView, battle: BattleView) -> str:
    """The blocks still in hand for this battle: this side's by name, the enemy's
    as a count (R55). What may be deployed now is the choices list's business."""
    c = default_components()
    deployed = {d.block for d in battle.deployments}
    own = [block_label(b) for b, place in view.own_blocks if place == battle.location and b not in deployed]
    enemy_deployed = sum(1 for b in deployed if c.block(b).side is view.side.other)
    enemy = max(0, view.enemy_count_at(battle.location) - enemy_deployed)
    if view.spectator:  # the chair's side is shown as counts too (spectator_view)
        chair = len(own) + dict(view.own_hidden_counts).get(battle.location, 0)
        return f"Not deployed yet: {side_name(view.side)} {_blocks(chair)}; {side_name(view.side.other)} {_blocks(enemy)}"
    return f"Not deployed yet: yours {', '.join(own) or 'none'}; {side_name(view.side.other)} {_blocks(enemy)}"


NO_BATTLE = "No battle is being fought."


def _blocks(count: int) -> str:
    return f"{count} block" if count == 1 else f"{count} blocks"


class BattlePanel(Static):
    COMPONENT_CLASSES = {"battle--ishida", "battle--tokugawa"}
    _view: PlayerView | None = None
    _idle: bool | None = None  # showing NO_BATTLE (None: nothing shown yet)

    def on_resize(self) -> None:
        if self._view is not None:
            self.show(self._view)  # the track's width follows the panel's

    def show(self, view: PlayerView) -> None:
        self._view = view
        if view.combat is None or view.combat.battle is None:
            if self._idle is not True:  # the same words after every command: no redraw, no new layout
                self._idle = True
                self.update(NO_BATTLE)
            return
        self._idle = False
        styles = {side: self.get_component_rich_style(f"battle--{side.value}") for side in BOTH_SIDES}
        width = max(10, self.size.width - 15) if self.size.width else 20
        self.update(battle_renderable(view, width, styles))
