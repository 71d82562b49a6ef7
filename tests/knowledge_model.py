"""What each side may know, worked out from the rules, not from rules.view.

The leak checks (tests/rules/test_fuzz.py, tests/net/net_helpers.py,
tests/club/test_spectators.py) compare what the engine shows a side with this
model, so an engine that wrongly reveals a block or a card fails them.

The model follows a game step by step, reading the true state before and after
each command and the command itself, never a view and never the engine's own
record of reveals (`GameState.revealed`). Of the enemy, a side may know:

- blocks in the Mori Box and eliminated blocks, always (5.1, 8.7.3, R49, R55, R62);
- blocks mustered with option 1, that is several blocks at once (7.2, R11): a
  single block may always come by option 2, not shown, so one block is hidden;
- blocks that enter Osaka from the Mori Box, face up (9.3, R41, R42);
- blocks deployed in a battle or siege (8.2.3, 8.2.4);
  each stays known where it stands until it next moves or retreats, or until
  the combat it stands in ends (R22, R62);
- every block once the game is over (R56);
- cards played or discarded, public when played (3.3, R2): every card in the
  enemy's discard pile or played in the combat under way;
- a card shown to refute a Loyalty Challenge (8.6.1, R48), taken from the
  ChallengeRefuted event only when the rules allow that showing: the side
  challenged the enemy's play, and the card is in the enemy's hand after it and
  could have deployed every challenged block.

The log keeps what was shown and when (R55, R62), so a side's events may name
any enemy block or card ever shown to it (`blocks_ever`, `cards_ever`); its
view may name only what it knows now (`known_now`, `cards_public_now`).
A spectator plays neither side: it may know what both sides know, that is of
each side's pieces what that side's enemy knows.
"""

from __future__ import annotations

import pickletools

from attrs import evolve, frozen

from rules.commands import Challenge, Deploy, DeployLeader, EnterFromMoriBox, Muster
from rules.components import default_components
from rules.events import CardsDiscarded, ChallengeRefuted
from rules.sides import BOTH_SIDES, Side
from rules.state import ELIMINATED, MORI_BOX, GameState, SideCards

C = default_components()
ALWAYS_PUBLIC = frozenset({MORI_BOX, ELIMINATED})
BLOCK_IDS = frozenset(block.id for block in C.blocks)
CARD_IDS = frozenset(card.id for card in C.cards)
PIECE_IDS = BLOCK_IDS | CARD_IDS
SIDE_OF = {block.id: block.side for block in C.blocks} | {card.id: card.side for card in C.cards}
OWN_PIECES = {side: frozenset(piece for piece, owner in SIDE_OF.items() if owner is side) for side in BOTH_SIDES}


def enemy_pieces(viewer: Side) -> frozenset[str]:
    """The ids of the viewer's enemy's blocks and cards."""
    return frozenset(piece for piece, side in SIDE_OF.items() if side is viewer.other)


def card_could_deploy(card: str, block: str, double_play: bool) -> bool:
    """8.2.2, 8.4.2, 9.4, 9.5: a card deploys a block of its mon; Ishida
    Mitsunari and Ii Naomasa take any card but a Loyalty Challenge; a double
    play's blocks all bear the card's mon."""
    c, b = C.card(card), C.block(block)
    if c.is_loyalty:
        return False
    if b.any_card and not double_play:
        return True
    return c.daimyo == b.daimyo


def _battle(state: GameState):
    return state.combat.battle if state.combat is not None else None


def cards_public_now(state: GameState, owner: Side) -> frozenset[str]:
    """`owner`'s cards both sides see now: its discard pile and the cards it
    played in the combat under way (3.3, R2, 8.2.3)."""
    battle = _battle(state)
    played = battle.cards_played[owner] if battle is not None else ()
    return frozenset(state.cards[owner].discard_pile) | frozenset(played)


@frozen
class Knowledge:
    """One side's knowledge of its enemy's pieces after some step."""

    viewer: Side
    shown: frozenset[str]  # enemy blocks revealed and known where they stand (R62), beyond the always-public ones
    blocks_ever: frozenset[str]  # every enemy block ever shown to the viewer
    cards_ever: frozenset[str]  # every enemy card ever shown to the viewer

    def known_now(self, state: GameState) -> dict[str, str]:
        """{enemy block: its place} the viewer may know in `state`."""
        enemy = self.viewer.other
        return {
            block.id: place for block, place in zip(C.blocks, state.positions)
            if block.side is enemy and (place in ALWAYS_PUBLIC or block.id in self.shown or state.is_over)
        }


