"""Issue 13: each side's VP (2.2) and blocks on the map, week by week, read
from one seat's WeekEnded events (sekigahara_tui.standing), against the
engine's own figures at the end of every week of many random games.

The end of week N is the state after the step that begins week N+1 (nothing
after WeekBegan in that step touches the map or control: 6.2 reinforcements go
to the Recruitment Box); the last week ends with the game.
"""

from __future__ import annotations

import pytest

from rules.components import default_components
from rules.infra.record import replay_steps
from rules.infra.selfplay import random_game
from rules.sides import BOTH_SIDES, Side
from rules.state import OFF_MAP
from rules.victory import victory_points
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.net.protocol import State, decode_host_message, encode
from sekigahara_tui.replay_model import ReplayModel
from sekigahara_tui.screens.info import week_plots, weekly_figures
from sekigahara_tui.standing import weekly_standing
from sekigahara_tui.widgets.log import LogPanel

SEEDS = range(40)
PUBLIC = frozenset(BOTH_SIDES)


class Game:
    """One finished random game: its steps, and the engine's figures at each week's end."""

    def __init__(self, seed: int) -> None:
        self.record = random_game(seed, trusted=True).record
        self.steps = list(replay_steps(self.record))
        final = self.steps[-1][1]
        ends = [state for _, state, events in self.steps[1:]
                if any(type(e).__name__ == "WeekBegan" for e in events)] + [final]
        self.last_week = final.week
        assert len(ends) == self.last_week
        c = default_components()
        self.vp = {side: [victory_points(state)[side] for state in ends] for side in BOTH_SIDES}
        self.blocks = {
            side: [sum(1 for b, p in zip(c.blocks, s.positions) if b.side is side and p not in OFF_MAP) for s in ends]
            for side in BOTH_SIDES
        }

    def log(self, seat: Side | None) -> list:
        """The events a seat sees (R55, as GameHost.events_for); None: a spectator's (public only)."""
        wanted = (lambda e: e.visible_to() == PUBLIC) if seat is None else (lambda e: seat in e.visible_to())
        return [e for _, _, events in self.steps for e in events if wanted(e)]


@pytest.fixture(scope="module")
def games() -> list[Game]:
    return [Game(seed) for seed in SEEDS]


@pytest.mark.parametrize("seat", BOTH_SIDES, ids=lambda s: s.value)
def test_2_2_vp_at_each_weeks_end_from_a_players_log_is_the_engines(games, seat):
    """2 per castle, 1 per resource (2.2), as each week ended (6.4); the last
    week ends with the game, an instant victory's too (2.1, R56)."""
    assert any(game.last_week < 7 for game in games)  # an instant victory (2.1, R56) ends the weeks early
    for game in games:
        assert weekly_standing(game.log(seat), game.last_week).vp == game.vp


@pytest.mark.parametrize("seat", BOTH_SIDES, ids=lambda s: s.value)
def test_blocks_on_the_map_at_each_weeks_end_from_a_players_log_are_the_engines(games, seat):
    """Setup (5.2.1, 5.2.2), musters (7.2), Mori entries (9.3), overruns (7.4.2),
    losses (8.7.3; a disc is not a block); defectors stay their owner's (8.6.1)."""
    for game in games:
        assert weekly_standing(game.log(seat), game.last_week).blocks == game.blocks


def test_r55_the_figures_from_a_networked_seats_log_as_it_crossed_the_wire(games):
    """A networked seat holds only its side's events, decoded from the host's State messages."""
    game = games[0]
    host = GameHost.from_record(game.record)
    for seat in BOTH_SIDES:
        message = State(1, host.step_count, None, host.view(seat), 0, tuple(map(tuple, host.step_events(seat))), None, True)
        received = decode_host_message(encode(message))
        log = [e for step in received.events for e in step]
        standing = weekly_standing(log, received.view.week)
        assert (standing.vp, standing.blocks) == (game.vp, game.blocks)


