"""Ratings (issue 26; hosting/ratings.py, rating_store.py, club_ratings.py):
Elo as Rally the Troops keeps it, derived from the store's results and
written in the result's own transaction. A known sequence matches the
arithmetic done by hand; the tables kept game by game equal the tables
rebuilt from scratch (`sekigahara ratings --recompute`) after any sequence
of results; in a real club a resigned rated game moves both ratings, an
unrated one does not, and the lobby shows them beside the names."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sekigahara_tui
from club_helpers import TIMEOUT, Club
from rules.sides import Side
from sekigahara_tui.hosting.ratings import rate_all, rated_game
from sekigahara_tui.hosting.store import END_KINDS, GameEnd, GameTerms, Store

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def play(store: Store, game: str, ishida: str, tokugawa: str, kind: str, winner: Side | None, seat: Side | None, at: float,
         rated: bool = True, level: str | None = None) -> None:
    """A game made and ended in the store, as the club does it: by the rules or a
    stand-in (finish, after its last action), or outside them (end_outside_rules)."""
    store.create_game(game, 1, "v", players={ISHIDA: ishida, TOKUGAWA: tokugawa}, computer_level=level,
                      terms=GameTerms(rated=rated))
    end = GameEnd(kind, winner, seat, at, None)
    if kind in ("rules", "finished-by-stand-in"):
        store.finish(game, "over", end)
    else:
        assert store.end_outside_rules(game, "over", end)


def table_of(store: Store) -> tuple[list, list]:
    return sorted(store.ratings(), key=lambda r: r.player), store.rating_history()


def test_a_known_sequence_of_results_gives_the_ratings_worked_out_by_hand(tmp_path):
    """Everyone starts at 1500, K = 30; E = 1 / (1 + 10 ** ((Rother - Rmine) / 400));
    a rating moves by round_half_up(30 * (score - E)).

    g1 ann (I) beats bob (T) by the rules: E = 0.5 for both;
       ann 1500 + 30 * (1 - 0.5) = 1515, bob 1500 - 15 = 1485.
    g2 bob (I) resigns to the computer at level planner (T, 1500):
       E(bob) = 1 / (1 + 10 ** (15 / 400)) = 1 / (1 + 1.09018) = 0.47843;
       bob 30 * (0 - 0.47843) = -14.353 -> -14: 1471; the computer +14.353 -> +14: 1514.
    g3 ann and bob cancel: rated by nobody.
    g4 ann (I, 1515) runs out of time against bob (T, 1471): a loss for ann
       (timed-out, seat ishida). E(ann) = 1 / (1 + 10 ** (-44 / 400)) = 1 / (1 + 0.77625) = 0.56298;
       ann 30 * (0 - 0.56298) = -16.890 -> -17: 1498; bob +16.890 -> +17: 1488.
    g5 bob (T) was stood in for by the computer, and Tokugawa won on the board:
       still a loss for bob (finished-by-stand-in, seat tokugawa). ann 1498, bob 1488:
       E(ann) = 1 / (1 + 10 ** (-10 / 400)) = 1 / (1 + 0.94406) = 0.51439;
       ann 30 * (1 - 0.51439) = 14.568 -> +15: 1513; bob -14.568 -> -15: 1473.
    g6 bob resigns to ann, unrated: nothing moves.
    """
    store = Store.open(tmp_path / "club.sqlite")
    play(store, "g1", "ann", "bob", "rules", ISHIDA, None, 1.0)
    play(store, "g2", "bob", "computer", "resigned", TOKUGAWA, ISHIDA, 2.0, level="planner")
    play(store, "g3", "ann", "bob", "cancelled", None, ISHIDA, 3.0)
    play(store, "g4", "ann", "bob", "timed-out", TOKUGAWA, ISHIDA, 4.0)
    play(store, "g5", "ann", "bob", "finished-by-stand-in", TOKUGAWA, TOKUGAWA, 5.0)
    play(store, "g6", "ann", "bob", "resigned", ISHIDA, TOKUGAWA, 6.0, rated=False)

    ratings = {r.player: r for r in store.ratings()}
    assert {player: r.rating for player, r in ratings.items()} == {"ann": 1513, "bob": 1473, "computer:planner": 1514}
    assert [(s.game, s.before, s.after) for s in store.rating_history("ann")] == [("g1", 1500, 1515), ("g4", 1515, 1498), ("g5", 1498, 1513)]
    assert [(s.game, s.after) for s in store.rating_history("bob")] == [("g1", 1485), ("g2", 1471), ("g4", 1488), ("g5", 1473)]
    ann, bob = ratings["ann"], ratings["bob"]
    assert (ann.games, ann.ishida_games, ann.ishida_wins, ann.tokugawa_games) == (3, 3, 2, 0)
    assert (bob.games, bob.ishida_games, bob.ishida_wins, bob.tokugawa_games, bob.tokugawa_wins) == (4, 1, 0, 3, 1)  # g2 lost as Ishida; g1, g5 lost and g4 won as Tokugawa
    store.close()


KINDS = st.sampled_from(END_KINDS)
PLAYERS = st.sampled_from(("ann", "bob", "cat", "computer", "guest-zed"))
RESULTS = st.lists(
    st.tuples(PLAYERS, PLAYERS, KINDS, st.sampled_from((ISHIDA, TOKUGAWA, None)), st.sampled_from((ISHIDA, TOKUGAWA)),
              st.integers(0, 20), st.booleans(), st.sampled_from(("random", "heuristic", "planner", None))),
    max_size=25,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(RESULTS)
def test_the_table_rebuilt_from_scratch_equals_the_one_kept_game_by_game(results):
    """Any sequence of results, stored one by one (each rated in its own
    transaction, ends out of time order among them), leaves the tables a
    rebuild from the results alone gives, and the pure rate_all's."""
    with tempfile.TemporaryDirectory() as directory:
        store = Store.open(Path(directory) / "club.sqlite")
        expected_games = []
        for number, (ishida, tokugawa, kind, winner, seat, at, rated, level) in enumerate(results):
            if ishida == tokugawa:
                continue
            game = f"g{number:02}"
            winner = None if kind == "cancelled" else (winner or ISHIDA)
            play(store, game, ishida, tokugawa, kind, winner, seat, float(at), rated, level)
            found = rated_game(game, float(at), kind, winner, seat, rated, ishida, tokugawa, level)
            if found is not None:
                expected_games.append(found)
        kept = table_of(store)
        assert store.recompute_ratings() == len(expected_games)
        assert table_of(store) == kept
        table, history = rate_all(expected_games)
        assert kept == (sorted(table.values(), key=lambda r: r.player), sorted(history, key=lambda s: (s.at, s.game, s.player)))
        store.close()


