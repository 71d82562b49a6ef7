"""Issue 27, item 7: in hot seat, a move with no choice, when everyone can see
it has none, is given without a hand-over; one whose forcing would tell a
secret is not. From position files (tests/tui/position_files/):
battle_at_gifu.toml and one_card_at_gifu.toml (Tokugawa attacks Gifu; in the
second with his only card, from Kiyosu), no_card_at_gifu.toml (with no card)
and combats_in_the_east.toml (two combats to declare)."""

from __future__ import annotations

import pytest
from textual.widgets import TabbedContent

from rules.surface import DeclareDone
from sekigahara_tui.screens.forced import publicly_forced
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import BattleSummaryScreen, HandOverScreen
from sekigahara_tui.widgets.log import LogPanel
from tui.driving import take_seat, type_command
from tui.positions import record_from_position
from tui.screen_text import screen_text

# Up to Ishida's last deployment: Tokugawa has deployed all his blocks at Gifu.
TO_ISHIDAS_LAST_PASS = (
    "tokugawa: combat gifu",
    "tokugawa: lead fukushima-leader",
    "ishida: deploy mori-swords-1 mori-2-1",
    "tokugawa: allow",
    "tokugawa: deploy fukushima-plain-1 fukushima-2-1",
    "ishida: allow",
    "ishida: deploy ukita-plain-1 ukita-2-1",
    "tokugawa: allow",
    "tokugawa: deploy fukushima-swords-1 fukushima-cav-1",
    "ishida: allow",
)

# one_card_at_gifu.toml: Tokugawa plays his only card; Ishida allows it.
ONE_CARD_PLAYED = ("tokugawa: combat gifu", "tokugawa: deploy fukushima-swords-1 fukushima-cav-1", "ishida: allow")


def commands(screen: GameScreen) -> tuple[str, ...]:
    return screen.table.host.record.commands


def message(screen: GameScreen) -> str:
    return screen.seat_memory.feedback[screen.seat][0]


async def log_text(pilot, screen: GameScreen) -> str:
    screen.query_one(TabbedContent).active = "log-tab"
    await pilot.pause()
    return " ".join(strip.text.strip() for strip in screen.query_one(LogPanel).lines)


async def play(pilot, line: str, ask: bool) -> tuple[GameScreen, bool]:
    """Ishida types `line`; with --ask-forced, check it is handed over as
    before. Returns the screen, and whether the test goes on (no option)."""
    screen = await type_command(pilot, line)
    await pilot.pause()
    if ask:
        assert commands(screen)[-1] == f"ishida: {line}"
        assert isinstance(pilot.app.screen, HandOverScreen)
    return screen, not ask


async def handed_to_tokugawa(pilot, line: str, *given: str) -> GameScreen:
    """Ishida types `line`; these moves are given for Tokugawa, and then
    Tokugawa gets a hand-over for a choice of his own."""
    screen = await type_command(pilot, line)
    await pilot.pause()
    assert commands(screen)[-1 - len(given):] == (f"ishida: {line}", *given)
    top = pilot.app.screen
    if isinstance(top, BattleSummaryScreen):  # Ishida's own summary, read before he hands over
        top = pilot.app.screen_stack[-2]
    assert isinstance(top, HandOverScreen) and screen.seat.value == "tokugawa"
    return screen


def kept_the_keyboard(pilot, screen: GameScreen, side: str) -> bool:
    """No hand-over: the game screen for `side`, or its battle summary over it."""
    return isinstance(pilot.app.screen, (GameScreen, BattleSummaryScreen)) and screen.seat.value == side


@pytest.mark.parametrize("ask", [False, True])
async def test_a_pass_with_every_block_deployed_is_given_without_a_hand_over(make_app, ask):
    app = make_app(record_from_position("battle_at_gifu", *TO_ISHIDAS_LAST_PASS), ask_forced=ask)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        assert screen.seat.value == "ishida"
        # Ishida's own pass is forced by his hand (ukita-3-1 is left, no card for it): he is asked.
        assert [c.__class__.__name__ for c in screen.view.legal] == ["DeclareDone"]
        assert publicly_forced(screen.view, screen.table.seats[screen.seat.other].view) is None
        await type_command(pilot, "pass")
        await pilot.pause()
        if ask:  # the option: a hand-over as before
            assert commands(screen)[-1] == "ishida: pass"
            assert isinstance(pilot.app.screen, HandOverScreen)
        else:  # Tokugawa has nothing left to deploy, as Ishida can see: passed for him
            assert commands(screen)[-2:] == ("ishida: pass", "tokugawa: pass")
            assert kept_the_keyboard(pilot, screen, "ishida")
            said = message(screen)
            assert said.startswith("Tokugawa: ") and said.endswith("the only choice (no hand-over).")


