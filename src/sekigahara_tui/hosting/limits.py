"""The club's limits on its members and on strangers (issue 23, item 7): how
many games a member may have in play, how fast a member may make new ones,
and how many failed sign-ins an address may make.

They are counted in memory (a restart forgets them): they are there to stop
a flood (40 games made in 0.03 s filled every lobby), not to keep accounts.
A request over a limit is refused with one line saying which limit and what
to do (lobby.py), and one line in the audit log. The club's own Unix user
(the local door, lobby.py) is the club's administrator and is not limited.
"""

from __future__ import annotations

import ipaddress
import math
import time
from typing import Callable

from attrs import frozen

from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.club_games import Refusal

FAILURES_ALLOWED = 5  # failed sign-ins an address may make in FAILURE_WINDOW ...
FAILURE_WINDOW = 60.0  # ... seconds; past that it is refused unchecked until the window has passed
TOO_MANY_SIGN_INS = "too many failed sign-ins from your address: try again in a minute"
# Addresses remembered at most; past that the oldest are forgotten (a flood
# from many addresses cannot grow the server's memory without bound).
MAX_ADDRESSES = 10_000


@frozen
class ClubLimits:
    games_in_play: int = 10  # a member's games not over, made or joined (the computer's included)
    new_games_at_once: int = 10  # games a member may make in a burst ...
    new_game_every: float = 6.0  # ... then one every this many seconds (10 a minute)


class TokenBucket:
    """Per key, `capacity` tokens, one more every `every` seconds: a burst of
    `capacity`, then a steady rate. A full bucket is forgotten."""

    def __init__(self, capacity: int, every: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity, self.every, self.clock = capacity, every, clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> tokens, when counted

    def _tokens(self, key: str, now: float) -> float:
        tokens, then = self._buckets.get(key, (self.capacity, now))
        return min(self.capacity, tokens + (now - then) / self.every)

    def take(self, key: str) -> float | None:
        """Take a token: None if there was one, else the seconds until there is."""
        now = self.clock()
        tokens = self._tokens(key, now)
        if tokens < 1:
            return (1 - tokens) * self.every
        tokens -= 1
        if tokens >= self.capacity:
            self._buckets.pop(key, None)
        else:
            self._buckets[key] = (tokens, now)
        return None


def address_key(address: str) -> str:
    """What sign-in failures are counted by: the address, or for IPv6 its /64
    (one machine commonly holds a whole /64)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


class FailedSignIns:
    """Failed sign-ins per address (address_key), forgotten after `window`.
    The web front's sign-in form and the club's TCP door each keep one."""

    def __init__(self, allowed: int = FAILURES_ALLOWED, window: float = FAILURE_WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.allowed, self.window, self.clock = allowed, window, clock
        self._times: dict[str, list[float]] = {}

    def _recent(self, key: str, now: float) -> list[float]:
        times = [t for t in self._times.get(key, ()) if now - t < self.window]
        if times:
            self._times[key] = times
        else:
            self._times.pop(key, None)
        return times

    def too_many(self, address: str) -> bool:
        return len(self._recent(address_key(address), self.clock())) >= self.allowed

    def failed(self, address: str) -> None:
        now = self.clock()
        key = address_key(address)
        self._times[key] = self._recent(key, now) + [now]
        if len(self._times) > MAX_ADDRESSES:
            oldest = min(self._times, key=lambda k: self._times[k][-1])
            del self._times[oldest]

    def forgive(self, address: str) -> None:
        """One failure counted too soon: the sign-in it stood for was good."""
        times = self._times.get(address_key(address))
        if times:
            times.pop()


class MemberLimits:
    """The limits on what a signed-in member asks of the lobby."""

    def __init__(self, limits: ClubLimits, catalog: Catalog, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.catalog = catalog
        self.new_games = TokenBucket(limits.new_games_at_once, limits.new_game_every, clock)

    def games_in_play(self, member: str) -> int:
        return sum(1 for entry in self.catalog.entries.values() if entry.status == "playing" and entry.side_of(member) is not None)

    def why_not_in_another(self, member: str) -> Refusal | None:
        """A member at the cap may neither make nor join another game."""
        count, cap = self.games_in_play(member), self.limits.games_in_play
        if count >= cap:
            return Refusal("not-authorised", f"you have {count} games in play, at most {cap} a member: finish or withdraw one first")
        return None

    def why_not_new_game(self, member: str) -> Refusal | None:
        refusal = self.why_not_in_another(member)
        if refusal is not None:
            return refusal
        wait = self.new_games.take(member)
        if wait is not None:
            per_minute = round(60 / self.limits.new_game_every)
            return Refusal("not-authorised", f"games made too fast (at most {per_minute} a minute after the first "
                                             f"{self.limits.new_games_at_once}): wait {math.ceil(wait)} s, then make it")
        return None
