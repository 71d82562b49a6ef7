"""Game records for app tests: seeded random games, whole or up to an interesting moment."""

from __future__ import annotations

import random

import attrs
from pathlib import Path
from typing import Callable

from rules.engine import legal_commands
from rules.infra.record import GameRecord, position_record
from rules.infra.selfplay import random_game
from rules.state import GameState


def record_until(seed: int, wanted: Callable[[GameState], bool]) -> GameRecord:
    """The record of seed's random game up to the first state that is `wanted`."""
    commands: list[str] = []
    stop: list[int] = []

    def on_step(before, command, after, events) -> None:
        commands.append(command)
        if not stop and wanted(after):
            stop.append(len(commands))

    game = random_game(seed, on_step=on_step)
    assert stop, f"seed {seed} never reaches the wanted position"
    return GameRecord(seed, game.record.data_version, game.record.commands[: stop[0]])


def hot_seat_game(seed: int) -> GameRecord:
    """A random game played as the hot-seat app offers the seats: a simultaneous
    decision (the discards, the bid) is finished seat by seat, the seat that
    acted last going on while it has a command (GameHost.side_to_act)."""
    from sekigahara_tui.hosting.host import GameHost

    chooser = random.Random(f"hot-seat/{seed}")
    host = GameHost.new(seed)
    seat = None
    while not host.is_over:
        seat = host.side_to_act(seat)
        host.submit(chooser.choice(legal_commands(host.state, seat)))
    return host.record


POSITION_FILES = Path(__file__).parent / "position_files"


def record_from_position(name: str, *commands: str) -> GameRecord:
    """A game begun at tests/tui/position_files/NAME.toml, then these commands."""
    text = (POSITION_FILES / f"{name}.toml").read_text(encoding="utf-8")
    record = position_record(text, name)
    return attrs.evolve(record, commands=tuple(commands))


def battle_with_a_challenge_open() -> GameRecord:
    """Tokugawa attacks Gifu and opens with cavalry and a swords card; Ishida,
    holding a Loyalty Challenge card, may challenge it (8.6, R48)."""
    return record_from_position("battle_at_gifu", "tokugawa: combat gifu",
                                "tokugawa: deploy fukushima-swords-1 fukushima-cav-1")
