"""One definition of legality (issue: rules complete, point 7).

A command is legal if and only if legal_commands lists it, or lists one that is
the same up to interchangeable pieces: same daimyo and kind, each piece named
once and really where the command needs it. The oracle below is written here,
independently of rules.alike, and a seeded mutator builds commands from real
ids to check the engine against it at every decision of random games.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest

from rules.commands import Challenge, DeclareCombat, Deploy, DeployLeader, EnterFromMoriBox, Muster, Retreat
from rules.components import default_components
from rules.engine import apply, legal_commands, why_illegal
from rules.errors import IllegalCommand
from rules.notation import parse_command
from rules.selfplay import random_game
from rules.sides import Side
from rules.state import MORI_BOX, GameState, MovementOption, recruitment_box
from helpers import combat_phase, movement_phase

C = default_components()
BLOCK_IDS = [b.id for b in C.blocks]
CARD_IDS = [c.id for c in C.cards_of(Side.ISHIDA)] + [c.id for c in C.cards_of(Side.TOKUGAWA)]
BLOCK_SET = frozenset(BLOCK_IDS)

# command type -> {field: ("block" | "card", where the pieces must be)}
PIECE_FIELDS = {
    Deploy: {"card": "card", "blocks": "block"},
    DeployLeader: {"block": "block"},
    Challenge: {"card": "card"},
    Muster: {"blocks": "block"},
    Retreat: {"garrison": "block"},
    EnterFromMoriBox: {"block": "block", "card": "card"},
}


def kind_of(piece: str) -> tuple:
    if piece in BLOCK_SET:
        block = C.block(piece)
        return block.daimyo, block.kind
    card = C.card(piece)
    return card.daimyo, card.kind


def pool(state: GameState, command, field: str) -> set[str]:
    """Where the pieces of this field must really be, read off the state."""
    side = command.side
    if PIECE_FIELDS[type(command)][field] == "card":
        return set(state.cards[side].hand)
    if isinstance(command, Muster):
        return set(state.blocks_at(recruitment_box(side), side))
    if isinstance(command, EnterFromMoriBox):
        return set(state.blocks_at(MORI_BOX, side))
    battle = state.combat.battle
    here = set(state.blocks_at(battle.location, side))
    if isinstance(command, Retreat):
        return here
    return here - {d.block for d in battle.deployments}


def named(command, field: str) -> tuple[str, ...]:
    value = getattr(command, field)
    return value if isinstance(value, tuple) else (value,)


def matches_the_list(state: GameState, command) -> bool:
    """The oracle: listed up to alike pieces, each piece distinct and really there."""
    fields = PIECE_FIELDS[type(command)]
    for field in fields:
        pieces = named(command, field)
        if len(set(pieces)) != len(pieces) or not set(pieces) <= pool(state, command, field):
            return False
    for listed in legal_commands(state, command.side):
        if type(listed) is not type(command):
            continue
        same_rest = all(
            getattr(listed, a.name) == getattr(command, a.name) for a in attrs.fields(type(command)) if a.name not in fields
        )
        same_kinds = all(
            Counter(map(kind_of, named(listed, f))) == Counter(map(kind_of, named(command, f))) for f in fields
        )
        if same_rest and same_kinds:
            return True
    return False


def mutants(command, chooser: random.Random) -> list:
    """Commands built from a listed one by swapping a piece for a real id: one of
    the same kind (from anywhere), any id of the same sort, or a repeat."""
    out = []
    for field, sort in PIECE_FIELDS[type(command)].items():
        pieces = named(command, field)
        if not pieces:
            continue
        ids = BLOCK_IDS if sort == "block" else CARD_IDS
        i = chooser.randrange(len(pieces))
        alike = [x for x in ids if kind_of(x) == kind_of(pieces[i])]
        for replacement in (chooser.choice(alike), chooser.choice(ids), pieces[i - 1]):
            changed = pieces[:i] + (replacement,) + pieces[i + 1:]
            single = not isinstance(getattr(command, field), tuple)
            out.append(attrs.evolve(command, **{field: changed[0] if single else changed}))
        if not single:
            out.append(attrs.evolve(command, **{field: pieces + (chooser.choice(ids),)}))
    return out


def check_state(state: GameState, chooser: random.Random, counts: Counter) -> None:
    for side in state.decision.sides:
        listed = [c for c in legal_commands(state, side) if type(c) in PIECE_FIELDS]
        for command in chooser.sample(listed, min(3, len(listed))):
            for mutant in mutants(command, chooser):
                expected = matches_the_list(state, mutant)
                reason = why_illegal(state, mutant)
                assert (reason is None) == expected, f"{mutant}: engine says {reason!r}, the list says {expected}"
                counts[expected] += 1


@pytest.mark.parametrize("block", range(4))
def test_legal_if_and_only_if_listed_up_to_alike_pieces(block):
    chooser = random.Random(f"legality/{block}")
    counts: Counter = Counter()
    for seed in range(block * 5, block * 5 + 5):
        random_game(500 + seed, on_step=lambda before, command, after, events: check_state(after, chooser, counts))
    # The mutator must have produced both legal and illegal commands.
    assert counts[True] > 50 and counts[False] > 50, counts


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
