"""`sekigahara front`: the SSH and/or web fronts on a machine without the
club's store (issue 28; docs/club.md, Fronts on other machines), and
`sekigahara club front-credential NAME` that makes (or revokes) a front's
credential on the club's data dir.

    sekigahara front --club HOST:PORT[,HOST:PORT...] --tls-ca CA.pem --credential FILE \\
        [--ssh [HOST:]PORT] [--web [HOST:]PORT] --data DIR

The front connects to the club's TLS door (serve --listen --tls-cert
--tls-key) with its credential and asks the club everything it decides
(club/remote_link.py): the first of the club's hosts that answers, the next
when that one is lost. Each session's client process connects to the club
over TLS too, with the session the club opened for it, and knows every host. DIR holds the front's
own SSH host key and the secret its web cookies are signed with (0700).
It stops on SIGINT or SIGTERM, or when the club refuses it (its credential
revoked): one line, exit status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from pathlib import Path
from typing import Callable

from sekigahara_tui.club.front_addresses import (
    SSH_DEFAULT_HOST,
    WEB_DEFAULT_HOST,
    AddressError,
    listening_line,
    parse_front_address,
    web_note,
)


def add_front_command(commands, club_actions) -> None:
    front = commands.add_parser("front", help="run the SSH and/or web fronts of a club on another machine, over TLS (docs/club.md)")
    front.add_argument("--club", required=True, metavar="HOST:PORT[,HOST:PORT...]",
                       help="the club's TLS door (serve --listen with --tls-cert); several hosts of one club, comma-separated, tried in turn")
    front.add_argument("--tls-ca", required=True, type=Path, metavar="FILE", help="the CA that signed the club's certificate (which must name HOST)")
    front.add_argument("--credential", required=True, type=Path, metavar="FILE", help="this front's credential (sekigahara club front-credential NAME)")
    front.add_argument("--ssh", metavar="[HOST:]PORT", help="serve members over SSH (HOST: every interface unless given)")
    front.add_argument("--web", metavar="[HOST:]PORT", help="serve members in the browser (HOST: 127.0.0.1 unless given)")
    front.add_argument("--data", required=True, type=Path, metavar="DIR", help="the front's own SSH host key and cookie secret")
    credential = club_actions.add_parser("front-credential", help="make (print once) or --revoke a front's credential for `sekigahara front`")
    credential.add_argument("name")
    credential.add_argument("--revoke", action="store_true", help="forget it: the front is refused at its next question")
    credential.add_argument("--data", type=Path, required=True, metavar="DIR", help="the club's DIR (serve --data)")
    credential.add_argument("--store", metavar="postgresql://...", help="the club's PostgreSQL database (DIR records it, as serve --store does)")


class FrontError(Exception):
    """The front cannot run as asked; one line."""


async def run_fronts(club: list[tuple[str, int]], ca_file: Path, credential_file: Path, ssh: tuple[str, int] | None,
                     web: tuple[str, int] | None, data_dir: Path, say: Callable[[str], None] = print,
                     child_command: list[str] | None = None) -> str:
    from sekigahara_tui.club.remote_link import FrontRefused, RemoteLink
    from sekigahara_tui.club.serve import ClubError, start_front_end, start_listening
    from sekigahara_tui.hosting.front_credentials import CredentialError, read_credential
    from sekigahara_tui.hosting.members import MemberError, prepare_data_dir
    from sekigahara_tui.hosting.tokens import load_secret
    from sekigahara_tui.net.tls import client_context

    try:
        client_context(ca_file)  # one line now, not at the first session
        credential = read_credential(credential_file)
        data_dir = prepare_data_dir(data_dir)
    except (OSError, CredentialError, MemberError) as error:
        raise FrontError(str(error)) from None
    link = RemoteLink(club, str(ca_file.resolve()), credential)
    where = ", ".join(f"{host}:{port}" for host, port in club)
    try:
        name = await link.connect()
    except FrontRefused as refusal:
        raise FrontError(f"the club refused this front: {refusal}") from None
    except (OSError, TimeoutError) as error:
        raise FrontError(f"cannot reach the club at {where}: {getattr(error, 'strerror', None) or error}") from None
    fronts: list = []
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        said = [f"front {name} of the club at {link.host}:{link.port} (TLS)"
                + (f", {len(club) - 1} more hosts" if len(club) > 1 else "")]
        options = {"link": link, **({"child_command": child_command} if child_command else {})}
        try:
            if ssh is not None:
                from sekigahara_tui.club.ssh_host_key import fingerprint_line

                front = await start_listening("SSH", ssh, start_front_end("ssh_front", "start_ssh", link, data_dir, ssh[1], ssh[0], **options))
                fronts.append(front)
                said += [listening_line("SSH", ssh[0], front.addresses), f"SSH host key: {fingerprint_line(front.host_key)}"]
            if web is not None:
                starting = start_front_end("web_front", "start_web", link, data_dir, web[1], web[0], secret=load_secret(data_dir), **options)
                front = await start_listening("the web", web, starting)
                fronts.append(front)
                said += [listening_line("web", web[0], front.addresses, web_note(web[0])), f"web page: {front.url}"]
        except ClubError as error:
            raise FrontError(str(error)) from None
        for line in said:
            say(line)
        ended = loop.create_task(link.done.wait())
        stopped = loop.create_task(stop.wait())
        await asyncio.wait([ended, stopped], return_when=asyncio.FIRST_COMPLETED)
        ended.cancel()
        stopped.cancel()
        if link.ended is not None and not stop.is_set():
            raise FrontError(f"the club refused this front: {link.ended}")
        return "stopped"
    finally:
        for front in fronts:
            front.close()
            await front.wait_closed()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        await link.close()


def run_front(args: argparse.Namespace) -> int:
    from sekigahara_tui.club.cli import _fail
    from sekigahara_tui.net.host_command import HostingError, parse_listen

    try:
        club = [parse_listen(one) for one in args.club.split(",")]
    except HostingError:
        return _fail("sekigahara front", f"--club wants HOST:PORT[,HOST:PORT...] (the club's TLS doors), not {args.club!r}", 2)
    try:
        ssh = parse_front_address("--ssh", args.ssh, SSH_DEFAULT_HOST) if args.ssh is not None else None
        web = parse_front_address("--web", args.web, WEB_DEFAULT_HOST) if args.web is not None else None
    except (HostingError, AddressError) as error:
        return _fail("sekigahara front", str(error), 2)
    if ssh is None and web is None:
        return _fail("sekigahara front", "give --ssh [HOST:]PORT, --web [HOST:]PORT or both", 2)
    try:
        print(asyncio.run(run_fronts(club, args.tls_ca, args.credential, ssh, web, args.data,
                                     say=lambda line: print(line, flush=True))))
    except FrontError as error:
        return _fail("sekigahara front", str(error), 1)
    return 0


def run_front_credential(args: argparse.Namespace) -> int:
    from sekigahara_tui.club.cli import _audit, _fail
    from sekigahara_tui.hosting import front_credentials
    from sekigahara_tui.hosting.database import club_exists

    from sekigahara_tui.club.cli import bind_store
    from sekigahara_tui.hosting.members import MemberError

    program = "sekigahara club front-credential"
    try:
        bind_store(args.data, args.store)
    except MemberError as error:
        return _fail(program, str(error), 2)
    if not club_exists(args.data):
        return _fail(program, f"no club in {args.data}", 1)
    try:
        if args.revoke:
            if not front_credentials.revoke(args.data, args.name):
                return _fail(program, f"{args.name}: no such front", 1)
            _audit(args.data, "front-revoked", "its next question is refused and its connection closed", None)
            print(f"{args.name}: revoked")
            return 0
        credential = front_credentials.issue(args.data, args.name)
    except front_credentials.CredentialError as error:
        return _fail(program, str(error), 2)
    _audit(args.data, "front-credential", f"issued for {args.name}", None)
    print(credential)
    return 0
