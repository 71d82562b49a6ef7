"""The game store's schema: its tables, and the steps that bring an older
store up to today's version (SQLite's PRAGMA user_version, PostgreSQL's
table schema_version), one transaction a step. One text for both databases:
database.py writes each CREATE and ALTER in PostgreSQL's types."""

from __future__ import annotations

from sekigahara_tui.hosting.database import Database, postgresql_ddl
from sekigahara_tui.hosting.chat_store import CHAT_MIGRATION
from sekigahara_tui.hosting.clock_store import CLOCK_MIGRATION
from sekigahara_tui.hosting.member_store import MEMBER_MIGRATION
from sekigahara_tui.hosting.rating_store import RATING_MIGRATION
from sekigahara_tui.hosting.tournament_store import TOURNAMENT_MIGRATION

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    seed INTEGER NOT NULL,
    data_version TEXT NOT NULL,
    position TEXT,
    created REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'over')),
    result TEXT,
    ishida_player TEXT,   -- who plays each seat, for the club server
    tokugawa_player TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,            -- 1, 2, 3 ...: the version after this row
    kind TEXT NOT NULL CHECK (kind IN ('command', 'undo')),
    side TEXT NOT NULL CHECK (side IN ('ishida', 'tokugawa')),
    text TEXT,                       -- the command's notation; NULL for an undo
    client_id TEXT,                  -- the client's message id: a resend is not applied twice
    at REAL NOT NULL,
    PRIMARY KEY (game, seq),
    UNIQUE (game, side, client_id)
);
-- The level a game's computer seat plays at (issue 25). A table of its own:
-- an older store gains it when opened (CREATE ... IF NOT EXISTS), and a game
-- without a row is level 1 ("heuristic"), the only level before it.
CREATE TABLE IF NOT EXISTS computer_levels (
    game TEXT PRIMARY KEY REFERENCES games(id),
    level TEXT NOT NULL
);
"""

# The schema's version (PRAGMA user_version). Each step below brings a store
# of the version before it up to its own, in one transaction, when the store
# is opened for writing: an older data dir still opens, and a newer one is refused.
SCHEMA_VERSION = 7
MIGRATIONS: dict[int, tuple[str, ...]] = {
    # 1 (issue 24): how each game ended, by the rules or outside them, and a standing cancel proposal.
    1: (
        """CREATE TABLE results (
            game TEXT PRIMARY KEY REFERENCES games(id),
            kind TEXT NOT NULL CHECK (kind IN ('rules', 'resigned', 'cancelled', 'timed-out', 'finished-by-stand-in')),
            winner TEXT CHECK (winner IN ('ishida', 'tokugawa')),  -- NULL: cancelled
            seat TEXT CHECK (seat IN ('ishida', 'tokugawa')),      -- who resigned, ran out of time, was stood in for
            at REAL NOT NULL,
            by_member TEXT                                         -- who ended it; NULL: the rules, the clock
        )""",
        """CREATE TABLE cancel_offers (
            game TEXT PRIMARY KEY REFERENCES games(id),
            side TEXT NOT NULL CHECK (side IN ('ishida', 'tokugawa')),
            by_member TEXT,
            at REAL NOT NULL
        )""",
        # The games that ended before there were results ended by the rules ("ishida wins (...)").
        """INSERT INTO results (game, kind, winner, at)
            SELECT id, 'rules', CASE WHEN result LIKE 'ishida%' THEN 'ishida' WHEN result LIKE 'tokugawa%' THEN 'tokugawa' END,
                   coalesce((SELECT max(at) FROM actions WHERE game = games.id), created)
            FROM games WHERE status = 'over'""",
    ),
    # 2 (issue 24): game clocks (clock_store.py).
    2: CLOCK_MIGRATION,
    # 3 (issue 24): a game's terms: made for one member (an invitation, a rematch), private.
    3: (
        """CREATE TABLE game_terms (
            game TEXT PRIMARY KEY REFERENCES games(id),
            invited TEXT,                        -- only this member may take the open seat
            private INTEGER NOT NULL DEFAULT 0,  -- only its players may watch it
            rematch_of TEXT                      -- the finished game this one replays, sides swapped
        )""",
    ),
    # 4 (issue 26): a game's `rated` term, and the ratings derived from the results (rating_store.py).
    4: RATING_MIGRATION,
    # 5 (issue 26): tournaments (tournament_store.py).
    5: TOURNAMENT_MIGRATION,
    # 6 (issue 26): the chat, each game's and the club's channel (chat_store.py).
    6: CHAT_MIGRATION,
    # 7 (issue 28): the members' keys, web tokens and the fronts' credentials, once files of DATA_DIR (member_store.py).
    7: MEMBER_MIGRATION,
}


def bring_up_to_date(db: Database) -> None:
    """The tables made if missing, then the migrations (a store opened for writing)."""
    db.script(SCHEMA)
    migrate(db)


def migrate(db: Database) -> None:
    """Bring the store up to SCHEMA_VERSION, one step a transaction (another
    opener may have done it meanwhile: the version is read inside it)."""
    while True:
        with db.write():
            version = db.schema_version()
            if version >= SCHEMA_VERSION:
                return
            for statement in MIGRATIONS[version + 1]:
                db.execute(postgresql_ddl(statement) if db.dialect == "postgresql" else statement)
            db.set_schema_version(version + 1)
