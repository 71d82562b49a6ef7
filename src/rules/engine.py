"""The engine's front door: (state, command) -> (new state, events).

`legal_commands(state, side)` lists every legal command at the current
decision; `apply` refuses anything else with an IllegalCommand whose message
names the rule. Nothing else changes a game.

Each kind of decision is one object (rules.decision.DecisionRules) defined in
the rulebook module that asks it; this module gathers them and dispatches.
"""

from __future__ import annotations

from rules import battle, bidding, combat, movement, reinforcement, stack_moves, victory
from rules.alike import named_twice, representative
from rules.commands import Command
from rules.decision import Answer, DecisionHelp, DecisionRules
from rules.errors import IllegalCommand
from rules.events import Event
from rules.sequence import advance
from rules.setup import new_game
from rules.sides import Side
from rules.state import DecisionKind, GameState

DECISIONS: dict[DecisionKind, DecisionRules] = {
    decision.kind: decision
    for decision in (
        reinforcement.REINFORCEMENT_DISCARD,
        bidding.BID,
        bidding.CHOOSE_FIRST_PLAYER,
        movement.CHOOSE_MOVEMENT,
        movement.EXCHANGE_CARDS,
        movement.MOVE,
        stack_moves.STACK_MOVE,
        combat.DECLARE_COMBAT,
        combat.CASTLE_CHOICE,
        battle.DEPLOY,
        battle.CHALLENGE,
        combat.CASUALTY,
        combat.RETREAT,
        victory.GAME_OVER,
    )
}
if set(DECISIONS) != set(DecisionKind):  # a kind the game could wait for with nothing to answer it
    raise TypeError(f"no DecisionRules for {sorted(k.value for k in set(DecisionKind) - set(DECISIONS))}")


def start_game(seed: int) -> tuple[GameState, list[Event]]:
    """A new game after setup (5), waiting for week 1's bid."""
    return new_game(seed)


def legal_commands(state: GameState, side: Side) -> list[Command]:
    """Every command `side` may give now, up to interchangeable pieces (rules.alike):
    where alike blocks or cards would give the same command, one is listed.
    Empty if the side has nothing to decide."""
    global _last
    # _legal, inlined: asked at every decision (issue 25: one frame fewer)
    if side not in state.decision.sides:
        return []
    last_state, last_side, commands = _last
    if last_state is not state or last_side is not side:
        commands = _LEGAL[state.decision.kind](state, side)
        _last = (state, side, commands)
    return list(commands)  # a copy: the caller may change it, the kept list stays


# The last list worked out, with its state and side. A state never changes, so
# neither does its list: `apply` checks a command against the list its caller
# was just given instead of working it out again (issue 25). One tuple, so a
# reader never sees one state's list with another's state. The list is the
# decision's own, never handed out (legal_commands copies it).
_last: tuple[GameState | None, Side | None, list[Command] | tuple[()]] = (None, None, ())


def _legal(state: GameState, side: Side) -> list[Command] | tuple[()]:
    global _last
    if side not in state.decision.sides:
        return ()
    last_state, last_side, commands = _last
    if last_state is state and last_side is side:
        return commands
    commands = _LEGAL[state.decision.kind](state, side)
    _last = (state, side, commands)
    return commands


_LEGAL = {kind: decision.legal for kind, decision in DECISIONS.items()}  # one lookup a decision


def asks(kind: DecisionKind) -> str:
    """What a decision of this kind asks, with its rule: "bid a card for first player (6.3)"."""
    return DECISIONS[kind].asks


def help_for(kind: DecisionKind) -> DecisionHelp:
    """The `?` help of a decision kind."""
    return DECISIONS[kind].help


def finishing_type(kind: DecisionKind) -> type | None:
    """The command type that finishes a decision of this kind, if one does."""
    return DECISIONS[kind].finishing


def waiting_for(state: GameState) -> str:
    """What the game is waiting for, in words, for messages and prompts."""
    if state.decision.kind is DecisionKind.NONE:
        return asks(DecisionKind.NONE)
    who = " and ".join(sorted(s.value for s in state.decision.sides))
    return f"{who} to {asks(state.decision.kind)}"


def _answer(state: GameState, command: Command) -> Answer | None:
    return DECISIONS[state.decision.kind].answers.get(type(command))


def _listed(state: GameState, command: Command) -> bool:
    """The one definition of legality: the command is listed by legal_commands,
    up to interchangeable pieces (rules.alike.representative)."""
    if command.side not in state.decision.sides:
        return False
    answer = _answer(state, command)
    if answer is None:
        return False
    return representative(state, command, answer.pieces) in _legal(state, command.side)


def _refusal(state: GameState, command: Command) -> str:
    """Why a command that is not listed is refused, naming the rule. Worked out
    only for a refused command."""
    if state.decision.kind is DecisionKind.NONE:
        return "the game is over (R56)"
    if command.side not in state.decision.sides:
        return f"it is not {command.side.value}'s decision: waiting for {waiting_for(state)}"
    answer = _answer(state, command)
    if answer is None:
        return f"that command does not answer the current decision: waiting for {waiting_for(state)}"
    return (
        named_twice(command, answer.pieces)
        or answer.check(state, command)
        or f"not a legal command now: waiting for {waiting_for(state)}"
    )


def why_illegal(state: GameState, command: Command) -> str | None:
    """The reason a command may not be given now, or None if it is legal."""
    return None if _listed(state, command) else _refusal(state, command)


def apply(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Apply a legal command. An illegal one raises IllegalCommand and changes nothing."""
    if not _listed(state, command):
        raise IllegalCommand(_refusal(state, command))
    return apply_trusted(state, command)


def apply_trusted(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Apply a command taken from `legal_commands` of this very state, without
    checking it again (rebuilding the legal list costs as much as the move
    itself). For self-play and bots only: a command from a player, a file or
    the network goes through `apply`. The same command gives the same result
    either way."""
    decision = state.decision
    if command.side not in decision.sides:  # cheap guard against gross misuse
        raise IllegalCommand(f"it is not {command.side.value}'s decision: waiting for {waiting_for(state)}")
    # the command carried out here, not in a function of its own: one frame fewer a decision (issue 25)
    state, events = _HANDLERS[decision.kind, type(command)](state, command)
    if state.decision.kind is _NONE:  # advance's own test, asked here first: most commands leave a decision
        state, more = advance(state)
        events = events + more  # a new list: the handler's may be anyone's
    return state, tuple(events)


# (decision kind, command type) -> the answer's apply: one lookup a step.
_HANDLERS = {(kind, answered): answer.apply
             for kind, decision in DECISIONS.items() for answered, answer in decision.answers.items()}


_NONE = DecisionKind.NONE  # a module name, not the Enum class's (rules.sides: issue 25)

