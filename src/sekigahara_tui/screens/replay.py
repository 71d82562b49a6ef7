"""The replay: a game step by step, from the game-over screen or `sekigahara replay --step`.

The screen draws frames from a replay model (sekigahara_tui.replay_model),
which owns the record: for each step, the board as a view (the public one, or
once the game is over either side's) and what happened in words. Keys: → or n
a step forward, ← or p back, Home and End the first and last step, w and a
digit the first step of that week, v whose view of the board, g the game's
chat (a club game's, replayed for one of its players only: screens/chat.py), Esc back.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from rich.console import Console

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from rules.surface import Side
from sekigahara_tui.crash_log import CrashLog
from sekigahara_tui.labels import side_name
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.steady_footer import SteadyFooter

if TYPE_CHECKING:
    from sekigahara_tui.replay_model import ReplayFrame, ReplayModel


def frame_text(frame: ReplayFrame) -> str:
    """What happened at a step (its command is in the heading): the public
    events, then what each side alone saw (a finished game only)."""
    parts = []
    public = frame.lines.get(None, ())
    parts.append("Both sides saw:" + "".join(f"\n- {line}" for line in public) if public else "Both sides saw: nothing new")
    for side in (Side.ISHIDA, Side.TOKUGAWA):
        if side in frame.lines:
            own = frame.lines[side]
            parts.append(f"{side_name(side)} alone saw:" + ("".join(f"\n- {line}" for line in own) if own else " nothing"))
    return "\n\n".join(parts)


class ReplayScreen(Screen[None]):
    """A game record, one step at a time."""

    DEFAULT_CSS = """
    ReplayScreen #replay-heading { height: 3; padding: 0 1; background: $boost; }
    ReplayScreen #replay-main { height: 1fr; }
    ReplayScreen #replay-map { width: 1fr; border: round $primary-darken-2; }
    ReplayScreen #replay-text { width: 44; padding: 0 1; }
    ReplayScreen.-wide #replay-text { width: 60; }
    """

    # Priority: the arrows step the replay wherever focus is (the text scrolls with up/down).
    BINDINGS = [
        Binding("right", "step(1)", "Forward", id="replay.forward", priority=True, key_display="→/n"),
        Binding("n", "step(1)", "Forward", show=False),
        Binding("left", "step(-1)", "Back", id="replay.back", priority=True, key_display="←/p"),
        Binding("p", "step(-1)", "Back", show=False),
        # Not in the Footer, which must fit 80 columns (Esc was cut): the README and the help list them.
        Binding("home", "go_to('first')", "First", id="replay.first", priority=True, show=False),
        Binding("end", "go_to('last')", "Last", id="replay.last", priority=True, show=False),
        Binding("w", "ask_week", "Week", id="replay.week", key_display="w+1-7"),
        *[Binding(str(n), f"week({n})", show=False) for n in range(1, 10)],
        Binding("v", "chair", "View", id="replay.view"),
        Binding("g", "chat", "Chat", id="replay.chat", show=False),
        Binding("escape", "dismiss", "Back", id="replay.close"),
    ]

    def __init__(self, model: ReplayModel, index: int = 0, chat: Callable[[], Screen] | None = None) -> None:
        super().__init__()
        self.model = model
        self.chat = chat  # a club game's chat panel, made for one of its players; None: no chat to show
        self.index = max(0, min(index, model.count - 1))
        self.chair: Side | None = None  # whose view of the board: None is the public one
        self._asking_week = False
        self._note = ""

    def compose(self) -> ComposeResult:
        yield Static(id="replay-heading", markup=False)
        with Horizontal(id="replay-main"):
            yield MapPanel(id="replay-map")
            with VerticalScroll(id="replay-text"):
                yield Static(id="replay-events", markup=False)
        yield SteadyFooter()

    def on_mount(self) -> None:
        board = self.query_one(MapPanel)
        board.can_focus = False  # the arrows step the replay; the map only shows
        board.set_overview(self.app.size.width < 120)
        self.set_class(self.app.size.width >= 120, "-wide")
        self.query_one("#replay-text").focus()
        self.show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chair":
            return len(self.model.chairs) > 1
        return True

    # --- drawing -------------------------------------------------------------

    def show(self) -> None:
        frame = self.model.frame(self.index)
        board = self.query_one(MapPanel)
        board.show(self.model.view(self.index, self.chair))
        board.border_title = f"board: {self.chair_name()}"  # short: at 80 columns the panel is 36 wide
        heading = [
            f"Replay: step {frame.index} of {frame.count - 1} │ {frame.heading}",
            f"Done: {frame.command}",
            self._note or ("Week? Press its digit (1-7)." if self._asking_week else ""),
        ]
        self.query_one("#replay-heading", Static).update("\n".join(heading))
        self.query_one("#replay-events", Static).update(frame_text(frame))
        self.query_one("#replay-text", VerticalScroll).scroll_home(animate=False)

    def chair_name(self) -> str:
        if self.chair is None:
            return "the public view"
        return f"{side_name(self.chair)}'s view"

    def say(self, note: str) -> None:
        self._note = note
        self.show()

    # --- actions ---------------------------------------------------------------

    def go(self, index: int, note: str = "") -> None:
        self.index = max(0, min(index, self.model.count - 1))
        self._asking_week = False
        self.say(note)

    def action_step(self, delta: int) -> None:
        target = self.index + delta
        if target < 0:
            self.go(0, "This is the first step.")
        elif target >= self.model.count:
            self.go(self.model.count - 1, "This is the last step.")
        else:
            self.go(target)

    def action_go_to(self, where: str) -> None:
        self.go(0 if where == "first" else self.model.count - 1)

    def action_ask_week(self) -> None:
        self._asking_week = True
        self.say("")

    def action_week(self, week: int) -> None:
        if not self._asking_week:
            self.say("To jump to a week, press w, then the week's digit.")
            return
        start = self.model.week_start(week)
        if start is None:
            weeks = self.model.weeks
            self._asking_week = False
            self.say(f"The game never reached week {week} (weeks {weeks[0]} to {weeks[-1]}).")
            return
        self.go(start, f"Week {week} begins here.")

    def action_chat(self) -> None:
        if self.chat is None:
            return self.say("g: no chat here (a club game's is replayed for its players)")
        self.app.push_screen(self.chat())

    def action_chair(self) -> None:
        chairs = self.model.chairs
        self.chair = chairs[(chairs.index(self.chair) + 1) % len(chairs)] if self.chair in chairs else chairs[0]
        self.say(f"The board {self.chair_name()}.")


class ReplayApp(App[None]):
    """`sekigahara replay --step RECORD`: the replay alone; Esc or ctrl+q ends it."""

    CSS_PATH = "../sekigahara.tcss"
    TITLE = "Sekigahara replay"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, model: ReplayModel, save_dir: Path) -> None:
        super().__init__()
        self.model = model
        # An unexpected error goes to the crash log, the terminal gets one line (cli.py).
        self.crash_log = CrashLog(save_dir)
        self.error_console = Console(file=self.crash_log, markup=False, highlight=False, width=100)

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.model), lambda _: self.exit())
