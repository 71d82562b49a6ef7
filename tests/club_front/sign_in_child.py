"""A session child for the web tests: the sign-in screen, then the club's lobby.

With --lobby, the session token the sign-in gets opens the real LobbyScreen on
the club at SEKIGAHARA_CLUB (what `sekigahara club --web-sign-in` is to do);
without, a line stands in for the lobby (for tests with a stub club).
"""

import os
import sys
import tempfile
from pathlib import Path

from textual.app import App
from textual.widgets import Static

from sekigahara_tui.screens.sign_in import SignedIn, SignInScreen


class SignInThenLobby(App):
    def on_mount(self) -> None:
        self.push_screen(SignInScreen(os.environ["SEKIGAHARA_SIGN_IN"]), self.signed_in)

    def signed_in(self, result: SignedIn | None) -> None:
        if result is None:
            self.exit()
        elif "--lobby" in sys.argv:
            from sekigahara_tui.club.client import ClubClient
            from sekigahara_tui.screens.lobby import LobbyScreen

            club = ClubClient(os.environ["SEKIGAHARA_CLUB"], session=result.session)
            self.push_screen(LobbyScreen(club, Path(tempfile.mkdtemp())))
        else:
            self.mount(Static(f"Lobby of the club: signed in as {result.member} ({result.session})"))


if __name__ == "__main__":
    SignInThenLobby().run()
