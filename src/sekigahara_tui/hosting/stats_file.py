"""What a club server reports of itself at exit, for benchmarks/club.py's soak:
with SEKIGAHARA_STATS_FILE set, one small JSON object is written there when
the server stops (the count of place indexes it built, rules/places.py: the
benchmark divides it by the commands it made, issue 23 item 11), the
computer's decision times (issue 25), and the store's transactions (the
group commit's: commands a transaction, issue 23's CPU a command)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from rules import places

STATS_ENV = "SEKIGAHARA_STATS_FILE"


def write_stats_if_asked(computer_decisions: list[float] | None = None, transactions: int = 0) -> None:
    """Also the computer's decision times (seconds from asking a worker to its answer, issue 25)
    and the transactions the group commit made."""
    path = os.environ.get(STATS_ENV)
    if path:
        stats = {"place_indexes_built": places.BUILT[0], "computer_decision_s": computer_decisions or [],
                 "store_transactions": transactions}
        Path(path).write_text(json.dumps(stats) + "\n")
