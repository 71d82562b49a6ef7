"""8.1 Combat Phase: declaring combat, choosing siege or battle, and what
follows each combat: casualties (8.7), retreat (8.8), the end of a siege
(8.9.4), card replenishment (8.10) and battles caused by retreats (R52).

The decisions asked here are defined here (DECLARE_COMBAT, CASTLE_CHOICE, and
CASUALTY and RETREAT, whose choices `casualties` and `retreat` work out and
whose answers go on with the combat from here)."""

from __future__ import annotations

from rules import battle as battles
from rules import casualties
from rules import retreat as retreats
from rules.alike import Pieces, block_kind
from rules.battle import battle_of, discard_played_cards, impact_total, with_battle
from rules.casualties import all_pieces, lose_everything_if_due, losses_due
from rules.commands import ChooseCasualty, ComeOutside, DeclareCombat, Retreat, StayInside
from rules.components import default_components
from rules.control import CASTLE_CAPACITY, disc_locations, sides_present, update_castle_control
from rules.decision import Answer, DecisionHelp, DecisionRules, always_legal, help_text
from rules.decks import draw_cards
from rules.events import CastleFell, CombatDeclared, CombatEnded, Event, NoCombat, PhaseBegan
from rules.immutable import evolve
from rules.mori_box import OSAKA, enter_all_from_mori_box
from rules.pair import Pair
from rules.places import place_index
from rules.sides import BOTH_SIDES, Side
from rules.state import Battle, CombatPhase, Decision, DecisionKind, GameState, Phase, deciding
from rules.victory import end_game, instant_victory

DONE = Decision(DecisionKind.NONE, frozenset())


def combat_locations(state: GameState) -> tuple[str, ...]:
    """8.1: every location where both sides have units (blocks or discs, R36)."""
    c = default_components()
    # Where both sides have blocks, read from the place index; only where discs
    # are printed can a disc make the second side, so only there is it asked.
    contested = set(place_index(state.positions).shared_places())
    contested.update(place for place in disc_locations() if len(sides_present(state, place)) == 2)
    return tuple(sorted((place for place in contested if place in c.location_ids), key=c.location_order))  # map order


def begin_combat_phase(state: GameState, side: Side) -> tuple[GameState, list[Event]]:
    locations = combat_locations(state)
    began: list[Event] = [PhaseBegan(state.week, state.turn, _COMBAT, side)]
    if not locations:  # most phases: nothing to declare, and next_combat would end the phase at once (8.1)
        return evolve(state, phase=_COMBAT, active=side, movement=None, combat=None, decision=DONE), began
    state = evolve(state, phase=_COMBAT, active=side, movement=None, combat=CombatPhase(pending=frozenset(locations)))
    state, events = next_combat(state)
    return state, began + events


_COMBAT = Phase.COMBAT  # a module name, not the Enum class's (rules.sides: issue 25)


def next_combat(state: GameState) -> tuple[GameState, list[Event]]:
    """R52 step 3: a combat caused by a retreat is fought at once, set up like
    a declared one (R59). Then R47: the active player declares the remaining
    locations in the order he chooses; R37: every one of them, every phase.
    When none is left the phase ends."""
    assert state.combat is not None and state.active is not None
    while state.combat.immediate:
        (location, attacker), rest = state.combat.immediate[0], state.combat.immediate[1:]
        state = evolve(state, combat=evolve(state.combat, immediate=rest))
        if len(sides_present(state, location)) == 2:
            return set_up_combat(state, location, attacker)
    pending = frozenset(loc for loc in state.combat.pending if len(sides_present(state, loc)) == 2)
    state = evolve(state, combat=evolve(state.combat, pending=pending))
    if not pending:
        return evolve(state, decision=DONE, combat=None), []
    return evolve(state, decision=deciding(DecisionKind.DECLARE_COMBAT, state.active)), []


def legal_declarations(state: GameState, side: Side) -> list[DeclareCombat]:
    assert state.combat is not None
    return [DeclareCombat(side, loc) for loc in sorted(state.combat.pending)]


