"""A command the host takes as listed (its text is exactly the notation of one
of the side's legal commands, hosting/chairs.py listed) skips the second legality
check: GameHost.propose_listed must make exactly the step propose makes."""

from __future__ import annotations

import random

from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.net.state_encoding import notation
from rules.notation import format_command


def test_a_listed_command_makes_the_same_step_as_a_checked_one():
    chooser = random.Random(12)
    host = GameHost.new(12)
    compared = 0
    while not host.is_over and compared < 600:
        side = host.side_to_act()
        legal = host.view(side).legal
        for command in chooser.sample(legal, min(3, len(legal))):
            assert notation(command) == format_command(command)
            checked, listed = host.propose(command), host.propose_listed(command)
            assert (listed.command, listed.state, listed.events, listed.final) == (checked.command, checked.state, checked.events, checked.final)
            compared += 1
        host.accept(host.propose(chooser.choice(legal)))
    assert compared >= 300
