"""Commands made once and shared by every legal list (issue 25).

A legal list is rebuilt at every decision, mostly of the same commands: the
stack moves a side may begin, the blocks it may select, the roads it may
step along. Commands are immutable, so each is made once per side here and
the lists hold these very objects: no command is built at a decision, and
each one's hash is computed once (the club looks every listed command up in
its notation table at every state, issue 23).
"""

from __future__ import annotations

from functools import cache

from rules.commands import BeginMove, Deselect, EndStackMove, ForceMarch, Halt, Select, Step
from rules.components import default_components
from rules.sides import Side


@cache
def begin_moves(side: Side) -> dict[str, tuple[BeginMove, BeginMove]]:
    """The two ways to begin a stack move (7.3.1, R17) from each location:
    without a declared leader, and with one."""
    return {loc.id: (BeginMove(side, loc.id), BeginMove(side, loc.id, leader=True))
            for loc in default_components().locations}


@cache
def stack_commands(side: Side) -> tuple[dict[str, Select], dict[str, Deselect], dict[str, Step],
                                        dict[str, ForceMarch], Halt, EndStackMove]:
    """Every command within a stack move (7.3): Select and Deselect by block,
    Step by location, ForceMarch by card, Halt and EndStackMove."""
    c = default_components()
    blocks = [b.id for b in c.blocks]
    return (
        {b: Select(side, b) for b in blocks},
        {b: Deselect(side, b) for b in blocks},
        {loc.id: Step(side, loc.id) for loc in c.locations},
        {card.id: ForceMarch(side, card.id) for card in c.cards},
        Halt(side),
        EndStackMove(side),
    )


class _BySide(dict):
    """A table function's answers by side, made on first use: read with a
    subscript, no call of the cache's wrapper (issue 25: asked at every
    decision of a stack move)."""

    def __init__(self, made) -> None:  # noqa: ANN001
        super().__init__()
        self.made = made

    def __missing__(self, side: Side):  # noqa: ANN204
        value = self[side] = self.made(side)
        return value


STACK_COMMANDS = _BySide(stack_commands)  # STACK_COMMANDS[side] is stack_commands(side)
