"""The ratings' tables in the store (issue 26): derived from the stored
results alone (store.py's `results`, `games`, `game_terms.rated`,
`computer_levels`), by ratings.py.

`rate_result` runs inside the transaction that stores a game's result
(Store.finish, Store.end_outside_rules), so a result and its ratings are on
disk together or not at all (kill -9 leaves no result unrated). Games are
rated in (ended at, game id) order; a result that ends before the last one
rated (a clock set back) has the tables rebuilt in that same transaction, so
the incremental tables always equal `recompute`'s (`sekigahara ratings
--recompute`, and the property test in tests/club/test_ratings.py).
"""

from __future__ import annotations

from rules.surface import Side
from sekigahara_tui.hosting.database import Database
from sekigahara_tui.hosting.ratings import RatedGame, Rating, RatingStep, rate, rate_all, rated_game

RATING_MIGRATION: tuple[str, ...] = (
    # A game's players agreed at its creation that it counts for their ratings.
    "ALTER TABLE game_terms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
    """CREATE TABLE ratings (
        player TEXT PRIMARY KEY,            -- a member, or the computer's level ("computer:planner")
        rating INTEGER NOT NULL,
        games INTEGER NOT NULL,
        ishida_games INTEGER NOT NULL,
        ishida_wins INTEGER NOT NULL,
        tokugawa_games INTEGER NOT NULL,
        tokugawa_wins INTEGER NOT NULL,
        last REAL
    )""",
    """CREATE TABLE rating_history (
        game TEXT NOT NULL,
        player TEXT NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('ishida', 'tokugawa')),
        score REAL NOT NULL,
        before INTEGER NOT NULL,
        after INTEGER NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game, player)
    )""",
)

_RATED_RESULTS = """
    SELECT r.game, r.at, r.kind, r.winner, r.seat, t.rated, g.ishida_player, g.tokugawa_player, l.level
    FROM results r JOIN games g ON g.id = r.game JOIN game_terms t ON t.game = r.game
    LEFT JOIN computer_levels l ON l.game = r.game
    WHERE t.rated = 1 AND r.kind != 'cancelled'
"""


def _side(value: str | None) -> Side | None:
    return Side(value) if value is not None else None


def _rated_games(db: Database, game_id: str | None = None) -> list[RatedGame]:
    sql, parameters = (_RATED_RESULTS + " AND r.game = ?", (game_id,)) if game_id is not None else (_RATED_RESULTS, ())
    games = []
    for game, at, kind, winner, seat, rated, ishida, tokugawa, level in db.execute(sql, parameters).fetchall():
        found = rated_game(game, at, kind, _side(winner), _side(seat), bool(rated), ishida, tokugawa, level)
        if found is not None:
            games.append(found)
    return games


def rate_result(db: Database, game_id: str) -> None:
    """The game's result was just stored (the caller's transaction): rate it,
    if it is rated and not rated already."""
    found = _rated_games(db, game_id)
    if not found or db.execute("SELECT 1 FROM rating_history WHERE game = ?", (game_id,)).fetchone():
        return
    game = found[0]
    last = db.execute("SELECT at, game FROM rating_history ORDER BY at DESC, game DESC LIMIT 1").fetchone()
    if last is not None and (game.at, game.game) < (last[0], last[1]):
        recompute(db)  # it ends before a game rated already: the order is all
        return
    table = {rating.player: rating for rating in read_table(db, (game.ishida, game.tokugawa))}
    steps = rate(table, game)
    _write(db, [table[game.ishida], table[game.tokugawa]], steps)


def recompute(db: Database) -> int:
    """Rebuild both tables from the stored results (the caller's transaction); how many games were rated."""
    games = _rated_games(db)
    table, history = rate_all(games)
    db.execute("DELETE FROM ratings")
    db.execute("DELETE FROM rating_history")
    _write(db, list(table.values()), history)
    return len(games)


def _write(db: Database, ratings: list[Rating], steps: list[RatingStep] | tuple[RatingStep, ...]) -> None:
    db.executemany(
        "INSERT OR REPLACE INTO ratings (player, rating, games, ishida_games, ishida_wins, tokugawa_games, tokugawa_wins, last)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(r.player, r.rating, r.games, r.ishida_games, r.ishida_wins, r.tokugawa_games, r.tokugawa_wins, r.last) for r in ratings],
    )
    db.executemany(
        "INSERT INTO rating_history (game, player, side, score, before, after, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(s.game, s.player, s.side.value, s.score, s.before, s.after, s.at) for s in steps],
    )


def read_table(db: Database, players: tuple[str, ...] | None = None) -> list[Rating]:
    """The ratings now (of `players` only, if given), in no particular order."""
    sql = "SELECT player, rating, games, ishida_games, ishida_wins, tokugawa_games, tokugawa_wins, last FROM ratings"
    if players is not None:
        sql += f" WHERE player IN ({', '.join('?' * len(players))})"
    return [Rating(*row) for row in db.execute(sql, players or ()).fetchall()]


def read_history(db: Database, player: str | None = None) -> list[RatingStep]:
    """A player's rating game by game (everyone's, if None), oldest first."""
    sql = "SELECT game, at, player, side, score, before, after FROM rating_history"
    rows = db.execute(sql + (" WHERE player = ?" if player is not None else "") + " ORDER BY at, game, player",
                      (player,) if player is not None else ()).fetchall()
    return [RatingStep(game, at, who, Side(side), score, before, after) for game, at, who, side, score, before, after in rows]
