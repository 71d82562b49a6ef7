"""Game records for app tests: games begun at a position file of
tests/tui/position_files/ (docs/positions.md), so that a change to the legal
list's order or to a random game does not move the situation a test starts
from; and one random hot-seat game, for the tests whose point is a whole game."""

from __future__ import annotations

import random

import attrs
from pathlib import Path

from rules.engine import legal_commands
from rules.infra.record import GameRecord, position_record

POSITION_FILES = Path(__file__).parent / "position_files"


def record_from_position(name: str, *commands: str) -> GameRecord:
    """A game begun at tests/tui/position_files/NAME.toml, then these commands."""
    text = (POSITION_FILES / f"{name}.toml").read_text(encoding="utf-8")
    record = position_record(text, name)
    return attrs.evolve(record, commands=tuple(commands))


def opening_bid() -> GameRecord:
    """Week 1, the game set up: both sides bid for first player (6.3)."""
    return record_from_position("opening_bid")


def ishida_moves_from_osaka() -> GameRecord:
    """Week 1: Ishida, first player, has taken Full movement (7.1): his stack
    moves (7.3) and one muster (7.2) are his to give, his army at Osaka."""
    return record_from_position("ishida_moves_from_osaka", "ishida: movement full mori-plain-9 uesugi-swords-3")


def battle_with_a_challenge_open() -> GameRecord:
    """Tokugawa attacks Gifu and opens with cavalry and a swords card; Ishida,
    holding a Loyalty Challenge card, may challenge it (8.6, R48)."""
    return record_from_position("battle_at_gifu", "tokugawa: combat gifu",
                                "tokugawa: deploy fukushima-swords-1 fukushima-cav-1")


# The game from ishida_alone_at_minakuchi.toml to its end. Week 1: Tokugawa
# wins the bid and attacks Kuwana (8.1): Ishida loses mori-2-1 and retreats
# to Anotsu (8.7, 8.8.3); every Movement Phase is passed with no card
# exchanged (7.1). Week 2: the reinforcement discards (6.2) and the bid, then
# Tokugawa's army steps from Kuwana into Minakuchi and overruns Ishida
# Mitsunari (7.4): Tokugawa wins at once (2.1).
SHORT_WAR = (
    "ishida: bid ukita-plain-1",
    "tokugawa: bid fukushima-swords-1",
    "tokugawa: first tokugawa",
    "tokugawa: movement pass",
    "tokugawa: draw",
    "tokugawa: combat kuwana",
    "tokugawa: deploy maeda-plain-1 ii-4",
    "ishida: allow",
    "ishida: deploy mori-swords-1 mori-2-1",
    "tokugawa: allow",
    "ishida: pass",
    "tokugawa: pass",
    "ishida: lose mori-2-1",
    "ishida: retreat anotsu",
    "ishida: movement pass",
    "ishida: draw",
    "tokugawa: movement pass",
    "tokugawa: draw",
    "ishida: movement pass",
    "ishida: draw",
    "ishida: discard kobayakawa-plain-3",
    "tokugawa: discard tokugawa-plain-2",
    "ishida: bid kobayakawa-swords-5",
    "tokugawa: bid tokugawa-plain-1",
    "ishida: first tokugawa",
    "tokugawa: movement minimal",
    "tokugawa: move kuwana",
    "tokugawa: select fukushima-leader",
    "tokugawa: select fukushima-3-1",
    "tokugawa: select fukushima-cav-1",
    "tokugawa: select ii-4",
    "tokugawa: step minakuchi",
)


def finished_game() -> GameRecord:
    """A game played to its end in week 2, Tokugawa the winner (SHORT_WAR)."""
    return record_from_position("ishida_alone_at_minakuchi", *SHORT_WAR)


def game_over_on_points() -> GameRecord:
    """Week 7 ends, and the game with it: Tokugawa wins on victory points, 15 to 7 (2.2)."""
    return record_from_position("week_7_ends", "ishida: movement pass", "ishida: draw")


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
