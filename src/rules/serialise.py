"""Saving and loading states with cattrs: save then load gives an equal state."""

from __future__ import annotations

import json

import cattrs
from cattrs.preconf.json import make_converter

from rules.state import GameState

converter = make_converter()


class CorruptSave(ValueError):
    """A saved state that cannot be loaded; the message says what is wrong."""


def state_to_json(state: GameState) -> str:
    return converter.dumps(state)


def state_from_json(text: str) -> GameState:
    try:
        return converter.loads(text, GameState)
    except json.JSONDecodeError as error:
        raise CorruptSave(f"not JSON: {error}") from None
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as error:
        details = "; ".join(cattrs.transform_error(error)) if isinstance(error, cattrs.BaseValidationError) else str(error)
        raise CorruptSave(f"not a saved game state: {details}") from None
