"""One definition of legality (issue: rules complete, point 7), checked
against an oracle that knows the rules, not the engine.

For the decisions it covers (a battle's deployments and Loyalty Challenges,
8.2-8.6, R48; retreats, 8.8, R34, R51; musters and Mori entries in a Movement
Phase, 7.2, 9.3, R11, R12, R40, R42, R61) the oracle below builds every legal command itself, from the
rules and the true state, naming every piece (not one of each alike kind).
At every decision of random games:

- the engine's list, up to interchangeable pieces (same daimyo and kind), is
  exactly the oracle's set, both ways, and every listed command is in it;
- a seeded mutator builds commands from real ids (an alike piece from
  anywhere, any id, a repeat, one more piece) and the engine accepts one
  (`why_illegal` is None) if and only if the oracle's set holds it.

What the oracle takes from the state: whose decision it is and of what kind,
the battle's deployments, cards played and open play, the Movement Phase's
option, stack moves and muster so far, where every block is, the hands, the
discs in play, the R51 record of where blocks entered from, and who held the
battle's castle before the combat.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import attrs
import pytest

from rules.commands import Challenge, DeclareCombat, Deploy, DeployLeader, EnterFromMoriBox, Muster, Retreat
from rules.components import default_components
from rules.engine import apply, legal_commands, why_illegal
from rules.errors import IllegalCommand
from rules.notation import parse_command
from rules.infra.selfplay import random_game
from rules.sides import Side
from rules.state import MORI_BOX, DecisionKind, GameState, MovementOption, recruitment_box
from helpers import combat_phase, movement_phase
from knowledge_model import card_could_deploy

C = default_components()
BLOCK_IDS = [b.id for b in C.blocks]
CARD_IDS = [c.id for c in C.cards_of(Side.ISHIDA)] + [c.id for c in C.cards_of(Side.TOKUGAWA)]
BLOCK_SET = frozenset(BLOCK_IDS)
OSAKA = "osaka"

# command type -> {field: "block" | "card"}: the fields that name pieces
PIECE_FIELDS = {
    Deploy: {"card": "card", "blocks": "block"},
    DeployLeader: {"block": "block"},
    Challenge: {"card": "card"},
    Muster: {"blocks": "block"},
    EnterFromMoriBox: {"block": "block", "card": "card"},
    Retreat: {"garrison": "block"},
}
COVERED = {  # the decisions the oracle covers, and the commands it builds for them
    DecisionKind.DEPLOY: (Deploy, DeployLeader),
    DecisionKind.CHALLENGE: (Challenge,),
    DecisionKind.MOVE: (Muster, EnterFromMoriBox),
    DecisionKind.RETREAT: (Retreat,),
}


def kind_of(piece: str) -> tuple:
    if piece in BLOCK_SET:
        block = C.block(piece)
        return block.daimyo, block.kind
    card = C.card(piece)
    return card.daimyo, card.kind


def named(command, field: str) -> tuple[str, ...]:
    value = getattr(command, field)
    return value if isinstance(value, tuple) else (value,)


# --- the oracle -------------------------------------------------------------------


def deployments(state: GameState, side: Side) -> set:
    """8.2.2-8.2.4, 8.4.2, 8.9.4, 9.4, 9.5: a card of the hand (not a Loyalty
    Challenge) deploys one undeployed block of its mon, or Ishida Mitsunari or
    Ii Naomasa alone; a double card one or two blocks of its mon; a leader goes
    without a card until the side's first card deployment. In a siege only the
    attacker deploys."""
    battle = state.combat.battle
    if battle.siege and side is not battle.attacker:
        return set()
    deployed = {d.block for d in battle.deployments}
    ready = [b for b in state.blocks_at(battle.location, side) if b not in deployed]
    legal: set = set()
    if not any(d.card is not None for d in battle.deployments if d.owner is side):
        legal |= {DeployLeader(side, b) for b in ready if C.block(b).is_leader}
    for card in set(state.cards[side].hand):
        legal |= {Deploy(side, card, (b,)) for b in ready if card_could_deploy(card, b, double_play=False)}
        if C.card(card).is_double:
            legal |= {Deploy(side, card, pair) for pair in combinations(ready, 2)
                      if all(card_could_deploy(card, b, double_play=True) for b in pair)}
    return legal


def challenges(state: GameState, side: Side) -> set:
    """8.6.1, R31, R48: a Loyalty Challenge card of the hand against the enemy's
    play just made with a card, in a battle, not yet challenged."""
    battle = state.combat.battle
    play = [d for d in battle.deployments if d.play == battle.open_play]
    if battle.siege or not play or any(d.owner is side or d.card is None or d.challenged for d in play):
        return set()
    return {Challenge(side, card) for card in set(state.cards[side].hand) if C.card(card).is_loyalty}


def retreats(state: GameState, side: Side) -> set:
    """8.8.1-8.8.4, R34, R51: every surviving block retreats together to one
    adjacent location: the attacker to one his blocks entered the battle from
    this turn, else any; the defender to one holding no enemy units (R36) that
    no enemy entered from, else any. Only the side that held the castle before
    the combat may keep 0, 1 or 2 blocks inside (the rest still go out
    together), or all of them when they fit ("castle")."""
    battle = state.combat.battle
    blocks = state.blocks_at(battle.location, side)
    neighbours = C.neighbours(battle.location)

    def came_from(who: Side) -> set[str]:
        return {origin for location, s, origin in state.entered_from if location == battle.location and s is who}

    if side is battle.attacker:
        preferred = [n for n in neighbours if n in came_from(side)]
    else:
        preferred = [n for n in neighbours if n not in came_from(side.other) and not enemy_units_at(state, side, n)]
    holds_castle = battle.castle_owner is side
    garrisons = [g for n in range(3) for g in combinations(blocks, n)] if holds_castle else [()]
    legal = {Retreat(side, to, g) for to in preferred or neighbours for g in garrisons if len(g) < len(blocks)}
    if holds_castle and len(blocks) <= 2:
        legal.add(Retreat(side, "castle", blocks))
    return legal


def enemy_units_at(state: GameState, side: Side, location: str) -> bool:
    """Enemy blocks or discs (R36)."""
    return bool(state.blocks_at(location, side.other)) or any(
        d.id in state.discs and d.location == location and d.side is side.other for d in C.discs
    )


def musters(state: GameState, side: Side) -> set:
    """7.1, 7.2, R11, R12, R61: once a turn, in place of the one stack move
    (Minimal) or one of three (Limited), or on top (Full); to a friendly
    recruitment location with no enemy units, or where the side's blocks (not
    discs) and enemy units already stand; one block of any daimyo (option 2),
    or any number of the blocks of one daimyo whose mon is there (option 1)."""
    movement = state.movement
    allowed = {
        MovementOption.MINIMAL: movement.stack_moves == 0,
        MovementOption.LIMITED: movement.stack_moves < 3,
        MovementOption.FULL: True,
    }.get(movement.option, False)
    if movement.mustered or not allowed:
        return set()
    box = state.blocks_at(recruitment_box(side), side)
    legal: set = set()
    for location in C.recruitment_locations(side):
        if enemy_units_at(state, side, location.id) and not state.blocks_at(location.id, side):
            continue
        legal |= {Muster(side, location.id, (b,)) for b in box}
        for daimyo in location.recruitment:
            own = [b for b in box if C.block(b).daimyo == daimyo]
            legal |= {Muster(side, location.id, group) for n in range(2, len(own) + 1) for group in combinations(own, n)}
    return legal


def mori_entries(state: GameState, side: Side) -> set:
    """9.3, R40, R42, R61: Ishida discards any card of his hand to bring a Mori
    block into Osaka, the leader last; not while Osaka holds enemy units and no
    Ishida block."""
    if side is not Side.ISHIDA:
        return set()
    if enemy_units_at(state, side, OSAKA) and not state.blocks_at(OSAKA, side):
        return set()
    box = state.blocks_at(MORI_BOX, side)
    entrants = [b for b in box if not C.block(b).is_leader or len(box) == 1]
    return {EnterFromMoriBox(side, b, card) for b in entrants for card in set(state.cards[side].hand)}


def oracle(state: GameState, side: Side) -> set | None:
    """Every legal command of the covered types for `side` now, every piece
    named; None if the decision is not one the oracle covers."""
    if side not in state.decision.sides or state.decision.kind not in COVERED:
        return None
    kind = state.decision.kind
    if kind is DecisionKind.DEPLOY:
        return deployments(state, side)
    if kind is DecisionKind.CHALLENGE:
        return challenges(state, side)
    if kind is DecisionKind.RETREAT:
        return retreats(state, side)
    return musters(state, side) | mori_entries(state, side)


def alike(command) -> tuple:
    """The command up to interchangeable pieces: its other fields and, per piece
    field, the kinds it names."""
    fields = PIECE_FIELDS[type(command)]
    rest = tuple((a.name, getattr(command, a.name)) for a in attrs.fields(type(command)) if a.name not in fields)
    return type(command).__name__, rest, tuple(sorted((f, tuple(sorted(map(kind_of, named(command, f))))) for f in fields))


# --- the checks -------------------------------------------------------------------------


def mutants(command, chooser: random.Random) -> list:
    """Commands built from a legal one by swapping a piece for a real id: one of
    the same kind (from anywhere), any id of the same sort, or a repeat; and,
    for a field of several pieces, one more."""
    out = []
    for field, sort in PIECE_FIELDS[type(command)].items():
        pieces = named(command, field)
        if not pieces:
            continue
        ids = BLOCK_IDS if sort == "block" else CARD_IDS
        i = chooser.randrange(len(pieces))
        same_kind = [x for x in ids if kind_of(x) == kind_of(pieces[i])]
        single = not isinstance(getattr(command, field), tuple)
        for replacement in (chooser.choice(same_kind), chooser.choice(ids), pieces[i - 1]):
            changed = pieces[:i] + (replacement,) + pieces[i + 1:]
            out.append(attrs.evolve(command, **{field: changed[0] if single else changed}))
        if not single:
            out.append(attrs.evolve(command, **{field: pieces + (chooser.choice(ids),)}))
    return out


def check_state(state: GameState, chooser: random.Random, counts: Counter) -> None:
    for side in state.decision.sides:
        legal = oracle(state, side)
        if legal is None:
            continue
        types = COVERED[state.decision.kind]
        listed = [c for c in legal_commands(state, side) if type(c) in types]
        not_legal = [c for c in listed if c not in legal]
        assert not not_legal, f"listed but illegal by the rules: {not_legal[:3]}"
        missing = {alike(c) for c in legal} - {alike(c) for c in listed}
        assert not missing, f"legal by the rules but not listed, up to alike pieces: {sorted(missing)[:3]}"
        counts["decisions"] += 1
        for command in chooser.sample(sorted(legal, key=repr), min(3, len(legal))):
            for mutant in [command, *mutants(command, chooser)]:
                expected = mutant in legal
                reason = why_illegal(state, mutant)
                assert (reason is None) == expected, f"{mutant}: engine says {reason!r}, the rules say {expected}"
                counts[expected] += 1


@pytest.mark.parametrize("block", range(4))
def test_legal_if_and_only_if_the_rules_allow_it_up_to_alike_pieces(block):
    chooser = random.Random(f"legality/{block}")
    counts: Counter = Counter()
    for seed in range(block * 5, block * 5 + 5):
        random_game(500 + seed, on_step=lambda before, command, after, events: check_state(after, chooser, counts))
    # The mutator must have produced both legal and illegal commands.
    assert counts[True] > 50 and counts[False] > 50, counts


def test_the_rules_decide_every_deployment_and_challenge_of_hand_built_battles():
    """Random games seldom reach a battle with a Loyalty Challenge card, a double
    card and Ishida Mitsunari or Ii Naomasa at hand: these battles have them all
    (8.2.2, 8.2.4, 8.4.2, 8.6.1, 9.4, 9.5, R48), and each is played out by
    random listed commands, the oracle checked at every decision."""
    counts: Counter = Counter()
    for seed in range(12):
        chooser = random.Random(f"legality/battle/{seed}")
        state = combat_phase(
            Side.ISHIDA,
            ishida_hand=("ishida-loyalty-1", "ukita-double", "ukita-plain-1", "kobayakawa-plain-1", "mori-plain-1"),
            tokugawa_hand=("tokugawa-loyalty-4", "tokugawa-double", "tokugawa-plain-10", "maeda-plain-7", "fukushima-double"),
            minakuchi=["ishida-leader", "ukita-leader", "ukita-2-1", "ukita-3-1", "kobayakawa-cav-1",
                       "ii-4", "tokugawa-leader", "tokugawa-3-1", "tokugawa-2-1", "fukushima-2-1"],
        )
        state, _ = apply(state, DeclareCombat(Side.ISHIDA, "minakuchi"))
        while state.combat is not None and state.combat.battle is not None and not state.is_over:
            check_state(state, chooser, counts)
            side = chooser.choice(sorted(state.decision.sides))
            state, _ = apply(state, chooser.choice(legal_commands(state, side)))
    assert counts["decisions"] > 50 and counts[True] > 50 and counts[False] > 50, counts


def test_the_rules_decide_every_retreat_from_a_castle_location():
    """A castle's holder retreating with 1 to 4 survivors (8.8.4, R34) and an
    attacker who came from two places (8.8.2, R51), played out at random until
    someone must retreat, the oracle checked there."""
    counts: Counter = Counter()
    for seed in range(16):
        chooser = random.Random(f"legality/retreat/{seed}")
        ishida = ["mori-2-1", "mori-2-2", "mori-3-1", "ukita-2-1", "ukita-cav-1"][: 2 + seed % 4]
        state = combat_phase(
            Side.TOKUGAWA,
            ishida_hand=("mori-plain-1", "ukita-plain-1", "mori-double"),
            tokugawa_hand=("date-double", "date-plain-1", "tokugawa-plain-1"),
            entered=[("gifu", Side.TOKUGAWA, "kiyosu"), ("gifu", Side.TOKUGAWA, "iwamura")],
            gifu=[*ishida, "date-3-1", "date-3-2", "date-2-1", "tokugawa-2-1"],
            sawayama=["ukita-2-2"] if seed % 2 else [],
        )
        state, _ = apply(state, DeclareCombat(Side.TOKUGAWA, "gifu"))
        while state.combat is not None and state.combat.battle is not None and not state.is_over:
            check_state(state, chooser, counts)
            counts["retreats"] += state.decision.kind is DecisionKind.RETREAT
            side = chooser.choice(sorted(state.decision.sides))
            state, _ = apply(state, chooser.choice(legal_commands(state, side)))
    assert counts["retreats"] >= 10 and counts[True] > 20 and counts[False] > 20, counts


# --- the holes the issue names ---------------------------------------------------------


def test_a_block_named_twice_in_a_deployment_is_refused():
    state = combat_phase(Side.ISHIDA, ishida_hand=("kobayakawa-double",), tokugawa_hand=("tokugawa-plain-1",),
                         minakuchi=["kobayakawa-cav-1", "kobayakawa-cav-2", "kobayakawa-cav-3", "tokugawa-3-1"])
    state, _ = apply(state, DeclareCombat(Side.ISHIDA, "minakuchi"))
    twice = parse_command("ishida: deploy kobayakawa-double kobayakawa-cav-3 kobayakawa-cav-3")
    assert why_illegal(state, twice) == "kobayakawa-cav-3 is named twice: each piece counts once (8.2.2)"
    with pytest.raises(IllegalCommand):
        apply(state, twice)
    assert why_illegal(state, parse_command("ishida: deploy kobayakawa-double kobayakawa-cav-2 kobayakawa-cav-3")) is None


def test_a_block_named_twice_in_a_muster_or_retreat_is_refused():
    state = movement_phase(Side.ISHIDA, MovementOption.FULL, osaka=["ishida-leader"],
                           ishida_recruitment=["kobayakawa-2-1", "kobayakawa-2-2"])
    twice = parse_command("ishida: muster osaka kobayakawa-2-1 kobayakawa-2-1")
    assert why_illegal(state, twice) == "kobayakawa-2-1 is named twice: each piece counts once (7.2)"
    assert why_illegal(state, parse_command("ishida: muster osaka kobayakawa-2-2")) is None


def test_an_alike_block_that_is_not_there_is_refused():
    state = movement_phase(Side.ISHIDA, MovementOption.FULL, osaka=["ishida-leader"],
                           ishida_recruitment=["kobayakawa-2-1"])
    reason = why_illegal(state, parse_command("ishida: muster osaka kobayakawa-2-2"))
    assert reason == "kobayakawa-2-2 is not in your Recruitment Box (7.2)"
