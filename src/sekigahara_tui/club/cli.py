"""The club's commands: `serve`, `member add|list|remove|web-token|vacation|mute|unmute`,
`chat list|delete` (the administrator's), `club`, `ratings`, `tournament` (docs/club.md)."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path


def add_club_commands(commands) -> None:
    serve = commands.add_parser("serve", help="run a club server that hosts many games")
    serve.add_argument("--data", type=Path, required=True, metavar="DIR", help="the club's store, keys and socket")
    serve.add_argument("--store", metavar="postgresql://...", help="keep the club's tables in this PostgreSQL database instead of DIR/club.sqlite (DIR records it; docs/club.md)")
    serve.add_argument("--listen", metavar="HOST:PORT", help="also listen on TCP (port 0: any free port)")
    serve.add_argument("--advertise", metavar="HOST:PORT", help="with --listen and --store postgresql://: where the other hosts send this host's games' clients (default: the bound address; give it when listening on 0.0.0.0)")
    serve.add_argument("--tls-cert", type=Path, metavar="FILE", help="with --listen: take TCP connections with TLS, this certificate (chain, PEM) ...")
    serve.add_argument("--tls-key", type=Path, metavar="FILE", help="... and its private key (PEM); docs/club.md")
    serve.add_argument("--ssh", metavar="[HOST:]PORT", help="serve members over SSH (HOST: every interface unless given)")
    serve.add_argument("--web", metavar="[HOST:]PORT", help="serve members in the browser (HOST: 127.0.0.1 unless given)")
    serve.add_argument("--guest", action="store_true", help="over SSH, let in anyone without a member's key, as guest-NAME: guests join open games and watch, and make none (off by default)")
    serve.add_argument("--evict-after", type=float, default=300.0, metavar="SECONDS", help="drop a game nobody used for this long from memory (default 300)")
    serve.add_argument("--smtp", metavar="HOST:PORT", help="send notices by mail through this SMTP relay (with --mail-from)")
    serve.add_argument("--mail-from", metavar="ADDR", help="the sender of the notices' mail")
    serve.add_argument("--notify-allow-private", action="store_true", help="let webhooks reach private and loopback addresses and plain http (a LAN club); off by default")
    serve.add_argument("--notify-resume", metavar="TEXT", help="how a notice says to come back, e.g. 'ssh -p 2222 club.example.org' or a web link (default: the --ssh port on this machine's name)")
    serve.add_argument("--computer-workers", type=int, default=None, metavar="N", help="processes in which the computer thinks (default: cores minus one, at least one)")
    serve.add_argument("--vacation-days-per-year", type=int, default=14, metavar="N", help="the most days a member may be on vacation in a calendar year (clocks stop; default 14)")
    member = commands.add_parser("member", help="add, list or remove the club's members, or send one on vacation")
    actions = member.add_subparsers(dest="member_command", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="add a member (or another key of a member)")
    add.add_argument("name")
    add.add_argument("--key", type=Path, required=True, metavar="PUBLIC_KEY_FILE", help="an OpenSSH public key file (.pub)")
    add.add_argument("--data", type=Path, required=True, metavar="DIR")
    listing = actions.add_parser("list", help="list the members")
    listing.add_argument("--data", type=Path, required=True, metavar="DIR")
    remove = actions.add_parser("remove", help="remove a member and their keys (their games stay)")
    remove.add_argument("name")
    remove.add_argument("--data", type=Path, required=True, metavar="DIR")
    token = actions.add_parser("web-token", help="a browser sign-in token for a member (printed once)")
    token.add_argument("name")
    token.add_argument("--rotate", action="store_true",
                       help="replace the member's token: everything signed in with the old one (browsers, TCP) is signed out at once")
    token.add_argument("--data", type=Path, required=True, metavar="DIR")
    vacation = actions.add_parser("vacation", help="a member's days away: their correspondence clocks stop (within serve's yearly cap)")
    vacation.add_argument("name")
    vacation.add_argument("--days", type=int, required=True, metavar="N")
    vacation.add_argument("--data", type=Path, required=True, metavar="DIR")
    for verb, what in (("mute", "refuse a member's chat lines (they still read the chat)"), ("unmute", "let a muted member write in the chat again")):
        muting = actions.add_parser(verb, help=what)
        muting.add_argument("name")
        muting.add_argument("--data", type=Path, required=True, metavar="DIR")
    for action in actions.choices.values():  # a club over PostgreSQL, from any machine: DIR records the database as serve does
        action.add_argument("--store", metavar="postgresql://...", help="the club's PostgreSQL database (DIR records it, as serve --store does)")
    chat = commands.add_parser("chat", help="the administrator's view of the club's chat: list lines, delete one")
    chat_actions = chat.add_subparsers(dest="chat_command", metavar="ACTION", required=True)
    chat_list = chat_actions.add_parser("list", help="the newest lines of the club's channel, or of a game's chat (--game), with their numbers")
    chat_list.add_argument("--game", metavar="GAME", help="a game's id (default: the club's channel)")
    chat_list.add_argument("--data", type=Path, required=True, metavar="DIR")
    chat_delete = chat_actions.add_parser("delete", help="delete a line by its number: a running club takes it from every screen")
    chat_delete.add_argument("number", type=int)
    chat_delete.add_argument("--data", type=Path, required=True, metavar="DIR")
    ratings = commands.add_parser("ratings", help="print the club's ratings (from its finished rated games)")
    ratings.add_argument("--data", type=Path, required=True, metavar="DIR")
    ratings.add_argument("--recompute", action="store_true", help="first rebuild the ratings from the stored results")
    ratings.add_argument("--player", metavar="NAME", help="print this player's history instead (a member, or computer:LEVEL)")
    club = commands.add_parser(
        "club",
        help="open the club's lobby (SEKIGAHARA_CLUB and SEKIGAHARA_SESSION, or --data DIR --member NAME)",
    )
    club.add_argument("--data", type=Path, metavar="DIR", help="the club's DIR (the club's own Unix user only)")
    club.add_argument("--member", metavar="NAME", help="the member to sign in, with --data or --connect")
    club.add_argument("--connect", metavar="HOST:PORT", help="a club's TCP address (serve --listen), with --member and the member's token in SEKIGAHARA_TOKEN")
    club.add_argument("--tls-ca", metavar="FILE", help="with --connect: the club listens with TLS; its certificate must be signed by this CA and name HOST")
    club_actions = club.add_subparsers(dest="club_command", metavar="ACTION")  # none: open the lobby
    migrate = club_actions.add_parser("migrate", help="copy a stopped SQLite club into an empty PostgreSQL database, then check it row by row")
    migrate.add_argument("--from", dest="source", type=Path, required=True, metavar="DIR", help="the club's DIR (serve --data)")
    migrate.add_argument("--to", dest="target", required=True, metavar="postgresql://...", help="an empty PostgreSQL database")
    from sekigahara_tui.club.front_command import add_front_command

    add_front_command(commands, club_actions)  # `front`, `club front-credential` (issue 28)
    from sekigahara_tui.club.tournament_cli import add_tournament_command

    add_tournament_command(commands)


def _fail(program: str, message: str, status: int) -> int:
    from sekigahara_tui.cli import fail

    return fail(program, message, status)


# The server makes a few hundred short-lived objects per command (states,
# views, messages), almost none of them in cycles, and keeps many of them for
# a while (the states undo may go back to, R58; each chair's last view).
# Reference counting frees them; the collector only ever walked them. A gc
# callback's timings at 500 games (issue 23): every middle collection freed
# nothing and paused the server 25-200 ms every 10-30 s; every young one,
# even on a 0.05 s timer, freed nothing too and cost 12% of the server's CPU
# (py-spy). The only cycles are asyncio's transports, one per connection that
# ended. So: no collection of CPython's own (gc.disable), the modules and
# components frozen out of the collector's sight after start-up, and a full
# collection on a timer (collect_on_timer): every 5 minutes, or sooner when
# GROWTH_LIMIT tracked objects were made since the last (a flood of
# connections cannot pile up cycles for 5 minutes).
FULL_COLLECTION_SECONDS = 300
TIMER_TICK = 1.0  # seconds between two looks at the collector's count
GROWTH_LIMIT = 1_000_000  # tracked objects made (net) since the last collection; a few hundred MB at most


def tune_garbage_collector() -> None:
    import gc

    gc.collect()
    gc.freeze()
    gc.disable()


async def collect_on_timer(
    every: float = TIMER_TICK, sleep=asyncio.sleep, full_every: int = int(FULL_COLLECTION_SECONDS / TIMER_TICK),
    growth_limit: int = GROWTH_LIMIT, count=None,
) -> None:
    """Every `every` seconds, for ever, look at the collector's count; collect
    every generation at each `full_every`-th look, or at once when more than
    `growth_limit` tracked objects were made since the last collection. (A
    test passes its own `sleep` and `count`, to count the timer's ticks
    rather than seconds.)"""
    import gc

    count = count or (lambda: gc.get_count()[0])
    ticks = 0
    while True:
        await sleep(every)
        ticks += 1
        if ticks >= full_every or count() > growth_limit:
            gc.collect()
            ticks = 0


def run_serve(args: argparse.Namespace) -> int:
    from sekigahara_tui.club.front_addresses import SSH_DEFAULT_HOST, WEB_DEFAULT_HOST, AddressError, parse_front_address, ssh_command
    from sekigahara_tui.hosting.notice_delivery import NoticeOptions
    from sekigahara_tui.hosting.notice_settings import mail_address
    from sekigahara_tui.club.serve import ClubError, parse_advertise, serve
    from sekigahara_tui.net.host_command import HostingError, parse_listen
    from sekigahara_tui.hosting.store import StoreError

    try:
        listen = parse_listen(args.listen) if args.listen else None
        advertise = parse_advertise(args.advertise) if args.advertise is not None else None
        ssh = parse_front_address("--ssh", args.ssh, SSH_DEFAULT_HOST) if args.ssh is not None else None
        web = parse_front_address("--web", args.web, WEB_DEFAULT_HOST) if args.web is not None else None
        smtp = parse_front_address("--smtp", args.smtp, "") if args.smtp is not None else None
    except (HostingError, AddressError) as error:
        return _fail("sekigahara serve", str(error), 2)
    if (smtp is None) != (args.mail_from is None):
        return _fail("sekigahara serve", "--smtp HOST:PORT and --mail-from ADDR go together", 2)
    if smtp is not None and not smtp[0]:
        return _fail("sekigahara serve", f"--smtp wants HOST:PORT (the relay's host too), not {args.smtp!r}", 2)
    if args.mail_from is not None and not mail_address(args.mail_from):
        return _fail("sekigahara serve", f"--mail-from wants a mail address, not {args.mail_from!r}", 2)
    resume = args.notify_resume or (ssh_command(ssh) if ssh is not None else None)
    notices = NoticeOptions(args.notify_allow_private, smtp, args.mail_from, resume)
    if (args.tls_cert is None) != (args.tls_key is None) or (args.tls_cert is not None and listen is None):
        return _fail("sekigahara serve", "--tls-cert FILE and --tls-key FILE go together, with --listen HOST:PORT", 2)
    if advertise is not None and listen is None:
        return _fail("sekigahara serve", "--advertise HOST:PORT goes with --listen HOST:PORT", 2)
    if args.evict_after <= 0:
        return _fail("sekigahara serve", "--evict-after must be positive", 2)
    if args.computer_workers is not None and not 1 <= args.computer_workers <= 64:
        return _fail("sekigahara serve", "--computer-workers must be between 1 and 64", 2)
    if not 0 <= args.vacation_days_per_year <= 366:
        return _fail("sekigahara serve", "--vacation-days-per-year must be between 0 and 366", 2)
    say = lambda line: print(line, flush=True)  # noqa: E731
    tune_garbage_collector()
    try:

        async def serve_and_collect() -> str:
            collector = asyncio.create_task(collect_on_timer())
            try:
                return await serve(
                    args.data, listen, ssh, web, say=say, evict_after=args.evict_after, guest=args.guest, notices=notices,
                    computer_workers=args.computer_workers,
                    vacation_days_per_year=args.vacation_days_per_year, store_url=args.store,
                    tls=(args.tls_cert, args.tls_key) if args.tls_cert is not None else None, advertise=advertise,
                )
            finally:
                collector.cancel()

        print(asyncio.run(serve_and_collect()))
    except (ClubError, StoreError) as error:
        return _fail("sekigahara serve", str(error), 2)
    except OSError as error:
        return _fail("sekigahara serve", f"cannot listen: {error.strerror or error}", 2)
    return 0


def bind_store(data_dir: Path, url: str | None) -> None:
    """`--store URL` of a member or front-credential command: DIR (made if
    missing) keeps the club's tables at URL from now on, as `serve --store`
    records it, so an administrator's machine needs no club host's DIR.
    MemberError in one line, nothing written."""
    from sekigahara_tui.hosting import database
    from sekigahara_tui.hosting.members import MemberError, prepare_data_dir

    if url is None:
        return
    try:
        if database.is_postgresql(url):
            database.connect(url).close()  # a URL that cannot be used binds nothing
        database.record_location(prepare_data_dir(data_dir), url)
    except database.Error as error:
        raise MemberError(f"{database.shown(url)}: {error}" if database.is_postgresql(url) else str(error)) from None


def run_member(args: argparse.Namespace) -> int:
    from rules.surface import printable_path
    from sekigahara_tui.hosting import members

    try:
        bind_store(args.data, args.store)
        if args.member_command == "add":
            try:
                text = args.key.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                reason = getattr(error, "strerror", None) or "not a text file"
                return _fail("sekigahara member add", f"cannot read {printable_path(args.key)}: {reason}", 2)
            new = members.add(args.data, args.name, text)
            _audit(args.data, "member-added", f"{new} keys added", args.name)
            print(f"{args.name}: {new} key{'s' if new != 1 else ''} added")
        elif args.member_command == "web-token":
            from sekigahara_tui.hosting.web_tokens import issue_web_token, token_generation

            if not members.is_member(args.data, args.name):
                return _fail("sekigahara member web-token", f"{args.name}: no such member", 1)
            replaced = token_generation(args.data, args.name) is not None
            if replaced and not args.rotate:
                return _fail("sekigahara member web-token",
                             f"{args.name} has a web token already: --rotate replaces it (and signs their browsers out)", 1)
            token = issue_web_token(args.data, args.name)
            _audit(args.data, "web-token", "replaced: every session signed in with the old one is signed out" if replaced else "issued", args.name)
            print(token)
        elif args.member_command == "vacation":
            return _vacation(args)
        elif args.member_command in ("mute", "unmute"):
            muted = args.member_command == "mute"
            members.set_muted(args.data, args.name, muted)
            _audit(args.data, args.member_command, "their chat lines are refused" if muted else "they may write in the chat again", args.name)
            print(f"{args.name}: {args.member_command}d")
        elif args.member_command == "list":
            for member in members.list_members(args.data):
                print(f"{member.name}\t{member.keys} key{'s' if member.keys != 1 else ''}")
        else:
            members.remove(args.data, args.name)
            _audit(args.data, "member-removed", "keys and web token deleted; a running club revokes the rest", args.name)
            print(f"{args.name}: removed")
    except members.MemberError as error:
        return _fail(f"sekigahara member {args.member_command}", str(error), 1)
    return 0


def _vacation(args: argparse.Namespace) -> int:
    """Store the member's vacation (a running club sees it at its next look: a change, a clock's timer, a seat coming)."""
    import time

    from sekigahara_tui.hosting import members
    from sekigahara_tui.hosting.clock_store import ClockStore
    from sekigahara_tui.hosting.database import Error as DatabaseError, club_location
    from sekigahara_tui.hosting.store import Store, StoreError

    if not members.is_member(args.data, args.name):
        return _fail("sekigahara member vacation", f"{args.name}: no such member", 1)
    try:
        location = club_location(args.data)
        Store.open(location).close()  # created or brought up to date
        clocks = ClockStore(location)
        try:
            start, end = clocks.take_vacation(args.name, args.days, time.time())
        finally:
            clocks.close()
    except (ValueError, StoreError, DatabaseError) as error:
        return _fail("sekigahara member vacation", str(error), 1)
    until = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(end))
    _audit(args.data, "vacation", f"{args.days} days, until {until}", args.name)
    print(f"{args.name}: on vacation until {until}")
    return 0


def run_chat(args: argparse.Namespace) -> int:
    """The administrator's: list a chat's lines with their numbers, or delete one
    (marked in the store; a running club tells every screen within a second)."""
    import time

    from rules.surface import printable
    from sekigahara_tui.hosting.chat_store import ChatStore, ChatStoreError
    from sekigahara_tui.hosting.database import Error as DatabaseError, club_exists, club_location
    from sekigahara_tui.hosting.store import Store, StoreError

    program = f"sekigahara chat {args.chat_command}"
    if not club_exists(args.data):
        return _fail(program, f"no club in {args.data}", 1)
    try:
        path = club_location(args.data)
        Store.open(path).close()  # brought up to date: an older store gains the chat's table
        chat = ChatStore(path)
    except (StoreError, ChatStoreError, DatabaseError) as error:
        return _fail(program, str(error), 1)
    try:
        if args.chat_command == "list":
            for line in chat.lines(args.game):
                when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(line.at))
                # printable(): a line is stored as said; the terminal gets no control character of it.
                print(f"{line.number}\t{when}\t{line.member}\t{printable(line.text, 500)}")
            return 0
        deleted = chat.delete(args.number, time.time())
    except ChatStoreError as error:
        return _fail(program, str(error), 1)
    finally:
        chat.close()
    if deleted is None:
        return _fail(program, f"no line {args.number} shown in the chat (none, or deleted already)", 1)
    where = f"game {deleted.game}" if deleted.game is not None else "the club's channel"
    _audit(args.data, "chat-deleted", f"line {deleted.number} of {where}", deleted.member)
    print(f"line {deleted.number} of {where} deleted ({deleted.member}'s)")
    return 0


def _audit(data_dir: Path, event: str, reason: str, member: str | None) -> None:
    """A member change, one line in the club's audit log (the one a running server writes too)."""
    from sekigahara_tui.hosting.audit import AuditLog

    audit = AuditLog(data_dir)
    try:
        audit.record(event, reason, front="cli", member=member)
    finally:
        audit.close()


