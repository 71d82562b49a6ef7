"""What a bot believes about the hidden game, from its side's events and views
only (R55): the enemy's cards and where its hidden blocks may be, and the
public facts a view leaves out (discard piles, R51 entries, sieges, which of
its own blocks the enemy has seen).

- Cards: every discard is public (3.3, R2), so both discard piles are known
  card by card: discards, the cards of each combat (8.10, played and
  challenged), emptied by a reshuffle. A card shown to refute a challenge is in
  the enemy's hand until played (R48). The rest of the enemy's deck is unseen:
  its hand, its set-aside card and its draw pile.
- Blocks, where each can be (`possible`, issue 14): a sound over-approximation,
  never missing the true place. The fixed setup (5.2.1) and the Mori Box are
  public; the random setup (5.2.2, 5.2.3) and reinforcements (6.2) come from
  the bag; an unshown muster (7.2 option 2) from the Recruitment Box. A move
  or retreat of k blocks from A to B is public as a count (R55): every block
  that could be at A may now be at B too. A reveal pins a block (a muster
  shown, the Mori Box, a deployment, R62), so does a loss (8.7.3, R49). Each
  view's counts prune: a place with no hidden enemy block holds none, and a
  place with exactly as many candidates as blocks holds all of them.
  `last_known` (where each block was last seen) stays as the sampler's prior
  among the places a block can be.
- Moves within the enemy's Movement Phase (`movable`): a counted step from A
  spreads only the blocks that could be at A and still move: not blocks
  mustered this turn (7.2: mustered blocks cannot move in the turn they are
  placed), and under Minimal movement (7.1: one stack move) only blocks that
  could be at that move's source when the phase began (7.3.1: one source per
  move, R14: a moving stack picks no block up). A step's events say where
  its stack move began (7.3: the opponent sees the stack leave its source), so
  under any option a step from B is known to continue the move that began at A
  or to begin one at B (7.3.1, R15: one move per source): only the blocks that
  could be at the source and still move when that move began (`in_move`) go
  on, and once a move from another source begins they never move again this
  phase (7.3.1). Events made before they said their source (None) fall back to
  the origin: any block that could be there and still move.
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
OSAKA = "osaka"  # where Mori Box blocks enter (9.3)
# Each side's Recruitment Box (4.4); a place like any other in a view's counts.
RECRUITMENT = {Side.ISHIDA: "ishida_recruitment", Side.TOKUGAWA: "tokugawa_recruitment"}


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
        # Enemy block -> the places it can be now; starts where last known (5.2.1, 5.1 step 4).
        self.possible: dict[str, set[str]] = {block: {place} for block, place in self.last_known.items()}
        # 5.2.1's placements still to come: their blocks are known already, not drawn from the bag.
        self._fixed_pending = {place for place, blocks in c.setup.fixed
                               if place != MORI and c.block(blocks[0]).side is self.enemy}
        self.setting_up = True  # until the first week begins: hidden placements come from the bag (5.2.2)
        # The enemy's Movement Phase under way (None: none): block -> the places it
        # can be and still move from (7.2, 7.3.1); `started`: its places when the
        # phase began; `only_source`: the one stack move's source under Minimal (7.1).
        self.movable: dict[str, set[str]] | None = None
        self.started: dict[str, frozenset[str]] = {}
        self.minimal = False
        self.only_source: str | None = None
        # The enemy's stack move under way (7.3.1): its source, and block -> the
        # places it can be as one of that move's blocks. `movable` then holds a
        # block's places outside any stack move begun this phase.
        self.move_source: str | None = None
        self.in_move: dict[str, set[str]] = {}
        self.resets = 0  # views that contradicted `possible` (cannot happen if it is sound): it was widened
        self._pruned: PlayerView | None = None  # the view `possible` was last pruned with
        self.own_revealed: set[str] = set()
        self.entered_from: set[tuple[str, Side, str]] = set()
        self.besieged: set[tuple[str, Side]] = set()
        self.turn: tuple | None = None
        self.combat: tuple[str, Side, bool] | None = None  # location, attacker, siege
        # castle locations whose combat ended since the last view: was it a siege?
        self.ended: dict[str, bool] = {}
        # Units per location and side since the last view, kept up by the public
        # counts of moves, retreats and losses: a siege ends when a side is gone (8.9.6).
        self.units: dict[tuple[str, Side], int] = {}  # blocks
        self.discs: set[tuple[str, Side]] = {(d.location, d.side) for d in c.discs}
        self.control: dict[str, Side] = dict((loc.id, loc.castle) for loc in c.castles())

    # --- events ------------------------------------------------------------------------

    def observe(self, events: Iterable[Event]) -> None:
        for event in events:
            self._places(event)
            self._event(event)
            self._pruned = None

    # --- where each enemy block can be -------------------------------------------------

    def _pin(self, block: str, place: str, movable: bool = True) -> None:
        if block in self.possible:
            self.possible[block] = {place}
            self.last_known[block] = place
            if self.movable is not None:
                self.movable[block] = {place} if movable else set()
            if block in self.in_move:
                self.in_move[block] = {place} if movable else set()

    def _step(self, origin: str, destination: str, source: str | None) -> None:
        """A counted step of the enemy's Movement Phase: the blocks that could
        be at `origin` and still move there may now be at `destination` (7.2,
        7.3.1; see the module's docstring)."""
        if source is not None:
            self._step_of_move(source, origin, destination)
            return
        movable = self.movable
        if self.minimal and self.only_source is None:
            self.only_source = origin  # 7.1: the one stack move starts here
        source = self.only_source if self.minimal else None
        for block, places in self.possible.items():
            if origin in movable[block] and (source is None or source in self.started[block]):
                places.add(destination)
                movable[block].add(destination)

    def _step_of_move(self, source: str, origin: str, destination: str) -> None:
        """A step of the stack move that began at `source` (7.3.1, R15): a new
        source ends the move before (its blocks move no more this phase) and
        takes in every block that could be there and still move (7.3.1: they
        all take part, R14: none joins later)."""
        movable = self.movable
        if source != self.move_source:
            self.move_source = source
            self.in_move = {}
            for block, places in movable.items():
                if source in places:
                    self.in_move[block] = {source}
                    places.discard(source)  # there, it is in this move; elsewhere, still free
        for block, places in self.in_move.items():
            if origin in places:
                places.add(destination)
                self.possible[block].add(destination)

    def _spread(self, sources: tuple[str, ...], destination: str) -> None:
        """Some blocks went from `sources` to `destination`, which ones unsaid:
        any block that could be at a source may now be there."""
        for places in self.possible.values():
            if not places.isdisjoint(sources):
                places.add(destination)

    def _places(self, event: Event) -> None:
        name = type(event).__name__
        side = getattr(event, "side", None)
        if name in ("WeekBegan", "PhaseBegan"):
            self.setting_up = False
            self._fixed_pending.clear()
            self.movable = None
            if name == "PhaseBegan" and event.phase.value == "movement" and event.active is self.enemy:
                self.movable = {block: set(places) for block, places in self.possible.items()}
                self.started = {block: frozenset(places) for block, places in self.possible.items()}
                self.minimal, self.only_source = False, None
            self.move_source, self.in_move = None, {}
        elif name == "MovementChosen":
            self.minimal = side is self.enemy and event.option.value == "minimal"
        elif name == "Overrun":  # the overrun blocks are shown as they die (7.4, 8.7.3)
            if side is self.side:
                for block in event.eliminated:
                    self._pin(block, ELIMINATED)
        elif side is not self.enemy:
            return
        elif name in ("OpponentMovedBlocks", "OpponentRetreated"):  # counts only (R55)
            if event.count and name == "OpponentMovedBlocks" and self.movable is not None:
                self._step(event.origin, event.destination, getattr(event, "source", None))
            elif event.count:
                self._spread((event.origin,), event.destination)
        elif name == "OpponentPlacedBlocks":
            if event.place in self._fixed_pending:  # 5.2.1: the fixed blocks, known already
                self._fixed_pending.discard(event.place)
            elif self.setting_up or event.place == RECRUITMENT[self.enemy]:  # 5.2.2, 5.2.3, 6.2: from the bag
                self._spread((BAG,), event.place)
            else:  # 7.2 option 2: one block from the Recruitment Box, not shown; it cannot move this turn
                self._spread((RECRUITMENT[self.enemy],), event.place)
        elif name in ("BlocksMustered", "BlocksShown"):  # 7.2 option 1, 5.1: shown
            place = event.location if name == "BlocksMustered" else event.place
            for block in event.blocks:
                self._pin(block, place, movable=name != "BlocksMustered")  # 7.2: mustered blocks stay
        elif name == "MoriBlockEntered":  # 9.3: face up into Osaka
            self._pin(event.block, OSAKA)
        elif name in ("BlockDeployed", "BlocksDefected"):  # 8.2.3: shown in its battle
            if self.combat is not None:
                for block in (event.block,) if name == "BlockDeployed" else event.blocks:
                    self._pin(block, self.combat[0])
        elif name == "PieceLost":  # 8.7.2: lost blocks are shown
            self._pin(event.piece, ELIMINATED)

    def _prune(self, view: PlayerView) -> None:
        """Narrow `possible` by the view's exact counts (R55): revealed blocks
        are where shown; a place with no hidden enemy block holds none of them;
        a place whose pinned blocks fill its count holds no other; a place with
        exactly as many candidates as hidden blocks holds all of them."""
        if view is self._pruned:
            return
        self._pruned = view
        known = dict(view.enemy_known)
        left: dict[str, int] = dict(view.enemy_counts)  # hidden enemy blocks per place
        for block, place in known.items():
            left[place] -= 1
            self.possible[block] = {place}
        live = {place for place, n in left.items() if n > 0}
        hidden = [block for block in self.possible if block not in known]
        for block in hidden:
            self.possible[block] &= live
        if not self._propagate(hidden, left):
            self.resets += 1  # a contradiction: start again from the view alone
            for block in hidden:
                self.possible[block] = set(live)
            if self.movable is not None:
                self.movable = {block: set(places) for block, places in self.possible.items()}
                self.started = {block: frozenset(places) for block, places in self.possible.items()}
                if self.move_source is not None:  # any block may be in the move under way
                    self.in_move = {block: set(places) for block, places in self.possible.items()}
        elif self.movable is not None:
            for block, places in self.movable.items():
                places &= self.possible[block]
            for block, places in self.in_move.items():
                places &= self.possible[block]

    def _propagate(self, hidden: list[str], left: dict[str, int]) -> bool:
        """Apply the two counting rules until nothing changes; False on a contradiction."""
        possible = self.possible
        changed = True
        while changed:
            changed = False
            pinned: dict[str, int] = {}
            candidates: dict[str, int] = {}
            for block in hidden:
                places = possible[block]
                if not places:
                    return False
                if len(places) == 1:
                    (place,) = places
                    pinned[place] = pinned.get(place, 0) + 1
                for place in places:
                    candidates[place] = candidates.get(place, 0) + 1
            full = set()
            for place, n in left.items():
                if pinned.get(place, 0) > n or candidates.get(place, 0) < n:
                    return False
                if n and pinned.get(place, 0) == n and candidates[place] > n:
                    full.add(place)
            if full:  # those places are filled by their pinned blocks
                for block in hidden:
                    places = possible[block]
                    if len(places) > 1 and not places.isdisjoint(full):
                        places -= full
                        changed = True
                continue
            exact = {place for place, n in left.items() if n and candidates[place] == n and pinned.get(place, 0) < n}
            for block in hidden:  # every candidate of such a place is there
                places = possible[block]
                there = places & exact
                if len(there) > 1:
                    return False
                if there and len(places) > 1:
                    possible[block] = there
                    changed = True
        return True

    def _flush_battle(self) -> None:
        for side in self.battle_cards:
            self.discards[side] += self.battle_cards[side]
            self.battle_cards[side] = []

    def _leave(self, location: str, side: Side, count: int) -> None:
        key = (location, side)
        self.units[key] = self.units.get(key, 0) - count
        if self.units[key] <= 0 and key not in self.discs:  # a side is gone: no siege there
            self.besieged = {b for b in self.besieged if b[0] != location}
            self.ended.pop(location, None)

    def _besieged_after(self, location: str) -> None:
        """The last combat at this castle ended and both sides stayed: its owner is
        besieged inside (8.9.4 step 5 after a siege; R34's garrison after a battle).
        After a battle the owner's blocks must be there: a disc alone (R36) that
        outlived its side's blocks is no siege until one is declared there."""
        siege = self.ended.pop(location)
        owner = self.control.get(location)
        if owner is not None and (siege or self.units.get((location, owner), 0) > 0):
            self.besieged.add((location, owner))

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
                self._besieged_after(event.location)
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
                self.ended[event.location] = self.combat is not None and self.combat[0] == event.location and self.combat[2]
        elif name == "CastleFell":
            self.control[event.location] = side
            self.ended.pop(event.location, None)
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
        """What a view adds: where the revealed enemy blocks are, and the counts
        that narrow where the hidden ones can be."""
        for block, place in view.enemy_known:
            self.last_known[block] = place
        self._prune(view)
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
        self.control = dict(view.castle_control)
        for location in list(self.ended):
            if location == battle:
                continue  # the combat there is not over yet (losses, retreats)
            if both_present(view, location):
                self._besieged_after(location)
            else:
                self.ended.pop(location)

    def sieges(self, view: PlayerView) -> tuple[tuple[str, Side], ...]:
        """The sieges that go on: both sides still at the castle (8.9.6)."""
        return tuple(sorted(b for b in self.besieged if both_present(view, b[0])))
