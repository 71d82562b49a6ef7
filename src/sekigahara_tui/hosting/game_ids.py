"""A new game's id: random, URL-safe, and never read as an option.

A game's id is typed after `--game`, `export` and `sekigahara join` by an
administrator or a player; argparse takes a word that starts with "-" for an
option ("argument --game: expected one argument"), so an id starts with a
letter or a digit. 12 characters: 6 + 66 bits of randomness.
"""

from __future__ import annotations

import secrets
import string

_FIRST = string.ascii_letters + string.digits


def new_game_id() -> str:
    return secrets.choice(_FIRST) + secrets.token_urlsafe(9)[1:]
