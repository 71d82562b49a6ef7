"""The game screen: map (or battle), prompt, hand, log and status for one seat.

The screen shows one side at a time (the seat) and keeps nothing of the game
but which seat is looking: everything drawn comes from that Seat's view and
log (sekigahara_tui.seat), and every command goes to it as notation text. In
a hot-seat game, when the decision passes to the other side, a hand-over
screen covers everything until that player is ready; in a networked game the
seat not to act waits with the board in view, and the other player's moves
appear as they happen.

The screen keeps its widgets, keys and actions; its jobs are in rooms beside
it: hand_over.py (the hand-over, and an Enter double-tapped after it),
seat_memory.py, battle_summaries.py, movement_summaries.py, auto_allow.py
(R48), forced.py, select_all.py, connection.py, saving.py, game_over.py and
ending.py (a club seat's resign and cancel).
"""

from __future__ import annotations

import gc
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import ContentSwitcher, TabbedContent, TabPane

from rules.notation import format_command
from rules.surface import Command, PlayerView, Side
from sekigahara_tui.labels import done_label, notation_label, side_name
from sekigahara_tui.seat import Answer, Seat, Table
from sekigahara_tui.palette import LegalCommands
from sekigahara_tui.screens.auto_allow import allow_without_asking, ask_auto_allow, setting_matters
from sekigahara_tui.screens.forced import give_forced_move
from sekigahara_tui.screens.map_follow import MapFollow
from sekigahara_tui.screens.battle_summaries import BattleSummaries
from sekigahara_tui.screens.connection import connection_line
from sekigahara_tui.screens.chat import NOT_A_PLAYER, game_chat
from sekigahara_tui.screens.ending import Ending
from sekigahara_tui.screens.game_over import game_over_screen
from sekigahara_tui.screens.hand_over import HandOvers
from sekigahara_tui.screens.hints import Hints
from sekigahara_tui.screens.movement_summaries import MovementSummaries
from sekigahara_tui.screens.select_all import SelectAll, offered as select_all_offered
from sekigahara_tui.screens.waiting import Waiting
from sekigahara_tui.screens.whole_screen_tabs import WholeScreenTabs
from sekigahara_tui.screens.info import DecisionHelpScreen
from sekigahara_tui.screens.saving import report_warning, save_game
from sekigahara_tui.screens.seat_memory import SeatMemory
from sekigahara_tui.widgets.battle import BattlePanel
from sekigahara_tui.widgets.hand import HandPanel
from sekigahara_tui.widgets.log import LogPanel
from sekigahara_tui.widgets.location_info import LocationInfo
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import PromptPanel
from sekigahara_tui.widgets.public import PublicPanel
from sekigahara_tui.widgets.status import StatusBar
from sekigahara_tui.widgets.steady_footer import SteadyFooter


