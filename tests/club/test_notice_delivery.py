"""Sending notices (issue 24): webhooks in Discord's, Slack's and plain JSON
shape to a real HTTP server on loopback, mail to a real SMTP server
(aiosmtpd), retries with back-off (the sleep injected: nothing waits), the
audit lines, and the member's lobby warning after failures in a row."""

from __future__ import annotations

import pytest

from notice_helpers import MailReceiver, WebhookReceiver, receiver  # noqa: F401 - receiver: a fixture
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.notice_delivery import NoticeOptions, NoticeQueue
from sekigahara_tui.hosting.notice_settings import TELL_AFTER, MemberNotices, NoticeSettings
from sekigahara_tui.hosting.notices import CHAT, GAME_OVER, YOUR_MOVE, Notice

NOTICE = Notice(YOUR_MOVE, "g7", "alice", "bob", 3, "A", "movement", ("alice",), None, None, "ssh -p 2222 club.example.org")
LAN = NoticeOptions(allow_private=True, resume="ssh -p 2222 club.example.org")


class Sleeps:
    """The injected sleep: it records each back-off and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def settings(tmp_path):
    settings = NoticeSettings(tmp_path)
    yield settings
    settings.close()


@pytest.fixture
def audit(tmp_path):
    log = AuditLog(tmp_path)
    yield log
    log.close()


def lines(audit: AuditLog, event: str) -> list[str]:
    return [line for line in audit.lines() if f"Z {event} " in line]


@pytest.mark.parametrize("form, key", [("discord", "content"), ("slack", "text")])
async def test_a_webhook_gets_discords_or_slacks_shape(receiver, settings, form, key):
    settings.set("alice", MemberNotices(webhook=receiver.url(f"/{form}"), webhook_format=form))
    queue = NoticeQueue(settings, LAN)
    queue.send("alice", NOTICE)
    await queue.idle()
    await queue.close()
    (got,) = receiver.received
    assert got.path == f"/{form}"
    assert got.body == {key: NOTICE.text()}
    text = got.body[key]
    assert text.startswith("Sekigahara: your move in game g7 against bob.")
    assert "Week 3, turn A, movement phase" in text and text.endswith("Resume: ssh -p 2222 club.example.org")


async def test_plain_json_holds_the_notices_fields(receiver, settings):
    settings.set("alice", MemberNotices(webhook=receiver.url(), webhook_format="json"))
    queue = NoticeQueue(settings, LAN)
    queue.send("alice", NOTICE)
    await queue.idle()
    await queue.close()
    body = receiver.received[0].body
    assert body["kind"] == "your-move" and body["game"] == "g7" and body["opponent"] == "bob"
    assert (body["week"], body["turn"], body["phase"], body["to_move"]) == (3, "A", "movement", ["alice"])
    assert body["resume"] == "ssh -p 2222 club.example.org" and body["text"] == NOTICE.text()


async def test_the_request_goes_to_the_checked_address_with_the_name_as_host(receiver, settings):
    settings.set("alice", MemberNotices(webhook=receiver.url(host="localhost")))
    queue = NoticeQueue(settings, LAN)
    queue.send("alice", NOTICE)
    await queue.idle()
    await queue.close()
    assert receiver.received[0].host == f"localhost:{receiver.port}"


async def test_only_the_kinds_chosen_are_sent(receiver, settings):
    settings.set("alice", MemberNotices(webhook=receiver.url(), kinds=frozenset({GAME_OVER})))
    queue = NoticeQueue(settings, LAN)
    queue.send("alice", NOTICE)
    queue.send("bob", NOTICE)  # bob set nothing
    await queue.idle()
    assert receiver.received == []
    queue.send("alice", Notice(GAME_OVER, "g7", "alice", "bob", result="ishida wins (VP 9-3)"))
    queue.send("alice", Notice(CHAT, "g7", "alice", "bob"))
    await queue.idle()
    await queue.close()
    assert [got.body["kind"] for got in receiver.received] == ["game-over"]


async def test_mail_goes_through_the_smtp_relay(settings):
    relay = MailReceiver().start()
    try:
        options = NoticeOptions(True, ("127.0.0.1", relay.port), "club@example.org", "ssh -p 2222 club.example.org")
        settings.set("alice", MemberNotices(mail="alice@example.org"))
        queue = NoticeQueue(settings, options)
        queue.send("alice", NOTICE)
        await queue.idle()
        await queue.close()
    finally:
        relay.stop()
    ((sender, to, mail),) = relay.mails
    assert (sender, to) == ("club@example.org", ["alice@example.org"])
    assert mail["Subject"] == "Sekigahara: your move in game g7 against bob"
    assert mail.get_payload().replace("\r\n", "\n").strip() == NOTICE.text()


async def test_a_failing_webhook_is_tried_again_with_back_off_then_given_up(receiver, settings, audit):
    receiver.statuses = [500]
    settings.set("alice", MemberNotices(webhook=receiver.url()))
    sleeps = Sleeps()
    queue = NoticeQueue(settings, LAN, audit, sleep=sleeps, attempts=5, first_delay=10, longest_delay=50)
    queue.send("alice", NOTICE)
    await queue.idle()
    await queue.close()
    assert len(receiver.received) == 5
    assert sleeps.delays == [10, 20, 40, 50]  # doubling, bounded
    failed = lines(audit, "notice-failed")
    assert [line.split("attempt=")[1].split(":")[0] for line in failed] == ["1/5", "2/5", "3/5", "4/5", "5/5"]
    assert all("member=alice game=g7 channel=webhook" in line and line.endswith(": HTTP 500") for line in failed)
    (gave_up,) = lines(audit, "notice-gave-up")
    assert "attempts=5" in gave_up
    assert settings.of("alice").failures == 1 and settings.warning("alice") is None


async def test_a_webhook_that_answers_after_a_failure_is_delivered(receiver, settings, audit):
    receiver.statuses = [503, 200]
    settings.set("alice", MemberNotices(webhook=receiver.url()))
    sleeps = Sleeps()
    queue = NoticeQueue(settings, LAN, audit, sleep=sleeps, first_delay=7)
    queue.send("alice", NOTICE)
    await queue.idle()
    await queue.close()
    assert len(receiver.received) == 2 and sleeps.delays == [7] and queue.sent == 1
    assert len(lines(audit, "notice-failed")) == 1 and lines(audit, "notice-gave-up") == []


async def test_a_gone_webhook_is_not_tried_again(receiver, settings, audit):
    receiver.statuses = [404]
    settings.set("alice", MemberNotices(webhook=receiver.url()))
    sleeps = Sleeps()
    queue = NoticeQueue(settings, LAN, audit, sleep=sleeps)
    queue.send("alice", NOTICE)
    await queue.idle()
    await queue.close()
    assert len(receiver.received) == 1 and sleeps.delays == []
    (refused,) = lines(audit, "notice-refused")
    assert refused.endswith(": the webhook answered HTTP 404")


async def test_a_redirect_is_not_followed(receiver, settings, audit):
    elsewhere = await WebhookReceiver().start()
    try:
        receiver.statuses = [302]
        receiver.redirect_to = elsewhere.url("/inside")
        settings.set("alice", MemberNotices(webhook=receiver.url()))
        queue = NoticeQueue(settings, LAN, audit, sleep=Sleeps())
        queue.send("alice", NOTICE)
        await queue.idle()
        await queue.close()
    finally:
        await elsewhere.stop()
    assert len(receiver.received) == 1 and elsewhere.received == []
    (refused,) = lines(audit, "notice-refused")
    assert "answered a redirect (HTTP 302 to http://127.0.0.1:" in refused and refused.endswith("not followed")


async def test_failures_in_a_row_put_a_warning_in_the_lobby_until_one_goes_through(receiver, settings, audit):
    receiver.statuses = [500] * TELL_AFTER + [200]
    settings.set("alice", MemberNotices(webhook=receiver.url()))
    told: list[str] = []
    queue = NoticeQueue(settings, LAN, audit, sleep=Sleeps(), attempts=1, on_warning=told.append)
    for n in range(TELL_AFTER):
        assert settings.warning("alice") is None
        queue.send("alice", NOTICE)
        await queue.idle()
    assert told == ["alice"]
    assert settings.warning("alice") == "Your notices keep failing (webhook: HTTP 500); check them with s"
    # kept in the store: a restarted club still says it
    assert NoticeSettings(settings_dir(settings)).warning("alice") is not None
    queue.send("alice", NOTICE)
    await queue.idle()
    await queue.close()
    assert settings.warning("alice") is None and told == ["alice", "alice"]


def settings_dir(settings: NoticeSettings):
    (path,) = [row[2] for row in settings._db.execute("PRAGMA database_list") if row[1] == "main"]  # noqa: SLF001
    from pathlib import Path

    return Path(path).parent
