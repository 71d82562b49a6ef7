"""The club's ratings (`t` in the lobby, issue 26): the club's table (rank,
rating, games, win rate as Ishida and as Tokugawa; the computer's levels
among the members) and one player's history, its rating game by game drawn
as a Sparkline. Enter on a line shows that player's history; Esc goes back
to the lobby. Fits 80x24. The club rates (hosting/ratings.py: Elo, as Rally
the Troops keeps it); this only shows what `get_ratings` answers.
"""

from __future__ import annotations

import time

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Sparkline, Static

from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.club.protocol_ratings import RatingLine, Ratings

HISTORY_SHOWN = 5  # the last games listed under the plot


def win_rate(wins: int, games: int) -> str:
    """'1/2 50%' ('-' with no games)."""
    return f"{wins}/{games} {round(100 * wins / games)}%" if games else "-"


def table_rows(table: tuple[RatingLine, ...]) -> list[tuple[str, ...]]:
    """(rank, player, rating, games, as Ishida, as Tokugawa) for each line, highest first."""
    return [(str(rank), line.player, str(line.rating), str(line.games), win_rate(line.ishida_wins, line.ishida_games),
             win_rate(line.tokugawa_wins, line.tokugawa_games)) for rank, line in enumerate(table, 1)]


def history_words(ratings: Ratings) -> str:
    """The player's rating now, over how many games, and their last few."""
    points = ratings.history
    if not points:
        return f"{ratings.player}: no rated game yet (everyone starts at {ratings.start})"
    lines = [f"{ratings.player}: {ratings.start} -> {points[-1].after} over {len(points)} rated game{'s' * (len(points) != 1)}"]
    for point in points[-HISTORY_SHOWN:][::-1]:
        outcome = {1.0: "won", 0.0: "lost"}.get(point.score, "drew")
        when = time.strftime("%Y-%m-%d", time.localtime(point.at))
        lines.append(f"  {when}  {outcome:<4} as {point.side.value.capitalize():<8} -> {point.after}  {point.game or '(private game)'}")
    return "\n".join(lines)


class RatingsScreen(Screen[None]):
    DEFAULT_CSS = """
    RatingsScreen #ratings-title { height: 1; padding: 0 1; }
    RatingsScreen #ratings-table { height: 1fr; }
    RatingsScreen #history-plot { height: 3; margin: 0 1; }
    RatingsScreen #history { height: auto; max-height: 7; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "back", "Lobby", id="ratings.back")]

    def __init__(self, club: ClubClient) -> None:
        super().__init__()
        self.club = club
        self.ratings: Ratings | None = None

    def compose(self) -> ComposeResult:
        yield Static("Club ratings (Elo, everyone starts at 1500). Enter: a player's history", id="ratings-title", markup=False)
        table: DataTable = DataTable(id="ratings-table", cursor_type="row", zebra_stripes=True)
        table.add_columns("#", "player", "rating", "games", "as Ishida", "as Tokugawa")
        yield table
        yield Sparkline([], id="history-plot")
        yield Static("Asking the club…", id="history", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#ratings-table", DataTable).focus()
        self.load(None)

    @work(exclusive=True, group="ratings")
    async def load(self, player: str | None) -> None:
        """The club's table, and `player`'s history (None: mine)."""
        try:
            ratings = await self.club.ratings(player)
        except ClubRefused as error:
            self.query_one("#history", Static).update(f"The club refused: {error}")
            return
        except (OSError, TimeoutError) as error:
            self.query_one("#history", Static).update(f"Cannot reach the club: {getattr(error, 'strerror', None) or error}")
            return
        self.show(ratings)

    def show(self, ratings: Ratings) -> None:
        self.ratings = ratings
        table = self.query_one("#ratings-table", DataTable)
        table.clear()
        for row in table_rows(ratings.table):
            table.add_row(*row, key=row[1])
        if ratings.player in {line.player for line in ratings.table}:
            table.move_cursor(row=table.get_row_index(ratings.player))
        self.query_one("#history-plot", Sparkline).data = [ratings.start, *(point.after for point in ratings.history)]
        self.query_one("#history", Static).update(history_words(ratings))

    @on(DataTable.RowSelected, "#ratings-table")
    def _player_chosen(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value:
            self.load(event.row_key.value)

    def action_back(self) -> None:
        self.dismiss()
