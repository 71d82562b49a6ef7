"""The host's fast state encoding (net/state_encoding.py: ViewEncoder, encode_state) writes
exactly the bytes of encode(State(...)): a client cannot tell them apart."""

from __future__ import annotations

import random

import pytest

from rules.infra.record import replay_steps
from rules.infra.selfplay import random_game
from rules.sides import BOTH_SIDES
from rules.view import spectator_view, view
from sekigahara_tui.net.protocol import State, encode
from sekigahara_tui.net.state_encoding import ViewEncoder, encode_events, encode_state

SPECTATORS = "spectators"


def chairs_of_a_game(seed: int):
    """Per step: (chair, its view, its events), for both sides and the spectators."""
    game = random_game(seed)
    for number, (_, state, events) in enumerate(replay_steps(game.record)):
        for side in BOTH_SIDES:
            yield number, side, view(state, side), tuple(e for e in events if side in e.visible_to())
        yield number, SPECTATORS, spectator_view(state), tuple(e for e in events if e.visible_to() == frozenset(BOTH_SIDES))


@pytest.mark.parametrize("seed", [3, 41])
def test_every_state_of_a_game_is_encoded_byte_for_byte_as_encode_does(seed):
    encoders = {}
    for number, chair, seen, events in chairs_of_a_game(seed):
        encoder = encoders.setdefault(chair, ViewEncoder())
        for reply_to, undo in ((None, "there is nothing to undo"), ("k2J9dLq0aXcE", None)):
            message = State(number + 1, number + 1, reply_to, seen, number, (events,), undo, seen.result is not None)
            expected = encode(message)
            assert encode_state(message, encoder.encode(seen)) == expected
            assert encode_state(message, encoder.encode(seen), encode_events(message.events)) == expected


def test_views_in_any_order_are_encoded_as_encode_does():
    """An undo goes back to an earlier view, a reloaded game starts anywhere: the
    reused fields must follow whatever view comes next."""
    chairs = list(chairs_of_a_game(7))
    random.Random(7).shuffle(chairs)
    encoder = ViewEncoder()  # one encoder, every chair's views mixed
    for number, _, seen, events in chairs[:400]:
        message = State(number, number + 1, None, seen, 0, (), None, False)
        assert encode_state(message, encoder.encode(seen)) == encode(message)


@pytest.mark.parametrize("seed", [5, 8])
def test_R55_chairs_sharing_texts_each_get_exactly_their_own_views_bytes(seed):
    """A host's chairs (hosting/chairs.py) encode the fields their views share
    once for all (SharedTexts, by field and value identity) and lend each other
    nothing else: over a whole game with undos, asked in a random order each
    step, each side's and the spectators' JSON is byte for byte the encoding
    of that chair's own view, never another's field."""
    from rules.engine import legal_commands
    from rules.sides import Side
    from sekigahara_tui.hosting.chairs import SHARED_TEXTS, chair_of, events_json
    from sekigahara_tui.hosting.games import HostedGame
    from sekigahara_tui.hosting.host import GameHost

    host = GameHost.new(seed)
    game = HostedGame(None, host, [], {}, {})
    chooser = random.Random(seed)
    shared = steps = 0
    while True:
        state = host.state
        order: list[Side | None] = [*BOTH_SIDES, None]
        chooser.shuffle(order)
        for side in order:
            chair = chair_of(game, side)
            own = view(state, side) if side is not None else spectator_view(state)
            assert chair.view == own
            first = chooser.choice((0, host.step_count - 1, host.step_count))  # a hello's catch-up, or the last step
            events = tuple(host.step_events(side, first))
            message = State(steps, host.step_count, None, own, first, events, None, host.is_over)
            assert encode_state(message, chair.json, events_json(chair, first, events)) == encode(message)
        shared += len(SHARED_TEXTS.texts) > 0
        if host.is_over:
            break
        undoer = next((s for s in BOTH_SIDES if host.why_no_undo(s) is None), None)
        if undoer is not None and chooser.random() < 0.1:
            host.undo(undoer)
        else:
            side = next(s for s in BOTH_SIDES if legal_commands(state, s))
            host.accept(host.propose_listed(chooser.choice(legal_commands(state, side))))
        steps += 1
    assert steps > 100 and shared > steps // 2


def two_orders_of_one_set() -> tuple[frozenset[str], frozenset[str]]:
    """Two equal sets of location ids that iterate in different orders: str
    hashes are salted per process, so the pair is looked for, not named."""
    from itertools import combinations

    from rules.surface import default_components

    for a, b in combinations(sorted(default_components().location_ids), 2):
        one, other = frozenset((a, b)), frozenset((b, a))
        if list(one) != list(other):
            return one, other
    raise AssertionError("no two location ids whose set iterates by insertion order")


def test_equal_views_are_equal_bytes_whatever_order_their_sets_iterate_in():
    """The pending combats (8.1) are a set; a chair's view and a fresh one of the
    same state once held them in different orders and were written differently
    (a clean-clone CI run: "saku","toyama" against "toyama","saku"). Sets of
    names are written sorted."""
    import attrs

    one, other = two_orders_of_one_set()
    state = next(s for _, s, _ in replay_steps(random_game(5).record) if s.combat is not None)
    seen = view(state, BOTH_SIDES[0])
    first, second = (attrs.evolve(seen, combat=attrs.evolve(seen.combat, pending=p)) for p in (one, other))
    assert first == second
    messages = [State(1, 1, None, v, 0, (), None, False) for v in (first, second)]
    assert encode(messages[0]) == encode(messages[1])
    assert encode_state(messages[0], ViewEncoder().encode(first)) == encode_state(messages[1], ViewEncoder().encode(second))
    assert f'"pending":{json_list(sorted(one))}'.encode() in encode(messages[0])
    # The sides deciding together (R45) are a set too.
    from rules.sides import Side
    from sekigahara_tui.net.protocol import converter
    assert converter.unstructure(frozenset({Side.TOKUGAWA, Side.ISHIDA}), frozenset[Side]) == ["ishida", "tokugawa"]


def json_list(names: list[str]) -> str:
    return "[" + ",".join(f'"{n}"' for n in names) + "]"
