"""The screen as plain text, for tests and for looking at layouts."""

from __future__ import annotations

from textual.app import App


def screen_text(app: App) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip).rstrip() for strip in strips)


def region_text(app: App, selector: str) -> str:
    """The screen's text inside a widget, its rows joined by spaces."""
    region = app.screen.query_one(selector).region
    rows = screen_text(app).split("\n")[region.y:region.bottom]
    return " ".join(row[region.x:region.right].strip() for row in rows)