@pytest.mark.parametrize("ask", [False, True])
async def test_a_pass_with_an_empty_hand_after_a_card_is_given_without_a_hand_over(make_app, ask):
    """Tokugawa's hand is empty (its size is public, R55) and he has deployed
    with a card, so no leader may come without one (8.2.4)."""
    app = make_app(record_from_position("one_card_at_gifu", *ONE_CARD_PLAYED), ask_forced=ask)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, goes_on = await play(pilot, "deploy ukita-plain-1 ukita-3-1", ask)
        if not goes_on:
            return
        assert commands(screen)[-1] == "tokugawa: pass"
        assert kept_the_keyboard(pilot, screen, "ishida")
        assert message(screen) == "Tokugawa: Pass: deploy no more, the only choice (no hand-over)."
        assert "the only choice (no hand-over)." in screen_text(app)  # the message line, at 80x24
        assert "Tokugawa is done deploying" in await log_text(pilot, screen)


@pytest.mark.parametrize("ask", [False, True])
async def test_a_lone_casualty_and_a_lone_retreat_are_given_without_a_hand_over(make_app, ask):
    """Tokugawa lost with one deployed block (8.7.2, R32: deployed blocks first,
    and they are face up) and came from Kiyosu alone (8.8.2, R51: both sides saw
    the move), and may not go into Ishida's castle (8.8.4)."""
    app = make_app(record_from_position("one_card_at_gifu", *ONE_CARD_PLAYED, "ishida: deploy ukita-plain-1 ukita-3-1",
                                        "tokugawa: pass"), ask_forced=ask)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, goes_on = await play(pilot, "pass", ask)
        if not goes_on:
            return
        assert commands(screen)[-3:] == ("ishida: pass", "tokugawa: lose fukushima-cav-1", "tokugawa: retreat kiyosu")
        assert kept_the_keyboard(pilot, screen, "ishida")  # the battle's summary, then Ishida's Movement Phase
        assert isinstance(pilot.app.screen, BattleSummaryScreen)
        screen = await take_seat(pilot)
        said = message(screen)
        assert said.startswith("Tokugawa: Lose ") and "; Retreat" in said and "Kiyosu" in said
        assert said.endswith("the only choices (no hand-over).")
        log = await log_text(pilot, screen)
        assert "Fukushima" in log and "Kiyosu" in log


async def test_a_lone_casualty_is_given_and_a_retreat_with_a_choice_handed_over(make_app):
    """battle_at_gifu.toml has no record of where Tokugawa came from: beaten,
    he may retreat to any neighbour of Gifu (8.8.2, R51), and chooses."""
    played = ("tokugawa: combat gifu", "tokugawa: deploy fukushima-swords-1 fukushima-cav-1", "ishida: allow",
              "ishida: deploy ukita-plain-1 ukita-3-1", "tokugawa: allow", "tokugawa: pass",
              "ishida: deploy mori-swords-1 mori-2-1", "tokugawa: allow")
    app = make_app(record_from_position("battle_at_gifu", *played))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await handed_to_tokugawa(pilot, "pass", "tokugawa: lose fukushima-cav-1")
        assert len(screen.view.legal) == 3  # Iwamura, Kiyosu, Sawayama


async def test_a_lone_combat_to_declare_is_given_without_asking(make_app):
    """combats_in_the_east.toml: after the battle at Nihonmatsu only Utsunomiya
    is left to declare (8.1, R47; the locations are public). Tokugawa's first
    deployment there is his to choose: a hand-over, but no declaration to make."""
    played = ("tokugawa: combat nihonmatsu", "tokugawa: lead date-leader", "ishida: pass", "tokugawa: pass",
              "ishida: lose uesugi-3-1")
    app = make_app(record_from_position("combats_in_the_east", *played))
    async with app.run_test(size=(80, 24)) as pilot:
        await handed_to_tokugawa(pilot, "retreat shirakawa", "tokugawa: combat utsunomiya")
        assert "You declare a battle at Utsunomiya" in await log_text(pilot, await take_seat(pilot))


async def test_a_pass_forced_by_a_hidden_block_is_handed_over(make_app):
    """no_card_at_gifu.toml: Tokugawa, with no card, led with Fukushima's leader
    (8.2.4). His only choice now is to pass, since no other leader is among his
    blocks there; but Ishida cannot see that, so Tokugawa is asked."""
    app = make_app(record_from_position("no_card_at_gifu", "tokugawa: combat gifu", "tokugawa: lead fukushima-leader"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await handed_to_tokugawa(pilot, "deploy ukita-plain-1 ukita-3-1")  # nothing given
        assert screen.view.legal == (DeclareDone(screen.seat),)
