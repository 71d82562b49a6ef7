"""The authoritative game of one process: the record, the states and the events.

Hot-seat play has both seats in one process; a networked host will own the
same object. Screens never touch a GameState: they ask for a side's view and
that side's events, and submit commands (architecture.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator

from attrs import evolve, frozen

from rules.commands import Command
from rules.engine import apply, apply_trusted, legal_commands
from rules.errors import IllegalCommand
from rules.events import Event
from rules.notation import parse_command
from rules.infra.record import GameRecord, RecordError, ended_state, load_record, new_record, replay_steps, save_record
from rules.sides import BOTH_SIDES, Side
from rules.state import GameState
from rules.undo import why_step_is_final, why_undo_illegal
from rules.victory import end_outside_rules
from rules.view import PlayerView, events_for, spectator_view, view
from sekigahara_tui.hosting.autosaver import Autosaver
from sekigahara_tui.hosting.past_events import PastEvents


@frozen
class Step:
    """One step of the game: the command (None for setup), the state after it,
    its events, and why it may not be undone (None if R58 allows it)."""

    command: Command | None
    state: GameState
    events: tuple[Event, ...]
    final: str | None


class GameHost:
    def __init__(self, record: GameRecord, steps: list[Step], autosave: Path | None = None, *, keep_states: bool = True) -> None:
        self._record = record
        self._steps = steps
        self._autosave = autosave
        self._autosaver: Autosaver | None = None  # made at the first autosave
        # A host of many games keeps only the steps undo may go back to: no
        # undo goes past a final step (R58), so of the steps before the last
        # final step only the events are kept, packed (past_events.py), for
        # the log a connection is sent. A hot-seat host keeps every step, for its replay.
        self._keep_states = keep_states
        self._past = PastEvents()  # the events of the steps before self._steps[0]
        # The game ended outside the rules (hosting/results.py): the state its
        # views are made from from then on; the steps stay as they were.
        self._ended: GameState | None = None
        self._forget_old_steps()

    # --- starting ------------------------------------------------------------

    @classmethod
    def new(cls, seed: int, autosave: Path | None = None, computer: str | None = None) -> GameHost:
        """A new game; `computer` ("side:level") for one against the computer."""
        return cls.from_record(evolve(new_record(seed), computer=computer), autosave)

    @classmethod
    def from_record(cls, record: GameRecord, autosave: Path | None = None, *, keep_states: bool = True) -> GameHost:
        """Replay a record; a bad one raises RecordError and nothing is made.
        keep_states=False: keep only the states undo may need (see __init__)."""
        steps: list[Step] = []
        before: GameState | None = None
        for command, state, events in replay_steps(record):
            final = "the game began here" if before is None else why_step_is_final(before, state, events)
            steps.append(Step(command, state, events, final))
            before = state
        host = cls(record, steps, autosave, keep_states=keep_states)
        ended = ended_state(record, steps[-1].state)  # an exported club game's end (issue 25)
        if ended is not steps[-1].state:
            host._ended = ended
        host._write_autosave()
        return host

    @classmethod
    def load(cls, path: Path, autosave: Path | None = None) -> GameHost:
        return cls.from_record(load_record(path), autosave)

    # --- reading -------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self._ended if self._ended is not None else self._steps[-1].state

    @property
    def record(self) -> GameRecord:
        return self._record

    @property
    def computer(self) -> str | None:
        """The computer's "side:level" in a game against it, None in hot seat."""
        return self._record.computer

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def view(self, side: Side, last: tuple[GameState, PlayerView] | None = None) -> PlayerView:
        """`side`'s view of the current state; `last`, an earlier state of this
        game and `side`'s view of it, lends the parts that did not change (rules.view.view)."""
        return view(self.state, side, last)

    def spectator_view(self) -> PlayerView:
        """What someone who plays neither side may see (R55 for both sides)."""
        return spectator_view(self.state)

    def events_for(self, viewer: Side | None, since: int = 0) -> list[Event]:
        """The events `viewer` (a side, or None: a spectator) may see (R55),
        from step `since` on, oldest first."""
        return [e for events in self.step_events(viewer, since) for e in events]

    def step_events(self, viewer: Side | None, since: int = 0) -> list[tuple[Event, ...]]:
        """The events `viewer` (a side, or None: a spectator) may see (R55)
        step by step, from step `since` on."""
        past = self._past.since(since) if since < self._past.count else []
        recent = self._steps[max(since - self._past.count, 0) :]
        return [events_for(viewer, events) for events in past] + [events_for(viewer, step.events) for step in recent]

    @property
    def step_count(self) -> int:
        return self._past.count + len(self._steps)

    def side_to_act(self, preferred: Side | None = None) -> Side | None:
        """Who decides next: `preferred` if it has a legal command, else a side
        that has one (so a simultaneous decision is finished seat by seat)."""
        candidates = ([preferred] if preferred else []) + list(BOTH_SIDES)
        for side in candidates:
            if legal_commands(self.state, side):
                return side
        return None

    # --- changing ------------------------------------------------------------

    def propose(self, command: Command) -> Step:
        """The step `command` would make, without making it: a networked host
        stores the command before the game changes (hosting/game_server.py). An illegal
        command raises IllegalCommand."""
        before = self.state
        after, events = apply(before, command)
        return Step(command, after, events, why_step_is_final(before, after, events))

    def propose_listed(self, command: Command) -> Step:
        """`propose` for a command taken from the current state's legal list
        (a view's `legal`), without building that list again to check it
        (engine.apply_trusted): the same step. The network host uses it for a
        command whose text is exactly the notation of one it listed."""
        before = self.state
        after, events = apply_trusted(before, command)
        return Step(command, after, events, why_step_is_final(before, after, events))

    def propose_text(self, line: str, side: Side) -> Step:
        """`propose` for a line of notation from `side` (NotationError, IllegalCommand)."""
        command = parse_command(line, side=side)
        if command.side is not side:
            raise IllegalCommand(f"you play {side.value}: a command for {command.side.value} is not yours")
        return self.propose(command)

    def accept(self, step: Step, text: str | None = None) -> tuple[Event, ...]:
        """Make a proposed step, which must follow from the current state.
        `text`: the command's notation, if the caller knows it already."""
        if step.command is None:
            raise ValueError("the setup step cannot be accepted")
        self._steps.append(step)
        if step.final is not None and not self._keep_states:
            # Only a final step lets steps go: every step before this one (R58).
            for before in self._steps[:-1]:
                self._past.add(before.events)
            del self._steps[:-1]
        if text is None:
            self._record = self._record.with_command(step.command)
        else:
            self._record = evolve(self._record, commands=self._record.commands + (text,))
        self._write_autosave()
        return step.events

    def submit(self, command: Command) -> tuple[Event, ...]:
        """Apply a command; an illegal one raises IllegalCommand and changes nothing."""
        return self.accept(self.propose(command))

    def submit_text(self, line: str, side: Side) -> tuple[Command, tuple[Event, ...]]:
        """Parse a line of notation for `side` and submit it (NotationError, IllegalCommand)."""
        step = self.propose_text(line, side)
        return step.command, self.accept(step)  # type: ignore[return-value]

    def end_outside_rules(self, winner: Side | None, cause: str) -> None:
        """The game stops here, outside the rules (rules.victory.end_outside_rules):
        nothing more can be played or undone, and the final board is face up (R56)."""
        self._ended = end_outside_rules(self.state, winner, cause)

    def why_no_undo(self, side: Side) -> str | None:
        if self._ended is not None:
            return "the game is over (R56)"
        last = self._steps[-1]
        return why_undo_illegal(side, last.command.side if last.command else None, last.final)

    def undo(self, side: Side) -> Command:
        """R58: take back `side`'s last command."""
        reason = self.why_no_undo(side)
        if reason is not None:
            raise IllegalCommand(f"cannot undo: {reason}")
        step = self._steps.pop()
        assert step.command is not None
        self._record = self._record.without_last_command()
        self._write_autosave()
        return step.command

    def _forget_old_steps(self) -> None:
        """Without keep_states: keep only the events of the steps before the
        last final step (R58: no undo reaches them)."""
        if self._keep_states:
            return
        last_final = max((n for n, step in enumerate(self._steps) if step.final is not None), default=0)
        for step in self._steps[:last_final]:
            self._past.add(step.events)
        del self._steps[:last_final]

    # --- saving --------------------------------------------------------------

    def save(self, path: Path) -> None:
        """The save file is the game record, written atomically and private to
        its owner (save_record): it holds both hands and every hidden block."""
        path.parent.mkdir(parents=True, exist_ok=True)
        save_record(self._record, path)

    def autosave_to(self, path: Path) -> None:
        """Autosave from now on to `path`, starting now: for a loaded game, only
        once it has opened, so that a save that cannot open leaves the old autosave."""
        self._autosave = path
        self._write_autosave(now=True)

    def _write_autosave(self, now: bool = False) -> None:
        """Autosave after every change, by a thread (autosaver.py): a command
        does not wait for the disk. The first autosave, and the one that ends
        the game, are on disk when this returns. A failed write does not stop
        the game: `autosave_error` says why, for the screen."""
        if self._autosave is None:
            return
        if self._autosaver is None:
            self._autosaver = Autosaver()
            now = True
        if now:
            self._autosaver.write_now(self._autosave, self._record)
        else:
            self._autosaver.write_soon(self._autosave, self._record)
            if self.is_over:
                self._autosaver.flush()

    @property
    def autosave_error(self) -> str | None:
        """Why the latest autosave written failed, if it did (one handed to the
        thread and not yet written is not known yet: flush_autosave waits)."""
        return self._autosaver.error if self._autosaver is not None else None

    def flush_autosave(self) -> None:
        """Return once every autosave handed to the thread is on disk."""
        if self._autosaver is not None:
            self._autosaver.flush()

    def close(self) -> None:
        """The last autosave on disk, and the writer thread stopped."""
        if self._autosaver is not None:
            self._autosaver.close()
            self._autosaver = None


__all__ = ["GameHost", "RecordError", "Step"]



def deciders_by_action(record: GameRecord, commands: Iterable[str | None]) -> Iterator[frozenset[Side]]:
    """Who decides at the record's start, then after each of a hosted game's
    actions in turn (a command's text, or None for an undo: R58 takes back
    the last command standing), undone commands replayed as they were played.
    For game_notices.told_after, after a restart."""
    states = [next(replay_steps(evolve(record, commands=())))[1]]  # the start: setup or its position
    yield _deciders(states[0])
    for text in commands:
        if text is not None:
            states.append(apply(states[-1], parse_command(text))[0])
        elif len(states) > 1:
            states.pop()
        yield _deciders(states[-1])


def _deciders(state: GameState) -> frozenset[Side]:
    return frozenset() if state.is_over else frozenset(state.decision.sides)
