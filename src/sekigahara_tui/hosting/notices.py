"""Notices (issue 24): what the club tells a member who is not looking, by
webhook or mail (notice_delivery.py), and how each is worded.

A notice holds no hidden information (R55): it is built only from what the
catalog says (players, result) and from the public view of the game
(rules.view.spectator_view: week, turn, phase, who decides), never from a
side's view. So it names the game, the opponent, the week and phase, whose
move it is, the clocks when there are any, and how to resume: the `ssh`
command or web link the server was given (`serve --notify-resume`).
"""

from __future__ import annotations

from email.message import EmailMessage

from attrs import frozen

from rules.surface import PlayerView

YOUR_MOVE = "your-move"
INVITATION = "invitation"
REMATCH = "rematch"
CLOCK_LOW = "clock-low"
GAME_OVER = "game-over"
CHAT = "chat"
KINDS = (YOUR_MOVE, INVITATION, REMATCH, CLOCK_LOW, GAME_OVER, CHAT)
DEFAULT_KINDS = frozenset({YOUR_MOVE, INVITATION, REMATCH, CLOCK_LOW, GAME_OVER})
# Webhook bodies as Rally the Troops sends them: Discord's and Slack's
# incoming webhooks, or the notice's fields as plain JSON.
FORMATS = ("discord", "slack", "json")

_HEADLINES = {
    YOUR_MOVE: "your move in game {game} against {opponent}",
    INVITATION: "{opponent} invites you to game {game}",
    REMATCH: "{opponent} offers a rematch: game {game}",
    CLOCK_LOW: "your clock is running low in game {game} against {opponent}",
    GAME_OVER: "game {game} against {opponent} is over",
    CHAT: "{opponent} wrote in game {game}",
}


class HiddenInformation(ValueError):
    """A notice was to be built from a side's view: refused (R55)."""


@frozen
class Notice:
    kind: str
    game: str
    member: str  # to whom
    opponent: str | None
    week: int | None = None
    turn: str | None = None
    phase: str | None = None
    to_move: tuple[str, ...] = ()  # the players who decide now, by name
    clocks: str | None = None  # both clocks, as a line, where the game has them
    result: str | None = None  # a game over: its result line (public)
    resume: str | None = None  # `ssh -p PORT HOST` or a web link

    def headline(self) -> str:
        return "Sekigahara: " + _HEADLINES[self.kind].format(game=self.game, opponent=self.opponent or "an opponent")

    def text(self) -> str:
        """The notice in a few lines: what a chat message or a mail says."""
        lines = [self.headline() + "."]
        if self.week is not None:
            lines.append(f"Week {self.week}, turn {self.turn}, {self.phase} phase; to move: {', '.join(self.to_move) or 'nobody'}.")
        if self.clocks:
            lines.append(f"Clocks: {self.clocks}.")
        if self.result:
            lines.append(f"Result: {self.result}.")
        if self.resume:
            lines.append(f"Resume: {self.resume}")
        return "\n".join(lines)

    def fields(self) -> dict[str, object]:
        """The plain-JSON webhook body."""
        return {
            "kind": self.kind,
            "game": self.game,
            "member": self.member,
            "opponent": self.opponent,
            "week": self.week,
            "turn": self.turn,
            "phase": self.phase,
            "to_move": list(self.to_move),
            "clocks": self.clocks,
            "result": self.result,
            "resume": self.resume,
            "text": self.text(),
        }

    def webhook_body(self, form: str) -> dict[str, object]:
        if form == "discord":
            return {"content": self.text()}
        if form == "slack":
            return {"text": self.text()}
        if form == "json":
            return self.fields()
        raise ValueError(f"no webhook format {form!r}")

    def mail(self, sender: str, to: str) -> EmailMessage:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = to
        message["Subject"] = self.headline()
        message.set_content(self.text() + "\n")
        return message


def game_notice(
    kind: str,
    game: str,
    member: str,
    opponent: str | None,
    public: PlayerView,
    to_move: tuple[str, ...],
    *,
    resume: str | None = None,
    result: str | None = None,
    clocks: str | None = None,
) -> Notice:
    """A notice about a game, from its public view (`GameHost.spectator_view`):
    HiddenInformation for a side's view."""
    if not public.spectator:
        raise HiddenInformation("a notice is built from the public view of a game, not from a side's (R55)")
    return Notice(
        kind,
        game,
        member,
        opponent,
        public.week,
        public.turn.value,
        public.phase.value,
        to_move,
        clocks,
        result,
        resume,
    )
