"""A chat panel (issue 26; docs/club.md, Chat): a club game's chat between
its two players (ctrl+g on the game screen), or the club's channel (g in the
lobby), or a finished game's, read only (g in its replay). Keyboard only, readable at 80x24: the newest lines above, a line to
type below; Enter says it, Esc closes.

Every line is drawn as plain text (rich.text.Text pieces, never a markup
string): "[red]" shows as typed. The club refuses control characters
(hosting/chat.py); a line that holds one all the same (a club of another
make) has it drawn as printable() words, never sent to the terminal."""

from __future__ import annotations

import time
from typing import Awaitable, Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from rules.surface import printable
from sekigahara_tui.club.chat_feed import ChatFeed
from sekigahara_tui.club.protocol_chat import MAX_CHAT_TEXT, ChatLine, ChatLines
from sekigahara_tui.labels import side_name

NOT_A_PLAYER = "ctrl+g: the chat is between a club game's two players"


def chat_text(lines: list[ChatLine], me: str | None) -> Text:
    """The lines as one Text: time, who, what; nothing in them read as markup."""
    text = Text()
    for line in lines:
        who = line.member + (f" ({side_name(line.side)})" if line.side is not None else "")
        text.append(time.strftime("%H:%M ", time.localtime(line.at)), style="dim")
        text.append(printable(who, 60), style="bold" if line.member == me else "bold cyan")
        text.append(": ")
        text.append(printable(line.text, MAX_CHAT_TEXT))
        text.append("\n")
    if not lines:
        text.append("Nothing said yet.", style="dim")
    return text


class ChatScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    ChatScreen { align: center middle; }
    ChatScreen #chat-box { width: 78; max-width: 100%; height: 22; max-height: 100%; border: round $accent; background: $surface; }
    ChatScreen #chat-title { height: 1; padding: 0 1; text-style: bold; }
    ChatScreen #chat-scroll { height: 1fr; padding: 0 1; }
    ChatScreen #chat-problem { height: auto; padding: 0 1; color: $error; }
    """
    BINDINGS = [Binding("escape", "close", "Close", id="chat.close")]

    def __init__(self, title: str, feed: ChatFeed, say: Callable[[str], Awaitable[None]] | None,
                 load: Callable[[], Awaitable[None]] | None, me: str | None) -> None:
        super().__init__()
        self.title_line = title
        self.feed = feed
        self.say = say  # sends a line; a refusal comes back as feed.problem (None: read only, a replay's)
        self.load = load  # asks for the newest lines (None: the feed holds them)
        self.me = me

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-box"):
            yield Static(Text(self.title_line), id="chat-title")
            with VerticalScroll(id="chat-scroll"):
                yield Static(id="chat-lines")
            yield Static(id="chat-problem")
            if self.say is not None:
                yield Input(placeholder="Type a line; Enter says it, Esc closes", max_length=MAX_CHAT_TEXT, id="chat-input")
            else:
                yield Static(Text("Esc closes", style="dim"))

    def on_mount(self) -> None:
        self.feed.reading, self.feed.unread = True, 0
        self.feed.follower = self.redraw
        self.redraw()
        if self.say is not None:
            self.query_one(Input).focus()
        if self.load is not None:
            self._load()

    def on_unmount(self) -> None:
        self.feed.reading = False
        if self.feed.follower == self.redraw:
            self.feed.follower = None

    def redraw(self) -> None:
        self.query_one("#chat-lines", Static).update(chat_text(self.feed.lines, self.me))
        self.query_one("#chat-problem", Static).update(Text(self.feed.problem or ""))
        self.query_one("#chat-scroll", VerticalScroll).scroll_end(animate=False)

    @work(exclusive=True, group="chat-load")
    async def _load(self) -> None:
        if self.load is not None:
            await self.load()
        self.redraw()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value
        if not text.strip() or self.say is None:
            return
        event.input.clear()
        await self.say(text)
        self.redraw()

    def action_close(self) -> None:
        self.dismiss(None)


def game_chat(screen) -> ChatScreen | None:
    """The chat panel of a club seat's game (its table's ClubSeatClient); None elsewhere."""
    seat = getattr(screen.table, "ending", None)
    if seat is None:
        return None

    async def say(text: str) -> None:
        if seat.say(text) is None:
            seat.chat.problem = "not connected to the club: try again when connected"

    async def load() -> None:
        seat.ask_chat()

    entry = screen.table.entry
    return ChatScreen(f"Chat of game {entry.game}: its players only, never its spectators", seat.chat, say, load, screen.table.club.member)


def channel_chat(club) -> ChatScreen:
    """The club's channel, on the lobby connection (club/client.py ClubClient)."""
    from sekigahara_tui.club.client import ClubRefused

    async def say(text: str) -> None:
        try:
            await club.say(text)
        except (ClubRefused, OSError, TimeoutError) as error:
            club.channel.problem = printable(str(error), 200) or "the club did not answer"

    async def load() -> None:
        try:
            await club.channel_history()
        except (ClubRefused, OSError, TimeoutError) as error:
            club.channel.problem = printable(str(error), 200) or "the club did not answer"

    return ChatScreen("The club's channel: every member signed in reads it", club.channel, say, load, club.member)


def replay_chat(lines: ChatLines, me: str | None) -> Callable[[], ChatScreen]:
    """A finished game's chat, read only, for the replay (g) of one of its players."""

    def panel() -> ChatScreen:
        feed = ChatFeed()
        feed.take(lines)
        return ChatScreen(f"Chat of game {lines.game}, as its players said it", feed, None, None, me)

    return panel
