"""Invitations, private games and rematches (issue 24), the lobby's side.

An invitation is a game made with its open seat for one named member
(store.py GameTerms.invited): it is listed under their "invitations" and
nobody else's open games; they accept it by joining it, or decline it (the
game is withdrawn, and its maker's lobby says so). A rematch is an
invitation to the opponent of a finished game, sides swapped, with its clock
preset and its rule for a side out of time. A private game
is its players' only: to anyone else the club answers about it exactly as
about a game that does not exist (club_games.unknown); a finished game's
record (the replay) is its players', and everyone's if it was public. The invited member,
if not in the lobby, gets an `invitation` or `rematch` notice
(notices.py), which names the game and the inviter only.
"""

from __future__ import annotations

from typing import Callable

from rules.surface import Side, printable
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.club_games import ClubGames, Refusal, played_entry, seen_entry
from sekigahara_tui.hosting.generations import MemberGenerations
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.notice_delivery import NoticeQueue
from sekigahara_tui.hosting.notices import INVITATION, REMATCH, Notice
from sekigahara_tui.hosting.store import GameTerms, Store, StoreError

NEWS_KEPT = 5  # lines a member's lobby keeps about their invitations (in memory)


class Invitations:
    def __init__(
        self,
        catalog: Catalog,
        club_games: ClubGames,
        generations: MemberGenerations,
        in_lobby: Callable[[str], bool],
        told: Callable[[str], None],
        queue: NoticeQueue | None = None,
    ) -> None:
        self.catalog = catalog
        self.club_games = club_games
        self.generations = generations
        self.in_lobby = in_lobby  # whether a member has a lobby open now (then no notice)
        self.told = told  # the member's lobby has news: push it
        self.queue = queue
        self.news: dict[str, list[str]] = {}  # member -> lines about their invitations

    def news_for(self, member: str) -> tuple[str, ...]:
        return tuple(self.news.get(member, ()))

    def terms_for(self, member: str, opponent: str, invite: str | None, private: bool, rated: bool = False) -> GameTerms:
        """The terms of a new game, its invited member checked: one line why not."""
        if invite is not None:
            if opponent != "open":
                raise Refusal("bad-message", "an invitation is to a member: the opponent must be 'open'")
            if invite == member:
                raise Refusal("bad-message", "you cannot invite yourself")
            if invite == COMPUTER or self.generations.generation_of(invite) is None or self.generations.is_guest(invite):
                raise Refusal("bad-message", f"{printable(invite, 40)!r} is not a member of this club")
        return GameTerms(invite, private, rated=rated)

    def made(self, member: str, game_id: str, terms: GameTerms, kind: str = INVITATION) -> None:
        """A game was made for `terms.invited`: tell them if they are away."""
        if terms.invited is None or self.queue is None or self.in_lobby(terms.invited):
            return
        if self.queue.wants(terms.invited, kind):
            self.queue.send(terms.invited, Notice(kind, game_id, terms.invited, member, resume=self.queue.options.resume))

    def declined(self, member: str, game_id: str, maker: str | None) -> None:
        """`member` declined the invitation `game_id`: its maker's lobby says so."""
        if maker is None:
            return
        lines = self.news.setdefault(maker, [])
        lines.append(f"{printable(member, 40)} declined your invitation (game {game_id})")
        del lines[:-NEWS_KEPT]
        self.told(maker)

    def rematch(self, member: str, game_id: str) -> tuple[str, Side, GameTerms]:
        """A new game against the opponent of `member`'s finished game, sides
        swapped, its clock and time-out rule kept, as an invitation to them:
        (its id, member's side, terms)."""
        entry, side = played_entry(self.catalog, game_id, member, "you played neither seat of that game: no rematch to offer")
        if entry.status != "over":
            raise Refusal("illegal", "that game is not over yet: a rematch comes after it")
        opponent = entry.players[side.other]
        if opponent is None or opponent == COMPUTER or self.generations.generation_of(opponent) is None:
            raise Refusal("illegal", "a rematch is offered to a member who played that game: start a new game instead")
        terms = GameTerms(opponent, entry.terms.private, rematch_of=game_id, rated=entry.terms.rated)  # rated if the first was
        clock, on_time_out = self.club_games.store.clock_terms(game_id)  # the same clock and time-out rule
        new_id = self.club_games.new_game(member, side.other, "open", clock=clock, on_time_out=on_time_out, terms=terms)
        self.made(member, new_id, terms, REMATCH)
        return new_id, side.other, terms


def finished_record(store: Store, catalog: Catalog, member: str, game_id: str) -> str:
    """The record of a finished game, as JSON, for its players, and for
    others if it was public. Only once over: the record holds the seed,
    which decides every hidden draw (R55)."""
    entry = seen_entry(catalog, game_id, member)
    if entry.status != "over":
        raise Refusal("illegal", "that game is still in play: its replay comes once it is over")
    try:
        return store.record_json(game_id)
    except StoreError as error:
        raise Refusal("host-error", f"could not read its record: {printable(str(error), 200)}") from None
