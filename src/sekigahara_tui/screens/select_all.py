"""ctrl+a in a stack move (issue 27, item 8): every block that may move with
the group is selected (7.3.1), one Select a block as the rules take them, each
given once the last was taken; pressed with every block selected, all are
deselected. A refusal stops it."""

from __future__ import annotations

from rules.surface import Command, Deselect, Phase, PlayerView, Select


def offered(view: PlayerView | None) -> bool:
    """In the Movement Phase, where stack moves are (outside one the key says it
    has nothing to select): the key bar keeps "^a All" from the phase's first
    command to its last. Shown only while a stack move lasted, it came and went
    with each, and each time the key bar was built again and the screen laid
    out (issue 27, item 11)."""
    return view is not None and view.phase is Phase.MOVEMENT and view.result is None


class SelectAll:
    def __init__(self) -> None:
        self.kind: type | None = None  # under way: Select or Deselect

    def begin(self, view: PlayerView) -> bool:
        """Start selecting (or, all selected, deselecting); False if there is nothing to do."""
        if any(isinstance(c, Select) for c in view.legal):
            self.kind = Select
        elif any(isinstance(c, Deselect) for c in view.legal):
            self.kind = Deselect
        else:
            self.kind = None
        return self.kind is not None

    def next_command(self, view: PlayerView | None) -> Command | None:
        """The next command to give, or None when done (and then it stops)."""
        kind = self.kind
        command = next((c for c in view.legal if isinstance(c, kind)), None) if view is not None and kind else None
        if command is None:
            self.kind = None
        return command

    def stop(self) -> None:
        self.kind = None
