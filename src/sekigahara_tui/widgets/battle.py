"""The battle view: deployed blocks, the Impact track, the initiative (8.2-8.9)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from rules.describe import card_name
from rules.notation import format_command
from rules.surface import BOTH_SIDES, BattleView, Deploy, DeployLeader, PlayerView
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
    deployments = [c for c in view.legal if isinstance(c, (Deploy, DeployLeader))]
    if deployments:
        parts.append(Text("You may deploy: " + "; ".join(format_command(c, with_side=False) for c in deployments)))
    return Group(*parts)


class BattlePanel(Static):
    COMPONENT_CLASSES = {"battle--ishida", "battle--tokugawa"}
    _view: PlayerView | None = None

    def on_resize(self) -> None:
        if self._view is not None:
            self.show(self._view)  # the track's width follows the panel's

    def show(self, view: PlayerView) -> None:
        self._view = view
        if view.combat is None or view.combat.battle is None:
            self.update("No battle is being fought.")
            return
        styles = {side: self.get_component_rich_style(f"battle--{side.value}") for side in BOTH_SIDES}
        width = max(10, self.size.width - 15) if self.size.width else 20
        self.update(battle_renderable(view, width, styles))
