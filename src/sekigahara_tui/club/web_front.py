"""The club's browser front end: `sekigahara serve --web PORT` (docs/ssh.md).

textual-serve runs the same client, one process per browser session, inside
this server's own asyncio loop: its Server's request handlers are mounted on
an aiohttp application of ours (Server.serve() would own the loop and the
signals). The page is our own template: textual-serve's loads a web font from
the internet; ours loads only the terminal emulator (textual.js, xterm.css)
that ships inside the textual-serve package, so the club works with no
internet access.

A stranger costs no process (issue 23): signing in is an HTML form answered
here, in the server's process (club/web_sign_in.py), which sets a signed
cookie. The terminal page and its websocket are for signed-in members only;
the websocket must come from a page of this club (its Origin), and the
member's session must fit the club's caps (club/session_caps.py, shared with
the SSH front) before a client process is started for it, with the member's
club session in its environment. Every refusal is one line in the audit log.

A member removed while the club runs is revoked (club.follow_revocations):
their websockets are told and closed, which ends their client processes, and
their cookie signs nobody in (it is bound to their web token, deleted with
them). A member's web token replaced (`member web-token NAME --rotate`) signs
out every page opened with the old one the same way (club.follow_sign_outs),
each told in one line and a line each in the audit log.

What the club decides (a web token's check, the caps, sessions, audit
lines, revocations and sign-outs) is asked through the front's link
(club/front_link.py): in this process, or over TLS from another machine
(`sekigahara front`, club/remote_link.py), whose cookies are signed with the
front's own secret.

A signed-in member's finished games' records are downloaded from
`/records` (club/web_records.py), by the lobby's rule.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
import sys
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from sekigahara_tui.club import web_records
from sekigahara_tui.club.front_link import LocalLink
from sekigahara_tui.club.session_caps import SessionCaps
from sekigahara_tui.club.ssh_front import INHERITED_ENV
from sekigahara_tui.club.web_sign_in import COOKIE_DAYS, COOKIE_NAME, Cookies, sign_in_page
from sekigahara_tui.hosting import web_tokens
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.limits import FailedSignIns

log = logging.getLogger("sekigahara.web")

# What textual-serve's AppService sets for its web driver (with TEXTUAL_*).
_DRIVER_ENV = ("TERM_PROGRAM", "TERM_PROGRAM_VERSION", "COLUMNS", "ROWS")
SIGNED_OUT = "Your web token was replaced: this page is signed out. Sign in again with the new one."
SESSION_STOP_GRACE = 5.0  # seconds a browser session's app has to quit before it is killed

# The page: textual-serve's own template less its web font from the internet.
PAGE = """<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>{{ application.name }}</title>
    <link rel="stylesheet" href="{{ config.static.url }}css/xterm.css" />
    <script src="{{ config.static.url }}js/textual.js"></script>
    <style>
      body { background: #0c181f; margin: 0; }
      .dialog-container { position: absolute; width: 100vw; height: 100vh; display: flex;
        align-items: center; justify-content: center; z-index: 10; }
      .intro { width: 640px; padding: 32px; font-family: menlo, monospace; text-align: center;
        color: rgba(255, 255, 255, 0.95); background-color: #12232d; z-index: 20; }
      body.-first-byte .intro-dialog { display: none; }
      body .textual-terminal { opacity: 0; }
      body.-first-byte .textual-terminal { opacity: 1; }
      .closed-dialog { display: none; }
      body.-closed .closed-dialog { display: flex; }
      #start { display: none; }
      #records { position: fixed; right: 4px; bottom: 2px; z-index: 30; font: 11px menlo, monospace;
        color: #9ab; opacity: 0.7; }
      button { padding: 16px 32px; margin: 16px; background-color: #5e0ba7; color: white;
        border: none; font-family: menlo, monospace; }
    </style>
    <script>
      function refresh() { window.location.href = window.location.pathname; }
    </script>
  </head>
  <body>
    <div class="dialog-container intro-dialog"><div class="intro">{{ application.name }}</div></div>
    <div class="dialog-container closed-dialog">
      <div class="intro">
        <div class="message">Session ended.</div>
        <button type="button" onClick="refresh()">Start again</button>
        <div><a href="{{ config.records_url }}" style="color: #9ab">Finished games' records</a></div>
      </div>
    </div>
    <a id="records" href="{{ config.records_url }}" target="_blank">records</a>
    <div id="terminal" class="textual-terminal"
      data-session-websocket-url="{{ app_websocket_url }}" data-font-size="{{ font_size }}"></div>
  </body>
</html>
"""


def default_child_command() -> list[str]:
    return [sys.executable, "-m", "sekigahara_tui", "club"]


# --- the web server --------------------------------------------------------


class _Session(AppService):
    """One browser session's app process, which is also waited for (and killed if it will not go)."""

    processes: set[asyncio.subprocess.Process]
    environment: dict[str, str]  # the session's own: its club session, the locale

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        """textual-serve's environment for its driver, less the server's own
        environment (as the SSH front: nothing but INHERITED_ENV), plus the session's."""
        ours = {name: value for name, value in super()._build_environment(width, height).items()
                if name in INHERITED_ENV or name in _DRIVER_ENV or name.startswith("TEXTUAL_")}
        return {**ours, **self.environment}

    async def _open_app_process(self, width: int = 80, height: int = 24):
        process = await super()._open_app_process(width, height)
        self.processes.add(process)
        return process

    async def stop(self) -> None:
        process = self._process
        try:
            await asyncio.wait_for(super().stop(), SESSION_STOP_GRACE)  # "quit", then its output ends
        except (asyncio.TimeoutError, OSError):
            pass
        finally:
            if process is not None:
                await _end_process(process)
                self.processes.discard(process)


async def _end_process(process: asyncio.subprocess.Process) -> None:
    try:
        await asyncio.wait_for(process.wait(), SESSION_STOP_GRACE)
    except asyncio.TimeoutError:
        process.kill()
        await process.wait()


class _ClubServer(Server):
    """textual-serve's Server, its handlers mounted on our own aiohttp app.

    The page's addresses follow the one the browser used (its Host header)
    unless a public URL is fixed, so listening on every interface works.
    """

    fixed_url: str | None = None
    processes: set[asyncio.subprocess.Process]
    front: WebFront

    def origin(self, request: web.Request) -> str:
        """The origin of this club's pages, as a browser names it."""
        base = (self.fixed_url or f"{request.scheme}://{request.host}").rstrip("/")
        scheme, rest = base.split("://", 1)
        return f"{scheme}://{rest.split('/', 1)[0]}".lower()

    def from_our_page(self, request: web.Request) -> bool:
        return request.headers.get("Origin", "").lower() == self.origin(request)

    def secure(self, request: web.Request) -> bool:
        return request.secure or (self.fixed_url or "").startswith("https:")

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """textual-serve's handler, for signed-in members within the caps, with
        sessions whose processes are waited for."""
        front, address = self.front, request.remote
        if not self.from_our_page(request):
            front.audit_refusal("a websocket from another page", origin=request.headers.get("Origin", "(none)"), address=address)
            raise web.HTTPForbidden(text="Only this club's own page may open a session.")
        signed_in = await front.cookies.signed_in(request.cookies.get(COOKIE_NAME))
        if signed_in is None:
            front.audit_refusal("a websocket without a sign-in", address=address)
            raise web.HTTPForbidden(text="Sign in first.")
        member, web_generation = signed_in
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        refusal = await front.link.hold(member)  # the club's caps: a place held, or why not
        if refusal is not None:
            front.audit_refusal(refusal, member=member, address=address)
            return await _say_and_close(websocket, refusal)
        try:
            try:
                club_session = await front.link.open_session(member, web_generation=web_generation)
            except Exception as error:  # the club's refusal, said in one line
                front.audit_refusal(f"no session: {error}", member=member, address=address)
                return await _say_and_close(websocket, f"The club would not open a session: {error}")
            front.audit("session", member=member, address=address)
            front.live.setdefault(member, {})[websocket] = (web_generation, address or "?")
            try:
                await self._run_session(request, websocket, {**front.environment, "SEKIGAHARA_SESSION": str(club_session)})
            finally:
                front.left(member, websocket)
                await front.link.close_session(club_session)
        finally:
            front.link.release(member)
        return websocket

    async def _run_session(self, request: web.Request, websocket: web.WebSocketResponse, environment: dict[str, str]) -> None:
        width = min(500, max(1, to_int(request.query.get("width", "80"), 80)))
        height = min(200, max(1, to_int(request.query.get("height", "24"), 24)))
        session: _Session | None = None
        try:
            session = _Session(
                self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                close=websocket.close, download_manager=self.download_manager, debug=False,
            )
            session.processes = self.processes
            session.environment = environment
            await session.start(width, height)
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # noqa: BLE001 - textual-serve's own handler logs and goes on too
            log.warning("web session failed: %s", error)
        finally:
            if session is not None:
                await session.stop()

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The terminal for a signed-in member; the sign-in form for anyone else."""
        if await self.front.cookies.member(request.cookies.get(COOKIE_NAME)) is None:
            response = web.Response(text=sign_in_page(self.front.url + "sign-in"), content_type="text/html")
            response.del_cookie(COOKIE_NAME)
            return response
        return await self.terminal_page(request)

    async def handle_sign_in(self, request: web.Request) -> web.StreamResponse:
        front, address = self.front, request.remote or "?"
        action = front.url + "sign-in"
        if not self.from_our_page(request):
            front.audit_refusal("a sign-in from another page", origin=request.headers.get("Origin", "(none)"), address=address)
            raise web.HTTPForbidden(text="Sign in from this club's own page.")
        if front.failures.too_many(address):
            front.audit_refusal("too many failed sign-ins", address=address)
            return web.Response(status=429, content_type="text/html", text=sign_in_page(
                action, "Too many failed sign-ins from your address: wait a minute, then try again."))
        form = await request.post()
        member, token = form.get("member"), form.get("token")
        generation = (await front.link.web_sign_in(member, token)  # the club's answer (front_link.py)
                      if isinstance(member, str) and isinstance(token, str) else None)
        if generation is None:
            front.failures.failed(address)
            front.audit_refusal("wrong name or web token", member=member if isinstance(member, str) else None, address=address)
            await asyncio.sleep(web_tokens.FAILED_SIGN_IN_DELAY)
            return web.Response(status=403, content_type="text/html", text=sign_in_page(
                action, "That name and token do not match.", member if isinstance(member, str) else ""))
        front.audit("sign-in", member=member, address=address)
        response = web.HTTPSeeOther(front.url)
        response.set_cookie(COOKIE_NAME, front.cookies.make(member, generation), max_age=COOKIE_DAYS * 86400, path="/",
                            httponly=True, samesite="Strict", secure=self.secure(request))
        raise response  # aiohttp: a redirect is raised, cookie and all

    async def handle_sign_out(self, request: web.Request) -> web.StreamResponse:
        response = web.HTTPSeeOther(self.front.url)
        response.del_cookie(COOKIE_NAME, path="/")
        raise response

    async def handle_records(self, request: web.Request) -> web.StreamResponse:
        return await web_records.handle_records(self.front, request)

    async def handle_record(self, request: web.Request) -> web.StreamResponse:
        return await web_records.handle_record(self.front, request)

    @aiohttp_jinja2.template("app_index.html")
    async def terminal_page(self, request: web.Request) -> dict[str, Any]:
        base = (self.fixed_url or f"{request.scheme}://{request.host}").rstrip("/")
        scheme, rest = base.split(":", 1)
        try:
            font_size = min(48, max(6, int(request.query.get("fontsize", "16"))))
        except ValueError:
            font_size = 16
        return {
            "font_size": font_size,
            "app_websocket_url": ("wss:" if scheme == "https" else "ws:") + rest + "/ws",
            "config": {"static": {"url": base + "/static/"}, "records_url": base + "/records"},
            "application": {"name": self.title},
        }

    def application(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({"app_index.html": PAGE}))
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.post("/sign-in", self.handle_sign_in, name="sign_in"),
            web.get("/sign-out", self.handle_sign_out, name="sign_out"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/records", self.handle_records, name="records"),
            web.get("/record/{game}", self.handle_record, name="record"),
            web.static("/static", self.statics_path, name="static"),
        ])
        return app


async def _say_and_close(websocket: web.WebSocketResponse, text: str) -> web.WebSocketResponse:
    """One line on the page's terminal, then the session ends."""
    await websocket.send_bytes(text.encode() + b"\r\n")
    await websocket.close()
    return websocket


async def _tell_and_close(websocket: web.WebSocketResponse, line: str) -> None:
    try:
        await _say_and_close(websocket, line)
    except (ConnectionError, RuntimeError):  # it was closing already
        await websocket.close()


class WebFront:
    """The running browser front end: its port, url, close() and wait_closed()."""

    def __init__(self, club: Any, data_dir: Path, server: _ClubServer, link: Any, cookies: Cookies,
                 environment: dict[str, str]) -> None:
        self.club = club
        self.data_dir = Path(data_dir)
        self.server = server
        self.link = link  # what the club decides, asked here (front_link.py: in this process or over TLS)
        self.cookies = cookies
        self.failures = FailedSignIns()
        self.environment = environment
        self.runner: web.AppRunner | None = None
        self.port = 0
        self._closing: asyncio.Task | None = None
        # member -> their sessions' websockets -> (the web token's generation they signed in with, address)
        self.live: dict[str, dict[web.WebSocketResponse, tuple[str, str]]] = {}
        self._revoking: set[asyncio.Task] = set()

    @property
    def url(self) -> str:
        return self.server.public_url + "/"

    @property
    def addresses(self) -> list[tuple[str, int]]:
        """Every (host, port) it listens on (one a family on every interface)."""
        return [(address[0], address[1]) for address in self.runner.addresses] if self.runner else []

    def audit(self, event: str, reason: str = "", **fields: object) -> None:
        self.link.audit(event, reason, front="web", **fields)

    def audit_refusal(self, reason: str, **fields: object) -> None:
        self.audit("refused", reason, **fields)

    def left(self, member: str, websocket: web.WebSocketResponse) -> None:
        sockets = self.live.get(member)
        if sockets is not None:
            sockets.pop(websocket, None)
            if not sockets:
                del self.live[member]

    def revoke(self, member: str) -> None:
        """The club revoked the member: each of their sessions is told and its
        websocket closed, which ends its client process (_Session.stop)."""
        sockets = self.live.pop(member, {})
        for websocket in sockets:
            self._end(websocket, f"{member} is no longer a member of this club.")
        if sockets:
            self.audit("revoked", f"{len(sockets)} sessions ended", member=member)

    def sign_out(self, member: str, web_generation: str) -> None:
        """The member's web token was replaced: each page signed in with
        another is told, closed and its client process ended, a line each."""
        sockets = self.live.get(member, {})
        for websocket, (signed_with, address) in list(sockets.items()):
            if signed_with != web_generation:
                self.left(member, websocket)
                self._end(websocket, SIGNED_OUT)
                self.audit("signed-out", "the web token was replaced", member=member, address=address)

    def _end(self, websocket: web.WebSocketResponse, line: str) -> None:
        task = asyncio.get_running_loop().create_task(_tell_and_close(websocket, line))
        self._revoking.add(task)
        task.add_done_callback(self._revoking.discard)

    def close(self) -> None:
        self.link.unfollow_revocations(self.revoke)
        self.link.unfollow_sign_outs(self.sign_out)
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(self._close())

    async def _close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()  # closes the websockets: each app is told to quit
        if self.server.processes:
            await asyncio.gather(*(_end_process(process) for process in list(self.server.processes)))

    async def wait_closed(self) -> None:
        self.close()
        assert self._closing is not None
        await self._closing


async def start_web(club: Any, data_dir: Path, port: int, host: str = "127.0.0.1",
                    child_command: list[str] | None = None, public_url: str | None = None,
                    caps: SessionCaps | None = None, audit: AuditLog | None = None,
                    secret: bytes | None = None, link: Any = None) -> WebFront:
    """Serve the club to browsers on host:port (port 0: any free port; see .port).

    public_url: the address browsers use, when a proxy stands in front (its
    origin is the one websockets and sign-ins must come from). caps: the
    club's session caps, shared with the SSH front. secret: signs the sign-in
    cookies (the club's secret, DATA_DIR/club.secret, by default). link: what
    the front asks the club (front_link.py); by default a LocalLink of club,
    data_dir, caps and audit.
    """
    if secret is None:
        from sekigahara_tui.hosting.tokens import load_secret

        secret = load_secret(data_dir)
    if link is None:
        link = LocalLink(club, data_dir, caps, audit)
    environment = {**link.child_env(), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    command = "exec " + shlex.join(child_command or default_child_command())
    server = _ClubServer(command, host=host, port=port, title="Sekigahara club", public_url=public_url)
    server.processes = set()
    front = WebFront(club, data_dir, server, link, Cookies(secret, link.web_generation), environment)
    server.front = front
    runner = web.AppRunner(server.application(), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host or None, port)
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    front.runner = runner
    front.port = runner.addresses[0][1]
    server.fixed_url = public_url
    shown = f"[{host}]" if ":" in host else (host if host not in ("", "0.0.0.0") else "127.0.0.1")
    server.public_url = public_url or f"http://{shown}:{front.port}"
    link.follow_revocations(front.revoke)
    link.follow_sign_outs(front.sign_out)
    return front
