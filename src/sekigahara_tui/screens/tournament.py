"""The club's tournaments, from the lobby (`t`; docs/club.md, Tournaments):
the list, then a tournament's standings and each round's games with their
state; `w` watches the chosen game, `r` replays it once it is over (the
lobby opens them: the screen is dismissed with what to do). Every name is
shown literally (rich Text, never markup)."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from sekigahara_tui.club.client import ClubClient, ClubRefused, _fresh_id
from sekigahara_tui.club.protocol_tournaments import GetTournament, TournamentList, TournamentShown
from sekigahara_tui.widgets.steady_footer import SteadyFooter


def standings_text(shown: TournamentShown) -> str:
    head = f"{shown.name}: {shown.format}" + (f", {shown.rounds} rounds" if shown.rounds else "") + f", clock {shown.clock}: {shown.status}"
    second = "Sonneborn-Berger" if shown.format == "round-robin" else "Buchholz, SB"
    lines = [head, f"rank  entrant               points  played  {second}"]
    for s in shown.standings:
        tie = f"{s.sonneborn_berger:g}" if shown.format == "round-robin" else f"{s.buchholz:g}, {s.sonneborn_berger:g}"
        lines.append(f"{s.rank:>4}  {s.entrant:<20}  {s.points:>6g}  {s.played:>6}  {tie}")
    if not shown.boards:
        lines.append("entrants: " + (", ".join(shown.entrants) or "none yet") + " (signing up)")
    return "\n".join(lines)


class TournamentScreen(Screen[tuple[str, str] | None]):
    """Dismissed with ("watch", game) or ("replay", game), or None (Esc)."""

    DEFAULT_CSS = """
    TournamentScreen #standings { height: auto; padding: 0 1; }
    TournamentScreen #tournament-table { height: 1fr; }
    TournamentScreen #tournament-message { height: auto; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "back", "Back", id="tournament.back"),
        Binding("w", "watch", "Watch", id="tournament.watch"),
        Binding("r", "replay", "Replay", id="tournament.replay"),
    ]

    def __init__(self, club: ClubClient) -> None:
        super().__init__()
        self.club = club
        self.shown: TournamentShown | None = None  # None: the list is shown
        self.listed: TournamentList | None = None

    def compose(self) -> ComposeResult:
        yield Static("Tournaments", id="standings", markup=False)
        yield DataTable(id="tournament-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="tournament-message", markup=False)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self._ask(None)

    def say(self, text: str) -> None:
        self.query_one("#tournament-message", Static).update(text)

    @work(exclusive=True, group="tournament")
    async def _ask(self, name: str | None) -> None:
        try:
            answer = await self.club.tournament(GetTournament(_fresh_id(), name))
        except ClubRefused as error:
            self.say(f"The club refused: {error}")
            return
        except (OSError, TimeoutError) as error:
            self.say(f"Cannot reach the club: {getattr(error, 'strerror', None) or error}")
            return
        table = self.query_one(DataTable)
        table.clear(columns=True)
        if isinstance(answer, TournamentList):
            self.shown, self.listed = None, answer
            self.query_one("#standings", Static).update("Tournaments (Enter: standings and games)")
            table.add_columns("name", "format", "clock", "status", "entrants")
            for t in answer.tournaments:
                table.add_row(Text(t.name), t.format, t.clock, t.status, str(t.entrants), key=t.name)
            if not answer.tournaments:
                self.say("No tournaments yet: `sekigahara tournament new` makes one")
            return
        self.shown = answer
        self.query_one("#standings", Static).update(standings_text(answer))
        table.add_columns("round", "board", "Ishida", "Tokugawa", "game", "state")
        for b in answer.boards:
            state = "bye" if b.tokugawa is None else (b.result or b.state)
            table.add_row(str(b.round), str(b.board), Text(b.ishida), Text(b.tokugawa or "-"), b.game or "-", Text(state),
                          key=f"{b.round}:{b.board}")

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        if self.shown is None and event.row_key.value is not None:
            self._ask(event.row_key.value)

    def chosen_game(self) -> tuple[str, str] | None:
        """The chosen board's game and state, on a tournament's page."""
        table = self.query_one(DataTable)
        if self.shown is None or not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        board = next((b for b in self.shown.boards if f"{b.round}:{b.board}" == key), None)
        return (board.game, board.state) if board is not None and board.game is not None else None

    def action_watch(self) -> None:
        self._open("watch", "playing", "Choose a game in play to watch it")

    def action_replay(self) -> None:
        self._open("replay", "over", "Choose a finished game to replay it")

    def _open(self, what: str, state: str, otherwise: str) -> None:
        """Back to the lobby, which watches or replays the chosen game (if its state allows)."""
        chosen = self.chosen_game()
        if chosen is None or chosen[1] != state:
            self.say(otherwise)
            return
        self.dismiss((what, chosen[0]))

    def action_back(self) -> None:
        if self.shown is not None:
            self._ask(None)  # back to the list
        else:
            self.dismiss(None)
