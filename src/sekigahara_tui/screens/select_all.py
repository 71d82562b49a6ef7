"""ctrl+a in a stack move (issue 27, item 8): every block that may move with
the group is selected (7.3.1), one Select a block as the rules take them, each
given once the last was taken; pressed with every block selected, all are
deselected. A refusal stops it."""

from __future__ import annotations

from rules.surface import Command, Deselect, PlayerView, Select


def offered(view: PlayerView | None) -> bool:
    """Only in a stack move, with a block to select or deselect."""
    return view is not None and any(isinstance(c, (Select, Deselect)) for c in view.legal)


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