def why_declaration_illegal(state: GameState, command: DeclareCombat) -> str | None:
    assert state.combat is not None
    if command.location not in state.combat.pending:
        return f"there is no combat to declare at {command.location} (8.1)"
    return None


def castle_owner_blocks(state: GameState, location: str) -> tuple[Side | None, int]:
    """The castle's owner (R54: who held it when the enemy arrived) and its blocks there."""
    if default_components().location(location).castle is None:
        return None, 0
    owner = state.control_of_castle(location)
    return owner, len(state.blocks_at(location, owner))


def apply_declare_combat(state: GameState, command: DeclareCombat) -> tuple[GameState, list[Event]]:
    assert state.combat is not None
    state = evolve(state, combat=evolve(state.combat, pending=state.combat.pending - {command.location}))
    return set_up_combat(state, command.location, command.side)


def set_up_combat(state: GameState, location: str, attacker: Side) -> tuple[GameState, list[Event]]:
    """Every combat, declared (8.1) or caused by a retreat (R52, R59), starts
    here. Tokugawa attacking an Ishida-held Osaka empties the Mori Box into it
    first (9.3, R41, R43). Then 8.9.2: the owner of a castle with 2 blocks or
    fewer there chooses inside or outside; more must fight outside; discs alone
    are always besieged (R36), and an attacker that owns the castle with only
    discs there fights nobody."""
    events: list[Event] = []
    owner, _ = castle_owner_blocks(state, location)
    if location == OSAKA and attacker is Side.TOKUGAWA and owner is Side.ISHIDA:
        state, events = enter_all_from_mori_box(state)
        if state.is_over:
            return state, events
        if len(sides_present(state, location)) < 2:  # the entry overran the attackers (7.4)
            state, more = next_combat(state)
            return state, events + more
    owner, inside = castle_owner_blocks(state, location)
    if owner is None or inside > CASTLE_CAPACITY:
        return begin_battle(state, location, attacker, siege=False, events=events)
    if inside == 0:  # only discs in the castle
        if owner is attacker:
            state, more = next_combat(state)
            return state, events + [NoCombat(location, attacker)] + more
        return begin_battle(state, location, attacker, siege=True, events=events)
    state = with_battle(state, Battle(location, attacker, siege=False, castle_owner=owner))
    return evolve(state, decision=deciding(DecisionKind.CASTLE_CHOICE, owner)), events


def legal_castle_choices(state: GameState, side: Side) -> list:
    return [StayInside(side), ComeOutside(side)]


def apply_stay_inside(state: GameState, command: StayInside) -> tuple[GameState, list[Event]]:
    """8.9.2, R37: a siege, or no combat if the owner is the attacker."""
    battle = battle_of(state)
    state = with_battle(state, None)
    if command.side is battle.attacker:
        state, events = next_combat(state)
        return state, [NoCombat(battle.location, command.side), *events]
    return begin_battle(state, battle.location, battle.attacker, siege=True)


def apply_come_outside(state: GameState, command: ComeOutside) -> tuple[GameState, list[Event]]:
    """8.9.2: a battle; a besieged force that comes out is no longer besieged."""
    battle = battle_of(state)
    state = with_battle(state, None)
    state = evolve(state, besieged=tuple(e for e in state.besieged if e[0] != battle.location))
    return begin_battle(state, battle.location, battle.attacker, siege=False)


def begin_battle(
    state: GameState, location: str, attacker: Side, siege: bool, events: list[Event] | None = None
) -> tuple[GameState, list[Event]]:
    """8.2.1: the attacker deploys first (8.5: he trails at 0-0)."""
    owner, _ = castle_owner_blocks(state, location)
    state = with_battle(state, Battle(location, attacker, siege=siege, castle_owner=owner))
    events = (events or []) + [CombatDeclared(location, attacker, siege)]
    state, more = battles.next_deployment(state)
    return state, events + more


# --- after the deployments ------------------------------------------------------------------


