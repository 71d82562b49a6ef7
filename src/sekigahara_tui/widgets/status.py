"""The status bar: where the game stands, in public figures (R55)."""

from __future__ import annotations

from textual.widgets import Static

from rules.surface import BOTH_SIDES, PlayerView, Side
from sekigahara_tui.labels import side_name
from sekigahara_tui.widgets.steady_text import Leaf


def _count(pairs: tuple[tuple[str, Side], ...], side: Side) -> int:
    return sum(1 for _, owner in pairs if owner is side)


def status_line(view: PlayerView) -> str:
    """Two lines: where the game stands, then the public figures as Ishida/Tokugawa."""
    me = view.side

    def both(figure) -> str:
        return "/".join(str(figure(side)) for side in BOTH_SIDES)

    who = "Watching" if view.spectator else f"You: {side_name(me)}"  # a spectator's view is drawn from Ishida's chair
    return (
        f"{who} │ Week {view.week} turn {view.turn.value} │ {view.phase.value} │ "
        f"active {side_name(view.active)} │ first {side_name(view.first_player)}\n"
        f"Ishida/Tokugawa: VP {both(lambda s: view.vp[s])} castles {both(lambda s: _count(view.castle_control, s))} "
        f"resources {both(lambda s: _count(view.resource_control, s))} bag {both(lambda s: view.bag_sizes[s])} box {both(lambda s: view.recruitment_box_sizes[s])} "
        f"draw {both(lambda s: view.draw_pile_sizes[s])}"
    )


class StatusBar(Leaf, Static):
    _shown: str | None = None

    def show(self, view: PlayerView) -> None:
        line = status_line(view)
        if line != self._shown:
            self._shown = line
            self.update(line, layout=False)  # fixed height: no re-layout
