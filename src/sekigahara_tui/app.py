"""The Textual app: main menu, hot-seat games, saves, and a seat in a game kept by a host."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from rich.console import Console
from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from rules.infra.untrusted import printable_path
from sekigahara_tui.crash_log import CrashLog, data_dir
from sekigahara_tui.screens.menu import MenuScreen

# The engine, the record code and the game screen load when a game starts, not
# before the main menu shows (benchmarks/tui.py times the launch).
if TYPE_CHECKING:
    from rules.surface import Side
    from sekigahara_tui.seat import Table

AUTOSAVE = "autosave.json"  # before issue 27: one autosave for every game; still offered by Load
AUTOSAVES = "autosaves"  # one autosave a game, named by when it began and how it is played
KEPT_AUTOSAVES = 20  # the newest; older ones are deleted when a game begins
SHORT_JOIN = "sekigahara join"  # at a terminal it offers the games running here


def default_save_dir() -> Path:
    """Saves and the autosave live in the user's data directory."""
    return data_dir()


def _modified(path: Path) -> float:
    """When `path` last changed (0 for a file that vanished or cannot be read)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


class SekigaharaApp(App[None]):
    CSS_PATH = "sekigahara.tcss"
    TITLE = "Sekigahara"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    # Below 30 rows (80x24) the decision takes the room, the Hand/Log/Public tabs a peek (ctrl+t: whole screen).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        # Against the computer: its moves at once until the player decides (shown only there).
        Binding("ctrl+f", "skip_ahead", "Skip", id="app.skip", priority=True),
    ]
    # Textual's own palette entries that are no part of the game (issue 27, 15):
    # a screenshot file, and a panel maximised out of the game's layout.
    NOT_IN_THE_PALETTE = frozenset({"Screenshot", "Maximize", "Minimize"})

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        return (c for c in super().get_system_commands(screen) if c.title not in self.NOT_IN_THE_PALETTE)

    def __init__(
        self,
        save_dir: Path | None = None,
        load: Path | None = None,
        seed: int | None = None,
        position: Path | None = None,
        join: tuple[Path, Side] | None = None,
        choose_game: bool = False,
        club: object | None = None,
        keymap: dict[str, str] | None = None,
        ask_forced: bool = False,
    ) -> None:
        super().__init__()
        if keymap:
            self.set_keymap(keymap)  # the player's own keys (keymap.py)
        self.save_dir = save_dir or default_save_dir()
        self._load = load
        self._seed = seed
        self._position = position
        self._join = join
        self._choose_game = choose_game
        self._club = club  # a club.client.ClubClient: open on its lobby (`sekigahara club`)
        # Textual reports an unexpected error on its error console when it exits
        # (status 1): into the crash log, so the terminal gets one line (cli.py).
        self.crash_log = CrashLog(self.save_dir)
        self.autosave_path: Path | None = None  # the current game's (new_autosave)
        self.started_host = False  # a game in two terminals began from the menu
        self.ask_forced = ask_forced  # hot seat: hand over even for a move with no choice (screens/forced.py)
        self.playing: Table | None = None  # the last game opened
        self.error_console = Console(file=self.crash_log, markup=False, highlight=False, width=100)

    def farewell(self) -> str | None:
        """A line for the terminal once the app has closed: a host this app
        started stops when its player quits before the other joined (issue 27,
        item 14), and the player is told so."""
        seat = self.playing.first_seat() if self.playing is not None else None
        if self.started_host and seat is not None and not getattr(seat, "opponent_came", True):
            return "The other player never joined: the game's host stops."
        return None

    def new_autosave(self, mode: str) -> Path:
        """The autosave of a game beginning now: SAVE_DIR/autosaves/<when>-<mode>.json
        (issue 27, item 13: a new game no longer overwrites another's)."""
        folder = self.save_dir / AUTOSAVES
        stamp = time.strftime("%Y-%m-%d-%H%M%S")
        path, n = folder / f"{stamp}-{mode}.json", 2
        while path.exists():  # two games begun within a second
            path, n = folder / f"{stamp}-{mode}-{n}.json", n + 1
        self.autosave_path = path
        return path

    def autosaves(self) -> list[Path]:
        """Every game's autosave, newest first."""
        folder = self.save_dir / AUTOSAVES
        return sorted(folder.glob("*.json"), key=_modified, reverse=True) if folder.is_dir() else []

    def get_default_screen(self) -> Screen:
        # The main menu is the first screen itself, not pushed over a blank one:
        # one screen to mount and one Footer to lay out before the menu shows.
        # A club lobby opens over a blank screen, as before.
        if self._club is None:
            return MenuScreen()
        return super().get_default_screen()

    async def on_event(self, event: events.Event) -> None:
        await super().on_event(event)
        if isinstance(event, events.Resize):  # the App's own handler stops it before on_resize
            self.call_after_refresh(self.fit_the_terminal)

    def fit_the_terminal(self) -> None:
        """Below 80x24, a screen says the terminal is too small (and what is
        needed) over whatever shows; large enough again, it goes."""
        from sekigahara_tui.screens.too_small import TooSmallScreen, too_small

        top = self.screen
        if too_small(self.size):
            if isinstance(top, TooSmallScreen):
                top.show_size(self.size)
            elif not any(isinstance(screen, TooSmallScreen) for screen in self.screen_stack):
                self.push_screen(TooSmallScreen())
        elif isinstance(top, TooSmallScreen):
            top.dismiss()

    def on_mount(self) -> None:
        self.call_after_refresh(self.fit_the_terminal)  # started in a small terminal
        if self._club is not None:
            from sekigahara_tui.screens.lobby import LobbyScreen

            self.push_screen(LobbyScreen(self._club, self.save_dir))
            return
        # The main menu is already there (get_default_screen).
        if self._load is not None:
            self.open_save(self._load)
        elif self._position is not None:
            self.open_position(self._position)
        elif self._seed is not None:
            self.start(self._seed)
        elif self._join is not None:
            self.join(*self._join)
        elif self._choose_game:
            self.action_join_game()

    # --- starting games ------------------------------------------------------

    def start(self, seed: int) -> None:
        from sekigahara_tui.local import LocalTable

        self.play(LocalTable.new(seed, autosave=self.new_autosave("hot-seat")))

    def play(self, table: Table) -> None:
        from sekigahara_tui.screens.game import GameScreen

        self.playing = table
        # A game has opened: the oldest autosaves beyond KEPT_AUTOSAVES go (never this game's).
        for old in [path for path in self.autosaves() if path != self.autosave_path][KEPT_AUTOSAVES - 1:]:
            old.unlink(missing_ok=True)
        self.push_screen(GameScreen(table, self.save_dir, give_forced=not self.ask_forced))

    def open_save(self, path: Path) -> None:
        from sekigahara_tui.local import RecordError
        from sekigahara_tui.versus import open_saved  # a game against the computer reopens as one

        # An autosave goes on as itself; any other save begins an autosave of its own.
        autosave = path if path.parent == self.save_dir / AUTOSAVES else self.new_autosave("loaded")
        self.autosave_path = autosave
        try:
            table = open_saved(path, autosave=autosave)
        except (RecordError, ValueError) as error:
            self.notify(f"Cannot load {printable_path(path)}: {error}", severity="error", timeout=10, markup=False)
            return
        self.play(table)

    def open_position(self, path: Path) -> None:
        """A new hot-seat game at a position file; its record carries the position."""
        from sekigahara_tui.local import LocalTable, RecordError

        try:
            table = LocalTable.at_position(path, autosave=self.new_autosave("position"))
        except RecordError as error:
            self.notify(f"Cannot start at {printable_path(path)}: {error}", severity="error", timeout=10, markup=False)
            return
        self.play(table)

    def join(self, game_dir: Path, side: Side) -> None:
        """Take `side`'s seat in the game a host keeps in `game_dir`."""
        from sekigahara_tui.remote import RemoteTable  # the network client, only when needed

        try:
            table = RemoteTable(game_dir, side)
        except (OSError, ValueError) as error:
            self.notify(f"Cannot join {printable_path(game_dir)}: {error}", severity="error", timeout=10, markup=False)
            return
        self.play(table)

    def saves(self) -> list[Path]:
        found = self.autosaves()
        if (self.save_dir / AUTOSAVE).is_file():
            found.append(self.save_dir / AUTOSAVE)
        saves = self.save_dir / "saves"
        if saves.is_dir():
            found += sorted(saves.glob("*.json"), key=_modified, reverse=True)
        return found

    # --- menu actions --------------------------------------------------------

    def action_new_game(self) -> None:
        from sekigahara_tui.screens.dialogs import NewGameDialog

        def chosen(seed: int | None) -> None:
            if seed is not None:
                self.start(seed)

        self.push_screen(NewGameDialog(random.SystemRandom().randrange(1, 1_000_000)), chosen)

    def action_load_game(self) -> None:
        from sekigahara_tui.screens.dialogs import LoadDialog

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_save(path)

        self.push_screen(LoadDialog(self.saves()), chosen)

    def action_two_terminals(self) -> None:
        """A new game in two terminals: start a host, take a seat here, and show
        the command the other player types."""
        from sekigahara_tui.screens.dialogs import SeatDialog


        def chosen(side: Side | None) -> None:
            if side is not None:
                self.run_worker(self._host_and_join(side), exclusive=True)

        self.push_screen(SeatDialog(), chosen)

    async def _host_and_join(self, side: Side) -> None:
        from sekigahara_tui.background_host import new_game_dir, start_host, wait_until_hosted

        seed = random.SystemRandom().randrange(1, 1_000_000)
        try:
            game_dir = new_game_dir(self.save_dir / "games")
            process = start_host(game_dir, seed)
        except OSError as error:
            self.notify(f"Cannot start a host: {error}", severity="error", timeout=10, markup=False)
            return
        self.notify("Starting the host…", timeout=3)
        problem = await wait_until_hosted(game_dir, process)
        if problem is not None:
            self.notify(f"Cannot start a host: {problem}", severity="error", timeout=10, markup=False)
            return
        self.join(game_dir, side)
        self.started_host = True  # `host --stop-if-left-alone`: see farewell
        # The whole command is long (the game's path); `sekigahara join` at a
        # terminal offers the running games, so the short one fits a line.
        self.copy_to_clipboard(f"sekigahara join {game_dir} --seat {side.other.value}")
        self.notify(
            f"The other player types `{SHORT_JOIN}` in another terminal and picks this game "
            "(the whole command is on your clipboard).",
            timeout=30,
            markup=False,
        )

    def action_join_game(self) -> None:
        from sekigahara_tui.net.locations import running_games
        from sekigahara_tui.screens.dialogs import JoinDialog

        choices = [
            (f"{printable_path(game.game_dir, 60)}: play {side.value.capitalize()}", game.game_dir, side)
            for game in running_games()
            for side in game.seats
        ]

        def chosen(choice: tuple[Path, Side] | None) -> None:
            if choice is not None:
                self.join(*choice)

        self.push_screen(JoinDialog(choices), chosen)

    def action_rules(self) -> None:
        from sekigahara_tui.screens.info import RulesScreen

        self.push_screen(RulesScreen())

    # --- against the computer ------------------------------------------------

    def action_versus(self) -> None:
        """A new game against the computer: the player picks a side and a level."""
        from sekigahara_tui.screens.versus_dialog import VersusDialog

        def chosen(choice: tuple[Side, str] | None) -> None:
            if choice is not None:
                self.versus(random.SystemRandom().randrange(1, 1_000_000), *choice)

        self.push_screen(VersusDialog(), chosen)

    def versus(self, seed: int, human: Side, level: str, **options) -> None:
        from sekigahara_tui.versus import VersusTable

        autosave = self.new_autosave(f"{human.value}-vs-{level}")
        self.play(VersusTable.new_game(seed, human, level, autosave=autosave, **options))

    def _versus_table(self):
        # The Footer asks check_action on every screen, the main menu included:
        # until a game against the computer has started, sekigahara_tui.versus
        # (and the engine under it) is not loaded, so no VersusTable can exist
        # and importing it here would load the engine before the menu shows.
        versus = sys.modules.get("sekigahara_tui.versus")
        if versus is None:
            return None
        table = getattr(self.screen, "table", None)
        return table if isinstance(table, versus.VersusTable) else None

    def action_skip_ahead(self) -> None:
        table = self._versus_table()
        if table is not None:
            table.skip()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "skip_ahead":  # only in a game against the computer
            return self._versus_table() is not None
        return True
