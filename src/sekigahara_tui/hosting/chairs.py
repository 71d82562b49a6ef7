"""The chairs of a hosted game: a side's, or the spectators'.

Per change, each chair has its view made and encoded once for all its
connections (a seat, or every spectator), reusing the JSON of the fields
that did not change (net/state_encoding.py, ViewEncoder); a connection is
sent only the events of the steps it does not hold yet (R55: the events its
chair may see, rules.view.events_for through GameHost.step_events).
"""

from __future__ import annotations

from attrs import define, field

from rules.state import GameState
from rules.surface import Command, PlayerView, Side
from sekigahara_tui.hosting.connections import Connection
from sekigahara_tui.hosting.games import HostedGame
from sekigahara_tui.hosting.store import commands_standing
from sekigahara_tui.net.state_encoding import SharedTexts, ViewEncoder, encode_events, find_listed, state_line

# The texts of the fields the chairs of the state last viewed share (a game's
# chairs are all made after its change, one game at a time): one slot for the
# server, not one per game.
SHARED_TEXTS = SharedTexts()


@define(eq=False)
class Chair:
    """One chair of a game: a side, or the spectators'. Its view of the game's
    current state is made and encoded once per change, however many
    connections sit in it (a seat, or every spectator), and its encoder
    re-encodes only what changed since the chair's last view."""

    encoder: ViewEncoder = field(factory=ViewEncoder)
    state: GameState | None = None  # the state `view` and `json` were made from
    view: PlayerView | None = None
    json: str = ""
    events: dict[int, str] = field(factory=dict)  # first step -> the events' JSON, for `state`


def chair_of(game: HostedGame, side: Side | None) -> Chair:
    """The chair of `side` (None: the spectators'), its view made for the
    game's current state if it is not yet (a view is a function of the
    state: after an undo too)."""
    chair = game.chairs.get(side)
    if chair is None:
        chair = game.chairs[side] = Chair()
    state = game.host.state
    if chair.state is not state:
        if side is None:
            chair.view = game.host.spectator_view()
        else:  # the chair's last view lends what did not change: the same objects, not encoded again
            last = (chair.state, chair.view) if chair.state is not None and chair.view is not None else None
            chair.view = game.host.view(side, last)
        chair.json = chair.encoder.encode(chair.view, SHARED_TEXTS.of(state))
        chair.state = state
        chair.events.clear()
    return chair


def send_state(connection: Connection, game: HostedGame, side: Side | None, reply_to: str | None, undo: str | None) -> None:
    """The game's current state as `side`'s chair sees it (None: the
    spectators'), with the events of the steps the connection does not hold."""
    host = game.host
    chair = chair_of(game, side)
    steps = host.step_count
    first = min(connection.synced, steps)
    text = chair.events.get(first)
    if text is None:  # the chair's events from that step on, not made yet for another of its connections
        text = events_json(chair, first, tuple(host.step_events(side, first)))
    connection.synced = steps
    # The line encode(State(...)) would give (net/state_encoding.py), with no State made.
    connection.send_line(state_line(game.version, steps, reply_to, chair.json, first, text, undo, host.is_over))


def events_json(chair: Chair, first: int, events: tuple) -> str:
    """The JSON of the chair's events from step `first` on (made once for
    all the chair's connections that hold the same steps; each event once
    for all the chairs that see it)."""
    text = chair.events.get(first)
    if text is None:
        text = chair.events[first] = encode_events(events, SHARED_TEXTS.of(chair.state))
    return text


def listed(game: HostedGame, side: Side, text: str) -> Command | None:
    """The command of `side`'s legal list whose notation is exactly `text`,
    if the side's view of the current state was made (the list is the
    engine's legal_commands of that state); None if not listed or not known."""
    chair = game.chairs.get(side)
    if chair is None or chair.state is not game.host.state or chair.view is None:
        return None
    # A scan (in C), not a table of them all: a state is mostly submitted to once.
    return find_listed(chair.view.legal, text)


def steps_held(game: HostedGame, seen: int | None) -> int:
    """How many of the current steps a client that saw version `seen` holds:
    the setup step and the commands its history shares with the game's
    (a step is determined by the commands before it)."""
    if seen is None or not 0 <= seen <= game.version:
        return 0
    held, now = commands_standing(game.actions[:seen]), commands_standing(game.actions)
    common = 0
    for old, new in zip(held, now):
        if old != new:
            break
        common += 1
    return 1 + common
