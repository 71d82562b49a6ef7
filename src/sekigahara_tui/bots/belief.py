"""What a bot believes about the hidden game, from its side's events and views
only (R55): the enemy's cards and where its hidden blocks may be, and the
public facts a view leaves out (discard piles, R51 entries, sieges, which of
its own blocks the enemy has seen).

- Cards: every discard is public (3.3, R2), so both discard piles are known
  card by card: discards, the cards of each combat (8.10, played and
  challenged), emptied by a reshuffle. A card shown to refute a challenge is in
  the enemy's hand until played (R48). The rest of the enemy's deck is unseen:
  its hand, its set-aside card and its draw pile.
- Blocks: the fixed setup (5.2.1) is public; a block seen (a muster, the Mori
  Box, a deployment) is last known where it was seen; every other enemy block
  was last known in the bag. Moves and retreats are public as counts, so a
  block's last known place is a prior, not a certainty: the sampler places
  blocks near where they were last known, and exactly as the view counts.
- Public facts the view omits: the R51 entries of this turn, the sieges that
  go on (8.9.4), and the bot's own blocks the enemy has seen (R62).

Only the client surface is used (rules.surface)."""

from __future__ import annotations

from typing import Iterable

from rules.surface import EVENT_TYPES, Event, PlayerView, Side, default_components

_EVENTS = {cls.__name__: cls for cls in EVENT_TYPES}
MORI = "mori_box"
ELIMINATED = "eliminated"
BAG = "bag"


def _is(event: Event, name: str) -> bool:
    return type(event).__name__ == name


def both_present(view: PlayerView, location: str) -> bool:
    """Units of both sides at a location: blocks, or a disc in play (control.sides_present)."""
    discs = {d.side for d in view.discs if d.in_play and d.location == location}
    own = view.side in discs or any(place == location for _, place in view.own_blocks)
    enemy = view.side.other in discs or view.enemy_count_at(location) > 0
    return own and enemy


