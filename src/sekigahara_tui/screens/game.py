"""The game screen: map (or battle), prompt, hand, log and status for one seat.

The screen shows one side at a time (the seat) and keeps nothing of the game
but which seat is looking: everything drawn comes from `host.view(seat)` and
`host.events_for(seat)`. When the decision passes to the other side, a
hand-over screen covers everything until that player is ready.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Static, TabbedContent, TabPane

from rules.commands import AllowPlay, Command, DeclareDone, EndExchange, EndMovement, EndStackMove
from rules.components import default_components
from rules.engine import asks
from rules.errors import IllegalCommand
from rules.notation import NotationError, format_command
from rules.sides import Side
from rules.untrusted import printable, printable_path
from rules.view import PlayerView
from sekigahara_tui.host import GameHost
from sekigahara_tui.labels import block_label, place_label, side_name
from sekigahara_tui.palette import LegalCommands
from sekigahara_tui.screens.dialogs import SaveDialog
from sekigahara_tui.screens.info import DecisionHelpScreen, GameOverScreen, HandOverScreen
from sekigahara_tui.widgets.battle import BattlePanel
from sekigahara_tui.widgets.hand import HandPanel
from sekigahara_tui.widgets.log import LogPanel
from sekigahara_tui.widgets.map_panel import MapPanel, marks
from sekigahara_tui.widgets.prompt import PromptPanel
from sekigahara_tui.widgets.status import StatusBar

# Commands that finish something; ctrl+e gives whichever is legal now.
ENDING_COMMANDS = (EndStackMove, EndMovement, EndExchange, DeclareDone, AllowPlay)


def location_info(view: PlayerView, location: str) -> str:
    """The cursor's location in words: marks, control, your blocks, what you know of the enemy."""
    loc = default_components().location(location)
    facts = []
    if loc.castle:
        facts.append(f"castle ({'gold' if loc.castle is Side.ISHIDA else 'black'})")
    if loc.capital:
        facts.append("capital")
    elif loc.resource:
        facts.append("resource")
    controllers = dict(view.castle_control) | dict(view.resource_control)
    if location in controllers:
        facts.append(f"controlled by {side_name(controllers[location])}")
    own = [block_label(b) for b in view.blocks_at(location)]
    known = [block_label(b) for b, place in view.enemy_known if place == location]
    enemy = view.enemy_count_at(location)
    lines = [f"{loc.name} {marks(location)}" + (f": {', '.join(facts)}" if facts else "")]
    lines.append("yours: " + (", ".join(own) if own else "none"))
    if enemy:
        lines.append(f"enemy: {enemy} block{'s' if enemy != 1 else ''}" + (f" (seen: {', '.join(known)})" if known else ""))
    move = view.movement.stack_move if view.movement else None
    if move is not None:
        group = ", ".join(block_label(b) for b in move.selection) or "nobody yet"
        lines.append(f"moving from {place_label(move.source)}; selected: {group}")
    return "\n".join(lines)


