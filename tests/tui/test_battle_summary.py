"""After each battle or siege both players see what happened (issue 13)."""

from __future__ import annotations

from rules.infra.record import save_record
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import BattleSummaryScreen, HandOverScreen
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.positions import battle_with_a_challenge_open
from tui.screen_text import screen_text


async def play_until_a_summary(pilot, app, limit: int = 60) -> list[tuple[str, str]]:
    """Give the first choice, seat by seat, until a battle summary shows; return
    (seat, text) for every summary seen, dismissing each."""
    seen = []
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, HandOverScreen):
            await pilot.press("enter")
            continue
        if isinstance(screen, BattleSummaryScreen):
            game = app.screen_stack[-2]
            seen.append((game.seat.value, screen_text(app)))
            await pilot.press("enter")
            if len({side for side, _ in seen}) == 2:
                return seen
            continue
        assert isinstance(screen, GameScreen)
        if seen and not screen.view.legal:
            return seen
        prompt = screen.query_one(PromptPanel)
        prompt.choices.focus()
        prompt.choices.highlighted = 0
        await pilot.press("enter")
    return seen


async def test_both_players_see_the_battle_summary_with_the_challenge_result(make_app, tmp_path):
    path = tmp_path / "position.json"
    save_record(battle_with_a_challenge_open(), path)
    app = make_app(load=path)
    async with app.run_test(size=(80, 24)) as pilot:
        seen = await play_until_a_summary(pilot, app)
        assert {side for side, _ in seen} == {"ishida", "tokugawa"}
        for side, text in seen:
            assert "Battle at Gifu" in text
            assert "Enter continues" in text
            assert "challenge" in text.lower()  # the Loyalty Challenge and its result (8.6)


def test_R55_the_battle_panel_names_own_blocks_not_yet_deployed_and_counts_the_enemy_s():
    """8.2: the blocks at the battle still to deploy; the enemy's only as a count."""
    from rules.surface import default_components
    from rules.infra.selfplay import random_game
    from rules.sides import BOTH_SIDES
    from rules.view import spectator_view, view
    from sekigahara_tui.labels import block_label
    from sekigahara_tui.widgets.battle import undeployed_line

    checked = 0

    def on_step(before, command, after, events) -> None:
        nonlocal checked
        battle = after.combat.battle if after.combat is not None else None
        if battle is None or checked > 40:
            return
        for side in BOTH_SIDES:
            seen = view(after, side)
            deployed = {d.block for d in seen.combat.battle.deployments}
            line = undeployed_line(seen, seen.combat.battle)
            own = [b for b, p in seen.own_blocks if p == battle.location and b not in deployed]
            enemy = [b for b, p in zip(default_components().blocks, after.positions)
                     if p == battle.location and b.side is side.other and b.id not in deployed]
            assert all(block_label(b) in line for b in own), line
            assert line.endswith(f"{len(enemy)} block" + ("" if len(enemy) == 1 else "s")), line
            assert not any(block_label(b.id) in line for b in enemy if block_label(b.id) not in map(block_label, own))
        public = undeployed_line(spectator_view(after), spectator_view(after).combat.battle)
        assert public.startswith("Not deployed yet: Ishida ") and "yours" not in public
        checked += 1

    for seed in range(1, 6):
        random_game(seed, on_step=on_step)
    assert checked > 10


async def test_R55_the_leaving_player_reads_his_own_summary_before_the_hand_over(make_app, monkeypatch, settle_clock):
    """combats_in_the_east.toml: Ishida's retreat from Nihonmatsu ends the battle
    and the decision passes to Tokugawa (play-test: the leaving player's summary
    came only when he next sat down, a whole turn later). His summary lies over
    the hand-over, in his words (R55: his own log); its Enter uncovers the
    hand-over, whose Enter does nothing until it has been on screen for
    APPEAR_SETTLE_S (a double tap of the leaving player would show him Tokugawa's
    board), then hands the keyboard over."""
    from tui.driving import submit_command_line, take_seat, until
    from tui.positions import record_from_position

    monkeypatch.setattr(HandOverScreen, "APPEAR_SETTLE_S", 0.3)
    played = ("tokugawa: combat nihonmatsu", "tokugawa: lead date-leader", "ishida: pass", "tokugawa: pass",
              "ishida: lose uesugi-3-1")
    app = make_app(record_from_position("combats_in_the_east", *played))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen) and app.screen.drawn_at is not None, "the first hand-over")
        settle_clock.wait(1.0)
        await pilot.press("enter")  # Ishida sits down
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "Ishida's board")
        screen = app.screen
        await submit_command_line(pilot, "ishida", "retreat shirakawa")
        await until(pilot, lambda: isinstance(app.screen, BattleSummaryScreen), "Ishida's summary")
        stack = app.screen_stack
        assert isinstance(stack[-2], HandOverScreen) and stack[-2].side.value == "tokugawa"
        await until(pilot, lambda: "Battle at Nihonmatsu" in screen_text(app), "the summary drawn")
        text = screen_text(app)
        assert "Ishida retreats" not in text and "You retreat" in text, text  # his own words
        await pilot.press("enter")  # read: the hand-over shows
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the hand-over")
        hand_over = app.screen
        await until(pilot, lambda: hand_over.drawn_at is not None, "the hand-over drawn")
        await pilot.press("enter")  # the same player's double tap: nothing happens
        await pilot.pause()
        assert app.screen is hand_over and screen.table.host.record.commands[-1] == "tokugawa: combat utsunomiya"
        settle_clock.wait(HandOverScreen.APPEAR_SETTLE_S)
        await pilot.press("enter")  # Tokugawa, sitting down: his own summary of the battle, then his board
        await until(pilot, lambda: app.screen is not hand_over and screen.seat.value == "tokugawa", "Tokugawa's turn")
        assert isinstance(app.screen, BattleSummaryScreen) and "Ishida retreats" in screen_text(app)
