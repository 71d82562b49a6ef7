"""R55: the public panel gives each side's hand size, for a player and for a
spectator (who holds no hand: its view's own `hand` is empty)."""

from __future__ import annotations

import random

from rules.engine import legal_commands
from rules.sides import BOTH_SIDES, Side
from rules.view import spectator_view, view
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.widgets.hand import cards, hand_caption
from sekigahara_tui.widgets.public import public_text


def forty_random_commands_in():
    host = GameHost.new(4)
    chooser = random.Random(4)
    for _ in range(40):
        side = next(s for s in BOTH_SIDES if legal_commands(host.state, s))
        host.accept(host.propose_listed(chooser.choice(legal_commands(host.state, side))))
    return host.state


def test_r55_the_public_panel_gives_both_hand_sizes_to_players_and_spectators():
    state = forty_random_commands_in()
    sizes = {side: len(state.cards[side].hand) for side in BOTH_SIDES}
    assert sizes[Side.ISHIDA] > 0
    for shown in (view(state, Side.ISHIDA), view(state, Side.TOKUGAWA), spectator_view(state)):
        text = public_text(shown)
        assert f"Ishida: hand {sizes[Side.ISHIDA]}," in text
        assert f"Tokugawa: hand {sizes[Side.TOKUGAWA]}," in text


def test_r55_the_hand_panel_tells_a_spectator_both_hand_sizes_and_a_player_its_own():
    state = forty_random_commands_in()
    ishida, tokugawa = len(state.cards[Side.ISHIDA].hand), len(state.cards[Side.TOKUGAWA].hand)
    assert hand_caption(spectator_view(state)) == f"Ishida holds {cards(ishida)}; Tokugawa {tokugawa}"
    assert hand_caption(view(state, Side.ISHIDA)) == f"{cards(ishida)}; enemy holds {cards(tokugawa)}"
    assert hand_caption(view(state, Side.TOKUGAWA)) == f"{cards(tokugawa)}; enemy holds {cards(ishida)}"