class KnowledgeModel:
    """Both sides' knowledge of each other, followed step by step (module docstring)."""

    def __init__(self, start: GameState) -> None:
        self.of = {viewer: Knowledge(viewer, frozenset(), frozenset(), frozenset()) for viewer in BOTH_SIDES}
        self._add_public(start)

    def _add_public(self, state: GameState, before: GameState | None = None) -> None:
        if before is not None and state.positions is before.positions and state.cards is before.cards \
                and state.combat is before.combat and state.result is before.result:
            return  # nothing made public (the shown blocks are added as they are revealed)
        for viewer in BOTH_SIDES:
            enemy = viewer.other
            now = self.of[viewer]
            public_blocks = set(now.known_now(state))
            self.of[viewer] = evolve(
                now,
                blocks_ever=now.blocks_ever | public_blocks | now.shown,
                cards_ever=now.cards_ever | cards_public_now(state, enemy),
            )

    def follow(self, before: GameState, command, after: GameState, events) -> None:
        same_places = before.positions is after.positions
        moved = set() if same_places else {b.id for b, p, q in zip(C.blocks, before.positions, after.positions) if p != q}
        ended = _battle(before)
        going_on = _battle(after)
        ended_at = ended.location if ended and (going_on is None or going_on.location != ended.location) else None
        for viewer in BOTH_SIDES:
            enemy = viewer.other
            now = self.of[viewer]
            new = self._revealed_by(before, command) if command is not None and command.side is enemy else set()
            # 9.3, R41: the Mori Box empties into Osaka, face up
            new |= {b for b in moved if SIDE_OF[b] is enemy and before.place_of(b) == MORI_BOX and after.place_of(b) not in ALWAYS_PUBLIC}
            shown = (set(now.shown) - moved) | new  # R62: known until it next moves or retreats
            if ended_at is not None:  # R22, R62: the survivors are hidden again
                shown -= set(before.blocks_at(ended_at)) | set(after.blocks_at(ended_at))
            cards = set(now.cards_ever)
            if isinstance(command, Challenge) and command.side is viewer:
                cards |= self._refutation_shown(before, after, enemy, events)
            cards |= self._discarded(before, after, enemy, events)
            self.of[viewer] = evolve(
                now, shown=frozenset(shown), blocks_ever=now.blocks_ever | new, cards_ever=frozenset(cards)
            )
        self._add_public(after, before)

    @staticmethod
    def _discarded(before: GameState, after: GameState, owner: Side, events) -> set[str]:
        """`owner`'s cards discarded in this step (3.3, R2: a discard is public),
        even if a reshuffle (3.3) took them into the draw pile before the step
        ended, where the discard pile after it no longer shows them: the cards
        a discard event names that were the owner's to discard (in hand, set
        aside or played) before the step and are no longer in its hand."""
        named = {card for event in events if isinstance(event, CardsDiscarded) and event.side is owner for card in event.cards}
        return {card for card in named if card not in before.cards[owner].draw_pile and card not in after.cards[owner].hand}

    @staticmethod
    def _revealed_by(before: GameState, command) -> set[str]:
        """The blocks the enemy's own command shows (7.2 option 1, 8.2.3, 8.2.4, 9.3)."""
        if isinstance(command, Muster) and len(command.blocks) > 1:
            return set(command.blocks)
        if isinstance(command, EnterFromMoriBox):
            return {command.block}
        if isinstance(command, (Deploy, DeployLeader)) and _battle(before) is not None:
            return set(command.blocks) if isinstance(command, Deploy) else {command.block}
        return set()

    @staticmethod
    def _refutation_shown(before: GameState, after: GameState, deployer: Side, events) -> set[str]:
        """8.6.1, R48: the card the deployer showed, if the rules allow that showing."""
        battle = _battle(before)
        if battle is None or battle.open_play is None:
            return set()
        challenged = [d.block for d in battle.deployments if d.play == battle.open_play]
        double = len(challenged) > 1
        shown = set()
        for event in events:
            if isinstance(event, ChallengeRefuted) and event.side is deployer:
                if event.shown in after.cards[deployer].hand and all(
                    card_could_deploy(event.shown, block, double) for block in challenged
                ):
                    shown.add(event.shown)
        return shown

    # --- what may be named --------------------------------------------------------

    def known_now(self, viewer: Side, state: GameState) -> dict[str, str]:
        return self.of[viewer].known_now(state)

    def spectator_known_now(self, state: GameState) -> dict[str, str]:
        """A spectator knows of each side's blocks what that side's enemy knows."""
        return {**self.known_now(Side.ISHIDA, state), **self.known_now(Side.TOKUGAWA, state)}

    def may_name_in_view(self, viewer: Side | None, state: GameState) -> frozenset[str]:
        """The ids a view for `viewer` (None: a spectator) may hold: own pieces,
        and of the others the blocks known now and the cards public now."""
        sides = BOTH_SIDES if viewer is None else (viewer,)
        allowed: set[str] = set()
        for seer in sides:
            allowed |= set(self.known_now(seer, state)) | cards_public_now(state, seer.other)
        if viewer is not None:
            allowed |= OWN_PIECES[viewer]
        return frozenset(allowed)

    def may_name_in_log(self, viewer: Side | None) -> frozenset[str]:
        """The ids a log for `viewer` (None: a spectator) may hold: own pieces,
        and every enemy block or card ever shown (the log keeps every reveal)."""
        sides = BOTH_SIDES if viewer is None else (viewer,)
        allowed: set[str] = set()
        for seer in sides:
            allowed |= self.of[seer].blocks_ever | self.of[seer].cards_ever
        if viewer is not None:
            allowed |= OWN_PIECES[viewer]
        return frozenset(allowed)

    def copy(self) -> KnowledgeModel:
        other = object.__new__(KnowledgeModel)
        other.of = dict(self.of)
        return other


