"""The club's ratings as members see them (docs/club.md, Ratings): each
player's rating beside their name in the lobby's lines, and the ratings
screen's table and history (`get_ratings`).

The ratings are the store's (rating_store.py writes them with each result);
this keeps the current ones in memory for the lobby's lines, read again when
a game ends (a subscriber of the game server, after the store), so a lobby
push costs no query. Public facts only: a private game in a player's history
is shown without its id to anyone who may not see it (catalog.py, seen_by).
"""

from __future__ import annotations

from attrs import evolve

from rules.surface import Side
from sekigahara_tui.club.protocol import GameLine, Lobby
from sekigahara_tui.club.protocol_ratings import MAX_HISTORY, MAX_TABLE, GetRatings, RatingLine, RatingPoint, Ratings
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.club_games import Refusal
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.ratings import START, rating_name, ranked
from sekigahara_tui.hosting.store import Store, StoreError


class ClubRatings:
    def __init__(self, store: Store, catalog: Catalog) -> None:
        self.store = store
        self.catalog = catalog
        self._levels: dict[str, str | None] = {}  # game -> its computer's level (looked up once)
        self.now: dict[str, int] = {}
        self.reload()

    def reload(self) -> None:
        self.now = {rating.player: rating.rating for rating in self.store.ratings()}

    def _rating_of(self, game: str, player: str | None) -> int | None:
        if player is None:
            return None
        if player == COMPUTER and game not in self._levels:
            self._levels[game] = self.store.computer_level(game)
        return self.now.get(rating_name(player, self._levels.get(game)))

    def _line(self, line: GameLine) -> GameLine:
        ishida, tokugawa = self._rating_of(line.game, line.ishida), self._rating_of(line.game, line.tokugawa)
        return line if ishida is tokugawa is None else evolve(line, ishida_rating=ishida, tokugawa_rating=tokugawa)

    def lobby(self, lobby: Lobby) -> Lobby:
        """The lobby with each player's rating beside their name."""
        if not self.now:
            return lobby
        return evolve(lobby, **{section: tuple(self._line(line) for line in getattr(lobby, section))
                                for section in ("mine", "open", "watchable", "finished", "invitations")})

    def answer(self, member: str, message: GetRatings) -> Ratings:
        """The club's table and a player's history (`member`'s own by default)."""
        player = message.player or member
        try:
            ratings, steps = self.store.ratings(), self.store.rating_history(player)
        except StoreError as error:
            raise Refusal("host-error", f"the club could not read its ratings: {error}") from None
        table = tuple(RatingLine(r.player, r.rating, r.games, r.ishida_games, r.ishida_wins, r.tokugawa_games, r.tokugawa_wins)
                      for r in ranked(ratings)[:MAX_TABLE])
        history = tuple(RatingPoint(self._seen(step.game, member), step.at, step.side, step.score, step.after)
                        for step in steps[-MAX_HISTORY:])
        return Ratings(message.id, table, player, history, START)

    def _seen(self, game: str, member: str) -> str | None:
        entry = self.catalog.get(game)
        return game if entry is None or entry.seen_by(member) else None

    # --- a subscriber of the game server, after the store: a game's end moved ratings --------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        if game.host.is_over:
            self.reload()
            self._levels.pop(game.id, None)

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass
