"""7.3 Movement: stack moves, one location at a time.

A stack move starts at one source (R15). The player selects a group of its
blocks and steps it along roads; at any location the group may split or drop
blocks off (R14), and a group never picks blocks up. Each block's allowance
is worked out per block (7.3.3-7.3.6, R17, R19).
"""

from __future__ import annotations

from functools import cache

from rules.arrival import arrive, has_enemy_units, record_entry
from rules.command_tables import STACK_COMMANDS
from rules.commands import BeginMove, Deselect, EndStackMove, ForceMarch, Halt, Select, Step
from rules.components import default_components
from rules.decision import Answer, DecisionHelp, DecisionRules, always_legal, help_text
from rules.decks import discard_cards
from rules.events import BlocksMoved, BlocksStopped, Event, LeaderDeclared, OpponentMovedBlocks
from rules.immutable import evolve, with_field
from rules.places import stepped_positions
from rules.stack_sources import CAPITALS, leaders_at, legal_begin_moves, place_leadership  # noqa: F401 (the sources: 7.3.1)
from rules.sides import Side
from rules.state import (
    BlockProgress,
    DecisionKind,
    GameState,
    MovementPhase,
    StackMove,
    deciding,
    segment_key,
)

_MOVE, _STACK_MOVE = DecisionKind.MOVE, DecisionKind.STACK_MOVE  # module names: rules.sides (issue 25)


def name(location: str) -> str:
    return default_components().location(location).name


# --- the movement chart (7.3.6) ---------------------------------------------------


