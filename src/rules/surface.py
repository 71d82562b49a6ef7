"""The client surface: everything a screen, a bot or a remote client may use.

A client holds a seat's PlayerView (R55: only what that side may know), that
seat's events, and the legal commands; it sends commands as notation text
(rules.notation) and writes the log with rules.describe. It never sees a
GameState, the engine or the generator. The app (sekigahara_tui's screens and
widgets), the network client and the bots import from `rules` only this
module, rules.notation and rules.describe (tests/tui/test_client_surface.py).

docs/protocol.md lists the same surface as it travels over the wire.
"""

from rules import events as _events
from rules.commands import COMMAND_TYPES, Command, places
from rules.commands import (  # every command class, for isinstance checks
    ReinforcementDiscard,
    Bid,
    ChooseFirstPlayer,
    ChooseMovement,
    ExchangeCard,
    EndExchange,
    EndMovement,
    BeginMove,
    Select,
    Deselect,
    ForceMarch,
    Step,
    Halt,
    EndStackMove,
    Muster,
    EnterFromMoriBox,
    DeclareCombat,
    StayInside,
    ComeOutside,
    Deploy,
    DeployLeader,
    DeclareDone,
    Challenge,
    AllowPlay,
    ChooseCasualty,
    Retreat,
)
from rules.components import Components, default_components, default_data_dir
from rules.decision import DecisionHelp
from rules.describe_commands import command_label
from rules.events import CombatEnded, Event, OpponentDecided, Overrun, PieceLost
from rules.pair import Pair
from rules.sides import BOTH_SIDES, Side
from rules.state import DecisionKind, Deployment, GameResult, MovementOption, Phase, StackMove, Turn
from rules.infra.untrusted import printable, printable_path
from rules.victory import CANCELLED, HIDEYORI_CAPTURED, ISHIDA_ELIMINATED, RESIGNED, TIMED_OUT, TOKUGAWA_ELIMINATED
from rules.view import BattleView, CombatView, DiscView, MovementView, PlayerView

# Every concrete event class: the wire's tagged union of events.
EVENT_TYPES: tuple[type, ...] = tuple(
    cls
    for cls in vars(_events).values()
    if isinstance(cls, type) and issubclass(cls, Event) and hasattr(cls, "__attrs_attrs__")
)

__all__ = [
    "AllowPlay",
    "BOTH_SIDES",
    "BattleView",
    "CANCELLED",
    "BeginMove",
    "Bid",
    "COMMAND_TYPES",
    "Challenge",
    "ChooseCasualty",
    "ChooseFirstPlayer",
    "ChooseMovement",
    "CombatEnded",
    "CombatView",
    "ComeOutside",
    "Command",
    "Components",
    "DecisionHelp",
    "DecisionKind",
    "DeclareCombat",
    "DeclareDone",
    "Deploy",
    "DeployLeader",
    "Deployment",
    "Deselect",
    "DiscView",
    "EVENT_TYPES",
    "EndExchange",
    "EndMovement",
    "EndStackMove",
    "EnterFromMoriBox",
    "Event",
    "ExchangeCard",
    "ForceMarch",
    "GameResult",
    "HIDEYORI_CAPTURED",
    "Halt",
    "ISHIDA_ELIMINATED",
    "MovementOption",
    "MovementView",
    "Muster",
    "OpponentDecided",
    "Overrun",
    "Pair",
    "Phase",
    "PieceLost",
    "PlayerView",
    "RESIGNED",
    "ReinforcementDiscard",
    "Retreat",
    "Select",
    "Side",
    "StackMove",
    "StayInside",
    "Step",
    "TIMED_OUT",
    "TOKUGAWA_ELIMINATED",
    "Turn",
    "command_label",
    "default_components",
    "default_data_dir",
    "places",
    "printable",
    "printable_path",
]
