"""A member's notice settings (`s` in the lobby, issue 24): a webhook URL
and its format (Discord, Slack, plain JSON), a mail address (where the club
sends mail), and which kinds of notice. Saved all at once (ctrl+s) with the
club's set_notices; a setting the club refuses is said in one line and
nothing changes. Below them, days away (a vacation: the member's
correspondence clocks stop, within the club's yearly allowance), taken with
enter or ctrl+o (take_vacation). Fits 80x24.
"""

from __future__ import annotations

import time

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Select, SelectionList, Static

from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.club.protocol import Notices, Vacation
from sekigahara_tui.widgets.steady_footer import SteadyFooter

FORMATS = (("Discord", "discord"), ("Slack", "slack"), ("plain JSON", "json"))
KINDS = (
    ("your move", "your-move"),
    ("invitations", "invitation"),
    ("rematch offers", "rematch"),
    ("clock running low", "clock-low"),
    ("game over", "game-over"),
    ("chat", "chat"),
)


class NoticeSettingsScreen(Screen[None]):
    DEFAULT_CSS = """
    NoticeSettingsScreen #notices-title { height: 2; padding: 0 1; }
    NoticeSettingsScreen .row { height: 3; }
    NoticeSettingsScreen #webhook { width: 1fr; }
    NoticeSettingsScreen #webhook-format { width: 20; }
    NoticeSettingsScreen #kinds { height: 8; }
    NoticeSettingsScreen #notices-message { height: auto; padding: 0 1; }
    NoticeSettingsScreen #vacation-days { width: 26; }
    NoticeSettingsScreen #vacation { width: 1fr; padding: 1 1 0 1; }
    """
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="notices.save"),
        Binding("ctrl+o", "vacation", "Take days away", id="notices.vacation"),
        Binding("escape", "back", "Lobby", id="notices.back"),
    ]

    def __init__(self, club: ClubClient) -> None:
        super().__init__()
        self.club = club
        self.settings: Notices | None = None
        self.vacation: Vacation | None = None

    def compose(self) -> ComposeResult:
        yield Static(
            "Notices: how the club tells you, while you are away, that it is your move.\n"
            "Tab moves, space ticks a kind, ctrl+s saves.",
            id="notices-title",
            markup=False,
        )
        with Vertical():
            with Horizontal(classes="row"):
                yield Input(placeholder="webhook URL (https://...); blank: none", id="webhook")
                yield Select(FORMATS, value="discord", allow_blank=False, id="webhook-format")
            with Horizontal(classes="row"):
                yield Input(placeholder="mail address; blank: none", id="mail")
            yield SelectionList[str](*((label, kind, False) for label, kind in KINDS), id="kinds")
            with Horizontal(classes="row"):
                yield Input(placeholder="days away (vacation)", id="vacation-days", restrict=r"[0-9]*", max_length=3)
                yield Static("", id="vacation", markup=False)
        yield Static("Asking the club…", id="notices-message", markup=False)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#webhook", Input).focus()
        self._load()
        self._vacation(None)

    def say(self, text: str) -> None:
        self.query_one("#notices-message", Static).update(text)

    @work(exclusive=True, group="notices")
    async def _load(self) -> None:
        try:
            self.show(await self.club.notices())
        except ClubRefused as error:
            self.say(f"The club refused: {error}")
        except (OSError, TimeoutError) as error:
            self.say(f"Cannot reach the club: {getattr(error, 'strerror', None) or error}")

    def show(self, settings: Notices) -> None:
        self.settings = settings
        self.query_one("#webhook", Input).value = settings.webhook or ""
        self.query_one("#webhook-format", Select).value = settings.webhook_format
        mail = self.query_one("#mail", Input)
        mail.value = settings.mail or ""
        mail.disabled = not settings.mail_offered
        if not settings.mail_offered:
            mail.placeholder = "this club sends no mail"
        kinds = self.query_one("#kinds", SelectionList)
        kinds.deselect_all()
        for kind in settings.kinds:
            kinds.select(kind)
        self.say("")

    def chosen(self) -> tuple[str | None, str, str | None, tuple[str, ...]]:
        webhook = self.query_one("#webhook", Input).value.strip() or None
        form = self.query_one("#webhook-format", Select).value
        mail = self.query_one("#mail", Input).value.strip() or None
        kinds = tuple(self.query_one("#kinds", SelectionList).selected)
        return webhook, str(form), mail, kinds

    def action_save(self) -> None:
        self._save(*self.chosen())

    @work(exclusive=True, group="notices")
    async def _save(self, webhook: str | None, form: str, mail: str | None, kinds: tuple[str, ...]) -> None:
        try:
            self.show(await self.club.set_notices(webhook, form, mail, kinds))
        except ClubRefused as error:
            self.say(f"Not saved: {error}")
            return
        except ValueError as error:  # longer than the protocol takes: said before asking
            self.say(f"Not saved: {str(error).splitlines()[0]}")
            return
        except (OSError, TimeoutError) as error:
            self.say(f"Cannot reach the club: {getattr(error, 'strerror', None) or error}")
            return
        self.say("Saved.")

    # --- days away ------------------------------------------------------------------

    def show_vacation(self, vacation: Vacation) -> None:
        self.vacation = vacation
        left = f"{vacation.days_allowed - vacation.days_taken} of {vacation.days_allowed} days left"
        if vacation.until is None:
            text = f"Not away; {left} this year"
        else:  # within the 52 columns left at 80
            text = f"Away until {time.strftime('%b %d %H:%M', time.localtime(vacation.until))}; {left}"
        self.query_one("#vacation", Static).update(text)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "vacation-days":
            self.action_vacation()

    def action_vacation(self) -> None:
        text = self.query_one("#vacation-days", Input).value.strip()
        if not text.isdigit() or not 1 <= int(text) <= 366:
            self.say("Days away: a whole number from 1 to 366.")
            return
        self._vacation(int(text))

    @work(exclusive=True, group="vacation")
    async def _vacation(self, days: int | None) -> None:
        """Read my vacation (days None) or take `days` away."""
        try:
            self.show_vacation(await self.club.vacation(days))
        except ClubRefused as error:
            if days is not None:
                self.say(f"No vacation taken: {error}")
            return
        except (OSError, TimeoutError) as error:
            self.say(f"Cannot reach the club: {getattr(error, 'strerror', None) or error}")
            return
        if days is not None:
            self.query_one("#vacation-days", Input).value = ""
            self.say(f"On vacation for {days} more day{'s' if days != 1 else ''}: your correspondence clocks stop.")

    def action_back(self) -> None:
        self.dismiss()