def test_the_ratings_command_prints_and_recomputes_the_same_table(tmp_path):
    data = tmp_path / "club"
    data.mkdir()
    store = Store.open(data / "club.sqlite")
    play(store, "g1", "ann", "bob", "resigned", ISHIDA, TOKUGAWA, 1.0)
    store.close()

    env = os.environ | {"PYTHONPATH": str(Path(sekigahara_tui.__file__).parents[1])}  # the code under test

    def ratings(*extra: str, where: Path = data) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "sekigahara_tui", "ratings", "--data", str(where), *extra],
                              capture_output=True, text=True, timeout=60, env=env)

    printed = ratings()
    assert printed.returncode == 0, printed.stderr
    lines = printed.stdout.splitlines()
    assert lines[1].split() == ["1", "1515", "1", "1/1", "100%", "0/0", "-", "ann"]
    assert lines[2].split() == ["2", "1485", "1", "0/0", "-", "0/1", "0%", "bob"]
    again = ratings("--recompute")
    assert again.stdout.splitlines() == ["ratings recomputed from 1 rated game", *lines]
    assert "ratings-recomputed" in (data / "audit.log").read_text()
    gone = ratings(where=tmp_path / "nowhere")
    assert gone.returncode == 1 and gone.stdout == "" and len(gone.stderr.splitlines()) == 1


