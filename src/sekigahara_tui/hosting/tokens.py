"""The club's seat and spectator tokens, derived from its secret.

A token is an HMAC of the game and the seat (or of the game, for its
spectators) under the club's secret (DATA_DIR/club.secret): stable across
restarts, so a client reconnects to a restarted club with the token it had.
The lobby hands them out (`entry`); a seat's hello and a spectator's
watch_game present them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from pathlib import Path

from rules.surface import Side


class SeatTokens:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _derived(self, purpose: str) -> str:
        digest = hmac.new(self._secret, purpose.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:24]).decode()

    def seat(self, game_id: str, side: Side) -> str:
        return self._derived(f"seat\0{game_id}\0{side.value}")

    def watch(self, game_id: str) -> str:
        return self._derived(f"watch\0{game_id}")


def load_secret(data_dir: Path) -> bytes:
    """The club's secret (DATA_DIR/club.secret, 0600), made if missing: seat
    and spectator tokens are derived from it, so they outlive a restart."""
    from sekigahara_tui.net.locations import write_private

    path = Path(data_dir) / "club.secret"
    if not path.exists():
        write_private(path, secrets.token_hex(32) + "\n")
    return bytes.fromhex(path.read_text(encoding="ascii").strip())
