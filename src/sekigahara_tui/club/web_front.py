"""The club's browser front end: `sekigahara serve --web PORT` (docs/ssh.md).

textual-serve runs the same client, one process per browser session, inside
this server's own asyncio loop: its Server's request handlers are mounted on
an aiohttp application of ours (Server.serve() would own the loop and the
signals). The page is our own template: textual-serve's loads a web font from
the internet; ours loads only the terminal emulator (textual.js, xterm.css)
that ships inside the textual-serve package, so the club works with no
internet access.

textual-serve has no authentication, so signing in happens inside the app
(screens/sign_in.py): a member's name and web token, checked here, in the
server process, over a Unix socket in a private directory whose path the app
gets as SEKIGAHARA_SIGN_IN. A good token gets a club session
(club.open_session) handed back; the secret never leaves the server's files
but as its hash. Tokens come from `sekigahara member web-token NAME`
(hosting/web_tokens.py, issue_web_token) and are kept in DATA_DIR/web_tokens as scrypt hashes (0600).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from sekigahara_tui.hosting import web_tokens

log = logging.getLogger("sekigahara.web")

SIGN_IN_ENV = "SEKIGAHARA_SIGN_IN"
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
      </div>
    </div>
    <div id="terminal" class="textual-terminal"
      data-session-websocket-url="{{ app_websocket_url }}" data-font-size="{{ font_size }}"></div>
  </body>
</html>
"""


def default_child_command() -> list[str]:
    return [sys.executable, "-m", "sekigahara_tui", "club", "--web-sign-in"]


# --- the sign-in service ---------------------------------------------------


class SignInService:
    """One JSON line in ({"member", "token"}), one out ({"session"} or {"error"})."""

    def __init__(self, club: Any, data_dir: Path) -> None:
        self.club = club
        self.data_dir = Path(data_dir)
        self.directory = Path(tempfile.mkdtemp(prefix="sekigahara-web-"))  # 0700
        self.socket_path = self.directory / "sign-in.sock"
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._answer, path=str(self.socket_path))
        os.chmod(self.socket_path, 0o600)

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), 30)
            reply = await self._sign_in(line)
            writer.write(json.dumps(reply).encode() + b"\n")
            await writer.drain()
        except (asyncio.TimeoutError, OSError, ValueError):
            pass
        finally:
            writer.close()

    async def _sign_in(self, line: bytes) -> dict[str, str]:
        try:
            request = json.loads(line)
            member, token = request["member"], request["token"]
        except (ValueError, KeyError, TypeError):
            return {"error": "a malformed sign-in request"}
        if not (isinstance(member, str) and isinstance(token, str) and web_tokens.MEMBER_NAME.fullmatch(member)):
            await asyncio.sleep(web_tokens.FAILED_SIGN_IN_DELAY)
            return {"error": "That name and token do not match."}
        if not await asyncio.to_thread(web_tokens.check_web_token, self.data_dir, member, token):
            await asyncio.sleep(web_tokens.FAILED_SIGN_IN_DELAY)
            return {"error": "That name and token do not match."}
        try:
            session = self.club.open_session(member)
            if inspect.isawaitable(session):
                session = await session
        except Exception as error:
            return {"error": f"The club would not open a session: {error}"}
        return {"session": str(session)}

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        shutil.rmtree(self.directory, ignore_errors=True)


# --- the web server --------------------------------------------------------


class _Session(AppService):
    """One browser session's app process, which is also waited for (and killed if it will not go)."""

    processes: set[asyncio.subprocess.Process]

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

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's handler, with sessions whose processes are waited for."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = min(500, max(1, to_int(request.query.get("width", "80"), 80)))
        height = min(200, max(1, to_int(request.query.get("height", "24"), 24)))
        session: _Session | None = None
        try:
            await websocket.prepare(request)
            session = _Session(
                self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                close=websocket.close, download_manager=self.download_manager, debug=False,
            )
            session.processes = self.processes
            await session.start(width, height)
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # noqa: BLE001 - textual-serve's own handler logs and goes on too
            log.warning("web session failed: %s", error)
        finally:
            if session is not None:
                await session.stop()
        return websocket

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        base = (self.fixed_url or f"{request.scheme}://{request.host}").rstrip("/")
        scheme, rest = base.split(":", 1)
        try:
            font_size = min(48, max(6, int(request.query.get("fontsize", "16"))))
        except ValueError:
            font_size = 16
        return {
            "font_size": font_size,
            "app_websocket_url": ("wss:" if scheme == "https" else "ws:") + rest + "/ws",
            "config": {"static": {"url": base + "/static/"}},
            "application": {"name": self.title},
        }

    def application(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({"app_index.html": PAGE}))
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/download/{key}", self.handle_download, name="download"),
            web.static("/static", self.statics_path, name="static"),
        ])
        return app


class WebFront:
    """The running browser front end: its port, url, close() and wait_closed()."""

    def __init__(self, server: _ClubServer, runner: web.AppRunner, sign_in: SignInService, port: int) -> None:
        self.server = server
        self.runner = runner
        self.sign_in = sign_in
        self.port = port
        self._closing: asyncio.Task | None = None

    @property
    def url(self) -> str:
        return self.server.public_url + "/"

    def close(self) -> None:
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(self._close())

    async def _close(self) -> None:
        await self.runner.cleanup()  # closes the websockets: each app is told to quit
        if self.server.processes:
            await asyncio.gather(*(_end_process(process) for process in list(self.server.processes)))
        await self.sign_in.close()

    async def wait_closed(self) -> None:
        self.close()
        assert self._closing is not None
        await self._closing


def app_shell_command(command: list[str], env: dict[str, str]) -> str:
    """textual-serve runs its command through the shell: quote everything."""
    assignments = " ".join(f"{name}={shlex.quote(value)}" for name, value in env.items())
    return f"exec env {assignments} {shlex.join(command)}"


async def start_web(club: Any, data_dir: Path, port: int, host: str = "127.0.0.1",
                    child_command: list[str] | None = None, public_url: str | None = None) -> WebFront:
    """Serve the club to browsers on host:port (port 0: any free port; see .port).

    public_url: the address browsers use, when a proxy stands in front.
    """
    sign_in = SignInService(club, data_dir)
    await sign_in.start()
    env = {
        SIGN_IN_ENV: str(sign_in.socket_path),
        "SEKIGAHARA_CLUB": str(getattr(club, "socket_path", "")),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
    }
    command = app_shell_command(child_command or default_child_command(), env)
    server = _ClubServer(command, host=host, port=port, title="Sekigahara club", public_url=public_url)
    server.processes = set()
    runner = web.AppRunner(server.application(), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host or None, port)
        await site.start()
    except BaseException:
        await runner.cleanup()
        await sign_in.close()
        raise
    bound = runner.addresses[0][1]
    server.fixed_url = public_url
    shown = f"[{host}]" if ":" in host else (host if host not in ("", "0.0.0.0") else "127.0.0.1")
    server.public_url = public_url or f"http://{shown}:{bound}"
    return WebFront(server, runner, sign_in, bound)
