"""Saving and loading states with cattrs: save then load gives an equal state.

A saved state is read strictly (rules.infra.untrusted): no duplicate keys, no deep
nesting, and a state that cannot occur (a position for each block, each in a
place that exists) or CorruptSave says what is wrong.
"""

from __future__ import annotations

from enum import Enum

import cattrs
from cattrs.preconf.json import make_converter

from rules.components import default_components
from rules.sides import Side
from rules.state import OFF_MAP, DecisionKind, GameState, MovementOption, Phase, Turn
from rules.infra.untrusted import UntrustedInputError, excerpt, printable, strict_json

converter = make_converter()


def _exactly(kind: type):
    """A structure hook taking only a JSON value of exactly `kind`: cattrs alone
    would turn "7" or 7.5 into 7, or true into 1."""

    def structure(value: object, _: type) -> object:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, not {type(value).__name__}")
        return value

    return structure


for _kind in (int, str, bool):
    converter.register_structure_hook(_kind, _exactly(_kind))


def _member_of(kind: type[Enum]):
    """A structure hook for a str-based enum. Without it the str hook above
    would take the enum too (they are str subclasses) and let any text in."""

    def structure(value: object, _: type) -> object:
        if type(value) is not str:
            raise TypeError(f"expected a {kind.__name__} name, not {type(value).__name__}")
        try:
            return kind(value)
        except ValueError:
            raise ValueError(f"{printable(value, 40)!s} is not a {kind.__name__}") from None

    return structure


for _enum in (Side, Turn, Phase, DecisionKind, MovementOption):
    converter.register_structure_hook(_enum, _member_of(_enum))

# A state nests about six levels (state, combat, battle, a pair, a tuple of
# pairs); thirty-two is far above it and far below Python's recursion limit.
MAX_STATE_DEPTH = 32


class CorruptSave(ValueError):
    """A saved state that cannot be loaded; the message says what is wrong."""


def state_to_json(state: GameState) -> str:
    return converter.dumps(state)


def state_from_json(text: str) -> GameState:
    try:
        data = strict_json(text, MAX_STATE_DEPTH)
    except UntrustedInputError as error:
        raise CorruptSave(str(error)) from None
    try:
        state = converter.structure(data, GameState)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError, AttributeError) as error:
        details = "; ".join(cattrs.transform_error(error)) if isinstance(error, cattrs.BaseValidationError) else str(error)
        raise CorruptSave(f"not a saved game state: {printable(details, 200)}") from None
    _check_places(state)
    return state


def _check_places(state: GameState) -> None:
    """One position for each block, each a location or an off-map place (state.py)."""
    components = default_components()
    if len(state.positions) != len(components.blocks):
        raise CorruptSave(
            f"not a saved game state: {len(state.positions)} block positions for {len(components.blocks)} blocks"
        )
    for block, place in zip(components.blocks, state.positions):
        if place not in components.location_ids and place not in OFF_MAP:
            raise CorruptSave(f"not a saved game state: block {block.id} is at an unknown place {excerpt(place)}")
