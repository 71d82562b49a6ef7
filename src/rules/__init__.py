"""The Sekigahara game engine: pure rules, no I/O beyond loading component data.

The engine's front door is `rules.engine` (legal_commands, apply); clients
(the app's screens, bots, remote seats) use only `rules.surface`,
`rules.notation` and `rules.describe`.
"""