def after_deployments(state: GameState) -> tuple[GameState, list[Event]]:
    """8.2.1: more Impact wins, the defender on a tie; then 8.7 casualties,
    the attacker choosing first (8.7.2)."""
    battle = battle_of(state)
    attacker, defender = battle.attacker, battle.defender
    winner = None if battle.siege else (
        attacker if impact_total(battle, attacker) > impact_total(battle, defender) else defender)
    battle = evolve(battle, winner=winner)
    attacker_losses, defender_losses = losses_due(battle)
    losses = Pair.of(lambda s: attacker_losses if s is attacker else defender_losses)
    state = with_battle(state, evolve(battle, losses=losses))
    # What each side will really lose: R49 caps the losses at what it has there.
    taken = Pair.of(lambda s: min(losses[s], len(all_pieces(state, battle, s))))
    events: list[Event] = [CombatEnded(battle.location, winner, impact_total(battle, Side.ISHIDA),
                                       impact_total(battle, Side.TOKUGAWA), taken.ishida, taken.tokugawa)]
    for side in (attacker, defender):
        state, more = lose_everything_if_due(state, side)  # R49
        events += more
    state, more = next_casualty(state)
    return state, events + more


def next_casualty(state: GameState) -> tuple[GameState, list[Event]]:
    battle = battle_of(state)
    for side in (battle.attacker, battle.defender):
        if battle.losses[side] > 0 and all_pieces(state, battle, side):
            return evolve(state, decision=deciding(DecisionKind.CASUALTY, side)), []
    result = instant_victory(state)  # R50: once the combat's casualties are all taken
    if result is not None:
        return end_game(state, result)
    return after_casualties(state)


def after_casualties(state: GameState) -> tuple[GameState, list[Event]]:
    """8.8: the loser of a battle retreats; a siege ends as 8.9.4 says."""
    battle = battle_of(state)
    if battle.siege:
        return finish_combat(state)
    loser = battle.defender if battle.winner is battle.attacker else battle.attacker
    if state.blocks_at(battle.location, loser):
        return evolve(state, decision=deciding(DecisionKind.RETREAT, loser)), []
    return finish_combat(state)


def finish_combat(state: GameState) -> tuple[GameState, list[Event]]:
    """8.9.4 steps 4-5, R22 and R62 (survivors hidden again), 8.10 replenishment, then
    any battle a retreat caused (R52), then the next declaration."""
    battle = battle_of(state)
    events: list[Event] = []
    location = battle.location
    if battle.siege:
        if not all_pieces(state, battle, battle.defender):
            state, control = update_castle_control(state)
            events += [CastleFell(location, battle.attacker), *control]
        elif battle.attacker in sides_present(state, location):
            state = evolve(state, besieged=tuple(sorted(set(state.besieged) | {(location, battle.defender)})))
    # R22, R62: when the combat ends, every block in it is hidden again.
    in_combat = battles.deployed_blocks(battle) | set(state.blocks_at(location))
    state = evolve(state, revealed=state.revealed - in_combat)
    state = discard_played_cards(state)
    for side in BOTH_SIDES:
        state, more = draw_cards(state, side, replenishment(battle, side))
        events += more
    state, control = update_castle_control(state)  # a retreat can empty a castle (4.3)
    events += control
    state = with_battle(state, None)
    state, more = next_combat(state)
    return state, events + more


def replenishment(battle: Battle, side: Side) -> int:
    """8.10: each side draws as many cards as it played; after a battle, 1 more
    per 2 blocks lost; after a siege, the defender 1 per block lost (none for a disc)."""
    played = len(battle.cards_played[side])
    if battle.siege:
        return played + (battle.lost[side] if side is battle.defender else 0)
    return played + battle.lost[side] // 2


def apply_casualty(state: GameState, command: ChooseCasualty) -> tuple[GameState, list[Event]]:
    state, events = casualties.apply_casualty(state, command)
    state, more = next_casualty(state)
    return state, events + more


def apply_retreat(state: GameState, command: Retreat) -> tuple[GameState, list[Event]]:
    state, events = retreats.apply_retreat(state, command)
    if state.is_over:  # the retreat overran a leader (R50)
        return state, events
    state, more = finish_combat(state)
    return state, events + more


# --- the decisions -------------------------------------------------------------------

