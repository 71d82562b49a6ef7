"""Issue 25 §2, tighter belief: the enemy's Movement Phase narrows where its
hidden blocks can be (7.2: mustered blocks do not move; 7.3.1 under Minimal
movement: one stack move, from one source, picking no block up, R14), and an
undo (R58) rolls the belief back. The tests are the referee: they build the
events a side sees, or read the true state to check soundness."""

from __future__ import annotations

import random

from rules.components import default_components
from rules.engine import start_game
from rules.events import BlocksMustered, MovementChosen, OpponentMovedBlocks, OpponentPlacedBlocks, PhaseBegan
from rules.sides import BOTH_SIDES, Side
from rules.state import MovementOption, Phase, Turn
from rules.view import view
from sekigahara_tui.bots.belief import RECRUITMENT, Belief
from sekigahara_tui.bots.driver import BotPlayer
from sekigahara_tui.bots.random_bot import RandomBot
from sekigahara_tui.hosting.host import GameHost

C = default_components()
T = Side.TOKUGAWA


def ishida_belief() -> Belief:
    """Ishida's belief after the setup of seed 7 (5.2), Tokugawa's Movement Phase begun."""
    state, events = start_game(7)
    belief = Belief(Side.ISHIDA)
    belief.observe([e for e in events if Side.ISHIDA in e.visible_to()])
    belief.see(view(state, Side.ISHIDA))
    return belief


def movement(option: MovementOption):
    return [PhaseBegan(1, Turn.A, Phase.MOVEMENT, T), MovementChosen(T, option)]


def next_to(place: str, *avoid: str) -> str:
    return next(n for n in C.neighbours(place) if n not in avoid)


def test_7_2_a_block_mustered_this_turn_does_not_move_on():
    belief = ishida_belief()
    road = next_to("edo", "hakone")  # a place no Tokugawa block could be at yet
    mustered = next(b for b, places in belief.possible.items() if RECRUITMENT[T] in places)
    belief.observe([*movement(MovementOption.LIMITED), BlocksMustered(T, "edo", (mustered,)),
                    OpponentMovedBlocks(T, 2, "edo", road)])
    assert belief.possible[mustered] == {"edo"}  # before: {"edo", road}
    assert belief.possible["tokugawa-3-1"] == {"edo", road}  # the blocks there before may have gone


def test_7_2_an_unshown_muster_does_not_move_on_either():
    # A shown muster puts one block at a place no other could be (turn A); in
    # turn B an unshown one (7.2 option 2) adds one more from the Recruitment
    # Box, and one block moves on: only the first can have.
    belief = ishida_belief()
    road = next_to("edo", "hakone")
    on = next_to(road, "edo", "hakone")
    in_box = sorted(b for b, places in belief.possible.items() if RECRUITMENT[T] in places and road not in places)
    first, rest = in_box[0], in_box[1:]
    assert rest  # 6.2: reinforcements of the setup, drawn from the bag
    belief.observe([*movement(MovementOption.LIMITED), BlocksMustered(T, road, (first,)),
                    PhaseBegan(1, Turn.B, Phase.MOVEMENT, T), MovementChosen(T, MovementOption.LIMITED),
                    OpponentPlacedBlocks(T, road, 1), OpponentMovedBlocks(T, 1, road, on)])
    for block in rest:  # one of them may be at `road`, but it moved no further
        assert road in belief.possible[block] and on not in belief.possible[block]  # before: `on` too
    assert belief.possible[first] == {road, on}


def test_7_3_1_minimal_movement_moves_only_the_blocks_of_its_one_source():
    # Minimal: one stack move (7.1). It starts at Kiyosu and goes on through a
    # neighbour; the blocks that were at that neighbour do not join it (R14).
    belief = ishida_belief()
    first = next_to("kiyosu", "edo")
    second = next_to(first, "kiyosu")
    belief.observe([PhaseBegan(1, Turn.A, Phase.MOVEMENT, T)])
    there = {b for b, places in belief.possible.items() if places == {first}}
    if not there:  # put a known block there: a shown muster of an earlier turn
        belief.observe([BlocksMustered(T, first, ("date-2-1",)), PhaseBegan(1, Turn.B, Phase.MOVEMENT, T)])
        there = {"date-2-1"}
    belief.observe([MovementChosen(T, MovementOption.MINIMAL),
                    OpponentMovedBlocks(T, 2, "kiyosu", first), OpponentMovedBlocks(T, 2, first, second)])
    for block in there:
        assert belief.possible[block] == {first}  # before: {first, second}
    assert belief.possible["ii-4"] == {"kiyosu", first, second}


