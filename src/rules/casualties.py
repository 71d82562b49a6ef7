"""8.7 Casualties (R32, R49) and the siege defender's losses (8.9.4, R53, 9.1, 9.2)."""

from __future__ import annotations

from rules.arrival import eliminate
from rules.battle import battle_of, impact_total, with_battle
from rules.commands import ChooseCasualty
from rules.components import default_components
from rules.events import Event, PieceLost
from rules.immutable import evolve
from rules.sides import Side
from rules.state import Battle, GameState

LOSS_PER_IMPACT = 7
HIDEYORI = "hideyori"


def losses_due(battle: Battle) -> tuple[int, int]:
    """8.7.1: one block per full 7 Impact scored against a side, one more for
    the loser. R53: in a siege only the defender loses, with no extra block.
    Returns (attacker's losses, defender's losses)."""
    attacker, defender = battle.attacker, battle.defender
    against_defender = impact_total(battle, attacker) // LOSS_PER_IMPACT
    if battle.siege:
        return 0, against_defender
    against_attacker = impact_total(battle, defender) // LOSS_PER_IMPACT
    loser = battle.defender if battle.winner is attacker else attacker
    return against_attacker + (loser is attacker), against_defender + (loser is defender)


def discs_at(state: GameState, location: str, side: Side) -> tuple[str, ...]:
    return tuple(
        d.id for d in default_components().discs
        if d.id in state.discs and d.location == location and d.side is side
    )


def all_pieces(state: GameState, battle: Battle, side: Side) -> tuple[str, ...]:
    """Everything the side could lose here: its blocks, and in a siege its discs
    (8.9.3: only siege results can affect a disc)."""
    blocks = state.blocks_at(battle.location, side)
    if battle.siege and side is battle.defender:
        return blocks + discs_at(state, battle.location, side)
    return blocks


def casualty_choices(state: GameState, battle: Battle, side: Side) -> tuple[str, ...]:
    """R32: his blocks that defected first, then his other deployed blocks,
    then the undeployed ones; the owner chooses within each group. In a
    siege: blocks or Sanada (9.2), Hideyori only when nothing else is left (9.1)."""
    if battle.siege:
        pieces = all_pieces(state, battle, side)
        others = tuple(p for p in pieces if p != HIDEYORI)
        return others or pieces
    here = set(state.blocks_at(battle.location, side))
    mine = [d for d in battle.deployments if d.owner is side and d.block in here]
    for group in ([d.block for d in mine if d.defected], [d.block for d in mine if not d.defected]):
        if group:
            return tuple(group)
    return tuple(sorted(here))


def legal_casualties(state: GameState, side: Side) -> list[ChooseCasualty]:
    return [ChooseCasualty(side, piece) for piece in casualty_choices(state, battle_of(state), side)]


def why_casualty_illegal(state: GameState, command: ChooseCasualty) -> str | None:
    choices = casualty_choices(state, battle_of(state), command.side)
    if command.piece not in choices:
        return f"{command.piece} cannot be lost now: choose among {', '.join(choices)} (8.7.2, R32)"
    return None


def lose_piece(state: GameState, side: Side, piece: str) -> tuple[GameState, list[Event]]:
    """Eliminate one block or disc; instant victory waits for the end of the
    combat's casualties (R50)."""
    battle = battle_of(state)
    control: list[Event] = []  # a castle left empty reverts at once (4.3): public, so told
    if piece in state.discs:
        state = evolve(state, discs=state.discs - {piece})
    else:
        state, control = eliminate(state, (piece,), check_victory=False)
        battle = evolve(battle, lost=battle.lost.replace(side, battle.lost[side] + 1))
    battle = evolve(battle, losses=battle.losses.replace(side, battle.losses[side] - 1))
    return with_battle(state, battle), [PieceLost(side, piece, battle.location), *control]


def lose_everything_if_due(state: GameState, side: Side) -> tuple[GameState, list[Event]]:
    """R49: a side that must lose at least as many pieces as it has loses them all."""
    battle = battle_of(state)
    pieces = all_pieces(state, battle, side)
    if battle.losses[side] < len(pieces):
        return state, []
    events: list[Event] = []
    for piece in pieces:
        state, more = lose_piece(state, side, piece)
        events += more
    return with_battle(state, evolve(battle_of(state), losses=battle_of(state).losses.replace(side, 0))), events


def apply_casualty(state: GameState, command: ChooseCasualty) -> tuple[GameState, list[Event]]:
    return lose_piece(state, command.side, command.piece)
