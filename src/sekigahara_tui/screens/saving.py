"""ctrl+s on the game screen: the save dialog (by default a file under the
save directory's saves/), the record written there by the table, and a
notification of how it went; a failure says why, printable."""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from rules.surface import printable, printable_path
from sekigahara_tui.screens.dialogs import SaveDialog
from sekigahara_tui.seat import Table


def save_game(screen: Screen, table: Table, save_dir: Path) -> None:
    """Ask where to save `table`'s game, then save it there."""
    default = save_dir / "saves" / table.default_save_name()

    def saved(path: Path | None) -> None:
        if path is None:
            return
        shown = printable_path(path, 120)
        try:
            table.save(path)
        except (OSError, ValueError) as error:  # ValueError: a path with a NUL
            reason = getattr(error, "strerror", None) or str(error)
            screen.notify(f"Could not save to {shown}: {printable(reason, 100)}", severity="error", markup=False)
        else:
            screen.notify(f"Saved to {shown}", markup=False)

    screen.app.push_screen(SaveDialog(default), saved)


def report_warning(screen: Screen, warning: str | None, reported: str | None) -> str | None:
    """Show a failed autosave once (not after every command while it keeps
    failing); the game goes on without it. Returns the warning now reported."""
    if warning is not None and warning != reported:
        screen.notify(f"{warning}. The game goes on; save it elsewhere with ctrl+s.", severity="warning", timeout=10, markup=False)
    return warning