def limited_with_a_known_block_at(place: str) -> Belief:
    """Ishida's belief in Tokugawa's turn B Movement Phase (Limited), date-2-1
    shown at `place` by a muster of turn A: a block known to stand there."""
    belief = ishida_belief()
    belief.observe([*movement(MovementOption.LIMITED), BlocksMustered(T, place, ("date-2-1",)),
                    PhaseBegan(1, Turn.B, Phase.MOVEMENT, T), MovementChosen(T, MovementOption.LIMITED)])
    return belief


def test_7_3_1_a_step_on_from_a_reached_place_continues_the_move_from_its_source():
    # The events say the stack move began at Kiyosu (7.3): its second step, from
    # `first`, carries only blocks that left Kiyosu; date-2-1, at `first` since
    # turn A, was not in that move (R14: a moving stack picks no block up).
    first = next_to("kiyosu", "edo")
    second = next_to(first, "kiyosu")
    belief = limited_with_a_known_block_at(first)
    belief.observe([OpponentMovedBlocks(T, 2, "kiyosu", first, "kiyosu"),
                    OpponentMovedBlocks(T, 2, first, second, "kiyosu")])
    assert belief.possible["date-2-1"] == {first}  # without the source: {first, second}
    assert belief.possible["ii-4"] == {"kiyosu", first, second}


def test_7_3_1_a_move_from_a_reached_place_moves_the_blocks_that_began_there_not_those_that_came():
    # Two stack moves: Kiyosu -> first, then one from `first` (7.3.1, R15). The
    # blocks that came from Kiyosu ended their move at `first` and move no more
    # this phase; date-2-1, there from the start, may be the one that goes on.
    first = next_to("kiyosu", "edo")
    second = next_to(first, "kiyosu")
    belief = limited_with_a_known_block_at(first)
    belief.observe([OpponentMovedBlocks(T, 2, "kiyosu", first, "kiyosu"),
                    OpponentMovedBlocks(T, 1, first, second, first)])
    assert belief.possible["ii-4"] == {"kiyosu", first}  # without the source: {"kiyosu", first, second}
    assert belief.possible["date-2-1"] == {first, second}


def test_7_3_1_an_event_without_its_source_may_begin_another_stack_move():
    # Events made before they said where their stack move began (None): under
    # Limited the second step may begin a new stack move at that neighbour, so
    # its blocks may go on.
    belief = ishida_belief()
    first = next_to("kiyosu", "edo")
    second = next_to(first, "kiyosu")
    belief.observe([*movement(MovementOption.LIMITED), BlocksMustered(T, first, ("date-2-1",)),
                    PhaseBegan(1, Turn.B, Phase.MOVEMENT, T), MovementChosen(T, MovementOption.LIMITED),
                    OpponentMovedBlocks(T, 2, "kiyosu", first), OpponentMovedBlocks(T, 2, first, second)])
    assert belief.possible["date-2-1"] == {first, second}


# --- soundness with undos (R58) ------------------------------------------------------------


class Believer:
    """A bot that only believes: what a BotPlayer feeds it goes to its Belief."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.belief = Belief(side)
        self.observed: list = []

    def observe(self, events) -> None:
        self.observed += events
        self.belief.observe(events)


def true_places(state) -> dict[str, str]:
    return {b.id: place for b, place in zip(C.blocks, state.positions)}


def test_r58_the_belief_stays_sound_over_random_games_with_undos_and_rolls_back():
    undos = checked = 0
    for seed in (1, 2, 3):
        host = GameHost.new(seed)
        choosers = {side: RandomBot(side, seed) for side in BOTH_SIDES}
        players = {side: BotPlayer(lambda side=side: Believer(side)) for side in BOTH_SIDES}
        rng = random.Random(seed)
        for step in range(3000):
            if host.is_over:
                break
            side = host.side_to_act()
            if host.step_count > 1 and host.why_no_undo(side) is None and rng.random() < 0.15:
                host.undo(side)  # R58: the events taken back leave the other side's log
                undos += 1
            else:
                host.submit(choosers[side].choose(host.view(side), 1.0))
            real = true_places(host.state)
            for each, player in players.items():
                player.feed(host.events_for(each))
                belief = player.bot.belief
                if step % 7 == 0:
                    belief.see(host.view(each))
                wrong = {b: (real[b], places) for b, places in belief.possible.items() if real[b] not in places}
                assert not wrong, (seed, step, each, wrong)
                checked += 1
        assert host.is_over
        for each, player in players.items():  # nothing taken back stays in the belief
            assert player.bot.observed == host.events_for(each)
            assert player.rebuilds > 0
    assert undos > 20 and checked > 1000
