"""Issue 14: the bot interface. A bot sees what its side sees and nothing
more (the no-cheat test, the import rule), and every level plays whole games
from both sides with no illegal command."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from rules.engine import apply_trusted, legal_commands, start_game
from rules.sides import BOTH_SIDES, Side
from rules.view import view
from sekigahara_tui.bots import LEVELS, make_bot
from sekigahara_tui.bots.play import play_game

def _hidden_variant():
    """tests/rules/test_fuzz.py's hidden_variant: the same state but for what one side hides."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("fuzz_for_bots", Path(__file__).parents[1] / "rules" / "test_fuzz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.hidden_variant


hidden_variant = _hidden_variant()

BOTS = Path(make_bot.__code__.co_filename).parent
CLIENT_SURFACE = {"rules.surface", "rules.notation", "rules.describe"}
# play.py owns the GameState by design; sampler.py builds states of its own from
# a view and events (never given the game's), for the planner's playouts and
# level 3's tree search.
REFEREE = {"play.py", "sampler.py", "planner.py", "search.py"}


def test_bots_import_only_the_client_surface_from_the_rules():
    offenders = {}
    for path in sorted(BOTS.glob("*.py")):
        if path.name in REFEREE:
            continue
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "rules":
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.split(".")[0] == "rules"}
        if found - CLIENT_SURFACE:
            offenders[path.name] = sorted(found - CLIENT_SURFACE)
    assert offenders == {}


# The planner (level 2) and the search (level 3) are given a fixed number of
# playouts (iterations) per decision here: with a time budget their answers
# would depend on the machine's speed.
TEST_PLAYOUTS = 2


def fresh_bot(level: str, side: Side, seed: int):
    bot = make_bot(level, side, seed)
    if hasattr(bot, "fixed_playouts"):
        bot.fixed_playouts = TEST_PLAYOUTS
    if hasattr(bot, "fixed_iterations"):
        bot.fixed_iterations = TEST_PLAYOUTS
    return bot


def visible(side: Side, events) -> list:
    return [event for event in events if side in event.visible_to()]


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("seed", [3, 11])
def test_no_cheat_a_bot_answers_the_same_whatever_the_opponent_hides(level, seed):
    """At decision points of a game, a state and its hidden variant (the
    opponent's hidden blocks swapped, its hand swapped with its draw pile,
    another generator: tests/rules/test_fuzz.py) give the bot the same view;
    two bots with the same seed and the same events then give the same command."""
    chooser = random.Random(seed)
    state, events = start_game(seed)
    history = {side: visible(side, events) for side in BOTH_SIDES}
    compared = 0
    decisions = 0
    while not state.is_over and decisions < 1500:
        side = sorted(state.decision.sides)[0]
        if decisions % 7 == 0:
            variant = hidden_variant(state, side.other)
            if variant is not None and variant != state:
                seen, seen_variant = view(state, side), view(variant, side)
                assert seen == seen_variant  # the premise: the bot cannot tell them apart
                answers = []
                for shown in (seen, seen_variant):
                    bot = fresh_bot(level, side, seed)
                    bot.observe(history[side])
                    answers.append(bot.choose(shown, 2.0))
                assert answers[0] == answers[1]
                compared += 1
        command = chooser.choice(legal_commands(state, side))
        state, events = apply_trusted(state, command)
        for each in BOTH_SIDES:
            history[each] += visible(each, events)
        decisions += 1
    assert compared >= 20


def play_whole_games(level: str, side: Side, games) -> None:
    for seed, opponent in games:
        players = {side: fresh_bot(level, side, seed), side.other: opponent}

        def only_legal(who, seen, command):
            assert command in seen.legal, f"{who.value} chose {command}, not a legal command"

        outcome = play_game(seed, players[Side.ISHIDA], players[Side.TOKUGAWA], on_decision=only_legal)
        assert outcome.crash is None and outcome.illegal == ()
        assert outcome.winner is not None, outcome.cause


# The look-ahead levels' whole games take a while even with two playouts a
# decision: the full run is slow, one game from each side is not (level 3's:
# test_search.py).
LOOKING_AHEAD = {"planner", "search"}
LEVELS_IN_WHOLE_GAMES = [pytest.param(level, marks=pytest.mark.slow) if level in LOOKING_AHEAD else level for level in sorted(LEVELS)]


@pytest.mark.parametrize("level", LEVELS_IN_WHOLE_GAMES)
@pytest.mark.parametrize("side", BOTH_SIDES, ids=lambda s: s.value)
def test_every_level_plays_whole_games_from_both_sides_with_no_illegal_command(level, side):
    play_whole_games(level, side, ((21, "random"), (22, "heuristic")))


@pytest.mark.parametrize("side", BOTH_SIDES, ids=lambda s: s.value)
def test_the_planner_plays_a_whole_game_from_each_side_with_no_illegal_command(side):
    play_whole_games("planner", side, ((21, "random"),))


def test_the_referee_stops_a_game_at_an_illegal_command():
    class Cheat:
        side = Side.ISHIDA

        def observe(self, events):
            pass

        def choose(self, seen, budget_s):
            from rules.surface import Bid

            return Bid(Side.ISHIDA, "tokugawa-plain-1")  # not its card

    outcome = play_game(1, Cheat(), "random")
    assert outcome.winner is None and outcome.illegal and "ishida" in outcome.cause


@pytest.mark.slow
def test_heuristic_beats_random_from_each_side():
    """A longer run (the tournament gives the full figures)."""
    for side in BOTH_SIDES:
        wins = 0
        for seed in range(1, 31):
            players = {side: "heuristic", side.other: "random"}
            outcome = play_game(seed, players[Side.ISHIDA], players[Side.TOKUGAWA])
            wins += outcome.winner is side
        assert wins >= 28


def test_the_command_line_offers_every_level():
    from sekigahara_tui.bots.base import LEVELS
    from sekigahara_tui.cli import BOT_LEVELS

    assert set(BOT_LEVELS) == set(LEVELS)
