"""The club's TCP door with TLS (issue 28; `serve --listen HOST:PORT
--tls-cert FILE --tls-key FILE`).

asyncio's own TLS server drops a connection whose handshake fails without
telling anyone, so this accepts each connection itself and looks at (peeks,
without reading) its first byte: a TLS client's is a handshake record
(0x16). A plain client (`{` of a JSON line) gets one refusal line in plain
text and is closed; a handshake that fails (a client that does not trust
the certificate, a TLS version below 1.2) is closed. Each is one line in the
audit log. A good handshake becomes the streams the game server reads, as
its plain TCP door's.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from typing import Awaitable, Callable

from sekigahara_tui.net.protocol import Refused, encode
from sekigahara_tui.net.tls import TLS_HANDSHAKE

HANDSHAKE_TIMEOUT = 10.0  # seconds a connection has to begin and finish its handshake
PLAIN_REFUSAL = "this club's TCP door takes TLS only: connect with --tls-ca FILE (the CA of the club's certificate)"

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class TLSListener:
    """A listening socket whose connections are taken with TLS; as asyncio's
    Server for the game server: sockets, close(), wait_closed()."""

    def __init__(self, sock: socket.socket, context: ssl.SSLContext, handle: Handler, limit: int,
                 refused: Callable[[str, str], None]) -> None:
        self.sockets = [sock]
        self._context = context
        self._handle = handle
        self._limit = limit
        self._refused = refused  # (reason, address): one audit line
        self._tasks: set[asyncio.Task] = set()
        self._accepting = asyncio.get_running_loop().create_task(self._accept())

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, peer = await loop.sock_accept(self.sockets[0])
            except OSError:  # closed, or a connection gone before it was accepted
                if self.sockets[0].fileno() < 0:
                    return
                continue
            conn.setblocking(False)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            task = loop.create_task(self._take(conn, str(peer[0])))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _take(self, conn: socket.socket, address: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(HANDSHAKE_TIMEOUT):
                first = await _peek(loop, conn)
        except (OSError, TimeoutError):
            first = None  # gone, or silent: nothing was refused
        if first is None:
            conn.close()
            return
        if first[0] != TLS_HANDSHAKE:
            self._refused("a plain connection to the TLS door", address)
            await _refuse_plain(loop, conn)
            return
        try:
            async with asyncio.timeout(HANDSHAKE_TIMEOUT):
                reader = asyncio.StreamReader(limit=self._limit)
                protocol = asyncio.StreamReaderProtocol(reader)
                transport, _ = await loop.connect_accepted_socket(lambda: protocol, conn, ssl=self._context)
        except (OSError, TimeoutError) as error:
            reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or type(error).__name__
            self._refused(f"TLS handshake failed: {reason}", address)
            conn.close()
            return
        writer = asyncio.StreamWriter(transport, protocol, reader, loop)
        self._tasks.discard(asyncio.current_task())  # the game server's own from here: it closes its connections
        await self._handle(reader, writer)

    def close(self) -> None:
        self._accepting.cancel()
        self.sockets[0].close()
        for task in self._tasks:  # connections still in their handshake
            task.cancel()

    async def wait_closed(self) -> None:
        await asyncio.gather(self._accepting, *self._tasks, return_exceptions=True)


async def _peek(loop: asyncio.AbstractEventLoop, conn: socket.socket) -> bytes | None:
    """The connection's first byte, left unread (None: it closed without a word)."""
    while True:
        try:
            return conn.recv(1, socket.MSG_PEEK) or None
        except BlockingIOError:
            readable = loop.create_future()
            loop.add_reader(conn.fileno(), lambda: readable.done() or readable.set_result(None))
            try:
                await readable
            finally:
                loop.remove_reader(conn.fileno())


async def _refuse_plain(loop: asyncio.AbstractEventLoop, conn: socket.socket) -> None:
    """The refusal line, then the end: what the client sent is read and
    dropped first (a close with unread data resets the connection, and the
    client would lose the line)."""
    try:
        async with asyncio.timeout(HANDSHAKE_TIMEOUT):
            await loop.sock_sendall(conn, encode(Refused(None, "protocol", PLAIN_REFUSAL)))
            conn.shutdown(socket.SHUT_WR)
            while await loop.sock_recv(conn, 4096):  # until the client closes (or the timeout)
                pass
    except (OSError, TimeoutError):
        pass
    finally:
        conn.close()


async def listen_tls(host: str, port: int, context: ssl.SSLContext, handle: Handler, limit: int,
                     refused: Callable[[str, str], None]) -> TLSListener:
    """Listen on host:port (port 0: any free port) with TLS; OSError if it cannot."""
    sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET, backlog=128)
    sock.setblocking(False)
    return TLSListener(sock, context, handle, limit, refused)
