"""The map and the choices follow each other on the game screen: the map
moves to the place a highlighted choice names, the line under the map
describes the cursor's place, and Enter on a place lists its choices (or
gives the only one). Called in the key's own call (the prompt's `browsed`,
the map's `cursor_moved`): one key, one screen update (issue 27, item 11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import surface
from rules.surface import Command
from sekigahara_tui.labels import place_label
from sekigahara_tui.widgets.location_info import LocationInfo
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import PromptPanel

if TYPE_CHECKING:
    from sekigahara_tui.screens.game import GameScreen


class MapFollow:
    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def wire(self) -> None:
        self.screen.query_one(PromptPanel).browsed = self.browsed
        self.screen.query_one(MapPanel).cursor_moved = self.cursor_moved

    def browsed(self, command: Command) -> None:
        """The map follows the highlighted choice to the place it names (a move's
        source, a step's or retreat's destination, a combat, a muster)."""
        map_panel = self.screen.query_one(MapPanel)
        shown = [place for place in surface.places(command) if place in map_panel.layout_data.locations]
        if shown and shown[-1] != map_panel.cursor:
            map_panel.move_cursor(shown[-1])

    def cursor_moved(self, location: str) -> None:
        if self.screen.view is not None:
            self.screen.query_one(LocationInfo).show(self.screen.view, location)

    def location_chosen(self, location: str) -> None:
        prompt = self.screen.query_one(PromptPanel)
        commands = prompt.commands_at(location)
        if len(commands) == 1:
            self.screen.submit(commands[0])
        elif commands:
            prompt.filter_to(location)
            prompt.choices.focus()
        else:
            self.screen.say(f"Nothing to decide at {place_label(location)} now.")
