"""The two sides (1, 3.1)."""

from __future__ import annotations

from enum import Enum


class Side(str, Enum):
    """A player's side. Ishida plays gold, Tokugawa black (3.1)."""

    ISHIDA = "ishida"
    TOKUGAWA = "tokugawa"

    @property
    def other(self) -> Side:
        return Side.TOKUGAWA if self is Side.ISHIDA else Side.ISHIDA

    @property
    def colour(self) -> str:
        return "gold" if self is Side.ISHIDA else "black"

    @classmethod
    def of_colour(cls, colour: str) -> Side:
        return {"gold": cls.ISHIDA, "black": cls.TOKUGAWA}[colour]

    def __str__(self) -> str:
        return self.value


BOTH_SIDES: tuple[Side, Side] = (Side.ISHIDA, Side.TOKUGAWA)
