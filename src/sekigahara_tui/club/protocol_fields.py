"""Validators shared by the club's message modules: bounded, printable strings."""

from __future__ import annotations

from typing import Any


def _printable(_instance: object, attribute: Any, value: str | None) -> None:
    if value is None:
        return
    if not value or not value.isprintable():
        raise ValueError(f"{attribute.name} is empty or holds an unprintable character")


def _bounded(limit: int):
    def check(_instance: object, attribute: Any, value: str | None) -> None:
        if value is not None and len(value) > limit:
            raise ValueError(f"{attribute.name} is longer than {limit} characters")

    return [check, _printable]
