"""The terminal app of sekigahara: the CLI, the Textual screens, and the club's hosting and fronts."""

import os

# A key that changes a widget's size costs Textual two layouts, the second one
# frame after the first (its frame cap, TEXTUAL_FPS, is 60 by default): at 120
# the screen is whole about 8 ms sooner (benchmarks/tui.py, issue 27 item 11).
# Set before Textual is imported, which reads it once; a player's own setting wins.
os.environ.setdefault("TEXTUAL_FPS", "120")