class GameScreen(Screen[None]):
    COMMANDS = {LegalCommands}
    BINDINGS = [
        Binding("question_mark", "decision_help", "Help", id="game.help"),
        Binding("ctrl+e", "end", "End/done", id="game.end"),
        Binding("ctrl+z", "undo", "Undo", id="game.undo"),
        Binding("ctrl+s", "save", "Save", id="game.save"),
        Binding("ctrl+b", "toggle_board", "Battle/map", id="game.board"),
        Binding("colon", "command_line", "Type", id="game.type"),
        Binding("escape", "back", "Back", id="game.back"),
    ]

    def __init__(self, host: GameHost, save_dir: Path) -> None:
        super().__init__()
        self.host = host
        self.save_dir = save_dir
        self.seat: Side = host.side_to_act() or Side.ISHIDA
        self._logged: tuple[Side, int] | None = None  # whose log is shown, up to which step
        self._in_battle = False
        self._checks: tuple = ()
        self._autosave_reported: str | None = None

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with ContentSwitcher(initial="map-view", id="board"):
                with Vertical(id="map-view"):
                    yield MapPanel(id="map")
                    yield Static(id="map-info")
                with VerticalScroll(id="battle-view"):
                    yield BattlePanel(id="battle")
            with Vertical(id="side"):
                yield PromptPanel(id="prompt")
                with TabbedContent(id="tabs"):
                    with TabPane("Hand", id="hand-tab"):
                        yield HandPanel(id="hand")
                    with TabPane("Log", id="log-tab"):
                        yield LogPanel(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        self._report_autosave()
        self.query_one("#prompt", PromptPanel).choices.focus()
        if self.host.is_over:  # a finished game was loaded
            self._show_result()
        else:
            self.app.push_screen(HandOverScreen(self.seat, self._reason()))

    def _show_result(self) -> None:
        self.app.push_screen(GameOverScreen(self.host.view(self.seat), self.host.stats()), self._game_over_closed)

    # --- drawing ---------------------------------------------------------------

    def _reason(self) -> str:
        return f"{side_name(self.seat)} is to {asks(self.host.view(self.seat).decision.kind)}."

    def redraw(self) -> None:
        view = self.host.view(self.seat)
        self.query_one(StatusBar).show(view)
        self.query_one(PromptPanel).show(view)
        self.query_one(HandPanel).show(view)
        map_panel = self.query_one(MapPanel)
        map_panel.show(view)
        self.query_one("#map-info", Static).update(location_info(view, map_panel.cursor), layout=False)
        self.query_one(BattlePanel).show(view)
        in_battle = view.combat is not None and view.combat.battle is not None
        if in_battle != self._in_battle:
            self._in_battle = in_battle
            self.query_one("#board", ContentSwitcher).current = "battle-view" if in_battle else "map-view"
        self._update_log()
        self._refresh_bindings_if_changed()

    def _refresh_bindings_if_changed(self) -> None:
        """The Footer rebuilds itself on every refresh, so refresh only when a check changed."""
        checks = tuple(self.check_action(action, ()) for action in ("undo", "end", "toggle_board"))
        if checks != self._checks:
            self._checks = checks
            self.refresh_bindings()

    def _update_log(self) -> None:
        log = self.query_one(LogPanel)
        if self._logged is None or self._logged[0] is not self.seat or self._logged[1] > self.host.step_count:
            log.clear()
            log.add(self.host.events_for(self.seat), self.seat)
        else:
            log.add(self.host.events_for(self.seat, since=self._logged[1]), self.seat)
        self._logged = (self.seat, self.host.step_count)

    def _report_autosave(self) -> None:
        """Show a failed autosave once (not after every command while it keeps
        failing); the game goes on without it."""
        error = self.host.autosave_error
        if error is not None and error != self._autosave_reported:
            self.notify(f"{error}. The game goes on; save it elsewhere with ctrl+s.", severity="warning", timeout=10, markup=False)
        self._autosave_reported = error

    def after_change(self) -> None:
        """Show the result of a command: the same seat, a hand-over, or the end."""
        self._report_autosave()
        if self.host.is_over:
            self.redraw()
            self._show_result()
            return
        next_side = self.host.side_to_act(self.seat)
        if next_side is not None and next_side is not self.seat:
            self.seat = next_side
            self.redraw()
            self.app.push_screen(HandOverScreen(next_side, self._reason()))
        else:
            self.redraw()

    def _game_over_closed(self, _: None) -> None:
        self.dismiss()

    # --- commands --------------------------------------------------------------

    def submit(self, command: Command) -> bool:
        """Give a command picked from the list, the map or the palette."""
        return self._give(lambda: self.host.submit(command), format_command(command, with_side=False))

    def submit_text(self, line: str) -> bool:
        """Give a line typed in the notation, as the seat's side only."""
        return self._give(lambda: self.host.submit_text(line, self.seat), line)

    def _give(self, give: Callable[[], object], text: str) -> bool:
        prompt = self.query_one(PromptPanel)
        try:
            give()
        except (NotationError, IllegalCommand) as error:
            prompt.say(f"Illegal: {error}", error=True)  # nothing changed
            return False
        prompt.say(f"Done: {text}")
        prompt.command_line.value = ""
        if prompt.filter_location is not None:
            prompt.filter_to(None)
        self.after_change()
        return True

    def legal_texts(self) -> list[tuple[str, Command]]:
        return [(format_command(c, with_side=False), c) for c in self.host.view(self.seat).legal]

    @on(PromptPanel.Chosen)
    def _chosen(self, event: PromptPanel.Chosen) -> None:
        self.submit(event.command)

    @on(PromptPanel.Typed)
    def _typed(self, event: PromptPanel.Typed) -> None:
        self.submit_text(event.line)

    @on(MapPanel.LocationChosen)
    def _location_chosen(self, event: MapPanel.LocationChosen) -> None:
        prompt = self.query_one(PromptPanel)
        commands = prompt.commands_at(event.location)
        if len(commands) == 1:
            self.submit(commands[0])
        elif commands:
            prompt.filter_to(event.location)
            prompt.choices.focus()
        else:
            prompt.say(f"Nothing to decide at {place_label(event.location)} now.")

    @on(MapPanel.CursorMoved)
    def _cursor_moved(self, event: MapPanel.CursorMoved) -> None:
        self.query_one("#map-info", Static).update(location_info(self.host.view(self.seat), event.location), layout=False)

    # --- actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return self.host.why_no_undo(self.seat) is None
        if action == "end":
            return self._ending_command() is not None
        if action == "toggle_board":
            return self._in_battle
        return True

    def _ending_command(self) -> Command | None:
        return next((c for c in self.host.view(self.seat).legal if isinstance(c, ENDING_COMMANDS)), None)

    def action_end(self) -> None:
        command = self._ending_command()
        if command is not None:
            self.submit(command)

    def action_undo(self) -> None:
        reason = self.host.why_no_undo(self.seat)
        if reason is not None:
            self.query_one(PromptPanel).say(f"Cannot undo: {reason}", error=True)
            return
        command = self.host.undo(self.seat)
        self._logged = None
        self._report_autosave()
        self.redraw()
        self.query_one(PromptPanel).say(f"Took back: {format_command(command, with_side=False)} (R58)")

    def action_save(self) -> None:
        default = self.save_dir / "saves" / f"sekigahara-{self.host.record.seed}.json"

        def saved(path: Path | None) -> None:
            if path is None:
                return
            shown = printable_path(path, 120)
            try:
                self.host.save(path)
            except (OSError, ValueError) as error:  # ValueError: a path with a NUL
                reason = getattr(error, "strerror", None) or str(error)
                self.notify(f"Could not save to {shown}: {printable(reason, 100)}", severity="error", markup=False)
            else:
                self.notify(f"Saved to {shown}", markup=False)

        self.app.push_screen(SaveDialog(default), saved)

    def action_decision_help(self) -> None:
        self.app.push_screen(DecisionHelpScreen(self.host.view(self.seat).decision.kind))

    def action_toggle_board(self) -> None:
        switcher = self.query_one("#board", ContentSwitcher)
        switcher.current = "map-view" if switcher.current == "battle-view" else "battle-view"

    def action_command_line(self) -> None:
        self.query_one(PromptPanel).command_line.focus()

    def action_back(self) -> None:
        prompt = self.query_one(PromptPanel)
        if prompt.filter_location is not None:
            prompt.filter_to(None)
        elif prompt.command_line.value:
            prompt.command_line.value = ""
        prompt.say("")
