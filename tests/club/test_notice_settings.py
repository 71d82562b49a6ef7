"""A member's notice settings (issue 24): the club protocol's get_notices and
set_notices (each bad setting one line, nothing changed, one audit line),
the lobby's warning when notices keep failing, and the settings screen (`s`
in the lobby) at 80x24."""

from __future__ import annotations

import pytest

from club_helpers import start_club, wait_until
from notice_helpers import WebhookReceiver
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.club.client import ClubRefused
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.notice_delivery import NoticeOptions
from sekigahara_tui.hosting.notice_settings import TELL_AFTER, MemberNotices
from sekigahara_tui.hosting.notices import YOUR_MOVE, Notice
from sekigahara_tui.screens.lobby import LobbyScreen
from sekigahara_tui.screens.notice_settings import NoticeSettingsScreen
from tui.driving import until
from tui.screen_text import screen_text

HOOK = "https://hooks.example.org/services/T0/B0/x"


@pytest.fixture
async def audited(data_dir):
    members.prepare_data_dir(data_dir)
    audit = AuditLog(data_dir)
    club = await start_club(data_dir, audit=audit, notices=NoticeOptions(smtp=("127.0.0.1", 25), mail_from="club@example.org"))
    yield club, audit
    await club.stop()
    audit.close()


async def test_settings_are_set_and_read_back(audited):
    club, audit = audited
    alice = club.lobby_client("alice")
    answer = await alice.set_notices(HOOK, "slack", "alice@example.org", ("your-move", "game-over"))
    assert (answer.webhook, answer.webhook_format, answer.mail, answer.kinds) == (HOOK, "slack", "alice@example.org", ("game-over", "your-move"))
    assert answer.mail_offered
    again = await alice.notices()
    assert again.webhook == HOOK and again.kinds == ("game-over", "your-move")
    assert club.server.notice_settings.of("alice").wants(YOUR_MOVE)
    assert any(" notice-settings " in line and "member=alice" in line for line in audit.lines())
    await alice.close()


@pytest.mark.parametrize(
    "webhook, form, mail, kinds, reason",
    [
        ("http://hooks.example.org/x", "json", None, ("your-move",), "a webhook URL must begin https://"),
        ("https://user:pw@hooks.example.org/x", "json", None, ("your-move",), "a webhook URL may not hold a user name or password"),
        ("https:///x", "json", None, ("your-move",), "a webhook URL needs a host"),
        (HOOK, "teams", None, ("your-move",), "the webhook format is one of discord, slack, json, not 'teams'"),
        (None, "json", "not-an-address", ("your-move",), "not a mail address: 'not-an-address'"),
        (None, "json", None, ("your-move", "tea"), "no notice kind 'tea'; the kinds are your-move, invitation, rematch, clock-low, game-over, chat"),
        (None, "json", None, ("your-move", "your-move"), "a notice kind is named twice"),
    ],
)
async def test_a_bad_setting_is_one_line_and_changes_nothing(audited, webhook, form, mail, kinds, reason):
    club, audit = audited
    alice = club.lobby_client("alice")
    await alice.set_notices(HOOK, "discord", None, ("your-move",))
    with pytest.raises(ClubRefused) as refused:
        await alice.set_notices(webhook, form, mail, kinds)
    assert str(refused.value) == reason
    assert club.server.notice_settings.of("alice") == MemberNotices(HOOK, "discord", None, frozenset({"your-move"}))
    assert (await alice.notices()).webhook == HOOK
    assert any(" refused front=club member=alice " in line and line.endswith(f": {reason}") for line in audit.lines())
    await alice.close()


async def test_mail_is_refused_where_the_club_sends_none(club):
    alice = club.lobby_client("alice")
    with pytest.raises(ClubRefused, match=r"^this club sends no mail \(its server was started without --smtp\)$"):
        await alice.set_notices(None, "json", "alice@example.org", ("your-move",))
    assert (await alice.notices()).mail_offered is False
    await alice.close()


async def test_the_lobby_says_when_notices_keep_failing(data_dir):
    receiver = await WebhookReceiver(statuses=[500]).start()
    club = await start_club(data_dir, notices=NoticeOptions(allow_private=True))
    try:
        alice = club.lobby_client("alice")
        pushed = []
        alice.on_lobby = pushed.append
        assert (await alice.lobby()).warning is None
        await alice.set_notices(receiver.url(), "json", None, ("your-move",))

        async def no_wait(_seconds: float) -> None:
            pass

        club.server.notices.sleep, club.server.notices.attempts = no_wait, 1
        for _ in range(TELL_AFTER):
            club.server.notices.send("alice", Notice(YOUR_MOVE, "g1", "alice", "bob"))
            await club.server.notices.idle()
        await wait_until(lambda: pushed and pushed[-1].warning, "the warning pushed")
        assert pushed[-1].warning == "Your notices keep failing (webhook: HTTP 500); check them with s"
        assert (await club.lobby_client("alice").lobby()).warning == pushed[-1].warning
        assert (await club.lobby_client("bob").lobby()).warning is None
        # New settings: the failures start afresh and the warning goes.
        await alice.set_notices(receiver.url("/new"), "json", None, ("your-move",))
        await wait_until(lambda: pushed[-1].warning is None, "the warning gone")
        await alice.close()
    finally:
        await club.stop()
        await receiver.stop()


async def test_the_settings_screen_at_80x24(club, tmp_path):
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.lobby is not None, "the lobby")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, NoticeSettingsScreen), "the settings screen")
        screen = app.screen
        await until(pilot, lambda: screen.settings is not None, "the settings read")
        assert screen.chosen() == (None, "json", None, ("clock-low", "game-over", "invitation", "rematch", "your-move"))
        await pilot.press(*"http://example.org/hook")  # the webhook field has the focus
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Not saved" in screen_text(app), "the refusal")
        text = screen_text(app)
        assert "Not saved: a webhook URL must begin https://" in text
        assert club.server.notice_settings.of("alice").webhook is None  # nothing changed
        webhook = screen.query_one("#webhook")
        webhook.value = ""
        await pilot.press(*HOOK)
        await pilot.press("tab", "tab")  # past the format: the mail field is disabled here, so on to the kinds
        await pilot.press("space")  # untick the first kind, "your move"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Saved." in screen_text(app), "saved")
        saved = club.server.notice_settings.of("alice")
        assert saved.webhook == HOOK and "your-move" not in saved.kinds and "game-over" in saved.kinds
        assert "mail" in screen_text(app) and "this club sends no mail" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby, "back in the lobby")
