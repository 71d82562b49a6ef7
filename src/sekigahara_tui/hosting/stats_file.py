"""What a club server reports of itself at exit, for benchmarks/club.py's soak:
with SEKIGAHARA_STATS_FILE set, one small JSON object is written there when
the server stops (the count of place indexes it built, rules/places.py: the
benchmark divides it by the commands it made, issue 23 item 11), the
computer's decision times, from asking a worker to its answer and inside
the worker alone (issue 25), and the store's transactions (the group
commit's: commands a transaction, issue 23's CPU a command)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable

from rules import places

STATS_ENV = "SEKIGAHARA_STATS_FILE"


def write_stats_if_asked(computer_decisions: Iterable[float] = (), computer_thinking: Iterable[float] = (), transactions: int = 0) -> None:
    """Also the computer's decision times in seconds (issue 25): from asking
    a worker to its answer (waiting for a free worker included), and the
    thinking inside the worker alone; and the transactions the group commit made."""
    path = os.environ.get(STATS_ENV)
    if path:
        stats = {
            "place_indexes_built": places.BUILT[0],
            "computer_decision_s": list(computer_decisions),
            "computer_thinking_s": list(computer_thinking),
            "store_transactions": transactions,
        }
        Path(path).write_text(json.dumps(stats) + "\n")