def models_along(steps) -> list[KnowledgeModel]:
    """The model after each of [(command, state, events)], the first being the start."""
    model = KnowledgeModel(steps[0][1])
    out = [model.copy()]
    for (_, before, _), (command, after, events) in zip(steps, steps[1:]):
        model.follow(before, command, after, events)
        out.append(model.copy())
    return out


def hidden_variant(state: GameState, hider: Side, shown: frozenset[str] | set[str] | None = None) -> GameState | None:
    """The same state but for what `hider` keeps hidden: two of its hidden
    blocks at different places swapped, its hand swapped with its draw pile's
    cards, and another random generator. None if there is nothing to swap.

    `shown`: the hider's blocks its enemy knows now (KnowledgeModel.known_now);
    without it (a caller with no history of the game) the engine's own
    `state.revealed` stands in."""
    known = set(state.revealed if shown is None else shown)
    hidden = [
        i for i, (b, p) in enumerate(zip(C.blocks, state.positions))
        if b.side is hider and p not in ALWAYS_PUBLIC and b.id not in known
    ]
    positions = list(state.positions)
    pair = next(((i, j) for i in hidden for j in hidden if positions[i] != positions[j]), None)
    if pair is not None:
        i, j = pair
        positions[i], positions[j] = positions[j], positions[i]
    cards = state.cards[hider]
    secret = state.secret[hider]
    keep = len(secret)  # the set-aside cards must stay in hand
    swap = min(len(cards.hand) - keep, len(cards.draw_pile))
    hand = cards.hand[:keep] + cards.draw_pile[:swap] + cards.hand[keep + swap:]
    draw = cards.hand[keep:keep + swap] + cards.draw_pile[swap:]
    variant = evolve(
        state,
        positions=tuple(positions),
        cards=state.cards.replace(hider, SideCards(hand, draw, cards.discard_pile)),
        seed=state.seed + 1,
        rng_counter=state.rng_counter + 7,
    )
    return variant if variant != state else None


def assert_justified(found: set[str], allowed: frozenset[str], viewer: Side | None, state: GameState, where: str) -> None:
    """Every block or card id in `found` (the words of some bytes) is one the
    model allows `viewer` (None: a spectator) to know; the message says which
    kind of piece leaked."""
    leaked = (found & PIECE_IDS) - allowed
    if not leaked:
        return
    who, whose = (viewer.value, "enemy ") if viewer is not None else ("a spectator", "")
    hands = {card for side in BOTH_SIDES for card in state.cards[side].hand}
    assert not leaked & BLOCK_IDS, f"{who} received hidden {whose}blocks {sorted(leaked & BLOCK_IDS)} {where}"
    assert not leaked & hands, f"{who} received {whose}hand cards {sorted(leaked & hands)} {where}"
    raise AssertionError(f"{who} received {whose}cards never shown {sorted(leaked)} {where}")


def pickled_words(data: bytes) -> tuple[set[str], set[str], set[int]]:
    """Of a pickle, as its opcodes say (nothing is unpickled): the words of its
    own strings, the words of the strings of the pickles nested in it as bytes
    (the side's log), and its integers."""
    outer: set[str] = set()
    nested: set[str] = set()
    numbers: set[int] = set()
    for opcode, argument, _ in pickletools.genops(data):
        if isinstance(argument, str):
            outer.update(argument.replace(":", " ").split())
        elif isinstance(argument, bytes) and argument[:1] == b"\x80":
            inner, deeper, more = pickled_words(argument)
            nested |= inner | deeper
            numbers |= more
        elif isinstance(argument, int) and not isinstance(argument, bool):
            numbers.add(argument)
    return outer, nested, numbers
