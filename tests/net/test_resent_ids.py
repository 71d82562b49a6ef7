"""Message ids over real Unix sockets, long into a game (docs/protocol.md,
"Versions, stale commands and message ids"): a resend is recognised by the
row at the version it carries, however many commands came after it; an id
sent again at another version is recognised among the last RECENT_ROWS rows,
and beyond them the store refuses it. Nothing is ever applied twice."""

from __future__ import annotations

import random

from net_helpers import RawConnection, hello
from rules.sides import BOTH_SIDES, Side
from sekigahara_tui.hosting.games import RECENT_ROWS

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
COMMANDS = 12 * RECENT_ROWS


async def seated(hosted) -> tuple[dict[Side, RawConnection], dict[Side, dict]]:
    """Both seats taken over raw connections, and each one's first state."""
    raws, states = {}, {}
    for side in BOTH_SIDES:
        raws[side] = await RawConnection.open(hosted.address)
        raws[side].send(hello(side))
        states[side] = (await raws[side].receive_until("state"))[-1]
    return raws, states


async def answer(raw: RawConnection) -> dict:
    """The host's answer to a submit: a state or a refusal."""
    while (message := await raw.receive())["type"] not in ("state", "refused"):
        pass
    return message


async def play(raws, states, count: int) -> list[tuple[Side, dict]]:
    """`count` commands, each from a side with something to decide, each side
    reading its new state before the next: the submits, in order."""
    chooser = random.Random(7)
    sent = []
    for n in range(count):
        side = next(s for s in BOTH_SIDES if states[s]["view"]["legal"])
        submit = {"type": "submit", "id": f"{side.value}-{n}", "version": states[side]["version"],
                  "command": chooser.choice(states[side]["view"]["legal"])}
        raws[side].send(submit)
        sent.append((side, submit))
        for seat in BOTH_SIDES:
            states[seat] = (await raws[seat].receive_until("state"))[-1]
        assert states[side]["reply_to"] == submit["id"] and states[side]["version"] == n + 1
    return sent


async def test_a_resend_is_answered_and_not_applied_however_many_commands_came_after(hosted):
    raws, states = await seated(hosted)
    sent = await play(raws, states, COMMANDS)
    version = hosted.game.version
    assert version == COMMANDS == hosted.stored_rows()
    # The very first submit, sent again as a client resends it (its id and its old version).
    side, first = sent[0]
    assert first["version"] == 0
    raws[side].send(first)
    answered = await answer(raws[side])
    assert answered["type"] == "state" and answered["reply_to"] == first["id"] and answered["version"] == version
    # The last submit of each side too: answered, not refused as stale, not applied.
    for seat in BOTH_SIDES:
        latest = next(submit for s, submit in reversed(sent) if s is seat)
        raws[seat].send(latest)
        assert (await answer(raws[seat])).get("reply_to") == latest["id"]
    assert hosted.game.version == version == hosted.stored_rows()
    for raw in raws.values():
        await raw.close()


async def test_an_id_sent_again_at_another_version_is_recognised_only_lately_and_never_applied_twice(hosted):
    raws, states = await seated(hosted)
    sent = await play(raws, states, COMMANDS)
    version = hosted.game.version
    # An id among the last RECENT_ROWS rows, at the current version: answered as applied.
    side, recent = sent[-RECENT_ROWS]
    raws[side].send({**recent, "version": version})
    answered = await answer(raws[side])
    assert answered["type"] == "state" and answered["reply_to"] == recent["id"] and answered["version"] == version
    # An older one at the current version: a legal command, but the store
    # keeps one id a seat per game, so it is refused and nothing changes.
    side = next(s for s in BOTH_SIDES if states[s]["view"]["legal"])
    old = next(submit for s, submit in reversed(sent[:-RECENT_ROWS]) if s is side)
    raws[side].send({**old, "version": version, "command": states[side]["view"]["legal"][0]})
    refusal = await answer(raws[side])
    assert refusal["id"] == old["id"] and refusal["kind"] == "host-error" and "UNIQUE" in refusal["reason"]
    assert hosted.game.version == version == hosted.stored_rows()
    for raw in raws.values():
        await raw.close()