class GameScreen(Screen[None]):
    COMMANDS = {LegalCommands}
    # Priority bindings: these keys work wherever focus is, the command line included
    # (which would otherwise take `:`, `?`, ctrl+e and ctrl+z for itself).
    BINDINGS = [
        Binding("question_mark", "decision_help", "Help", id="game.help", priority=True),
        Binding("colon", "command_line", "Type", id="game.type", priority=True),
        Binding("ctrl+e", "end", "End", id="game.end", priority=True),
        Binding("ctrl+z", "undo", "Undo", id="game.undo", priority=True),
        # A stack move (7.3): every block that may move with the group, in one key; again, none.
        Binding("ctrl+a", "select_all", "All", id="game.select_all", priority=True),
        # Save and Quit are not in this Footer, which must fit 80 columns with every key
        # that can show at once (tests/tui/test_keys.py); the help (?) lists them.
        Binding("ctrl+s", "save", "Save", id="game.save", priority=True, show=False),
        Binding("ctrl+q", "app.quit", "Quit", id="game.quit", priority=True, show=False),
        Binding("ctrl+b", "toggle_board", "Board", id="game.board", priority=True),
        Binding("ctrl+o", "overview", "Zoom", id="game.overview", priority=True),
        # This seat's own setting, allow without asking when it holds no Loyalty card (check_action: when it matters).
        Binding("ctrl+y", "auto_allow", "Auto", id="game.auto_allow", priority=True, tooltip="allow without asking when I hold no Loyalty card"),
        Binding("escape", "back", "Back", id="game.back", show=False),
        # Not in the Footer (it must fit 80 columns): the choices' border says it under 30 rows.
        Binding("ctrl+t", "tabs", "Hand/Log", id="game.tabs", priority=True, show=False),
        # A club seat ends its game early (ending.py): resign (asked twice), cancel by agreement.
        Binding("ctrl+r", "end_early('resign')", "Resign", id="game.resign", priority=True, show=False),
        Binding("ctrl+k", "end_early('cancel')", "Cancel game", id="game.cancel_game", priority=True, show=False),
        Binding("h", "hint", "Hint", id="game.hint", show=False),  # not priority: the command line types an h (hints.py)
        # A long "Done: ..." keeps the message line's one row, ending "… (m)": m shows it whole (widgets/message_line.py).
        Binding("m", "more", "More", id="game.more", show=False),  # not priority, as h
        Binding("ctrl+g", "chat", "Chat", id="game.chat", priority=True, show=False),  # a club seat's game chat (chat.py)
    ]

    def __init__(self, table: Table, save_dir: Path, give_forced: bool = True) -> None:
        super().__init__()
        self.table = table
        self.save_dir = save_dir
        self.seat: Side = table.first_seat().side  # the side looking at the screen
        self._in_battle = False
        self._checks: tuple = ()
        self._warning_reported: str | None = None
        self._result_shown = False
        self._status_shown: tuple | None = None
        self._handed_view: PlayerView | None = None  # the view a hand-over passed the screen to
        self.hand_overs = HandOvers()  # hot seat: the hand-over up, an Enter double-tapped after it
        self.seat_memory = SeatMemory()  # hot seat: what each seat left on the screen
        self.summaries = BattleSummaries()  # how far each seat's log was told in battle summaries
        self.movement_summaries = MovementSummaries()  # the other player's Movement Phases (not hot seat)
        self.give_forced = give_forced  # hot seat: a publicly forced move given without a hand-over (forced.py)
        self.auto_allow: dict[Side, bool] = {}  # hot seat: each seat's own "allow without asking" setting
        self.waiting = Waiting()  # the side not to act: no list of choices (waiting.py)
        self.select_all = SelectAll()  # ctrl+a under way in a stack move
        self.ending = Ending(self)  # ctrl+r, ctrl+k: a club seat's end before the rules'
        self.whole_screen_tabs = WholeScreenTabs()  # ctrl+t, and the focus before it
        self.map_follow = MapFollow(self)  # the map and the choices follow each other
        self.hints = Hints(self)  # h: what level 2 would do now

    @property
    def current(self) -> Seat:
        return self.table.seats[self.seat]

    @property
    def view(self) -> PlayerView | None:
        return self.current.view

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with ContentSwitcher(initial="map-view", id="board"):
                with Vertical(id="map-view"):
                    yield MapPanel(id="map")
                    yield LocationInfo(id="map-info")
                with VerticalScroll(id="battle-view"):
                    yield BattlePanel(id="battle")
            with Vertical(id="side"):
                yield PromptPanel(id="prompt")
                with TabbedContent(id="tabs"):
                    with TabPane("Hand", id="hand-tab"):
                        yield HandPanel(id="hand")
                    with TabPane("Log", id="log-tab"):
                        yield LogPanel(id="log")
                    with TabPane("Public", id="public-tab"):
                        with VerticalScroll(id="public-scroll"):
                            yield PublicPanel(id="public")
        yield SteadyFooter(compact=True)

    def on_mount(self) -> None:
        self.map_follow.wire()
        for seat in self.table.seats.values():
            seat.listeners.append(self)
        self.table.start()
        self.summaries.start(self.table.seats.values())
        self.movement_summaries.start(self.table.seats.values())
        self.query_one("#prompt", PromptPanel).choices.focus()
        if not self.table.hot_seat:
            self.set_interval(1.0, self._show_status)  # a club game's clocks tick
        if self.view is None:  # a remote seat still connecting
            self._show_status()
            return
        self.redraw()
        # What is here lives as long as the game: out of the collector's full passes (0.1-0.2 s of a key).
        self.call_after_refresh(gc.freeze)
        self._report_warning()
        if self.current.is_over:  # a finished game was loaded
            self._show_result()
        elif self.table.hot_seat:
            self._hand_over()

    def on_unmount(self) -> None:
        for seat in self.table.seats.values():
            if self in seat.listeners:
                seat.listeners.remove(self)
        self.hints.close()
        self.hand_overs.close(self.app)
        self.table.close()
        gc.unfreeze()  # the game's objects may go now (a test process plays hundreds of games)

    def _show_result(self) -> None:
        if self._result_shown or self.view is None:
            return
        self._result_shown = True
        self.app.push_screen(game_over_screen(self.current, self.table), self._game_over_closed)

    # --- what the seats say ------------------------------------------------------

    def seat_changed(self, seat: Seat) -> None:
        # A hand-over shows the new seat's view: its own news of the same change, after it, is no news.
        if seat is self.current and (seat.view is None or seat.view is not self._handed_view):
            self.after_change()
            self._select_next()

    def seat_answered(self, seat: Seat, answer: Answer) -> None:
        if answer.error is not None:
            self.select_all.stop()
            self.say(f"Illegal: {answer.error}" if answer.text != "undo" else answer.error, error=True, side=seat.side)
            return
        if answer.undone is not None:
            self.say(f"Took back: {notation_label(answer.undone, seat.side)} (R58)", side=seat.side)
            return
        self.say(done_label(answer.text, seat.side), side=seat.side)
        if seat is not self.current:
            return
        prompt = self.query_one(PromptPanel)
        if prompt.command_line.value.strip() == answer.text:
            prompt.command_line.value = ""
        if prompt.filter_location is not None:
            prompt.filter_to(None)
        if not prompt.command_line.value:
            prompt.give_focus_back()

    def seat_status(self, seat: Seat) -> None:
        seat is self.current and self._show_status()

    # --- drawing ---------------------------------------------------------------

    def _reason(self) -> str:
        view = self.view
        return f"{side_name(self.seat)} is to {view.prompt}." if view else ""

    def redraw(self) -> None:
        self.hand_overs.take_over()  # a seat's screen put away under a hand-over: given back first
        view = self.view
        if view is None:
            return
        self.query_one(StatusBar).show(view)
        prompt = self.query_one(PromptPanel)
        prompt.show(view)
        prompt.say(*self.seat_memory.feedback.get(self.seat, ("", False)))
        self.waiting.show(self, not view.legal)
        self.query_one(HandPanel).show(view)
        self.query_one(PublicPanel).show(view)
        map_panel = self.query_one(MapPanel)
        map_panel.show(view)
        self.query_one(LocationInfo).show(view, map_panel.cursor)
        self.query_one(BattlePanel).show(view)
        in_battle = view.combat is not None and view.combat.battle is not None
        if in_battle != self._in_battle:
            self._in_battle = in_battle
            self.query_one("#board", ContentSwitcher).current = "battle-view" if in_battle else "map-view"
        self._update_log()
        self._show_status()
        self._refresh_bindings_if_changed()

    def _show_status(self) -> None:
        """A networked seat: the connection, the other player, a command on its way."""
        seat = self.current
        line = connection_line(seat)  # with the clocks (issue 24), which tick
        status = (line, seat.opponent_present)
        if status == self._status_shown:
            return
        self._status_shown = status
        self.query_one(PromptPanel).show_connection(line)
        # The other player's command to join takes rows: at 80 columns, from the tabs.
        self.query_one("#side").set_class(seat.opponent_present is False and bool(seat.join_hint), "-joining")

    def _refresh_bindings_if_changed(self) -> None:
        """The Footer rebuilds itself on every refresh, so refresh only when a check changed."""
        checks = tuple(self.check_action(action, ()) for action in ("undo", "end", "toggle_board", "save", "auto_allow", "select_all"))
        if checks != self._checks:
            self._checks = checks
            self.refresh_bindings()

    def _update_log(self) -> None:
        seat = self.current
        # A spectator plays neither side: its lines name both (no "you").
        self.query_one(LogPanel).follow(seat.log, seat.log_generation, self.seat, seat.view is not None and seat.view.spectator)

    def _report_warning(self) -> None:
        self._warning_reported = report_warning(self, self.table.warning, self._warning_reported)

    def after_change(self) -> None:
        """Show a change: the same seat, a hand-over (hot seat), or the end."""
        self.hand_overs.settled()  # a move since the hand-over closed (ctrl+e, ctrl+z): an Enter now is meant
        self._report_warning()
        if allow_without_asking(self.table, self.auto_allow):
            return  # the allow was a change of its own, shown already
        said = self.seat_memory.feedback.get(self.seat, ("", False))[0]
        if self.give_forced and give_forced_move(self.table, self.current, self.say, said):
            return  # likewise
        if self.current.is_over:
            self.redraw()
            self._show_result()
            return
        next_seat = self.table.next_seat(self.current)
        if next_seat is not self.current:
            # The leaving player's own battle summary, read before he passes the
            # keyboard (it lies over the hand-over, R55: his log only).
            leaving = self.summaries.next_for(self.current)
            self.seat_memory.keep(self.seat, self, self._in_battle)
            self.seat = next_seat.side
            self.seat_memory.feedback.clear()  # the last outcome was the other seat's: never shown to this one
            self._handed_view = next_seat.view
            self._hand_over(self._take_over)  # the new seat's screen is drawn once the hand-over is up
            if leaving is not None:
                self.app.push_screen(leaving)
        else:
            self.redraw()
            self._summarise_battle()

    def _take_over(self) -> None:
        """The new seat's screen as it left it, board toggle too, under the hand-over (hand_over.py)."""
        self._in_battle = self.seat_memory.restore(self.seat, self).in_battle
        self.redraw()

    def _hand_over(self, take_over=None) -> None:
        """The new player starts at the choices, never where the other player left
        the focus; a battle summary for him lies under the hand-over. Both set now,
        not when the hand-over closes: the keys typed with its Enter are read
        before this screen handles its resume, and must find the summary up (its
        Enter) and the choices focused (the keys after it)."""
        self.set_focus(self.query_one(PromptPanel).choices)
        hand_over = self.hand_overs.screen_for(self.app, self.seat, self._reason())
        self.hand_overs.push(self.app, hand_over, self.summaries.next_for(self.current, after=hand_over), take_over)

    def on_screen_resume(self) -> None:
        self.hand_overs.resumed(self)

    def on_key(self, event: events.Key) -> None:
        """Hot seat: an Enter typed right after the hand-over's, no key between and
        within its settle time, is a double tap: ignored, so that the new player
        sees the board before the highlighted choice is given for him. Any other
        key (Down, letters) goes on to the game, and an Enter after it is meant.
        Keys reach this handler from the focused widget before its bindings act
        (the app resolves them as they bubble up), and in the order typed."""
        if self.hand_overs.is_double_tap(event.key):
            if self.focused is self.query_one(PromptPanel).choices:
                event.stop()

    def _summarise_battle(self) -> None:
        """Once a battle or siege is over (losses taken, retreats made), show the
        seat what happened, from its own log."""
        if self.hand_overs.up:  # never over a hand-over: under it, pushed with it
            return
        summary = self.summaries.next_for(self.current)
        if summary is not None:
            self.app.push_screen(summary)
        if not self.table.hot_seat:  # the other player moved while this one watched
            moves = self.movement_summaries.next_for(self.current)
            if moves is not None:
                self.app.push_screen(moves)

    def say(self, text: str, error: bool = False, side: Side | None = None) -> None:
        """An outcome for a seat (default: the one looking), kept in its message line
        until its next outcome; never shown to the other seat."""
        side = side or self.seat
        self.seat_memory.feedback[side] = (text, error)
        if side is self.seat:
            self.query_one(PromptPanel).say(text, error)

    def _game_over_closed(self, _: None) -> None:
        self.dismiss()

    # --- commands --------------------------------------------------------------

    def submit(self, command: Command) -> None:
        """Give a command picked from the list, the map or the palette."""
        self.submit_text(format_command(command, with_side=False))

    def submit_text(self, line: str) -> None:
        """Give a line of notation, as the seat's side only; the answer comes
        back through seat_answered (at once from a local seat)."""
        if self.current.waiting_for_answer is not None:
            self.say(f"Still waiting for the host to answer {self.current.waiting_for_answer}", error=True)
            return
        self.current.submit(line)
        self._show_status()

    def legal_texts(self) -> list[tuple[str, Command]]:
        view = self.view
        return [(format_command(c, with_side=False), c) for c in view.legal] if view else []

    @on(PromptPanel.Chosen)
    def _chosen(self, event: PromptPanel.Chosen) -> None:
        self.submit(event.command)

    @on(PromptPanel.Typed)
    def _typed(self, event: PromptPanel.Typed) -> None:
        self.submit_text(event.line)

    @on(MapPanel.LocationChosen)
    def _location_chosen(self, event: MapPanel.LocationChosen) -> None:
        self.map_follow.location_chosen(event.location)

    # --- actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Every key stays live: one that cannot act now says why (action_undo, action_end)."""
        if action == "toggle_board":  # the whole Combat Phase, as ^a the Movement Phase (select_all.offered)
            return self.view is not None and self.view.combat is not None
        if action == "save":
            return self.table.can_save
        if action == "auto_allow":
            return setting_matters(self.table, self.view)
        if action == "select_all":  # shown only in a stack move
            return select_all_offered(self.view)
        return True

    def action_select_all(self) -> None:
        """Every block that may move with the stack's group, or (all selected) none (select_all.py)."""
        if self.view is not None and not self.select_all.begin(self.view):
            self.say("ctrl+a: no blocks to select now (a stack move selects them, 7.3)", error=True)
            return
        self._select_next()

    def _select_next(self) -> None:
        if (command := self.select_all.next_command(self.view) if self.select_all.kind else None) is not None:
            self.submit(command)

    def action_end(self) -> None:
        command = self.view.finishing_command if self.view is not None else None  # the decision's own (rules.decision)
        if command is not None:
            self.submit(command)
        elif self.view is not None:
            self.say("ctrl+e: nothing to end, finish or allow now", error=True)

    def action_undo(self) -> None:
        if self.view is None:
            return
        reason = self.current.why_no_undo
        if reason is not None:
            self.say(f"Cannot undo: {reason}", error=True)
            return
        self.current.undo()

    def action_more(self) -> None:  # m: notified, not said, which would replace the message
        self.query_one(PromptPanel).message.whole() or self.notify("m: the message is whole already", timeout=3)

    def action_hint(self) -> None:
        self.hints.ask()

    def action_end_early(self, what: str) -> None:
        getattr(self.ending, what)()  # resign or cancel (ending.py)

    def action_chat(self) -> None:
        panel = game_chat(self)  # None: not a club seat
        if panel is None:
            return self.say(NOT_A_PLAYER, error=True)
        self.app.push_screen(panel)

    def action_save(self) -> None:
        if self.table.can_save:
            save_game(self, self.table, self.save_dir)

    def action_auto_allow(self) -> None:
        if self.check_action("auto_allow", ()):
            ask_auto_allow(self)
    def action_decision_help(self) -> None:
        if self.view is not None:
            self.app.push_screen(DecisionHelpScreen(self.view.help))

    def action_toggle_board(self) -> None:
        if not (self.view and self.view.combat and self.view.combat.battle):
            self.say("ctrl+b: no battle now (the board shows)", error=True)
            return
        switcher = self.query_one("#board", ContentSwitcher)
        switcher.current = "map-view" if switcher.current == "battle-view" else "battle-view"

    def action_overview(self) -> None:
        """The whole board at once (compact marks) or the detailed map, in turn."""
        switcher = self.query_one("#board", ContentSwitcher)
        map_panel = self.query_one(MapPanel)
        if switcher.current != "map-view":
            switcher.current = "map-view"
            map_panel.set_overview(True)
        else:
            map_panel.set_overview(not map_panel.overview)

    def action_command_line(self) -> None:
        """`:` goes to the command line; there it types a colon only after a side's
        name ("tokugawa:"), the one place notation has one."""
        self.hand_overs.settled()  # `:` typed after the hand-over's Enter: an Enter after it is meant
        if self.maximized is not None:  # the line is hidden under the tabs: they leave the screen first
            self.minimize()
        line = self.query_one(PromptPanel).command_line
        if line.has_focus:
            if line.value.strip().lower() in {side.value for side in Side}:
                line.insert_text_at_cursor(":")
            return
        # At once, not line.focus() (which waits its turn in the queue): keys that
        # arrived with the colon, a burst over SSH, must reach the command line.
        self.query_one(PromptPanel).came_from = self.focused
        self.set_focus(line)

    def action_tabs(self) -> None:
        """The Hand/Log/Public tabs on the whole screen, or back (whole_screen_tabs.py)."""
        self.whole_screen_tabs.toggle(self)

    def action_back(self) -> None:
        if self.maximized is not None:
            self.minimize()  # the focus goes back where it was (whole_screen_tabs.py)
            return
        prompt = self.query_one(PromptPanel)
        if prompt.filter_location is not None:
            prompt.filter_to(None)
        elif prompt.command_line.value:
            prompt.command_line.value = ""
        elif prompt.command_line.has_focus:
            prompt.give_focus_back()
        prompt.say("")
