"""Level 1 as it was before issue 25's card sense, for the A/B in
card_sense.py: its deployment and challenge rules are those of
heuristic_battle.py at commit BASELINE, read from git (so the baseline is
exactly the old code, not a copy); every other decision is today's level 1."""

from __future__ import annotations

import subprocess
import types
from pathlib import Path

from rules.surface import DecisionKind
from sekigahara_tui.bots.heuristic import HeuristicBot

BASELINE = "5ccd50e"  # main before card sense
PATH = "src/sekigahara_tui/bots/heuristic_battle.py"


def old_battle_rules() -> types.ModuleType:
    root = Path(__file__).resolve().parents[1]
    source = subprocess.run(["git", "-C", str(root), "show", f"{BASELINE}:{PATH}"],
                            capture_output=True, text=True, check=True).stdout
    module = types.ModuleType("heuristic_battle_before")
    exec(compile(source, f"{BASELINE}:{PATH}", "exec"), module.__dict__)
    return module


OLD = old_battle_rules()


class BeforeBot(HeuristicBot):
    def choose(self, view, budget_s):
        answer = {DecisionKind.DEPLOY: OLD.deploy, DecisionKind.CHALLENGE: OLD.challenge}.get(view.decision.kind)
        if answer is None or len(view.legal) == 1:
            return super().choose(view, budget_s)
        command = answer(self, view)
        return command if command in view.legal else view.legal[0]
