"""Computer players (issue 14). A bot sees what a player sees and nothing more:
its side's PlayerView and the events visible to its side (rules.surface); it
never receives a GameState. `LEVELS` names the levels; `make_bot` builds one."""

from sekigahara_tui.bots.base import LEVELS, Bot, make_bot

__all__ = ["Bot", "LEVELS", "make_bot"]
