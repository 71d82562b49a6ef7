"""The screen as plain text, for tests and for looking at layouts."""

from __future__ import annotations

from textual.app import App


def screen_text(app: App) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip).rstrip() for strip in strips)
