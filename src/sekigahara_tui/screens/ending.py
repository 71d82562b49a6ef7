"""Ending a club game early, from the game screen (issue 24): ctrl+r resigns
(asked twice), ctrl+k proposes to cancel the game or answers the other
side's proposal. A club seat's table offers it (club/client.py,
ClubTable.ending); elsewhere the keys say why not, in one line. What the
club answers comes back through the seat's client (`follower`): a refusal
or a proposal's news in the message line, the other side's proposal as a
question; the end itself comes as any game's end (the game over screen)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sekigahara_tui.labels import side_name
from sekigahara_tui.screens.dialogs import ConfirmDialog

if TYPE_CHECKING:
    from sekigahara_tui.screens.game import GameScreen

NOT_HERE = "only a player of a club game can resign or cancel it"


class Ending:
    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        if self.client is not None:
            self.client.follower = self.heard

    @property
    def client(self):
        """The club seat's client (ClubSeatClient), None for any other table."""
        return getattr(self.screen.table, "ending", None)

    def _why_not(self, key: str) -> str | None:
        if self.client is None:
            return f"{key}: {NOT_HERE}"
        if self.screen.current.is_over:
            return f"{key}: the game is over"
        return None

    def resign(self) -> None:
        why = self._why_not("ctrl+r")
        if why is not None:
            return self.screen.say(why, error=True)
        winner = side_name(self.screen.seat.other)

        def first(yes: bool | None) -> None:
            if yes:
                self.screen.app.push_screen(
                    ConfirmDialog(f"Really resign? {winner} wins; the game ends for both of you, and it cannot be undone."), second
                )

        def second(yes: bool | None) -> None:
            if not yes:
                return self.screen.say("You did not resign: the game goes on.")
            if self.client.resign() is None:
                return self.screen.say("ctrl+r: not connected to the club: try again when connected", error=True)
            self.screen.say("Resigning...")

        self.screen.app.push_screen(ConfirmDialog(f"Resign this game? {winner} wins."), first)

    def cancel(self) -> None:
        why = self._why_not("ctrl+k")
        if why is not None:
            return self.screen.say(why, error=True)
        proposal = self.client.proposal
        if proposal is not None and proposal.side is self.screen.seat.other:
            return self.ask_to_answer()

        def chosen(yes: bool | None) -> None:
            if yes and self.client.propose_cancel() is None:
                self.screen.say("ctrl+k: not connected to the club: try again when connected", error=True)

        question = "Propose to cancel this game? No result, counted by nobody; allowed before week 2 (6.1)."
        self.screen.app.push_screen(ConfirmDialog(question), chosen)

    def ask_to_answer(self) -> None:
        who = side_name(self.screen.seat.other)

        def chosen(accept: bool | None) -> None:
            self.client.answer_cancel(bool(accept))

        question = f"{who} proposes to cancel this game: no result, counted by nobody. Accept? (n: decline)"
        self.screen.app.push_screen(ConfirmDialog(question), chosen)

    def heard(self, note: str, error: bool, to_answer: bool) -> None:
        """The club's word on a request (ClubSeatClient.follower)."""
        self.screen.say(note, error=error)
        if to_answer and not self.screen.current.is_over:
            self.ask_to_answer()