class Belief:
    def __init__(self, side: Side) -> None:
        c = default_components()
        self.side = side
        self.enemy = side.other
        self.discards: dict[Side, list[str]] = {Side.ISHIDA: [], Side.TOKUGAWA: []}
        # The cards of the combat under way, per side, in the order played (8.10).
        self.battle_cards: dict[Side, list[str]] = {Side.ISHIDA: [], Side.TOKUGAWA: []}
        self.shown: set[str] = set()  # enemy cards shown to refute a challenge, still in its hand
        self.last_known: dict[str, str] = {}  # enemy block -> where it was last known
        for place, blocks in c.setup.fixed:
            for block in blocks:
                if c.block(block).side is self.enemy:
                    self.last_known[block] = place
        for block in c.blocks:
            if block.side is self.enemy:
                self.last_known.setdefault(block.id, BAG)
        self.own_revealed: set[str] = set()
        self.entered_from: set[tuple[str, Side, str]] = set()
        self.besieged: set[tuple[str, Side]] = set()
        self.turn: tuple | None = None
        self.combat: tuple[str, Side, bool] | None = None  # location, attacker, siege
        self.ended: set[str] = set()  # castle locations whose combat ended since the last view
        # Units per location and side since the last view, kept up by the public
        # counts of moves, retreats and losses: a siege ends when a side is gone (8.9.6).
        self.units: dict[tuple[str, Side], int] = {}  # blocks
        self.discs: set[tuple[str, Side]] = {(d.location, d.side) for d in c.discs}
        self.control: dict[str, Side] = dict((loc.id, loc.castle) for loc in c.castles())

    # --- events ------------------------------------------------------------------------

    def observe(self, events: Iterable[Event]) -> None:
        for event in events:
            self._event(event)

    def _flush_battle(self) -> None:
        for side in self.battle_cards:
            self.discards[side] += self.battle_cards[side]
            self.battle_cards[side] = []

    def _leave(self, location: str, side: Side, count: int) -> None:
        key = (location, side)
        self.units[key] = self.units.get(key, 0) - count
        if self.units[key] <= 0 and key not in self.discs:  # a side is gone: no siege there
            self.besieged = {b for b in self.besieged if b[0] != location}
            self.ended.discard(location)

    def _arrive(self, location: str, side: Side, count: int) -> None:
        self.units[(location, side)] = self.units.get((location, side), 0) + count

    def _event(self, event: Event) -> None:
        name = type(event).__name__
        side = getattr(event, "side", None)
        if name in ("BlocksMoved", "BlocksRetreated"):
            self._leave(event.origin, side, len(event.blocks))
            self._arrive(event.destination, side, len(event.blocks))
        elif name in ("OpponentMovedBlocks", "OpponentRetreated"):
            self._leave(event.origin, side, event.count)
            self._arrive(event.destination, side, event.count)
        elif name == "PieceLost":
            self._leave(event.location, side, 1)
        elif name == "Overrun":
            self._leave(event.location, side.other, len(event.eliminated))
        elif name == "BlocksMustered":
            self._arrive(event.location, side, len(event.blocks))
        elif name == "BlocksPlaced":
            self._arrive(event.place, side, len(event.blocks))
        elif name == "OpponentPlacedBlocks":
            self._arrive(event.place, side, event.count)
        if name == "DrawPileReshuffled":
            self._flush_battle()
            self.discards[side] = []
        elif name == "CardsDiscarded":
            self.discards[side] += list(event.cards)
            if side is self.enemy:
                self.shown.difference_update(event.cards)
        elif name == "CombatDeclared":
            if event.location in self.ended:  # the last combat there ended with both sides staying
                self.ended.discard(event.location)
                if event.location in self.control:
                    self.besieged.add((event.location, self.control[event.location]))
            self._flush_battle()
            self.combat = (event.location, event.attacker, event.siege)
            owner = self.control.get(event.location)
            inside = self.units.get((event.location, owner), 0)
            if not event.siege and 0 < inside <= 2:  # 8.9.2: the owner came out, no longer besieged
                self.besieged = {b for b in self.besieged if b[0] != event.location}
        elif name == "BlockDeployed":
            if event.card and event.card not in self.battle_cards[side]:
                self.battle_cards[side].append(event.card)
            if side is self.enemy:
                self.shown.discard(event.card)
                if self.combat:
                    self.last_known[event.block] = self.combat[0]
            else:
                self.own_revealed.add(event.block)
        elif name == "LoyaltyChallenged":
            self.battle_cards[side].append(event.card)
            if side is self.enemy:
                self.shown.discard(event.card)
        elif name == "ChallengeRefuted":
            if side is self.enemy:
                self.shown.add(event.shown)
        elif name == "CombatEnded":
            # 8.9.4 step 5, 8.8 (R34): if both sides stay, the castle's owner is
            # besieged inside; the next view tells whether both stayed.
            if event.location in default_components().location_ids and default_components().location(event.location).castle:
                self.ended.add(event.location)
        elif name == "CastleFell":
            self.control[event.location] = side
            self.ended.discard(event.location)
            self.besieged = {b for b in self.besieged if b[0] != event.location}
        elif name in ("BlocksShown", "BlocksMustered"):
            place = getattr(event, "place", None) or getattr(event, "location", None)
            if side is self.enemy:
                for block in event.blocks:
                    self.last_known[block] = place
            elif place not in (MORI, ELIMINATED):
                self.own_revealed.update(event.blocks)
        elif name == "MoriBlockEntered":
            if side is self.side:
                self.own_revealed.add(event.block)
        elif name in ("BlocksMoved", "BlocksRetreated"):
            self.own_revealed.difference_update(event.blocks)
            self.entered_from.add((event.destination, side, event.origin))
        elif name in ("OpponentMovedBlocks", "OpponentRetreated"):
            if event.count:
                self.entered_from.add((event.destination, side, event.origin))
        elif name == "PieceLost":
            if side is self.enemy:
                self.last_known[event.piece] = ELIMINATED
        elif name == "PhaseBegan":
            turn = (event.week, event.turn)
            if turn != self.turn:
                self.turn = turn
                self.entered_from = set()
            if self.combat is not None:
                self._flush_battle()
                self.combat = None
        elif name == "WeekBegan":
            self._flush_battle()
            self.combat = None

    # --- views ---------------------------------------------------------------------------

    def see(self, view: PlayerView) -> None:
        """What a view adds: where the revealed enemy blocks are."""
        for block, place in view.enemy_known:
            self.last_known[block] = place
        self.units = {}
        for _, place in view.own_blocks:
            self._arrive(place, view.side, 1)
        for place, count in view.enemy_counts:
            self._arrive(place, view.side.other, count)
        self.discs = {(disc.location, disc.side) for disc in view.discs if disc.in_play}
        battle = view.combat.battle.location if view.combat and view.combat.battle else None
        if self.combat is not None and battle != self.combat[0]:  # that combat is over (8.10)
            self._flush_battle()
            self.combat = None
        control = self.control = dict(view.castle_control)
        for location in list(self.ended):
            if location == battle:
                continue  # the combat there is not over yet (losses, retreats)
            self.ended.discard(location)
            if both_present(view, location) and location in control:
                self.besieged.add((location, control[location]))

    def sieges(self, view: PlayerView) -> tuple[tuple[str, Side], ...]:
        """The sieges that go on: both sides still at the castle (8.9.6)."""
        return tuple(sorted(b for b in self.besieged if both_present(view, b[0])))
