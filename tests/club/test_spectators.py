"""Spectators see public information only (R55 for both sides): every byte a
spectator receives across a whole game, captured on the wire, holds no hidden
block id and no hand card of either side, and is exactly the public view and
the events both sides see, with the count-only twins of private events that
the engine passes (rules/events.py, SPECTATOR_TWINS; rules.view.events_for): each names no block, no card."""

from __future__ import annotations

import asyncio
import json

import pytest

from club_helpers import bot_plays
from net.net_helpers import FORBIDDEN_KEYS, RecordingProxy, check_names_by_the_model, words
from rules.components import default_components
from rules.infra.record import GameRecord, replay_steps
from rules.sides import BOTH_SIDES, Side
from rules.view import PlayerView, spectator_view
from knowledge_model import KnowledgeModel, models_along
from rules.events import SPECTATOR_TWINS
from sekigahara_tui.hosting.spectators import public_events
from sekigahara_tui.net.locations import Address
from sekigahara_tui.net.protocol import AnyEvent, converter
from sekigahara_tui.hosting.store import commands_standing

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


class ClubGameTruth:
    """A club game as the host knew it at each version, with what each side
    may know after each step (tests/knowledge_model.py)."""

    def __init__(self, store, game_id: str) -> None:
        self.info, self.actions = store.load_game(game_id)

        self.final = tuple(commands_standing(self.actions))
        self.steps = list(replay_steps(self._record(self.final)))
        self.models = models_along(self.steps)

    def _record(self, commands: tuple[str, ...]) -> GameRecord:
        return GameRecord(self.info.seed, self.info.data_version, commands, position=self.info.position)

    def steps_at(self, version: int) -> list:
        return self.at(version)[0]

    def at(self, version: int) -> tuple[list, list[KnowledgeModel]]:
        commands = tuple(commands_standing(self.actions[:version]))
        if commands == self.final[: len(commands)]:
            return self.steps[: len(commands) + 1], self.models[: len(commands) + 1]
        steps = list(replay_steps(self._record(commands)))  # a line undone later
        return steps, models_along(steps)


def check_spectator_bytes(lines: list[bytes], truth: ClubGameTruth) -> int:
    """Every line: no forbidden key; a one-sided event only as a twin naming no
    block and no card. A state names no block or card that the knowledge model
    (tests/knowledge_model.py), not the engine's view, says both sides know: in
    its view what they know now, in each step's events what they had been shown
    by that step (the log keeps every reveal, R62); its view names exactly the
    blocks both sides know, where they stand. Then the view is the engine's
    public view and the events the public events."""
    c = default_components()
    all_blocks = {block.id for block in c.blocks}
    all_cards = {card.id for card in c.cards}
    public = frozenset(BOTH_SIDES)
    checked = 0
    cache: dict[int, tuple[list, list]] = {}
    for line in lines:
        data = json.loads(line)
        keys, found = words(data)
        assert not keys & FORBIDDEN_KEYS, f"a spectator received keys {keys & FORBIDDEN_KEYS}"
        if data["type"] != "state":
            continue
        received = [[converter.structure(e, AnyEvent) for e in step] for step in data["events"]]
        for event, sent_event in ((e, s) for step, sent_step in zip(received, data["events"]) for e, s in zip(step, sent_step)):
            if event.visible_to() != public:  # one side's: only an allowed twin, naming no block and no card
                assert type(event) in SPECTATOR_TWINS, f"a spectator received {type(event).__name__}"
                named = words(sent_event)[1] & (all_blocks | all_cards)
                assert not named, f"a spectator received {sorted(named)} in {type(event).__name__}"
        version = data["version"]
        steps, models = cache.setdefault(version, truth.at(version))
        state, model = steps[-1][1], models[-1]
        where = f"at version {version}"
        check_names_by_the_model(data, None, state, models, where)
        sent = converter.structure(data["view"], PlayerView)
        named_blocks = dict(sent.own_blocks) | dict(sent.enemy_known)
        expected = model.spectator_known_now(state)
        assert named_blocks == expected, (
            f"a spectator was shown blocks {sorted(set(named_blocks.items()) ^ set(expected.items()))} wrongly (R55) {where}"
        )
        assert sent.hand == () and sent.set_aside == () and sent.legal == ()
        # The wire carries the engine's public view and public events.
        assert sent == spectator_view(state)
        true_events = [list(public_events(list(events))) for _, _, events in steps[data["first_step"]:]]
        assert received == true_events
        checked += 1
    return checked


