"""The notices a game's changes give (issue 24): "your move" when the
decision passes to a member's side from the other side, and "game over" at
the game's end, each to the members whose seat is not connected to that
game right now (one looking at the game sees it already).

A subscriber of the game server. A hand-over is a side that decides now and
did not before the change: a whole turn of the other side (every step of a
stack move, every battle choice) is one hand-over, so one notice. A side told
of a hand-over is not told again until it has acted itself: when the other
side takes the hand-over back with an undo (R58 allows it until the side
handed to decides) and hands over again, no second notice goes. What was
told outlives the game's eviction (in asynchronous play the one undoing has
usually been away, and the idle game dropped from memory meanwhile); after a
restart it is rebuilt from the game's stored actions: a side that decides
because the other side's last command handed it the decision is told; in a
game with an undo, replayed with the undone commands (told_after), a side
handed the decision by the other side's action and that has not acted since
is told, even if that action was taken back (an undo, a restart, then the
same hand-over again: no second notice).

A seat the computer stands in for (out of time: game_clocks.py) is never
told "your move"; its member hears of the game's end.

A member who is signed in anywhere in the club (online.py) but not looking
at the game is also told at once in their lobby (`ring`: a terminal bell
and a line, lobby.py), whether or not they want notices; that counts as
telling them.

Only public facts go into a notice (R55): whose decision it is, the catalog's
players and result, and the week, turn and phase of the public view
(GameHost.spectator_view), built only when the member wants the notice.
"""

from __future__ import annotations

from typing import Callable

from rules.surface import BOTH_SIDES, Side
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.host import deciders_by_action
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.notice_delivery import NoticeQueue
from sekigahara_tui.hosting.notices import CLOCK_LOW, GAME_OVER, YOUR_MOVE, game_notice


def deciding(game: HostedGame) -> frozenset[Side]:
    return frozenset() if game.host.is_over else frozenset(game.host.state.decision.sides)


def told_after(game: HostedGame) -> set[Side]:
    """Who counts as told of a hand-over after the game's actions, rebuilt as
    game_changed keeps it: every action (undone commands too) replayed from the
    record's start (host.deciders_by_action), a side handed the decision by the
    other's action told (the acting side was at the game), until it acts
    itself. Once a game, at its first load after a start, for a game with an
    undo: a replay of its actions (0.1 s for 455 on this machine, as much as
    loading it)."""
    actions = game.actions
    deciders = deciders_by_action(game.host.record, (a.text if a.kind == "command" else None for a in actions))
    before = next(deciders)
    told: set[Side] = set()
    for action, now in zip(actions, deciders):
        if action.kind == "command":
            told.discard(action.side)
        told |= {side for side in now - before if side is not action.side}
        before = now
    return told


class GameNotices:
    def __init__(self, catalog: Catalog, queue: NoticeQueue) -> None:
        self.catalog = catalog
        self.queue = queue
        self._deciding: dict[str, frozenset[Side]] = {}  # game id -> who decided after its last change
        self._told: dict[str, set[Side]] = {}  # game id -> sides told of a hand-over they have not acted on
        # (member, game, opponent) -> whether the member, signed in somewhere, was told in their lobby
        self.ring: Callable[[str, str, str | None], bool] = lambda member, game_id, opponent: False
        # A game's clocks in words, for its notices (the club gives game_clocks'); None: no clock.
        self.clocks_of: Callable[[str], str | None] = lambda game_id: None

    def game_loaded(self, game: HostedGame) -> None:
        self._deciding[game.id] = deciding(game)
        if game.id not in self._told and not game.host.is_over:  # first loaded since the start
            if any(action.kind != "command" for action in game.actions):  # an undo: what it took back counts
                self._told[game.id] = told_after(game)
            else:  # the usual case, without a replay: told if the other side's last command handed it over
                last = game.actions[-1] if game.actions else None
                self._told[game.id] = {side for side in deciding(game) if last is not None and last.side is side.other}

    def forget(self, game_id: str) -> None:
        """The game left memory (evicted): who decides is looked at afresh when
        loaded; who was told is kept (an undo after the reload is no new hand-over)."""
        self._deciding.pop(game_id, None)

    # --- a subscriber of the game server ----------------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        before = self._deciding.get(game.id)
        now = self._deciding[game.id] = deciding(game)
        told = self._told.setdefault(game.id, set())
        if change.action is not None and change.action.kind == "command":  # None: an end outside the rules
            told.discard(change.action.side)  # it acted: the next hand-over to it is a new one
        entry = self.catalog.get(game.id)
        if before is None or entry is None:
            return
        if game.host.is_over:
            self._deciding.pop(game.id, None)
            self._told.pop(game.id, None)
            if before:
                self._tell(game, entry.players, BOTH_SIDES, GAME_OVER)
            return
        handed = [side for side in BOTH_SIDES if side in now and side not in before and side not in told]
        told.update(self._tell(game, entry.players, handed, YOUR_MOVE, self.clocks_of(game.id) if handed else None))

    def clock_low(self, game: HostedGame, side: Side, clocks: str) -> None:
        """`side`'s clock dropped low (game_clocks.py): its member is told, if away from the game."""
        entry = self.catalog.get(game.id)
        if entry is not None:
            self._tell(game, entry.players, [side], CLOCK_LOW, clocks)

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass

    def _tell(self, game: HostedGame, players: dict[Side, str | None], sides, kind: str, clocks: str | None = None) -> list[Side]:
        """Send `kind` to the players of `sides` who want it and are away; the sides told."""
        told = []
        public = None
        for side in sides:
            member = players[side]
            if member is None or member == COMPUTER or game.connections.get(side) is not None:
                continue
            if kind == YOUR_MOVE and game.stood_in is side:  # the computer finishes that seat: not the member's move
                continue
            if kind == YOUR_MOVE and self.ring(member, game.id, players[side.other]):
                told.append(side)
            if not self.queue.wants(member, kind):
                continue
            public = public or game.host.spectator_view()
            names = tuple(players[s] or "?" for s in BOTH_SIDES if s in public.decision.sides) if kind in (YOUR_MOVE, CLOCK_LOW) else ()
            result = game.result_text if kind == GAME_OVER else None
            opponent = players[side.other]
            notice = game_notice(kind, game.id, member, opponent, public, names, resume=self.queue.options.resume, result=result,
                                 clocks=clocks)
            self.queue.send(member, notice)
            if side not in told:
                told.append(side)
        return told
