"""The club's lobby: who is signed in, their games (whose move it is), open
games waiting for an opponent, games to watch, finished games.

Keys: n a new game (screens/club_game_dialog.py asks: opponent, side, who
may watch, clock, time out), c a new game against the computer (asks for the side and the
computer's level), enter to resume, join or watch the chosen game (or accept
the chosen invitation), d to decline an invitation, w to watch, x to withdraw
an open game of mine nobody has joined (asked first), r to refresh (on a
finished game: its step-by-step replay, screens/replay.py, from the record
the club sends), s for my notice settings (screens/notice_settings.py), t
for the club's ratings and a player's history (screens/ratings.py), g for
the club's chat channel (screens/chat.py); a
line under the title says when my notices keep failing, and what became of
my invitations. A game line says whose move, where the calendar stands and
when the last move was, and whether it is rated; each player's rating is
beside their name.
The list is not polled: the club pushes the new lobby when it changes
(lobby_changed, docs/club.md); a dropped connection is opened again after a
pause, growing up to RETRY_LONGEST. A game opens on the game screen through
a ClubTable (club/client.py), a spectator's on a WatchingScreen (it does not
play); ctrl+l leaves it for the lobby (the game goes on; come back to it
from the lobby).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Static

from rules.surface import BOTH_SIDES, Side
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.club.club_table import ClubTable
from sekigahara_tui.club.protocol import Entry, GameLine, Lobby
from sekigahara_tui.club.protocol_notices import YourMove
from sekigahara_tui.labels import side_name
from sekigahara_tui.screens.versus_dialog import VersusDialog
from sekigahara_tui.seat import GameTerms
from sekigahara_tui.screens.dialogs import ConfirmDialog
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.lobby_line import status_cell, status_room
from sekigahara_tui.screens.notice_settings import NoticeSettingsScreen
from sekigahara_tui.screens.chat import channel_chat, replay_chat
from sekigahara_tui.widgets.prompt import PromptPanel
from sekigahara_tui.widgets.steady_footer import SteadyFooter

FAILED = object()  # _ask: the club refused, or could not be reached (said already)
RETRY_FIRST = 1.0  # seconds before asking again after the club could not be reached
RETRY_LONGEST = 30.0
HEADERS = ("", "game", "Ishida", "Tokugawa", "")
TICK = 30.0  # seconds between redrawing the lines (their clocks and "3h ago") when nothing is pushed


class ClubGameScreen(GameScreen):
    """The game screen for a club game, with a way back to the lobby."""

    BINDINGS = [Binding("ctrl+l", "leave", "Lobby", id="club.lobby")]
    LEAVES_FOR_LOBBY = True  # a summary over this screen takes ctrl+l too (screens/info.py)

    def action_leave(self) -> None:
        self.dismiss()


WATCHING = "You are watching: a spectator does not play."
_PLAY_KEYS = ("game.type", "game.end", "game.undo")


class WatchingScreen(ClubGameScreen):
    """A spectator's game screen (issue 23, item 9): no command line, and the
    keys that play (type, end, undo) not offered in the footer; pressed (as
    the player's keymap has them), they say the spectator is watching."""

    DEFAULT_CSS = "WatchingScreen #command-line { display: none; }"
    BINDINGS = [replace(binding, show=False) for binding in GameScreen.BINDINGS if binding.id in _PLAY_KEYS]

    def on_mount(self) -> None:
        self.query_one(PromptPanel).command_line.disabled = True  # never focused, never sent

    def action_command_line(self) -> None:
        self.say(WATCHING, error=True)

    def action_end(self) -> None:
        self.say(WATCHING, error=True)

    def action_undo(self) -> None:
        self.say(WATCHING, error=True)


def player_cell(name: str | None, rating: int | None) -> str:
    """A seat's player, with their rating beside the name once they have one."""
    if name is None:
        return "(open)"
    return name if rating is None else f"{name} {rating}"


def my_rating(lobby: Lobby) -> int | None:
    """The member's own rating, as their lobby's lines carry it."""
    for line in (*lobby.mine, *lobby.finished, *lobby.invitations, *lobby.open, *lobby.watchable):
        for side, rating in ((Side.ISHIDA, line.ishida_rating), (Side.TOKUGAWA, line.tokugawa_rating)):
            if line.player(side) == lobby.member and rating is not None:
                return rating
    return None


def waiting_for_an_opponent(line: GameLine, member: str) -> bool:
    """One of `member`'s games in play whose other seat nobody has taken: it may be withdrawn."""
    players = [line.player(side) for side in BOTH_SIDES]
    return line.status == "playing" and member in players and None in players


def lobby_rows(lobby: Lobby, now: float | None = None, told_at: float | None = None,
               width: int | None = None) -> list[tuple[str, GameLine, tuple[str, str, str, str, str]]]:
    """(action, game, cells) for each row: invitations to me first, my games
    (my move first: the club sorts them), then open, watchable, finished;
    the last cell within what `width` columns leave it (lobby_line.py)."""
    now = time.time() if now is None else now
    rows = []
    sections = (("invite", "join", lobby.invitations), ("mine", "resume", lobby.mine), ("open", "join", lobby.open),
                ("watch", "watch", lobby.watchable), ("done", "watch", lobby.finished))
    for label, action, lines in sections:
        for line in lines:
            me = next((side for side in BOTH_SIDES if line.player(side) == lobby.member), None)
            cells = (label, line.game, player_cell(line.ishida, line.ishida_rating), player_cell(line.tokugawa, line.tokugawa_rating),
                     status_cell(line, me, now))
            rows.append((action, line, cells))
    return fit_rows(rows, lobby.member, now, told_at, width)


def fit_rows(rows: list, member: str, now: float, told_at: float | None, width: int | None) -> list:
    """Each row's last cell again, with the clocks (`told_at`), within the room the other cells leave."""
    room = status_room([HEADERS, *(cells for _a, _l, cells in rows)], width) if width is not None else None
    fitted = []
    for action, line, cells in rows:
        me = next((side for side in BOTH_SIDES if line.player(side) == member), None)
        fitted.append((action, line, (*cells[:-1], status_cell(line, me, now, told_at, room))))
    return fitted


class LobbyScreen(Screen[None]):
    DEFAULT_CSS = """
    LobbyScreen #who { height: 2; padding: 0 1; }
    LobbyScreen #warning { height: auto; padding: 0 1; color: $warning; }
    LobbyScreen #lobby-message { height: auto; padding: 0 1; }
    LobbyScreen #games { height: 1fr; }
    """
    BINDINGS = [
        Binding("n", "new_game_asked", "New game", id="lobby.new"),  # asks: opponent, side, who may watch, clock
        Binding("c", "new_game('computer')", "Computer", id="lobby.computer"),  # the Footer fits 80 columns
        Binding("w", "watch", "Watch", id="lobby.watch"),
        Binding("x", "withdraw", "Withdraw", id="lobby.withdraw"),
        Binding("r", "refresh", "Refresh", id="lobby.refresh"),
        Binding("r", "replay", "Replay", id="lobby.replay"),  # on a finished game's line, instead
        Binding("d", "decline", "Decline", id="lobby.decline", show=False),
        # Not in the Footer: with x shown it would push Quit past 80 columns.
        Binding("s", "notices", "Notices", id="lobby.notices", show=False),
        Binding("e", "ratings", "Ratings", id="lobby.ratings", show=False),  # Elo; said on the line under the title
        Binding("t", "tournaments", "Tournaments", id="lobby.tournaments", show=False),
        Binding("g", "chat", "Chat", id="lobby.chat", show=False),  # the club's channel (chat.py)
        Binding("q", "app.quit", "Quit", id="lobby.quit"),
    ]

    def __init__(self, club: ClubClient, save_dir: Path) -> None:
        super().__init__()
        self.club = club
        self.save_dir = save_dir
        self.lobby: Lobby | None = None
        self._rows: dict[str, tuple[str, GameLine]] = {}
        self._retry_in = RETRY_FIRST
        self._retry: Timer | None = None
        self._told_at = time.monotonic()
        self._turns: dict[str, str] = {}  # game -> "Your move in GAME against X", the club rang for it

    def compose(self) -> ComposeResult:
        yield Static("Connecting to the club…", id="who", markup=False)
        yield Static("", id="warning", markup=False)
        table: DataTable = DataTable(id="games", cursor_type="row", zebra_stripes=True)
        table.add_columns(*HEADERS)
        yield table
        yield Static("", id="lobby-message", markup=False)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#games", DataTable).focus()
        self.club.on_lobby = self._pushed
        self.club.on_lost = self._lost
        self.club.on_your_move = self._your_move
        self.action_refresh()
        self.set_interval(TICK, self._fill)

    def on_unmount(self) -> None:
        self.club.on_lobby = self.club.on_lost = self.club.on_your_move = None

    # The club client's reader task calls these, outside Textual's message loop:
    # they post to it (a table changed from outside never lays itself out again).

    def _pushed(self, lobby: Lobby) -> None:
        if self.is_mounted:
            self.call_later(self.show, lobby)

    def _your_move(self, message: YourMove) -> None:
        if self.is_mounted:
            self.app.call_later(self._rang, message)

    def _rang(self, message: YourMove) -> None:
        """A decision passed to me in a game I am not looking at: the bell, and a line
        under the title until the lobby no longer shows that game as my move."""
        self.app.bell()
        self._turns[message.game] = f"Your move in {message.game} against {message.opponent or 'an opponent'}"
        self._say_news()

    def _say_news(self) -> None:
        lobby = self.lobby
        lines = (lobby.warning, *lobby.news) if lobby is not None else ()
        self.query_one("#warning", Static).update("\n".join(filter(None, (*lines, *self._turns.values()))))

    def _lost(self, reason: str) -> None:
        """The lobby connection dropped: no pushes until it is opened again."""
        if self.is_mounted:
            self.call_later(self._reconnect, reason)

    def _reconnect(self, reason: str) -> None:
        self.say(f"Lost the club ({reason}); trying again")
        self._retry_later()

    def _retry_later(self) -> None:
        if self._retry is None:
            self._retry = self.set_timer(self._retry_in, self._retry_now)
            self._retry_in = min(self._retry_in * 2, RETRY_LONGEST)

    def _retry_now(self) -> None:
        self._retry = None
        self.action_refresh()

    def say(self, text: str) -> None:
        self.query_one("#lobby-message", Static).update(text)

    # --- the list --------------------------------------------------------------------

    @work(exclusive=True, group="lobby")
    async def action_refresh(self) -> None:
        try:
            lobby = await self.club.lobby()
        except ClubRefused as error:
            self.say(f"The club refused: {error}")
            return
        except (OSError, TimeoutError) as error:
            self.say(f"Cannot reach the club: {getattr(error, 'strerror', None) or error}; trying again")
            self._retry_later()
            return
        if self._retry_in != RETRY_FIRST:  # back after trouble: the message is stale
            self._retry_in = RETRY_FIRST
            self.say("")
        self.show(lobby)

    def show(self, lobby: Lobby) -> None:
        self.lobby = lobby
        rating = my_rating(lobby)
        self._told_at = time.monotonic()  # the lines' clocks count down from here
        self.query_one("#who", Static).update(
            f"Sekigahara club: signed in as {lobby.member}. "
            f"{len(lobby.mine)} game(s) in play, {len(lobby.open)} open, {len(lobby.watchable)} to watch\n"
            + (f"Your rating: {rating}" if rating is not None else "Not rated yet") + ". e: the club's ratings · t: tournaments"
        )
        mine = {line.game: line for line in lobby.mine}
        for game in list(self._turns):  # said until it is no longer my move there
            line = mine.get(game)
            if line is None or not any(line.player(side) == lobby.member for side in line.to_move):
                del self._turns[game]
        self._say_news()
        self._fill()

    def _fill(self) -> None:
        """The table from the lobby last shown, its clocks counted down to now."""
        lobby = self.lobby
        if lobby is None:
            return
        table = self.query_one("#games", DataTable)
        chosen = self._chosen_key()
        table.clear()
        self._rows = {}
        for action, line, cells in lobby_rows(lobby, told_at=self._told_at, width=self.size.width or self.app.size.width):
            key = f"{cells[0]}:{line.game}"
            self._rows[key] = (action, line)
            table.add_row(*cells, key=key)
        if chosen in self._rows:
            table.move_cursor(row=table.get_row_index(chosen))

    def _chosen_key(self) -> str | None:
        table = self.query_one("#games", DataTable)
        if not table.row_count:
            return None
        try:
            return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except Exception:  # noqa: BLE001 - an empty or changing table
            return None

    def chosen(self) -> tuple[str, GameLine] | None:
        key = self._chosen_key()
        return self._rows.get(key) if key else None

    def withdrawable(self) -> GameLine | None:
        """The chosen row, if it is one of my games nobody has joined yet."""
        row = self.chosen()
        if row is None or self.lobby is None or row[0] != "resume":
            return None
        return row[1] if waiting_for_an_opponent(row[1], self.lobby.member) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "withdraw":  # the Footer shows x only where it acts
            return self.withdrawable() is not None
        if action in ("replay", "refresh"):  # r replays a finished game, refreshes elsewhere
            row = self.chosen()
            return (row is not None and row[1].status == "over") == (action == "replay")
        return True

    @on(DataTable.RowHighlighted, "#games")
    def _row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        # The cursor moved, or the table was filled again (show): x may apply or not.
        # (Refreshing the bindings from show() itself left a pushed table unlaid-out.)
        self.refresh_bindings()

    # --- acting --------------------------------------------------------------------

    @on(DataTable.RowSelected, "#games")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        row = self._rows.get(event.row_key.value) if event.row_key.value else None
        if row is not None:
            self.act(*row)

    def action_watch(self) -> None:
        row = self.chosen()
        if row is not None:
            self.act("watch", row[1])

    def action_withdraw(self) -> None:
        line = self.withdrawable()
        if line is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._withdraw(line.game)

        question = f"Withdraw game {line.game}? Nobody has joined it yet; it will be deleted."
        self.app.push_screen(ConfirmDialog(question), answered)

    @work(exclusive=True, group="withdraw")
    async def _withdraw(self, game: str) -> None:
        if await self._ask(lambda: self.club.withdraw(game)) is not FAILED:
            self.say(f"Withdrew game {game}")
            self.action_refresh()

    def action_replay(self) -> None:
        """r on a finished game: its step-by-step replay."""
        row = self.chosen()
        if row is not None and row[1].status == "over":
            self._replay(row[1].game)

    @work(exclusive=True, group="replay")
    async def _replay(self, game: str) -> None:
        text = await self._ask(lambda: self.club.record(game))
        if text is FAILED:
            return
        # Loaded only now: the replay runs the engine over the record.
        from sekigahara_tui.replay_model import ReplayModel
        from sekigahara_tui.screens.replay import ReplayScreen

        try:
            model = ReplayModel.from_json(text, f"game {game}")
        except ValueError as error:
            self.say(f"Cannot replay game {game}: {error}")
            return
        try:  # the game's chat, for its players (the club refuses anyone else: no chat then)
            chat = replay_chat(await self.club.game_chat(game), self.club.member)
        except (ClubRefused, OSError, TimeoutError):
            chat = None
        self.app.push_screen(ReplayScreen(model, chat=chat))

    def action_decline(self) -> None:
        row = self.chosen()
        if row is None or row[1].invited != (self.lobby.member if self.lobby else None):
            self.say("Choose an invitation to you to decline it")
            return
        self._decline(row[1].game)

    @work(exclusive=True, group="withdraw")
    async def _decline(self, game: str) -> None:
        if await self._ask(lambda: self.club.decline(game)) is not FAILED:
            self.say(f"Declined game {game}")
            self.action_refresh()

    def action_chat(self) -> None:
        self.app.push_screen(channel_chat(self.club))

    def action_notices(self) -> None:
        self.app.push_screen(NoticeSettingsScreen(self.club))

    def action_ratings(self) -> None:
        from sekigahara_tui.screens.ratings import RatingsScreen

        self.app.push_screen(RatingsScreen(self.club))

    def action_tournaments(self) -> None:
        """The tournaments' standings and games; a game chosen there is watched or replayed here."""
        from sekigahara_tui.screens.tournament import TournamentScreen

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                what, game = choice
                if what == "replay":
                    self._replay(game)
                else:
                    self._enter(lambda: self.club.watch(game))

        self.app.push_screen(TournamentScreen(self.club), chosen)

    def action_new_game(self, opponent: str) -> None:
        if opponent != "computer":
            self._enter(lambda: self.club.new_game(None, opponent))
            return

        def chosen(choice: tuple | None) -> None:
            if choice is not None:
                side, level, rated = choice
                self._enter(lambda: self.club.new_game(side, "computer", level, rated=rated), rated)

        # The side and the computer's level (issue 25); the club stores the level with the game.
        # Rated or not (issue 26): the computer's level is rated too.
        hint = "The club's computer plays it; the game waits for you between sessions."
        self.app.push_screen(VersusDialog(hint=hint, offer_rated=True), chosen)

    def action_new_game_asked(self) -> None:
        from sekigahara_tui.screens.club_game_dialog import ClubGameDialog, NewClubGame

        def answered(game: NewClubGame | None) -> None:
            if game is not None:
                self._enter(lambda: self.club.new_game(game.side, game.opponent, clock=game.clock, on_time_out=game.on_time_out,
                                                       invite=game.invite, private=game.private, rated=game.rated), game.rated)

        self.app.push_screen(ClubGameDialog(), answered)

    def act(self, action: str, line: GameLine) -> None:
        request = {"resume": self.club.enter, "join": self.club.join, "watch": self.club.watch}[action]
        self._enter(lambda: request(line.game), line.rated)

    @work(exclusive=True, group="enter")
    async def _enter(self, request, rated: bool = False) -> None:
        entry = await self._ask(request)
        if entry is not FAILED:
            self.open_game(entry, rated)

    async def _ask(self, request) -> object:
        """The club's answer to request(), or FAILED once the refusal or the
        trouble reaching the club is said in the message line."""
        try:
            return await request()
        except ClubRefused as error:
            self.say(f"The club refused: {error}")
        except (OSError, TimeoutError) as error:
            self.say(f"Cannot reach the club: {getattr(error, 'strerror', None) or error}")
        return FAILED

    def open_game(self, entry: Entry, rated: bool = False) -> None:
        what = "Watching" if entry.seat is None else f"Playing {side_name(entry.seat)} in"
        self.say(f"{what} game {entry.game}")
        screen = WatchingScreen if entry.seat is None else ClubGameScreen
        table = ClubTable(self.club, entry)
        table.terms = GameTerms(rated=rated)  # a rated game gives no hints (seat.hints_allowed)
        self.app.push_screen(screen(table, self.save_dir))
