"""The Sekigahara game engine: pure rules, no I/O beyond loading component data.

The public surface is re-exported from `rules.engine`.
"""