def run_ratings(args: argparse.Namespace) -> int:
    """Print the ratings table (or a player's history); --recompute rebuilds it first, in one transaction."""
    import time

    from sekigahara_tui.hosting.database import Error as DatabaseError, club_exists, club_location
    from sekigahara_tui.hosting.ratings import ranked, win_rate
    from sekigahara_tui.hosting.store import Store, StoreError

    try:
        store = Store.open(club_location(args.data), read_only=not args.recompute) if club_exists(args.data) else None
        if store is None:
            return _fail("sekigahara ratings", f"no club store in {args.data}", 1)
        try:
            if args.recompute:
                rated = store.recompute_ratings()
                _audit(args.data, "ratings-recomputed", f"from {rated} rated games", None)
                print(f"ratings recomputed from {rated} rated game{'s' if rated != 1 else ''}")
            if args.player is not None:
                for step in store.rating_history(args.player):
                    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(step.at))
                    outcome = {1.0: "won", 0.0: "lost"}.get(step.score, "drew")
                    print(f"{when}  {step.game}  {step.side.value:<8}  {outcome:<4}  {step.before} -> {step.after}")
                return 0
            print(f"{'rank':>4}  {'rating':>6}  {'games':>5}  {'as Ishida':>11}  {'as Tokugawa':>11}  player")
            for rank, r in enumerate(ranked(store.ratings()), 1):
                ishida = f"{r.ishida_wins}/{r.ishida_games} {win_rate(r.ishida_wins, r.ishida_games)}"
                tokugawa = f"{r.tokugawa_wins}/{r.tokugawa_games} {win_rate(r.tokugawa_wins, r.tokugawa_games)}"
                print(f"{rank:>4}  {r.rating:>6}  {r.games:>5}  {ishida:>11}  {tokugawa:>11}  {r.player}")
        finally:
            store.close()
    except (StoreError, DatabaseError) as error:
        return _fail("sekigahara ratings", str(error), 1)
    return 0


