"""A value for each side, as an immutable pair (never a mutable dict)."""

from __future__ import annotations

from typing import Callable, Generic, Iterator, TypeVar

from attrs import frozen

from rules.sides import ISHIDA, TOKUGAWA, Side

T = TypeVar("T")
U = TypeVar("U")


@frozen
class Pair(Generic[T]):
    ishida: T
    tokugawa: T

    def __getitem__(self, side: Side) -> T:
        return self.ishida if side is ISHIDA else self.tokugawa

    def __iter__(self) -> Iterator[T]:
        """Ishida's value, then Tokugawa's. (Without it, iteration would call
        __getitem__ with 0, 1, 2, ... for ever.)"""
        yield self.ishida
        yield self.tokugawa

    def replace(self, side: Side, value: T) -> Pair[T]:
        return Pair(value, self.tokugawa) if side is ISHIDA else Pair(self.ishida, value)

    def map(self, fn: Callable[[T], U]) -> Pair[U]:
        return Pair(fn(self.ishida), fn(self.tokugawa))

    @classmethod
    def of(cls, fn: Callable[[Side], T]) -> Pair[T]:
        return cls(fn(ISHIDA), fn(TOKUGAWA))
