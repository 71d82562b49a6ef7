"""Errors the engine raises at its boundary."""


class IllegalCommand(ValueError):
    """A command the rules forbid. The message says why and names the rule."""


class InvalidPosition(ValueError):
    """A position (file or hand-built state) that cannot occur in a game."""
