"""The club's seat and spectator tokens, derived from its secret.

A token is an HMAC, under the club's secret (DATA_DIR/club.secret), of the
game and the seat (or of the game, for a spectator), the member it is for,
and that member's generation (generations.py): stable across restarts, so a
client reconnects to a restarted club with the token it had, and worth
nothing once the member is removed (a name added again has another
generation). The lobby hands them out (`entry`); a seat's hello and a
spectator's watch_game present them. A seat's token is for the seat's player;
a spectator's token names its member (`member.HMAC`), so watch_game can check
it without another field.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from pathlib import Path

from rules.surface import Side
from sekigahara_tui.hosting.generations import MemberGenerations


class SeatTokens:
    def __init__(self, secret: bytes, generations: MemberGenerations) -> None:
        self._secret = secret
        self.generations = generations

    def _derived(self, purpose: str) -> str:
        digest = hmac.new(self._secret, purpose.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:24]).decode()

    def seat(self, game_id: str, side: Side, player: str | None) -> str | None:
        """The token of `player`'s seat; None if they may hold none now (an open
        seat, the computer's, a removed member's)."""
        generation = self.generations.generation_of(player)
        if player is None or generation is None:
            return None
        return self._derived(f"seat\0{game_id}\0{side.value}\0{player}\0{generation}")

    def watch(self, game_id: str, member: str) -> str | None:
        """`member`'s token to watch the game; None if they may hold none now."""
        generation = self.generations.generation_of(member)
        if generation is None:
            return None
        digest = self._derived(f"watch\0{game_id}\0{member}\0{generation}")
        return f"{member}.{digest}"

    def watcher(self, game_id: str, token: str) -> str | None:
        """The member whose spectator token for the game this is, if it is good now."""
        member = token.partition(".")[0]
        expected = self.watch(game_id, member)
        if expected is None or not hmac.compare_digest(token.encode(), expected.encode()):
            return None
        return member


def load_secret(data_dir: Path) -> bytes:
    """The club's secret (DATA_DIR/club.secret, 0600), made if missing: seat
    and spectator tokens are derived from it, so they outlive a restart. A
    club on PostgreSQL keeps it in the database (ownership.shared_secret), so
    every host of the club checks every token; the first host's file seeds it."""
    from sekigahara_tui.hosting import database
    from sekigahara_tui.net.locations import write_private

    path = Path(data_dir) / "club.secret"
    location = database.club_location(data_dir)
    if database.is_postgresql(location):
        from sekigahara_tui.hosting.ownership import shared_secret

        db = database.connect(location)
        try:
            return shared_secret(db, bytes.fromhex(path.read_text(encoding="ascii").strip()) if path.exists() else None)
        finally:
            db.close()
    if not path.exists():
        write_private(path, secrets.token_hex(32) + "\n")
    return bytes.fromhex(path.read_text(encoding="ascii").strip())
