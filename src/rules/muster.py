"""7.2 Muster: blocks from the Recruitment Box to a friendly recruitment location."""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import groupby, product

from rules.alike import Pieces, block_kind
from rules.arrival import arrive, held_against
from rules.commands import Muster
from rules.components import default_components
from rules.events import BlocksMustered, BlocksPlaced, Event, OpponentPlacedBlocks
from rules.immutable import evolve
from rules.sides import Side
from rules.places import moved_positions, place_index
from rules.state import GameState, recruitment_box


def muster_sites(state: GameState, side: Side) -> list[str]:
    """R12: friendly recruitment locations with no enemy units, or where
    friendly blocks and enemy units already stand together (R61: a disc is
    not a block). Read off the place index's two tables and the enemy discs
    printed at each site (issue 25: asked whenever the musters change)."""
    index = place_index(state.positions)
    own, enemy, discs = index.table(side), index.table(side.other), state.discs
    return [site for site, enemy_discs in _sites(side)
            if site in own or not (site in enemy or (enemy_discs and not enemy_discs.isdisjoint(discs)))]


@cache
def _sites(side: Side) -> tuple[tuple[str, frozenset[str]], ...]:
    """The side's recruitment locations, each with the enemy discs printed there (R36)."""
    c = default_components()
    return tuple((loc.id, frozenset(d.id for d in c.discs if d.location == loc.id and d.side is not side))
                 for loc in c.recruitment_locations(side))


