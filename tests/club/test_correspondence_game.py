"""Issue 24's "Done when", as one game: two members play a correspondence
game in a real club (real sockets, a real HTTP server taking alice's
webhooks, a real SMTP server (aiosmtpd) taking bob's mail), on a fake time
source for the clocks (the days pass when the test says). Alice invites bob,
who accepts; each is told once a hand-over, while away, that it is their
move; bob declares a day's vacation from the lobby and his clock stands
still; he then runs out of time and the computer finishes his seat from
that seat's view only (R55: each decision it is sent is Tokugawa's view);
bob hears that the game is over, and no more "your move" while the computer
plays for him; alice replays the game from its record, which she gets from
the club (export), and it ends as stored. Driven through the club protocol
client (club/client.py)."""

from __future__ import annotations

import asyncio
import json
import pickle
import secrets
from types import SimpleNamespace

import pytest

from club_helpers import TIMEOUT, start_club, wait_until
from notice_helpers import MailReceiver, names_in, receiver  # noqa: F401 - receiver: a fixture
from rules.infra.record import record_from_json, replay_steps
from rules.surface import BOTH_SIDES, Side
from rules.view import view
from sekigahara_tui.bots.workers import DecisionPool
from sekigahara_tui.hosting import club_games, members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.clock_store import DAY
from sekigahara_tui.hosting.clocks import HOUR, MINUTE
from sekigahara_tui.hosting.notice_delivery import NoticeOptions
from sekigahara_tui.net.bot import RandomBot
from test_game_clock_keeper import FakeTime
from test_your_move_notices import bob_plays_his_turn as plays_turn
from test_your_move_notices import hand_overs_to

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
RESUME = "ssh -p 2222 club.test"


@pytest.fixture
def mail():
    relay = MailReceiver().start()
    yield relay
    relay.stop()


def subjects(mail: MailReceiver, start: str) -> list[str]:
    return [message["Subject"] for _, _, message in mail.mails if message["Subject"].startswith(start)]


async def test_a_correspondence_game_from_invitation_to_replay(data_dir, receiver, mail, monkeypatch):
    # The game's seed and every bot's are fixed: the same game each run.
    monkeypatch.setattr(club_games, "secrets", SimpleNamespace(token_urlsafe=secrets.token_urlsafe, randbelow=lambda _: 1))
    fake = FakeTime()
    sent: list[tuple[object, bytes]] = []
    audit = AuditLog(members.prepare_data_dir(data_dir))
    club = await start_club(
        data_dir, audit=audit, clock_now=fake, computer_budget=0.05, computer_seed=7,
        computer_pool=DecisionPool(1, tap=lambda tag, data: sent.append((tag, data))),
        notices=NoticeOptions(allow_private=True, smtp=("127.0.0.1", mail.port), mail_from="club@club.test", resume=RESUME),
    )
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    try:
        await alice.set_notices(receiver.url("/alice"), "json", None, ("your-move", "game-over"))
        await bob.set_notices(None, "json", "bob@club.test", ("your-move", "invitation", "game-over"))
        await bob.close()  # bob goes: an invitation reaches him by mail only while he is not in the lobby
        await wait_until(lambda: "bob" not in club.server.lobby.connections, "bob gone from the lobby")

        # Invited and accepted.
        made = await alice.new_game(ISHIDA, "open", clock="daily", on_time_out="stand-in:heuristic", invite="bob")
        game_id = made.game
        await wait_until(lambda: subjects(mail, "Sekigahara: alice invites you"), "bob's invitation by mail")
        assert [line.game for line in (await bob.lobby()).invitations] == [game_id]
        joined = await bob.join(game_id)
        keeper = club.server.clocks
        fake.now = keeper.clocks[game_id].since
        game = club.server.games.find(game_id)

        # Each plays while they have a decision, then goes: told of each hand-over while away.
        entries, seeds = {ISHIDA: (alice, made), TOKUGAWA: (bob, joined)}, iter(range(1000))
        while hand_overs_to(ISHIDA, club, game_id) < 3 or TOKUGAWA not in game.host.state.decision.sides or \
                ISHIDA in game.host.state.decision.sides:
            side = next(side for side in BOTH_SIDES if side in game.host.state.decision.sides)  # one turn, then look again
            fake.now += 10 * MINUTE  # ten minutes to think
            assert not await plays_turn(*entries[side], next(seeds))
            await club.server.notices.idle()
        assert subjects(mail, "Sekigahara: your move") and len(subjects(mail, "Sekigahara: your move")) == hand_overs_to(TOKUGAWA, club, game_id)
        to_alice = [got.body for got in receiver.received if got.body["kind"] == "your-move"]
        assert len(to_alice) == hand_overs_to(ISHIDA, club, game_id) >= 2
        assert all(body["game"] == game_id and body["resume"] == RESUME for body in to_alice)
        # the clocks, Ishida's running: "Ishida 2d 23h (running) · Tokugawa 3d" (game_clocks.clock_words)
        assert all(body["clocks"].startswith("Ishida ") and "(running) · Tokugawa " in body["clocks"] for body in to_alice)
        told_bob = len(subjects(mail, "Sekigahara: your move"))

        # Bob's move: he declares a day away; his clock stands still meanwhile.
        left = keeper.line(game).left[1]
        vacation = await bob.vacation(1)
        assert vacation.until == pytest.approx(fake.now + DAY)
        fake.now += 12 * HOUR
        assert keeper.line(game).left[1] == pytest.approx(left) and keeper.line(game).vacation_until[1] == vacation.until

        # Alice sits down to wait with a bot; bob never comes back: out of time, the computer finishes his seat.
        seat = alice.seat_client(made, RandomBot(5), stop_when_over=True)
        playing = asyncio.create_task(seat.run())
        await seat.wait_for(lambda c: c.connected and c.clocks is not None, TIMEOUT)
        fake.now = vacation.until + left + 1
        assert await keeper.check(fake.now) == [(game_id, TOKUGAWA)]
        await seat.wait_for(lambda c: c.clocks is not None and c.clocks.stood_in is TOKUGAWA, TIMEOUT)
        await asyncio.wait_for(playing, 4 * TIMEOUT)
        info, _actions = club.store.load_game(game_id)
        assert info.status == "over" and (info.end.kind, info.end.seat) == ("finished-by-stand-in", TOKUGAWA)
        await club.server.notices.idle()
        assert len(subjects(mail, "Sekigahara: your move")) == told_bob  # none while the computer played for him
        assert len(subjects(mail, f"Sekigahara: game {game_id} against alice is over")) == 1

        # The computer decided from Tokugawa's view only.
        steps = list(replay_steps(record_from_json(club.store.record_json(game_id))))
        assert sent
        for (sent_game, version), data in sent:
            assert sent_game == game_id and pickle.loads(data).view == view(steps[version][1], TOKUGAWA)

        # Alice replays the game from its record, as the club gives it to her.
        record = record_from_json(await alice.record(game_id))
        *_, (_command, final, _events) = replay_steps(record)
        assert final.result is not None and final.result.winner.value in info.result
        # No notice named a block or card of either side (R55).
        bodies = [json.dumps(got.body) for got in receiver.received] + [str(message) for _, _, message in mail.mails]
        assert all(names_in(body, side) == set() for body in bodies for side in BOTH_SIDES)
    finally:
        await alice.close()
        await bob.close()
        await club.stop()
        audit.close()
