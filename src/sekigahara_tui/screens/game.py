"""The game screen: map (or battle), prompt, hand, log and status for one seat.

The screen shows one side at a time (the seat) and keeps nothing of the game
but which seat is looking: everything drawn comes from that Seat's view and
log (sekigahara_tui.seat), and every command goes to it as notation text. In
a hot-seat game, when the decision passes to the other side, a hand-over
screen covers everything until that player is ready; in a networked game the
seat not to act waits with the board in view, and the other player's moves
appear as they happen.
"""

from __future__ import annotations

from pathlib import Path

from attrs import frozen
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, TabbedContent, TabPane

from rules.describe import describe
from rules.notation import format_command
from rules import surface
from rules.surface import (
    AllowPlay,
    CombatEnded,
    Event,
    Command,
    DeclareDone,
    EndExchange,
    EndMovement,
    EndStackMove,
    PlayerView,
    Side,
    default_components,
    printable,
    printable_path,
)
from sekigahara_tui.labels import done_label, notation_label, place_label, side_name
from sekigahara_tui.seat import Answer, Seat, Table, game_stats
from sekigahara_tui.palette import LegalCommands
from sekigahara_tui.screens.dialogs import SaveDialog
from sekigahara_tui.screens.info import (
    AUTO_ALLOW_INFERENCE,
    AutoAllowDialog,
    BattleSummaryScreen,
    DecisionHelpScreen,
    GameOverScreen,
    HandOverScreen,
)
from sekigahara_tui.widgets.battle import BattlePanel
from sekigahara_tui.widgets.hand import HandPanel
from sekigahara_tui.widgets.log import LogPanel
from sekigahara_tui.widgets.location_info import LocationInfo
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import PromptPanel
from sekigahara_tui.widgets.public import PublicPanel
from sekigahara_tui.widgets.status import StatusBar

# What a battle summary tells, in log order (the names of rules.surface.EVENT_TYPES).
SUMMARY_EVENTS = tuple(
    cls for cls in surface.EVENT_TYPES
    if cls.__name__ in {
        "CombatDeclared", "LoyaltyChallenged", "ChallengeRefuted", "BlocksDefected", "CombatEnded",
        "PieceLost", "BlocksRetreated", "OpponentRetreated", "CastleFell", "ControlChanged",
        "CardsDrawn", "OpponentDrewCards",
    }
)
CombatDeclared = next(cls for cls in surface.EVENT_TYPES if cls.__name__ == "CombatDeclared")

# Commands that finish something; ctrl+e gives whichever is legal now.
ENDING_COMMANDS = (EndStackMove, EndMovement, EndExchange, DeclareDone, AllowPlay)


@frozen
class SeatScreen:
    """What one seat's screen keeps for itself between hand-overs."""

    cursor: str = "kyoto"
    scroll: tuple[float, float] = (0.0, 0.0)
    overview: bool = False
    search: str | None = None
    followed: tuple | None = None  # the action the map last followed for this seat
    typed: str = ""
    tab: str = "hand-tab"
    board: str = "map-view"
    in_battle: bool = False


def battle_summaries(log: list[Event], start: int, side: Side, battle_on: bool) -> tuple[list[tuple[str, list[str]]], int]:
    """The combats that ended in log[start:] and are over (losses taken, retreats
    made: a later combat has begun, or `battle_on` is false), each as a title and
    lines in words: Impact and losses, challenges and defections, pieces lost,
    retreats, cards drawn. Also the index up to which the log is summarised."""
    declared = [i for i in range(start, len(log)) if isinstance(log[i], CombatDeclared)]
    bounds = declared + [len(log)]
    summaries, done = [], (declared[0] if declared else len(log))
    for begin, end in zip(bounds, bounds[1:]):
        ended = next((e for e in log[begin:end] if isinstance(e, CombatEnded)), None)
        if ended is None:
            continue
        if end == len(log) and battle_on:
            break
        kind = "Siege" if log[begin].siege else "Battle"
        title = f"{kind} at {place_label(ended.location)}"
        if ended.winner is not None:
            title += ": you win" if ended.winner is side else f": {side_name(ended.winner)} wins"
        after = begin + log[begin:end].index(ended)
        stop = next((i for i in range(after, end) if type(log[i]).__name__ in ("PhaseBegan", "WeekBegan")), end)
        lines = [describe(event, side) for event in log[begin:stop] if isinstance(event, SUMMARY_EVENTS)]
        summaries.append((title, lines))
        done = end
    return summaries, done


