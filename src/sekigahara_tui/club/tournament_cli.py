"""`sekigahara tournament new|join|start|show --data DIR --member NAME`
(docs/club.md, Tournaments): the club's own Unix user, through the running
club's socket, as a member (the administrator: may start any tournament and
sign the computer up to one). Each request is the lobby's (protocol_tournaments.py):
refused in one line, exit status 1."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path


def add_tournament_command(commands) -> None:
    # Names only: the bots and the engine load when a command runs, not for the parser
    # (the main menu opens through this parser, without the engine).
    from sekigahara_tui.cli import BOT_LEVELS as LEVELS
    from sekigahara_tui.clock_presets import PRESET_NAMES

    tournament = commands.add_parser("tournament", help="make, join, start or show a club's tournament (the club must be running)")
    actions = tournament.add_subparsers(dest="tournament_command", metavar="ACTION", required=True)
    new = actions.add_parser("new", help="a new tournament members sign up for until it starts")
    new.add_argument("name")
    new.add_argument("--format", choices=("round-robin", "swiss"), default="round-robin",
                     help="round-robin: every pair plays twice, sides swapped (default); swiss: --rounds N")
    new.add_argument("--rounds", type=int, metavar="N", help="a Swiss's rounds (at most half its entrants)")
    new.add_argument("--clock", choices=PRESET_NAMES, default="daily", help="its games' clock (default daily); a time-out loses")
    join = actions.add_parser("join", help="sign --member up (or, with --computer LEVEL, the computer)")
    join.add_argument("name")
    join.add_argument("--computer", choices=tuple(LEVELS), metavar="LEVEL", help="sign the computer up at LEVEL instead")
    start = actions.add_parser("start", help="close the sign-up; the club makes the games")
    start.add_argument("name")
    show = actions.add_parser("show", help="a tournament's standings and games (no name: the list)")
    show.add_argument("name", nargs="?")
    for parser in (new, join, start, show):
        parser.add_argument("--data", type=Path, required=True, metavar="DIR", help="the club's DIR (its own Unix user)")
        parser.add_argument("--member", required=True, metavar="NAME", help="who asks (the club's own Unix user may name any member)")


def run_tournament(args: argparse.Namespace) -> int:
    from sekigahara_tui.cli import fail
    from sekigahara_tui.club.client import ClubClient, ClubRefused, _fresh_id
    from sekigahara_tui.club.protocol_tournaments import GetTournament, JoinTournament, NewTournament, StartTournament
    from sekigahara_tui.club.serve import ClubError, club_address

    program = f"sekigahara tournament {args.tournament_command}"
    try:
        if args.tournament_command == "new":
            message = NewTournament(_fresh_id(), args.name, args.format, args.clock, args.rounds)
        elif args.tournament_command == "join":
            message = JoinTournament(_fresh_id(), args.name, args.computer)
        elif args.tournament_command == "start":
            message = StartTournament(_fresh_id(), args.name)
        else:
            message = GetTournament(_fresh_id(), args.name)
    except ValueError as error:  # the wire's own checks: a name too long, --rounds out of range
        return fail(program, str(error).splitlines()[0], 2)
    try:
        client = ClubClient(club_address(args.data)["socket"], member=args.member)
    except ClubError as error:
        return fail(program, str(error), 2)

    async def ask() -> object:
        try:
            return await client.tournament(message)
        finally:
            await client.close()

    try:
        answer = asyncio.run(ask())
    except ClubRefused as error:
        return fail(program, f"the club refused: {error}", 1)
    except (OSError, asyncio.TimeoutError) as error:
        return fail(program, f"cannot reach the club at {client.where}: {getattr(error, 'strerror', None) or error}", 1)
    print("\n".join(describe(answer)))
    return 0


def describe(answer) -> list[str]:
    """A tournament (or the list) in lines of plain text; every name printable (the wire's checks)."""
    from rules.surface import printable

    if hasattr(answer, "tournaments"):
        return [f"{printable(t.name, 40)}\t{t.format}\t{t.clock}\t{t.status}\t{t.entrants} entrants" for t in answer.tournaments] or ["no tournaments"]
    rounds = f", {answer.rounds} rounds" if answer.rounds else ""
    lines = [f"{printable(answer.name, 40)}: {answer.format}{rounds}, clock {answer.clock}, made by {answer.created_by}: {answer.status}",
             "entrants: " + (", ".join(answer.entrants) or "none yet")]
    if answer.boards:
        lines.append("rank  entrant               points  played  wins  SB     Buchholz")
        lines += [f"{s.rank:>4}  {s.entrant:<20}  {s.points:>6g}  {s.played:>6}  {s.wins:>4}  {s.sonneborn_berger:<5g}  {s.buchholz:g}"
                  for s in answer.standings]
    for b in answer.boards:
        if b.tokugawa is None:
            lines.append(f"round {b.round} board {b.board}: {b.ishida} has a bye")
        else:
            state = printable(b.result, 80) if b.result else b.state
            lines.append(f"round {b.round} board {b.board}: {b.ishida} (Ishida) v {b.tokugawa} (Tokugawa), game {b.game}: {state}")
    return lines