@lru_cache(maxsize=4096)
def _same_kind_choices(blocks: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every choice of 2 or more of these blocks, up to blocks that are alike
    (same daimyo and kind are interchangeable: the lowest-numbered are taken).
    Kept: one daimyo's blocks in the box change seldom."""
    c = default_components()
    by_kind = [list(group) for _, group in groupby(sorted(blocks, key=lambda b: (c.block(b).kind, b)), key=lambda b: c.block(b).kind)]
    choices = []
    for counts in product(*(range(len(group) + 1) for group in by_kind)):
        if sum(counts) >= 2:
            choices.append(tuple(b for group, n in zip(by_kind, counts) for b in group[:n]))
    return tuple(choices)


@lru_cache(maxsize=4096)
def _musters_at(side: Side, location: str, box: tuple[str, ...]) -> tuple[Muster, ...]:
    """Every muster of these Recruitment Box blocks at one site. It depends on
    the box and the printed map only, so each is worked out once; but a box's
    contents change at every muster and reinforcement, its blocks and their
    daimyo's choices seldom: those are made once (issue 25)."""
    singles = _one_block_musters(side, location)
    commands = list(map(singles.__getitem__, box))  # option 2
    if len(box) > 1:  # option 1: 2 or more blocks of one daimyo
        by_daimyo = _by_daimyo(box)
        for daimyo in _recruiting(location):
            own = by_daimyo.get(daimyo)
            if own is not None and len(own) > 1:  # fewer give no choice (_same_kind_choices)
                commands += _daimyo_musters(side, location, own)
    return tuple(commands)


@lru_cache(maxsize=1024)
def _by_daimyo(box: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The box's blocks by daimyo, in box order: one pass for all the sites
    of a box (a box is asked at each of its side's sites). Not to be changed."""
    daimyo_of = _daimyo_of()
    grouped: dict[str, list[str]] = {}
    for block in box:
        daimyo = daimyo_of[block]
        if daimyo in grouped:
            grouped[daimyo].append(block)
        else:
            grouped[daimyo] = [block]
    return {daimyo: tuple(blocks) for daimyo, blocks in grouped.items()}


@cache
def _recruiting(location: str) -> tuple[str, ...]:
    """The daimyo whose mon is at the location (7.2 option 1)."""
    return tuple(default_components().location(location).recruitment)


@cache
def _one_block_musters(side: Side, location: str) -> dict[str, Muster]:
    """The musters of one block (option 2) at a site, by block."""
    return {b.id: Muster(side, location, (b.id,)) for b in default_components().blocks if b.side is side}


@cache
def _daimyo_of() -> dict[str, str]:
    return {b.id: b.daimyo for b in default_components().blocks}


@lru_cache(maxsize=4096)
def _daimyo_musters(side: Side, location: str, own: tuple[str, ...]) -> tuple[Muster, ...]:
    """The musters of 2 or more of one daimyo's blocks at its site (option 1),
    by the daimyo's blocks in the box."""
    return tuple(Muster(side, location, blocks) for blocks in _same_kind_choices(own))


def legal_musters(state: GameState, side: Side) -> list[Muster]:
    """Every muster of the Recruitment Box's blocks; whether the movement
    option allows one now is movement.may_muster's to say (7.1). They depend
    on the discs and on the blocks at the side's recruitment locations and in
    its box alone: kept with the positions' index, and carried over while no
    block comes to or goes from those places (rules.places)."""
    index = place_index(state.positions)
    known = index.memo.get(("musters", side))
    if known is not None and known[0] == state.discs:
        return list(known[1])
    box = state.blocks_at(recruitment_box(side), side)
    commands: list[Muster] = []
    for location in muster_sites(state, side):
        commands += _musters_at(side, location, box)
    index.keep(("musters", side), (state.discs, tuple(commands)), places=_muster_places(side))
    return commands


@cache
def _muster_places(side: Side) -> frozenset[str]:
    """Where the blocks a side's musters depend on stand: its recruitment locations and box."""
    return frozenset([loc.id for loc in default_components().recruitment_locations(side)] + [recruitment_box(side)])


def why_muster_illegal(state: GameState, command: Muster) -> str | None:
    """Why this muster cannot be made (the option's allowance is movement's, 7.1)."""
    c = default_components()
    side, location = command.side, command.location
    if location not in c.location_ids or c.recruitment_side(location) is not side:
        return f"{location} is not one of your recruitment locations (7.2)"
    if location not in muster_sites(state, side):
        return f"{held_against(state, side, location)}: an attack cannot come from the Recruitment Box (7.2, R12)"
    if not command.blocks:
        return "name the blocks to muster (7.2)"
    box = set(state.blocks_at(recruitment_box(side), side))
    for block in command.blocks:
        if block not in box:
            return f"{block} is not in your Recruitment Box (7.2)"
    if len(command.blocks) > 1:
        daimyo = {c.block(b).daimyo for b in command.blocks}
        if len(daimyo) != 1 or next(iter(daimyo)) not in c.location(location).recruitment:
            return "several blocks may be mustered only if all are of the daimyo whose mon is at the location (7.2 option 1, R11)"
    return None


def apply_muster(state: GameState, command: Muster) -> tuple[GameState, list[Event]]:
    """Mustered blocks cannot move this turn; option 1 shows them (R55, R62).
    They entered from no location (R51). Their arrival can overrun (R12)."""
    assert state.movement is not None
    side, location, blocks = command.side, command.location, command.blocks
    revealed = state.revealed
    if len(blocks) == 1:
        events: list[Event] = [BlocksPlaced(side, location, blocks), OpponentPlacedBlocks(side, location, 1)]
    else:  # option 1: shown, and known where they stand until they move (R62)
        events = [BlocksMustered(side, location, blocks)]
        revealed = revealed | set(blocks)
    state = evolve(
        state,
        positions=moved_positions(state.positions, {block: location for block in blocks}),
        movement=evolve(state.movement, mustered=True, fixed=state.movement.fixed | set(blocks)),
        revealed=revealed,
    )
    state, more = arrive(state, side, location)
    return state, events + more


def _in_recruitment_box(state: GameState, command: Muster) -> tuple[str, ...]:
    return state.blocks_at(recruitment_box(command.side), command.side)


# The blocks a muster names: alike blocks of the box are interchangeable (7.2).
MUSTERED_BLOCKS = (Pieces("blocks", block_kind, _in_recruitment_box, "7.2"),)
