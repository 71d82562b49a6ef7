"""The two sides (1, 3.1)."""

from __future__ import annotations

from enum import Enum


class Side(str, Enum):
    """A player's side. Ishida plays gold, Tokugawa black (3.1)."""

    ISHIDA = "ishida"
    TOKUGAWA = "tokugawa"

    @property
    def other(self) -> Side:
        return TOKUGAWA if self is ISHIDA else ISHIDA

    @property
    def colour(self) -> str:
        return "gold" if self is Side.ISHIDA else "black"

    @classmethod
    def of_colour(cls, colour: str) -> Side:
        return {"gold": cls.ISHIDA, "black": cls.TOKUGAWA}[colour]

    def __str__(self) -> str:
        return self.value


# A member read through its class (Side.ISHIDA) goes through the Enum metaclass's
# __getattr__ hook in Python 3.11, five times a plain name's cost, and the engine
# asks thousands of times a game (issue 25): hot paths read these names instead.
ISHIDA = Side.ISHIDA
TOKUGAWA = Side.TOKUGAWA
BOTH_SIDES: tuple[Side, Side] = (ISHIDA, TOKUGAWA)
