"""4.2-4.5 Control of resource locations and castles (R4, R5, R6, R36, R54)."""

from attrs import evolve

from helpers import everything_in_bags, place
from rules.control import castle_controller, control_on_arrival, update_castle_control
from rules.events import ControlChanged
from rules.sides import Side

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def test_r6_capitals_start_controlled_by_their_side(started):
    assert started.control_of_resource("kyoto") is ISHIDA
    assert started.control_of_resource("edo") is TOKUGAWA


def test_4_2_other_resource_locations_start_uncontrolled(started):
    assert dict(started.resource_control) == {"kyoto": ISHIDA, "edo": TOKUGAWA}


def test_4_2_r4_arrival_takes_control_of_a_resource_location(started):
    state = place(started, tsuruga=["ukita-leader"])
    state, events = control_on_arrival(state, ISHIDA, "tsuruga")
    assert state.control_of_resource("tsuruga") is ISHIDA
    assert events == [ControlChanged("tsuruga", ISHIDA)]


def test_4_5_r5_capital_changes_hands_on_enemy_arrival_even_with_enemies_present(started):
    state = place(started, kyoto=["tokugawa-3-1"])
    state, events = control_on_arrival(state, TOKUGAWA, "kyoto")
    assert state.control_of_resource("kyoto") is TOKUGAWA
    assert ControlChanged("kyoto", TOKUGAWA) in events


def test_r4_leaving_does_not_change_control(started):
    state = place(started, tsuruga=["ukita-leader"])
    state, _ = control_on_arrival(state, ISHIDA, "tsuruga")
    state = place(state, sawayama=["ukita-leader"])
    state, _ = control_on_arrival(state, ISHIDA, "sawayama")
    assert state.control_of_resource("tsuruga") is ISHIDA


def test_4_2_arrival_at_an_ordinary_location_changes_nothing(started):
    state = place(started, sawayama=["ukita-leader"])
    after, events = control_on_arrival(state, ISHIDA, "sawayama")
    assert after.resource_control == started.resource_control and events == []


def test_4_3_castle_belongs_to_the_only_side_present(started):
    state = place(everything_in_bags(started), anotsu=["mori-3-1"])
    assert castle_controller(state, "anotsu") is ISHIDA
    state, events = update_castle_control(state)
    assert state.control_of_castle("anotsu") is ISHIDA
    assert events == [ControlChanged("anotsu", ISHIDA)]


def test_4_3_empty_castle_reverts_to_natural_alignment(started):
    state = place(everything_in_bags(started), anotsu=["mori-3-1"])
    state, _ = update_castle_control(state)
    state = place(state, bag=["mori-3-1"])
    state, events = update_castle_control(state)
    assert state.control_of_castle("anotsu") is TOKUGAWA
    assert events == [ControlChanged("anotsu", TOKUGAWA)]


def test_4_3_r54_castle_with_both_sides_stays_with_its_controller(started):
    state = place(everything_in_bags(started), anotsu=["date-leader"])
    state, _ = update_castle_control(state)
    state = place(state, anotsu=["date-leader", "mori-3-1", "mori-3-2"])
    state, events = update_castle_control(state)
    assert state.control_of_castle("anotsu") is TOKUGAWA and events == []


def test_r36_disc_alone_controls_its_castle(started):
    state = place(everything_in_bags(started), ueda=["date-leader"])
    assert castle_controller(state, "ueda") is ISHIDA  # Sanada is there: a contested castle
    state, _ = update_castle_control(evolve(state, discs=frozenset({"hideyori"})))
    assert state.control_of_castle("ueda") is TOKUGAWA


def test_r4_entering_a_resource_location_one_already_controls_changes_nothing():
    from helpers import movement_phase, run
    from rules.state import MovementOption

    state = movement_phase(ISHIDA, MovementOption.FULL, sawayama=["ukita-2-1"])
    state = evolve(state, resource_control=tuple(sorted({**dict(state.resource_control), "tsuruga": ISHIDA}.items())))
    state, events = run(state, "ishida: move sawayama", "ishida: select ukita-2-1", "ishida: step tsuruga")
    assert not any(isinstance(e, ControlChanged) for e in events)


def test_8_9_6_a_siege_ends_when_the_besiegers_leave():
    from helpers import movement_phase, run
    from rules.state import MovementOption

    state = movement_phase(TOKUGAWA, MovementOption.FULL, gifu=["mori-2-1", "date-2-1"])
    state = evolve(state, besieged=(("gifu", ISHIDA),))
    state, _ = run(state, "tokugawa: move gifu", "tokugawa: select date-2-1", "tokugawa: step kiyosu")
    assert state.besieged == ()