DECLARE_COMBAT = DecisionRules(
    kind=DecisionKind.DECLARE_COMBAT,
    asks="declare the next combat (8.1)",
    help=DecisionHelp(
        title="Declare the next combat",
        rules="8.1, 8.9.4, 9.3, R37, R41, R47",
        text=help_text(
            "Combat Phase: every location where both sides have units must see combat.",
            "You choose the order, one location at a time; each is resolved before the next.",
            "You are the attacker. At a castle the owner then chooses inside or outside (8.9).",
            "A siege left standing must be declared again in each Combat Phase (R37).",
            "Tokugawa declaring at Osaka brings every Mori Box block into the fight (R41).",
            "Answer with: combat <location>",
        ),
    ),
    legal=legal_declarations,
    answers={DeclareCombat: Answer(why_declaration_illegal, apply_declare_combat)},
)

CASTLE_CHOICE = DecisionRules(
    kind=DecisionKind.CASTLE_CHOICE,
    asks="stay inside the castle or come out (8.9.2)",
    help=DecisionHelp(
        title="Stay inside the castle or come out",
        rules="8.9.1, 8.9.2, 8.9.3, 8.9.5, R36, R37, R54",
        text=help_text(
            "Combat was declared at your castle. With 2 blocks or fewer you may stay inside:",
            "a siege, where only the attacker deploys and only you take losses (1 per 7 Impact).",
            "Sieges have no gun or cavalry bonus and no Loyalty Challenges.",
            "Outside, it is a normal battle with the usual deployment, casualties and retreat.",
            "If it is your own Combat Phase, staying inside means no combat here (R37).",
            "Discs are always inside and do not count toward the 2-block limit (8.9.3).",
            "Answer with: inside | outside",
        ),
    ),
    legal=legal_castle_choices,
    answers={
        StayInside: Answer(always_legal, apply_stay_inside),
        ComeOutside: Answer(always_legal, apply_come_outside),
    },
)

CASUALTY = DecisionRules(
    kind=DecisionKind.CASUALTY,
    asks="choose a block to lose (8.7)",
    help=DecisionHelp(
        title="Choose a casualty",
        rules="8.7.1, 8.7.2, 8.7.3, R32, R49, R53, 9.1, 9.2",
        text=help_text(
            "Each side loses 1 block per full 7 Impact against it; a battle's loser loses 1 more",
            "(not in a siege). The attacker chooses first, then the defender.",
            "Order: your blocks that defected, then other deployed blocks, then undeployed ones;",
            "you choose within each group (R32). Lost blocks are revealed and gone for good.",
            "In a siege the defender may lose a disc: Sanada may replace a block at Ueda,",
            "Hideyori is always the last piece lost at Osaka (R53).",
            "Answer with: lose <block or disc>",
        ),
    ),
    legal=casualties.legal_casualties,
    answers={ChooseCasualty: Answer(casualties.why_casualty_illegal, apply_casualty)},
)


def _retreating(state: GameState, command: Retreat) -> tuple[str, ...]:
    return state.blocks_at(battle_of(state).location, command.side)


RETREAT = DecisionRules(
    kind=DecisionKind.RETREAT,
    asks="retreat (8.8)",
    help=DecisionHelp(
        title="Retreat",
        rules="8.8, 8.8.2, 8.8.3, 8.8.4, 8.8.5, R33, R34, R51, R52",
        text=help_text(
            "You lost the battle: all your surviving blocks go to one adjacent location.",
            "Attacker: back to a location your blocks came from, else any neighbour (R51).",
            "Defender: to a neighbour with no enemy units that no enemy came from, if one exists.",
            "If you controlled the castle here, up to 2 blocks may go inside it (R34);",
            "the rest retreat together to one location.",
            "Retreating into enemy units can cause an overrun or a new battle at once (R52).",
            "Answer with: retreat <location> [garrison blocks]; retreat castle <blocks>",
        ),
    ),
    legal=retreats.legal_retreats,
    answers={Retreat: Answer(retreats.why_retreat_illegal, apply_retreat,
                             (Pieces("garrison", block_kind, _retreating, "8.8.4"),))},
)