def club_client_for(args: argparse.Namespace):
    """The lobby connection the arguments or the environment name (ValueError, ClubError)."""
    from sekigahara_tui.club.client import ClubClient
    from sekigahara_tui.club.serve import club_address

    if args.connect is not None:  # over TCP: the member's token (`member web-token`), never on the command line
        from sekigahara_tui.club.client import TOKEN_ENV
        from sekigahara_tui.net.host_command import HostingError, parse_listen

        token = os.environ.get(TOKEN_ENV)
        if args.member is None or args.data is not None or not token:
            raise ValueError(f"--connect HOST:PORT goes with --member NAME and the member's token in {TOKEN_ENV}")
        try:
            return ClubClient(None, member=args.member, token=token, tcp=parse_listen(args.connect), tls_ca=args.tls_ca)
        except HostingError:
            raise ValueError(f"--connect wants HOST:PORT, not {args.connect!r}") from None
    if args.tls_ca is not None:
        raise ValueError("--tls-ca goes with --connect HOST:PORT")
    if args.data is not None or args.member is not None:
        if args.data is None or args.member is None:
            raise ValueError("--data DIR and --member NAME go together")
        return ClubClient(club_address(args.data)["socket"], member=args.member)
    return ClubClient.from_environment()


def run_club(args: argparse.Namespace) -> int:
    if getattr(args, "club_command", None) == "migrate":
        from sekigahara_tui.club.store_migrate import run_migrate

        return run_migrate(args)
    if getattr(args, "club_command", None) == "front-credential":
        from sekigahara_tui.club.front_command import run_front_credential

        return run_front_credential(args)
    from sekigahara_tui.club.client import ClubRefused
    from sekigahara_tui.club.serve import ClubError
    from sekigahara_tui.crash_log import app_crash_message, data_dir

    try:
        client = club_client_for(args)
    except (ValueError, ClubError) as error:
        return _fail("sekigahara club", str(error), 2)

    async def check() -> str:
        try:
            return await client.connect()
        finally:
            await client.close()

    try:
        asyncio.run(check())  # refused or unreachable: one line, before Textual starts
    except ClubRefused as error:
        return _fail("sekigahara club", f"the club refused: {error}", 1)
    except (OSError, asyncio.TimeoutError) as error:
        return _fail("sekigahara club", f"cannot reach the club at {client.where}: {getattr(error, 'strerror', None) or error}", 1)
    from sekigahara_tui.app import SekigaharaApp

    app = SekigaharaApp(save_dir=args.save_dir or data_dir(), club=client)
    app.run()
    if app.return_code:
        return _fail("sekigahara", app_crash_message(app.crash_log), app.return_code)
    return 0


def run_front(args: argparse.Namespace) -> int:
    from sekigahara_tui.club.front_command import run_front as run

    return run(args)


def run_tournament(args: argparse.Namespace) -> int:
    from sekigahara_tui.club.tournament_cli import run_tournament as run

    return run(args)


CLUB_COMMANDS = {"serve": run_serve, "member": run_member, "chat": run_chat, "club": run_club, "ratings": run_ratings,
                 "tournament": run_tournament, "front": run_front}