# --- a real club ------------------------------------------------------------------------


async def resigned_game(club: Club, rated: bool) -> str:
    """Alice (Ishida) makes a game, Bob joins, Alice resigns over her seat's connection."""
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open", rated=rated)
    await bob.join(made.game)
    await resign(alice, made)
    await bob.close()
    return made.game


async def resign(lobby, entry) -> None:
    """The entry's seat connects and resigns at once; the lobby connection closes."""
    seat = lobby.seat_client(entry)
    task = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None and c.connected, TIMEOUT)
    seat.resign()
    await seat.wait_for(lambda c: c.result is not None, TIMEOUT)
    await seat.close()
    await task
    await lobby.close()


async def test_a_resigned_rated_game_moves_both_ratings_and_an_unrated_one_does_not(club):
    alice = club.lobby_client("alice")
    made = await alice.new_game(ISHIDA, "open", rated=True)
    (line,) = [line for line in (await club.lobby_client("bob").lobby()).open if line.game == made.game]
    assert line.rated  # whoever joins sees it counts
    await alice.withdraw(made.game)

    unrated = await resigned_game(club, rated=False)
    assert club.store.ratings() == [] and club.store.load_game(unrated)[0].end.kind == "resigned"
    rated = await resigned_game(club, rated=True)
    assert {r.player: r.rating for r in club.store.ratings()} == {"alice": 1485, "bob": 1515}  # 1500 -/+ 30 * 0.5

    answer = await alice.ratings()
    assert [(line.player, line.rating, line.games) for line in answer.table] == [("bob", 1515, 1), ("alice", 1485, 1)]
    assert answer.player == "alice" and [(p.game, p.side, p.score, p.after) for p in answer.history] == [(rated, ISHIDA, 0.0, 1485)]
    lobby = await alice.lobby()
    shown = {line.game: (line.ishida_rating, line.tokugawa_rating) for line in lobby.finished}
    assert shown == {rated: (1485, 1515), unrated: (1485, 1515)}  # each player's rating now, beside the name
    await alice.close()


async def test_the_ratings_survive_a_restart_of_the_club(data_dir):
    """In the store with the result: a club started again on the same DIR shows them."""
    from club_helpers import start_club

    club = await start_club(data_dir)
    game = await resigned_game(club, rated=True)
    await club.stop()
    club = await start_club(data_dir, names=())
    try:
        lobby = await club.lobby_client("bob").lobby()
        (line,) = lobby.finished
        assert (line.game, line.rated, line.ishida_rating, line.tokugawa_rating) == (game, True, 1485, 1515)
    finally:
        await club.stop()


def test_the_wire_leaves_rated_and_ratings_out_at_their_defaults():
    """A client or club older than ratings reads every key strictly: an unrated
    new_game and a line without ratings say nothing of them, as before."""
    import json

    from sekigahara_tui.club.protocol import GameLine, Lobby, NewGame, decode_club_client_message, encode

    assert "rated" not in json.loads(encode(NewGame("1", None, "open")))
    assert json.loads(encode(NewGame("1", None, "open", rated=True)))["rated"] is True
    line = GameLine("g", "ann", None, (), "playing", None, 0, 0.0)
    (sent,) = json.loads(encode(Lobby("ann", (line,), (), (), ())))["mine"]
    assert not {"rated", "ishida_rating", "tokugawa_rating"} & set(sent)
    rated = GameLine("g", "ann", "bob", (), "over", None, 0, 0.0, rated=True, ishida_rating=1515, tokugawa_rating=1485)
    (sent,) = json.loads(encode(Lobby("ann", (), (), (), (rated,))))["finished"]
    assert (sent["rated"], sent["ishida_rating"], sent["tokugawa_rating"]) == (True, 1515, 1485)
    assert decode_club_client_message(encode(NewGame("1", None, "computer", rated=True))).rated is True
