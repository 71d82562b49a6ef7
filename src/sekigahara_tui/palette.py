"""The command palette (ctrl+p) offers every legal command by its text form."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from rules.surface import command_label


class LegalCommands(Provider):
    """Legal commands of the seat on the game screen."""

    def _commands(self):
        screen = self.screen
        legal_texts = getattr(screen, "legal_texts", None)
        return legal_texts() if legal_texts else []

    async def discover(self) -> Hits:
        for text, command in self._commands():
            yield DiscoveryHit(text, partial(self.screen.submit, command), help=command_label(command))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, command in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(self.screen.submit, command), help=command_label(command))
