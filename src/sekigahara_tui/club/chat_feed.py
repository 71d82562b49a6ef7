"""A chat as a client holds it (club/protocol_chat.py): the lines told, in
order, for a chat panel to draw (screens/chat.py); lines said and not yet
answered; the last refusal. One for a seat's game chat (ClubSeatClient), one
for the club's channel (ClubClient, the lobby). Client side."""

from __future__ import annotations

from typing import Callable

from sekigahara_tui.club.protocol_chat import MAX_CHAT_HISTORY, ChatDeleted, ChatLine, ChatLines

KEEP = 4 * MAX_CHAT_HISTORY  # lines kept while a panel is open a long time


class ChatFeed:
    def __init__(self) -> None:
        self.lines: list[ChatLine] = []
        self.unread = 0  # lines told since the panel last looked (a panel open sets `reading`)
        self.reading = False
        self.problem: str | None = None  # the last line refused, in one line (None: the last one went)
        self.pending: set[str] = set()  # ids of lines said, not yet answered
        self.follower: Callable[[], None] | None = None  # told of every change (the open panel)

    def take(self, message: object) -> bool:
        """A chat message from the club; False if it is none."""
        if isinstance(message, ChatLines):
            self.lines = list(message.lines)
        elif isinstance(message, ChatLine):
            if any(line.number == message.number for line in self.lines):
                return True
            self.lines = (self.lines + [message])[-KEEP:]
            if message.reply_to is not None:
                self.pending.discard(message.reply_to)
                self.problem = None
            elif not self.reading:
                self.unread += 1
        elif isinstance(message, ChatDeleted):
            self.lines = [line for line in self.lines if line.number != message.number]
        else:
            return False
        self._tell()
        return True

    def said(self, message_id: str) -> None:
        self.pending.add(message_id)

    def refused(self, message_id: str | None, reason: str) -> bool:
        """A refusal; True if it answered a line said."""
        if message_id is None or message_id not in self.pending:
            return False
        self.pending.discard(message_id)
        self.problem = reason
        self._tell()
        return True

    def _tell(self) -> None:
        if self.follower is not None:
            self.follower()