async def test_a_spectator_receives_no_hidden_block_or_hand_card_across_a_whole_game(club, data_dir):
    alice, bob, carol = (club.lobby_client(n) for n in ("alice", "bob", "carol"))
    made = await alice.new_game(ISHIDA, "open")
    joined = await bob.join(made.game)
    watch = await carol.watch(made.game)
    proxy = RecordingProxy(Address(unix=str(club.socket)), data_dir / "spy.sock")
    spy = await proxy.start()
    watcher = carol.watch_client(watch, stop_when_over=True)
    watcher.address = spy
    watching = asyncio.create_task(watcher.run())
    await watcher.wait_for(lambda c: c.view is not None, 10)
    await asyncio.gather(bot_plays(alice, made, 21), bot_plays(bob, joined, 22))
    await asyncio.wait_for(watching, 10)
    # a late spectator, holding nothing, gets the whole game at once
    late = carol.watch_client(watch, stop_when_over=True)
    late.address = spy
    await asyncio.wait_for(late.run(), 10)
    await proxy.stop()
    truth = ClubGameTruth(club.store, made.game)
    assert check_spectator_bytes(proxy.received, truth) > 100
    host = club.server.games.loaded[made.game].host
    spectators = [e for _, _, events in truth.steps for e in public_events(list(events))]
    assert watcher.over and watcher.log == late.log == spectators
    assert [e for e in spectators if e.visible_to() == frozenset(BOTH_SIDES)] == [
        e for e in host.events_for(ISHIDA) if e.visible_to() == frozenset(BOTH_SIDES)]
    # the twins of both sides' private events came too (R55: counts only)
    assert {(type(e).__name__, e.side) for e in spectators if type(e) in SPECTATOR_TWINS} >= {
        (name, side) for name in ("OpponentPlacedBlocks", "OpponentMovedBlocks", "OpponentDrewCards", "OpponentDecided")
        for side in BOTH_SIDES}
    # a spectator cannot play
    assert watcher.view.legal == ()
    for c in (alice, bob, carol):
        await c.close()


async def test_a_spectator_cannot_submit_and_the_leak_check_can_fail(club):
    alice, carol = club.lobby_client("alice"), club.lobby_client("carol")
    made = await alice.new_game(TOKUGAWA, "computer")
    watch = await carol.watch(made.game)
    watcher = carol.watch_client(watch)
    task = asyncio.create_task(watcher.run())
    await watcher.wait_for(lambda c: c.view is not None, 10)
    watcher.submit("tokugawa: pass")
    await watcher.wait_for(lambda c: c.refusals, 10)
    assert watcher.refusals[-1].kind == "bad-message" and "spectator" in watcher.refusals[-1].reason
    assert watcher.fatal is None  # refused, not cut off (issue 23, item 9: test_spectator_types.py)
    # the check fails on a state naming a card of a hand
    game = club.server.games.loaded[made.game]
    hand_card = game.host.state.cards[TOKUGAWA].hand[0]
    from sekigahara_tui.net.protocol import State, encode

    state = game.host
    line = encode(State(game.version, state.step_count, hand_card, state.spectator_view(), state.step_count, (), "x", False))
    with pytest.raises(AssertionError, match="hand cards"):
        check_spectator_bytes([line], ClubGameTruth(club.store, made.game))
    # and on a view that shows Ishida's own hidden blocks
    full = encode(State(game.version, state.step_count, None, state.view(ISHIDA), state.step_count, (), "x", False))
    with pytest.raises(AssertionError, match="hidden blocks"):
        check_spectator_bytes([full], ClubGameTruth(club.store, made.game))
    # and on a private event, whose twin alone a spectator may have
    from rules.events import BlocksMoved

    moved = BlocksMoved(ISHIDA, ("ishida-leader",), "osaka", "kyoto")
    private = encode(State(game.version, state.step_count, None, state.spectator_view(), state.step_count - 1, ((moved,),), "x", False))
    with pytest.raises(AssertionError, match="received BlocksMoved"):
        check_spectator_bytes([private], ClubGameTruth(club.store, made.game))
    await watcher.close()
    await task
    await alice.close()
    await carol.close()