class GameScreen(Screen[None]):
    COMMANDS = {LegalCommands}
    # Priority bindings: these keys work wherever focus is, the command line included
    # (which would otherwise take `:`, `?`, ctrl+e and ctrl+z for itself).
    BINDINGS = [
        Binding("question_mark", "decision_help", "Help", id="game.help", priority=True),
        Binding("colon", "command_line", "Type", id="game.type", priority=True),
        Binding("ctrl+e", "end", "End", id="game.end", priority=True),
        Binding("ctrl+z", "undo", "Undo", id="game.undo", priority=True),
        # Save and Quit are not in this Footer, which must fit 80 columns with every key
        # that can show at once (tests/tui/test_keys.py); the help (?) lists them.
        Binding("ctrl+s", "save", "Save", id="game.save", priority=True, show=False),
        Binding("ctrl+q", "app.quit", "Quit", id="game.quit", priority=True, show=False),
        Binding("ctrl+b", "toggle_board", "Board", id="game.board", priority=True),
        Binding("ctrl+o", "overview", "Zoom", id="game.overview", priority=True),
        # This seat's own setting, allow without asking when it holds no Loyalty card (check_action: when it matters).
        Binding("ctrl+y", "auto_allow", "Auto", id="game.auto_allow", priority=True, tooltip="allow without asking when I hold no Loyalty card"),
        Binding("escape", "back", "Back", id="game.back", show=False),
    ]

    def __init__(self, table: Table, save_dir: Path) -> None:
        super().__init__()
        self.table = table
        self.save_dir = save_dir
        self.seat: Side = table.first_seat().side  # the side looking at the screen
        self._logged: tuple[Side, int, int] | None = None  # whose log is shown: side, generation, events shown
        self._in_battle = False
        self._checks: tuple = ()
        self._warning_reported: str | None = None
        self._result_shown = False
        self._status_shown: tuple | None = None
        self._feedback: dict[Side, tuple[str, bool]] = {}  # each seat's last outcome, kept until its next
        self._handed_over = False  # a hand-over screen is up: no battle summary over it
        self._settling: HandOverScreen | None = None  # the hand-over whose double-tapped Enter to ignore
        self._seat_state: dict[Side, SeatScreen] = {}
        self._summarised: dict[Side, tuple[int, int]] = {}  # per seat: log generation, events summarised
        self.auto_allow: dict[Side, bool] = {}  # hot seat: each seat's own "allow without asking" setting
        self._choices_had_focus = False  # when the list was hidden for a seat not to act

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
        yield Footer(compact=True)

    def on_mount(self) -> None:
        for seat in self.table.seats.values():
            seat.listeners.append(self)
        self.table.start()
        for seat in self.table.seats.values():  # battles fought before this screen are not summarised again
            log, view = seat.log, seat.view
            start = len(log)
            if view is not None and view.combat is not None and view.combat.battle is not None:
                start = next((i for i in range(len(log) - 1, -1, -1) if isinstance(log[i], CombatDeclared)), start)
            self._summarised[seat.side] = (seat.log_generation, start)
        self.query_one("#prompt", PromptPanel).choices.focus()
        if self.view is None:  # a remote seat still connecting
            self._show_status()
            return
        self.redraw()
        self._report_warning()
        if self.current.is_over:  # a finished game was loaded
            self._show_result()
        elif self.table.hot_seat:
            self._hand_over()

    def on_unmount(self) -> None:
        for seat in self.table.seats.values():
            if self in seat.listeners:
                seat.listeners.remove(self)
        self.table.close()

    def _show_result(self) -> None:
        if self._result_shown or self.view is None:
            return
        self._result_shown = True
        self.app.push_screen(
            GameOverScreen(self.view, game_stats(self.current.log), self.current.log, replay=self._replay_maker()),
            self._game_over_closed,
        )

    def _replay_maker(self):
        """What opens the replay of this game, if this process holds its record
        (hot seat, or against the computer); None for a networked seat."""
        if not getattr(self.table, "host", None):
            return None
        from sekigahara_tui.replay_model import ReplayModel  # the engine replays the record
        from sekigahara_tui.screens.replay import ReplayScreen

        def replay() -> ReplayScreen:
            model = ReplayModel.of_table(self.table)
            assert model is not None
            return ReplayScreen(model)

        return replay

    # --- what the seats say ------------------------------------------------------

    def seat_changed(self, seat: Seat) -> None:
        if seat is self.current:
            self.after_change()

    def seat_answered(self, seat: Seat, answer: Answer) -> None:
        if answer.error is not None:
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

    def seat_status(self, seat: Seat) -> None:
        if seat is self.current:
            self._show_status()

    # --- drawing ---------------------------------------------------------------

    def _reason(self) -> str:
        view = self.view
        return f"{side_name(self.seat)} is to {view.prompt}." if view else ""

    def redraw(self) -> None:
        view = self.view
        if view is None:
            return
        self.query_one(StatusBar).show(view)
        prompt = self.query_one(PromptPanel)
        prompt.show(view)
        prompt.say(*self._feedback.get(self.seat, ("", False)))
        self._show_waiting(not view.legal)
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

    def _show_waiting(self, waiting: bool) -> None:
        """The side not to act sees no empty list of choices: the prompt says whom
        it waits for, and the tabs take the room (the stylesheet's #side.-waiting).
        Hiding the list moves the focus from it to the command line (here, not
        left to Textual, which may pick the map); when the choices come back,
        the focus goes back to them (unless the player moved it or typed
        meanwhile)."""
        side = self.query_one("#side")
        if waiting == side.has_class("-waiting"):
            return
        prompt = self.query_one(PromptPanel)
        if waiting:
            self._choices_had_focus = self.focused is prompt.choices
            if self._choices_had_focus:
                self.set_focus(prompt.command_line)
            side.add_class("-waiting")
            return
        side.remove_class("-waiting")
        line = prompt.command_line
        if self._choices_had_focus and (self.focused is None or (self.focused is line and not line.value)):
            self.set_focus(prompt.choices)

    def _show_status(self) -> None:
        """A networked seat: the connection, the other player, a command on its way."""
        seat = self.current
        status = (seat.connection, seat.opponent_present, seat.waiting_for_answer)
        if status == self._status_shown:
            return
        self._status_shown = status
        self.query_one(PromptPanel).show_connection(connection_line(seat))
        # The other player's command to join takes rows: at 80 columns, from the tabs.
        self.query_one("#side").set_class(seat.opponent_present is False and bool(seat.join_hint), "-joining")

    def _refresh_bindings_if_changed(self) -> None:
        """The Footer rebuilds itself on every refresh, so refresh only when a check changed."""
        checks = tuple(self.check_action(action, ()) for action in ("undo", "end", "toggle_board", "save", "auto_allow"))
        if checks != self._checks:
            self._checks = checks
            self.refresh_bindings()

    def _update_log(self) -> None:
        log = self.query_one(LogPanel)
        seat = self.current
        events = seat.log
        shown = self._logged
        # A spectator plays neither side: its lines name both (no "you").
        neutral = seat.view is not None and seat.view.spectator
        if shown is None or shown[0] is not self.seat or shown[1] != seat.log_generation or shown[2] > len(events):
            log.clear()
            log.add(events, self.seat, neutral)
        else:
            log.add(events[shown[2]:], self.seat, neutral)
        self._logged = (self.seat, seat.log_generation, len(events))

    def _report_warning(self) -> None:
        """Show a failed autosave once (not after every command while it keeps
        failing); the game goes on without it."""
        warning = self.table.warning
        if warning is not None and warning != self._warning_reported:
            self.notify(f"{warning}. The game goes on; save it elsewhere with ctrl+s.", severity="warning", timeout=10, markup=False)
        self._warning_reported = warning

    def after_change(self) -> None:
        """Show a change: the same seat, a hand-over (hot seat), or the end."""
        self._settled()  # a move since the hand-over closed (ctrl+e, ctrl+z): an Enter now is meant
        self._report_warning()
        if self._allow_without_asking():
            return  # the allow was a change of its own, shown already
        if self.current.is_over:
            self.redraw()
            self._show_result()
            return
        next_seat = self.table.next_seat(self.current)
        if next_seat is not self.current:
            self._keep_seat_state()
            self.seat = next_seat.side
            self._feedback.clear()  # the last outcome was the other seat's: never shown to this one
            self._restore_seat_state()
            self.redraw()
            self._hand_over()
        else:
            self.redraw()
            self._summarise_battle()

    def _allow_without_asking(self) -> bool:
        """Hot seat: a seat whose only choice is to allow the enemy's play (R48),
        holding no Loyalty Challenge card, with its setting on, allows at once,
        with no hand-over. True if it did."""
        if not self.table.hot_seat:
            return False
        for seat in self.table.seats.values():
            view = seat.view
            if not self.auto_allow.get(seat.side) or view is None or len(view.legal) != 1:
                continue
            if isinstance(view.legal[0], AllowPlay) and not holds_loyalty_card(view):
                seat.submit(format_command(view.legal[0], with_side=False))
                return True
        return False

    def _keep_seat_state(self) -> None:
        """What the leaving seat's screen keeps for itself: map cursor, scroll,
        overview, search, command line, tab, battle/map toggle (hot seat: restored
        for it, never shown to the other)."""
        prompt = self.query_one(PromptPanel)
        map_panel = self.query_one(MapPanel)
        self._seat_state[self.seat] = SeatScreen(
            cursor=map_panel.cursor,
            scroll=(map_panel.scroll_x, map_panel.scroll_y),
            overview=map_panel.overview,
            search=map_panel.search,
            followed=map_panel.focus_key,
            typed=prompt.command_line.value,
            tab=self.query_one("#tabs", TabbedContent).active,
            board=self.query_one("#board", ContentSwitcher).current,
            in_battle=self._in_battle,
        )

    def _restore_seat_state(self) -> None:
        state = self._seat_state.get(self.seat, SeatScreen())
        map_panel = self.query_one(MapPanel)
        map_panel.set_search(state.search)
        map_panel.cursor = state.cursor
        map_panel.focus_key = state.followed
        map_panel.set_overview(state.overview)
        map_panel.scroll_to(*state.scroll, animate=False, immediate=True)
        prompt = self.query_one(PromptPanel)
        prompt.command_line.value = state.typed
        if prompt.filter_location is not None:
            prompt.filter_to(None)
        self.query_one("#tabs", TabbedContent).active = state.tab
        # The battle/map toggle: as this seat left it, unless a battle began or ended since.
        self._in_battle = state.in_battle
        self.query_one("#board", ContentSwitcher).current = state.board

    def _hand_over(self) -> None:
        """The new player starts at the choices, never where the other player left
        the focus; a battle summary for him lies under the hand-over. Both set now,
        not when the hand-over closes: the keys typed with its Enter are read
        before this screen handles its resume, and must find the summary up (its
        Enter) and the choices focused (the keys after it)."""
        self._handed_over = True
        self.set_focus(self.query_one(PromptPanel).choices)
        hand_over = HandOverScreen(self.seat, self._reason())
        summary = self._battle_summary(after=hand_over)
        if summary is not None:
            self.app.push_screen(summary)
        self._settling = hand_over if summary is None else None  # the summary settles for itself
        self.app.push_screen(hand_over)

    def on_screen_resume(self) -> None:
        self._handed_over = False

    def on_key(self, event: events.Key) -> None:
        """Hot seat: an Enter typed right after the hand-over's, no key between and
        within its settle time, is a double tap: ignored, so that the new player
        sees the board before the highlighted choice is given for him. Any other
        key (Down, letters) goes on to the game, and an Enter after it is meant.
        Keys reach this handler from the focused widget before its bindings act
        (the app resolves them as they bubble up), and in the order typed."""
        hand_over = self._settling
        if self._settled() and event.key == "enter" and hand_over.settling():
            if self.focused is self.query_one(PromptPanel).choices:
                event.stop()

    def _settled(self) -> bool:
        """The first key or move after the hand-over's Enter ends its settling;
        True if this one does (the hand-over closed by its Enter, not yet settled)."""
        hand_over = self._settling
        if hand_over is None or hand_over.ready_at is None:
            return False
        self._settling = None
        return True

    def _summarise_battle(self) -> None:
        """Once a battle or siege is over (losses taken, retreats made), show the
        seat what happened, from its own log."""
        if self._handed_over:  # never over a hand-over: under it, pushed with it
            return
        summary = self._battle_summary()
        if summary is not None:
            self.app.push_screen(summary)

    def _battle_summary(self, after: HandOverScreen | None = None) -> BattleSummaryScreen | None:
        """The summary of the battles and sieges over since the seat's last
        summary (None if none), told from its own log; marked as told."""
        seat, view = self.current, self.view
        if view is None:
            return None
        generation, start = self._summarised.get(seat.side, (seat.log_generation, len(seat.log)))
        if generation != seat.log_generation or start > len(seat.log):
            start = len(seat.log)  # an undo or a fresh log: nothing new to tell
        battle_on = view.combat is not None and view.combat.battle is not None
        summaries, done = battle_summaries(seat.log, start, seat.side, battle_on)
        self._summarised[seat.side] = (seat.log_generation, done)
        if not summaries:
            return None
        title = summaries[0][0] if len(summaries) == 1 else f"{len(summaries)} combats"
        lines = [line for _, body in summaries for line in body]
        return BattleSummaryScreen(title, lines, after)

    def say(self, text: str, error: bool = False, side: Side | None = None) -> None:
        """An outcome for a seat (default: the one looking), kept in its message line
        until its next outcome; never shown to the other seat."""
        side = side or self.seat
        self._feedback[side] = (text, error)
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

    @on(PromptPanel.Browsed)
    def _browsed(self, event: PromptPanel.Browsed) -> None:
        """The map follows the highlighted choice to the place it names (a move's
        source, a step's or retreat's destination, a combat, a muster)."""
        map_panel = self.query_one(MapPanel)
        shown = [place for place in surface.places(event.command) if place in map_panel.layout_data.locations]
        if shown and shown[-1] != map_panel.cursor:
            map_panel.move_cursor(shown[-1])

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
            self.say(f"Nothing to decide at {place_label(event.location)} now.")

    @on(MapPanel.CursorMoved)
    def _cursor_moved(self, event: MapPanel.CursorMoved) -> None:
        if self.view is not None:
            self.query_one(LocationInfo).show(self.view, event.location)

    # --- actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Every key stays live: one that cannot act now says why (action_undo, action_end)."""
        if action == "toggle_board":
            return self._in_battle
        if action == "save":
            return self.table.can_save
        if action == "auto_allow":
            # Where it can matter: hot seat (a networked seat is never handed over), the
            # Combat Phase, no Loyalty card in hand (with one, this seat is always asked).
            view = self.view
            return self.table.hot_seat and view is not None and view.combat is not None and not holds_loyalty_card(view)
        return True

    def _ending_command(self) -> Command | None:
        view = self.view
        return next((c for c in view.legal if isinstance(c, ENDING_COMMANDS)), None) if view else None

    def action_end(self) -> None:
        command = self._ending_command()
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

    def action_save(self) -> None:
        if not self.table.can_save:
            return
        default = self.save_dir / "saves" / self.table.default_save_name()

        def saved(path: Path | None) -> None:
            if path is None:
                return
            shown = printable_path(path, 120)
            try:
                self.table.save(path)
            except (OSError, ValueError) as error:  # ValueError: a path with a NUL
                reason = getattr(error, "strerror", None) or str(error)
                self.notify(f"Could not save to {shown}: {printable(reason, 100)}", severity="error", markup=False)
            else:
                self.notify(f"Saved to {shown}", markup=False)

        self.app.push_screen(SaveDialog(default), saved)

    def action_auto_allow(self) -> None:
        """This seat's own setting (hot seat): the dialog says what it gives away."""
        if not self.check_action("auto_allow", ()):
            return
        side = self.seat

        def chosen(on: bool | None) -> None:
            if on is None:
                return
            self.auto_allow[side] = on
            if side is self.seat:
                self.say(f"Auto-allow {'on' if on else 'off'}" + (f": {AUTO_ALLOW_INFERENCE}." if on else "."))

        self.app.push_screen(AutoAllowDialog(side, self.auto_allow.get(side, False)), chosen)

    def action_decision_help(self) -> None:
        if self.view is not None:
            self.app.push_screen(DecisionHelpScreen(self.view.help))

    def action_toggle_board(self) -> None:
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
        self._settled()  # `:` typed after the hand-over's Enter: an Enter after it is meant
        line = self.query_one(PromptPanel).command_line
        if line.has_focus:
            if line.value.strip().lower() in {side.value for side in Side}:
                line.insert_text_at_cursor(":")
            return
        # At once, not line.focus() (which waits its turn in the queue): keys that
        # arrived with the colon, a burst over SSH, must reach the command line.
        self.set_focus(line)

    def action_back(self) -> None:
        prompt = self.query_one(PromptPanel)
        if prompt.filter_location is not None:
            prompt.filter_to(None)
        elif prompt.command_line.value:
            prompt.command_line.value = ""
        prompt.say("")


def holds_loyalty_card(view: PlayerView) -> bool:
    components = default_components()
    return any(components.card(card).is_loyalty for card in view.hand)


def connection_line(seat: Seat) -> str:
    """One line on the connection to the host and the other player (empty for hot seat)."""
    if seat.connection is None:
        return ""
    parts = [seat.connection]
    other = side_name(seat.side.other)
    if seat.opponent_present is True:
        parts.append(f"{other} is connected")
    elif seat.opponent_present is False:
        parts.append(f"{other} is not connected" + (f"; they join with: {seat.join_hint}" if seat.join_hint else ""))
    if seat.waiting_for_answer is not None:
        parts.append(f"sending: {seat.waiting_for_answer}")
    return " │ ".join(parts)
