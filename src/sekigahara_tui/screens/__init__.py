"""Screens: main menu, game, hand-over, help, rules, saving and loading, game over."""