def size_penalty(group_size: int) -> int:
    """7.3.5, R20: -1 at the 5th, 9th, 13th and 17th block."""
    return min(4, max(0, (group_size - 1) // 4))


def allowance(highway_only: bool, leadership: bool, force_march: int, largest_group: int) -> int:
    """7.3.3: 1 base, +1 entire move on highways, +1 leadership, +1 force march,
    less the penalty of the largest group the block moved with (R19)."""
    return 1 + highway_only + leadership + bool(force_march) - size_penalty(largest_group)


# --- who may move ------------------------------------------------------------------


def _movement(state: GameState) -> MovementPhase:
    assert state.movement is not None
    return state.movement


def _current(state: GameState) -> StackMove:
    current = state.movement.current  # asked only within a stack move
    assert current is not None
    return current


def is_besieged(state: GameState, side: Side, location: str) -> bool:
    return (location, side) in state.besieged


def movable_blocks(state: GameState, side: Side, location: str) -> tuple[str, ...]:
    """Blocks that may still move from here this phase (7.2, 7.3.1, 9.3)."""
    fixed = _movement(state).fixed
    return tuple([b for b in state.blocks_at(location, side) if b not in fixed])  # a list first: no generator


def why_begin_move_illegal(state: GameState, command: BeginMove) -> str | None:
    """Why no stack move can start here (the option's allowance is movement's, 7.1)."""
    side, source = command.side, command.source
    if source not in default_components().location_ids:
        return f"{source} is not a location"
    if source in _movement(state).sources:
        return f"{name(source)} was already the source of a stack move this phase (R15)"
    if is_besieged(state, side, source):
        return f"your blocks besieged at {name(source)} cannot leave (8.9.6, R57)"
    if not movable_blocks(state, side, source):
        return f"you have no block at {name(source)} that may still move this phase (7.3.1)"
    if command.leader:
        if not leaders_at(state, side, source):
            return f"you have no leader block at {name(source)} to declare (7.3.4, R17)"
        if place_leadership(state, side, source):
            return f"{name(source)} gives leadership already; no leader need be declared (7.3.4, R17)"
    return None


class _Starts(dict):
    """Each block's progress before it moves from one source, made on first
    use: immutable, so every stack move from there shares it (issue 25)."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def __missing__(self, block: str) -> BlockProgress:
        progress = self[block] = BlockProgress(block, (self.source,))
        return progress


@cache
def _starts(source: str) -> _Starts:
    return _Starts(source)


def apply_begin_move(state: GameState, command: BeginMove) -> tuple[GameState, list[Event]]:
    side, source = command.side, command.source
    leadership = place_leadership(state, side, source) or command.leader
    # StackMove(source, leadership, leader_declared, blocks), its dict set as
    # rules.immutable sets a copy's: no keyword call of attrs' __init__ (issue 25)
    current = _new(StackMove)
    _set(current, "__dict__", {
        "source": source,
        "leadership": leadership,
        "leader_declared": command.leader,
        "blocks": tuple(map(_starts(source).__getitem__, movable_blocks(state, side, source))),
        "selection": (),
    })
    movement = _movement(state)
    movement = evolve(
        movement,
        stack_moves=movement.stack_moves + 1,
        sources=movement.sources | {source},
        current=current,
    )
    state = evolve(state, movement=movement, decision=deciding(_STACK_MOVE, side))
    events: list[Event] = []
    if command.leader:
        events.append(LeaderDeclared(side, source))
    return state, events


# --- within a stack move -------------------------------------------------------------


def _selection(current: StackMove) -> list[BlockProgress]:
    """The selected blocks' progress, in the order they were selected."""
    selection = current.selection
    if not selection:
        return []
    if len(selection) == 1:  # the most frequent, asked at every decision of a stack move
        block = selection[0]
        return [p for p in current.blocks if p.block == block]
    progress = {p.block: p for p in current.blocks}
    return [progress[b] for b in selection]


def _may_join_selection(current: StackMove, group: list[BlockProgress], progress: BlockProgress) -> bool:
    """R14: only blocks that have travelled together so far move on together;
    R60: a force-marched block only with the rest of its own force march.
    `group` is the selection's progress (_selection)."""
    if progress.done or progress.block in current.selection:
        return False
    if not group:
        return True
    first = group[0]
    return first.path == progress.path and first.force_march == progress.force_march


@cache
def _roads(at: str) -> tuple[tuple[str, bool, str], ...]:
    """(neighbour, highway, segment key) of each road from a location, in
    neighbour order: the printed map, worked out once."""
    c = default_components()
    return tuple((to, c.connection(at, to).highway, segment_key(at, to)) for to in c.neighbours(at))


def _group_may_step(current: StackMove, group: list[BlockProgress]) -> tuple[bool, bool]:
    """_why_step_illegal's allowance test (7.3.3-7.3.6), by road and by
    highway: worked out once per list, not once per road."""
    size = len(group)
    # allowance(False, leadership, march, largest) - len(path), spelled out: one
    # call fewer per block at every decision of a stack move (issue 25)
    base = 1 + current.leadership
    by_road = True
    for progress in group:
        largest = progress.largest_group if progress.largest_group > size else size
        penalty = (largest - 1) >> 2  # size_penalty (7.3.5, R20): largest >= 1
        spare = base + (progress.force_march != 0) - (penalty if penalty < 4 else 4) - len(progress.path)
        if spare < 0:
            by_road = False
            if spare + progress.highway_only < 0:
                return False, False
    return by_road, True


def legal_stack_commands(state: GameState, side: Side) -> list:
    """Select, deselect, force march, step, halt, end (7.3): the checks of
    each, worked out once for the selected group rather than once per command."""
    movement = state.movement
    current = movement.current  # asked only within a stack move
    selection = current.selection
    selects, deselects, steps, marches, halt, end = STACK_COMMANDS[side]
    if not selection:  # most decisions: any block still moving may be selected, nothing else but the end
        commands: list = [selects[p.block] for p in current.blocks if not p.done]
        commands.append(end)
        return commands
    if len(selection) == 1:  # _selection's most frequent case, a loop here: no comprehension's frame
        block = selection[0]
        for first in current.blocks:
            if first.block == block:
                break
        group = [first]
    else:
        group = _selection(current)
        first = group[0]
    path, march = first.path, first.force_march
    # _may_join_selection, its test for the group made once
    commands = [selects[p.block] for p in current.blocks
                if not p.done and p.block not in selection and p.path == path and p.force_march == march]
    commands += map(deselects.__getitem__, selection)  # map over a C method: no comprehension's frame
    # _why_force_march_illegal: no block of the group marched or moved yet (7.3.3, R16)
    fresh = True
    for p in group:  # a loop, not all() over a generator: asked at most decisions of a stack move
        if p.force_march or len(p.path) != 1:
            fresh = False
            break
    if fresh:
        commands += map(marches.__getitem__, state.cards[side].hand)
    together = not march or _force_march_kept_together(current, group)
    if together:  # _why_step_illegal, its tests that do not depend on the road made once
        used = movement.segments
        may = _group_may_step(current, group)  # indexed by the road's highway flag
        if may[1]:
            commands += [steps[to] for to, highway, key in _roads(path[-1]) if may[highway] and key not in used]
        if len(path) > 1:  # _why_halt_illegal: the group has moved (7.3.1)
            commands.append(halt)
    commands.append(end)
    return commands


def why_select_illegal(state: GameState, command: Select) -> str | None:
    current = _current(state)
    if command.block not in {p.block for p in current.blocks}:
        return f"{command.block} is not in this stack move from {name(current.source)} (7.3.1)"
    progress = current.progress(command.block)
    if progress.done:
        return f"{command.block} has ended its move (7.3.1)"
    if command.block in current.selection:
        return f"{command.block} is already selected"
    if not _may_join_selection(current, _selection(current), progress):
        if current.progress(current.selection[0]).path == progress.path:
            return "a force-marched block moves only with the group it was force-marched with (R60)"
        return "a moving group never picks up blocks: select blocks that have moved together (7.3.1, R14)"
    return None


def apply_select(state: GameState, command: Select) -> tuple[GameState, list[Event]]:
    current = _current(state)
    return _with_current(state, with_field(current, "selection", current.selection + (command.block,))), []


def why_deselect_illegal(state: GameState, command: Deselect) -> str | None:
    if command.block not in _current(state).selection:
        return f"{command.block} is not selected"
    return None


def apply_deselect(state: GameState, command: Deselect) -> tuple[GameState, list[Event]]:
    current = _current(state)
    selection = tuple(b for b in current.selection if b != command.block)
    return _with_current(state, with_field(current, "selection", selection)), []


def _why_force_march_illegal(group: list[BlockProgress]) -> str | None:
    if not group:
        return "select the group to force march first (7.3.3)"
    if any(p.force_march for p in group):
        return "only one force march may apply to a block (7.3.3, R16)"
    if any(p.steps for p in group):
        return "a force march applies to a group that starts its move together (7.3.3, R16)"
    return None


def steps_left(current: StackMove, progress: BlockProgress) -> int:
    """How many more locations a block may enter if the selected group moves on
    highways only (a road segment costs the highway bonus, 7.3.3); the group's
    size counts as the largest it moved with (R19)."""
    group = max(progress.largest_group, len(current.selection) or 1)
    return max(0, allowance(progress.highway_only, current.leadership, progress.force_march, group) - progress.steps)


def why_no_force_march(state: GameState, side: Side) -> str | None:
    """Why the selected group may not force march now (7.3.3, R16), or None if it may."""
    if not state.cards[side].hand:
        return "a force march costs a card, and your hand is empty (7.3.3)"
    return _why_force_march_illegal(_selection(_current(state)))


def why_force_march_illegal(state: GameState, command: ForceMarch) -> str | None:
    if command.card not in state.cards[command.side].hand:
        return f"{command.card} is not in your hand (7.3.3)"
    return _why_force_march_illegal(_selection(_current(state)))


def apply_force_march(state: GameState, command: ForceMarch) -> tuple[GameState, list[Event]]:
    """R60: the force march belongs to the selected group alone."""
    current = _current(state)
    chosen = set(current.selection)
    march = 1 + max(p.force_march for p in current.blocks)
    blocks = tuple(evolve(p, force_march=march) if p.block in chosen else p for p in current.blocks)
    state = _with_current(state, evolve(current, blocks=blocks))
    return discard_cards(state, command.side, (command.card,), "force march")


def _force_march_kept_together(current: StackMove, group: list[BlockProgress]) -> bool:
    """R16, R60: a force-marched group starts, moves and ends together, as the
    group it was declared for (selection keeps one march to a group)."""
    march = group[0].force_march
    if not march:
        return True
    party = {p.block for p in current.blocks if p.force_march == march and not p.done}
    return set(current.selection) == party


def _why_step_illegal(state: GameState, current: StackMove, group: list[BlockProgress], to: str) -> str | None:
    if not group:
        return "select the blocks to move first (7.3.1)"
    at = group[0].at
    connection = default_components().connection(at, to)
    if connection is None:
        return f"{name(at)} and {name(to)} are not connected by a road (7.3.1)"
    if segment_key(at, to) in _movement(state).segments:
        return f"{name(at)}–{name(to)} was already used this phase (7.3.1)"
    if not _force_march_kept_together(current, group):
        return "a force-marched group must move and end together (7.3.3, R16)"
    for progress in group:  # each block as it would be after the step
        largest_group = max(progress.largest_group, len(group))
        highway_only = progress.highway_only and connection.highway
        limit = allowance(highway_only, current.leadership, progress.force_march, largest_group)
        if progress.steps + 1 > limit:
            return (
                f"{progress.block} may move {max(limit, 0)} location{'s' * (limit != 1)} "
                f"in a group of {largest_group} (7.3.3-7.3.6)"
            )
    return None


def why_step_illegal(state: GameState, command: Step) -> str | None:
    if command.to not in default_components().location_ids:
        return f"{command.to} is not a location"
    current = _current(state)
    return _why_step_illegal(state, current, _selection(current), command.to)


def apply_step(state: GameState, command: Step) -> tuple[GameState, list[Event]]:
    side, to = command.side, command.to
    current = _current(state)
    group = _selection(current)
    at = group[0].at
    highway = default_components().connection(at, to).highway
    size = len(group)
    # evolve(p, path=..., highway_only=..., largest_group=...), called positionally:
    # BlockProgress has slots and plain fields, so this is the same instance.
    moved = {
        p.block: BlockProgress(p.block, p.path + (to,), p.highway_only and highway,
                               p.largest_group if p.largest_group > size else size, p.force_march, p.done)
        for p in group
    }
    # The segment used and the moved blocks' progress go into the movement
    # once, after the arrival: an arrival reads neither, and one that ends
    # the game clears the movement (victory.end_game) (issue 25: one evolve
    # of the state and of the movement fewer at each step).
    state = evolve(
        state,
        positions=stepped_positions(state.positions, side, tuple(moved), at, to),
        revealed=state.revealed.difference(moved),  # R62: a block that moves is hidden again
        entered_from=record_entry(state.entered_from, to, side, at),
    )
    blocks = tuple([moved.get(p.block, p) for p in current.blocks])  # a list first: no generator
    source = current.source  # public: the opponent saw the stack leave it (7.3)
    events: list[Event] = [BlocksMoved(side, tuple(moved), at, to, source),
                           OpponentMovedBlocks(side, len(moved), at, to, source)]
    state, more = arrive(state, side, to, at)
    events += more
    if state.is_over:  # an overrun gave an instant victory (R50)
        return state, events
    selection = current.selection
    if has_enemy_units(state, side, to):  # 7.3.2, R57: stop, unless overrun
        blocks = tuple(evolve(p, done=True) if p.block in moved else p for p in blocks)
        selection = ()
        events.append(BlocksStopped(side, to))
    movement = _movement(state)
    movement = evolve(movement, segments=movement.segments | {segment_key(at, to)},
                      current=evolve(current, blocks=blocks, selection=selection))
    return with_field(state, "movement", movement), events


def _why_halt_illegal(current: StackMove, group: list[BlockProgress]) -> str | None:
    if not group:
        return "select the blocks that end their move (R14)"
    if not group[0].steps:
        return "blocks that have not moved simply stay behind (7.3.1)"
    if not _force_march_kept_together(current, group):
        return "a force-marched group must move and end together (7.3.3, R16)"
    return None


def why_halt_illegal(state: GameState, command: Halt) -> str | None:
    current = _current(state)
    return _why_halt_illegal(current, _selection(current))


def apply_halt(state: GameState, command: Halt) -> tuple[GameState, list[Event]]:
    current = _current(state)
    chosen = set(current.selection)
    blocks = tuple(evolve(p, done=True) if p.block in chosen else p for p in current.blocks)
    return _with_current(state, evolve(current, blocks=blocks, selection=())), []


def apply_end_stack_move(state: GameState, command: EndStackMove) -> tuple[GameState, list[Event]]:
    """Every block of the stack move stops where it is; none moves again this
    phase, nor do those left behind (7.3.1, R15)."""
    current = _current(state)
    movement = _movement(state)
    movement = evolve(movement, current=None, fixed=movement.fixed | {p.block for p in current.blocks})
    return evolve(state, movement=movement, decision=deciding(_MOVE, command.side)), []


# --- helpers -----------------------------------------------------------------------


def _with_current(state: GameState, current: StackMove) -> GameState:
    """with_field(state, "movement", with_field(movement, "current", current)),
    its two dict copies made here: a select or deselect is a fifth of all
    decisions (issue 25)."""
    movement = state.movement
    values = movement.__dict__.copy()
    values["current"] = current
    movement = _new(MovementPhase)
    _set(movement, "__dict__", values)
    values = state.__dict__.copy()
    values["movement"] = movement
    state = _new(GameState)
    _set(state, "__dict__", values)
    return state


_new = object.__new__
_set = object.__setattr__  # frozen classes refuse setattr: rules.immutable's way


STACK_MOVE = DecisionRules(
    kind=DecisionKind.STACK_MOVE,
    asks="move the blocks of this stack (7.3)",
    help=DecisionHelp(
        title="Move this stack",
        rules="7.3, 7.3.3, 7.3.5, 7.4, R14, R16, R19, R57",
        text=help_text(
            "Select the blocks that travel together, then step them one location at a time.",
            "Reach: 1, +1 if the whole move is on highway, +1 leadership, +1 force march (a card);",
            "-1 for 5-8 blocks, -2 for 9-12, -3 for 13-16 in the largest group it moved with (R19).",
            "A group may drop blocks off on the way (halt them) but never picks any up (R14).",
            "Entering a location with enemy units stops the group unless it overruns them",
            "(4 to 1 in blocks); a road segment can be used by only one group per phase (R57).",
            "Answer with: select/deselect <block>, march <card>, step <location>, halt,",
            "and done when the whole stack move is over.",
        ),
    ),
    legal=legal_stack_commands,
    answers={
        Select: Answer(why_select_illegal, apply_select),
        Deselect: Answer(why_deselect_illegal, apply_deselect),
        ForceMarch: Answer(why_force_march_illegal, apply_force_march),
        Step: Answer(why_step_illegal, apply_step),
        Halt: Answer(why_halt_illegal, apply_halt),
        EndStackMove: Answer(always_legal, apply_end_stack_move),
    },
    finishing=EndStackMove,
)