def test_r55_a_spectators_log_of_public_events_alone_gives_the_same_figures(games):
    """The standing is public (R55: control markers, blocks counted per
    location), so a log of only the events both sides see, without the
    count-only twins, gives the engine's figures and the plots draw them."""
    for game in games:
        standing = weekly_standing(game.log(None), game.last_week)
        assert (standing.vp, standing.blocks) == (game.vp, game.blocks)
    game = games[0]
    plots = week_plots(weekly_figures(game.log(None), game.last_week))
    assert plotted(plots, "VP at the end of the week (2.2):") == {
        "Ishida": game.vp[Side.ISHIDA], "Tokugawa": game.vp[Side.TOKUGAWA]}


def test_a_log_that_did_not_see_every_week_end_draws_no_standing(games):
    """A game set up from a position in a later week (docs/positions.md) never
    saw the weeks before it end: no figure is made up for them, and the plots
    leave the standing out."""
    game = next(g for g in games if g.last_week > 2)
    log = [e for e in game.log(Side.ISHIDA) if not (type(e).__name__ == "WeekEnded" and e.week == 1)]
    assert weekly_standing(log, game.last_week) is None
    figures = weekly_figures(log, game.last_week)
    assert not any(key.startswith(("vp:", "map:")) for key in figures)
    assert "VP at the end" not in week_plots(figures)
    assert weekly_standing(log[:0], 1) is None  # nor one not over yet: week 1 has not ended


def plotted(plots: str, title: str) -> dict[str, list[int]]:
    """The figures of the two side rows under `title`, read back from the text."""
    lines = plots.splitlines()
    at = lines.index(title)
    rows = {}
    for line in lines[at + 1:at + 3]:
        name, cells = line[:10].strip(), line[10:]
        rows[name] = [int(cells[i + 1:i + 3]) for i in range(0, len(cells), 3)]
    return rows


def test_the_plots_show_each_weeks_vp_and_blocks_on_the_map(games):
    game = games[1]
    plots = week_plots(weekly_figures(game.log(Side.TOKUGAWA), game.last_week))
    assert plotted(plots, "VP at the end of the week (2.2):") == {
        "Ishida": game.vp[Side.ISHIDA], "Tokugawa": game.vp[Side.TOKUGAWA]}
    assert plotted(plots, "blocks on the map, end of week:") == {
        "Ishida": game.blocks[Side.ISHIDA], "Tokugawa": game.blocks[Side.TOKUGAWA]}
    assert all(len(line) <= 38 for line in plots.splitlines() if not line.startswith("VP and"))  # the 80x24 panel


def test_6_4_the_end_of_a_week_writes_no_line_in_the_log_or_the_replay(games):
    """Issue 22 changes no screen: WeekEnded's line is empty (rules.describe),
    and neither the log panel nor the replay's frames write it."""
    game = games[0]
    panel = LogPanel()
    for seat in BOTH_SIDES:
        panel.add(game.log(seat), seat)
    panel.add(game.log(None), Side.ISHIDA, neutral=True)
    assert "" not in panel._texts and any(text.startswith("Week 2 begins") for text in panel._texts)
    replay = ReplayModel.from_record(game.record)
    frames = [replay.frame(index) for index in range(replay.count)]
    assert all("" not in lines for frame in frames for lines in frame.lines.values())


def test_a_game_begun_in_week_2_counts_its_battles_in_week_2():
    """A game begun at a position (battle_at_gifu: week 2) has no WeekBegan for
    its first week: its battles belong to week 2, not week 1 (the first
    WeekEnded names the week the log begins in)."""
    from rules.engine import legal_commands
    from rules.sides import BOTH_SIDES, Side
    from sekigahara_tui.hosting.host import GameHost
    from sekigahara_tui.screens.info import weekly_figures
    from tui.positions import record_from_position

    host = GameHost.from_record(record_from_position("battle_at_gifu"))
    while not host.is_over and host.state.week == 2:  # the last command listed each time: a fixed game
        side = next(s for s in BOTH_SIDES if legal_commands(host.state, s))
        host.submit(legal_commands(host.state, side)[-1])
    battles = weekly_figures(host.events_for(Side.ISHIDA), 7)["battles"]
    assert battles[0] == 0 and battles[1] >= 1
