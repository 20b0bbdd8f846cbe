"""What both local servers (``pacsim dashboard`` and ``pacsim play
--browser``, Starlette on Uvicorn) do before a request reaches a page: they
trust no one.

- **Their own names only.**  A web page the user has open elsewhere can
  rebind its own name to 127.0.0.1 and then read a local server as if it
  were its own site; the browser still sends that name in ``Host``, so a
  request naming any host but this server's is refused (Starlette's
  ``TrustedHostMiddleware``): the loopback names, the ``--host`` given and,
  for a wildcard ``--host`` (0.0.0.0, ::), this machine's name and addresses.
- **Headers**: ``X-Content-Type-Options: nosniff`` (a JSON reply is never
  read as a page or a script), ``X-Frame-Options: DENY`` (no other site
  frames the page to steer its keys), ``Referrer-Policy: no-referrer``.
- **Bounded work per client**: a request body of more than
  :data:`MAX_BODY_BYTES` is refused (413) before it is read; a request's
  head is at most :data:`MAX_HEAD_BYTES`; a connection must deliver a whole
  request (head and body) within :data:`REQUEST_SECONDS` of opening or of
  its first byte, and is closed after :data:`IDLE_SECONDS` idle; at most
  :data:`MAX_CONNECTIONS` connections and requests at once (then 503).
- **Said when exposed**: a ``--host`` other than loopback is said in one
  line (:func:`exposure_warning`) when the server starts.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from functools import cache
from typing import Any

MAX_BODY_BYTES = 1024
"""The largest request body either server reads (a key's name is five bytes; the dashboard takes none)."""
MAX_HEAD_BYTES = 16 * 1024
"""The largest request line and headers (h11's own default, said here)."""
REQUEST_SECONDS = 10.0
"""Time a connection has to deliver a whole request, from its opening or a next request's first byte."""
IDLE_SECONDS = 5
"""Time a kept-alive connection may wait for its next request."""
MAX_CONNECTIONS = 32
"""Connections (and requests in progress) at once; more are answered 503. A page uses a few."""
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARDS = ("", "0.0.0.0", "::")
SECURITY_HEADERS = ((b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"))

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def host_name(host: str) -> str:
    """``host`` as a ``Host`` header names it (an IPv6 address in brackets), lower case."""
    return f"[{host}]" if ":" in host else host.lower()


def is_loopback(host: str) -> bool:
    """Whether listening on ``host`` keeps the server to this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def accepted_hosts(host: str) -> list[str]:
    """The names a request's ``Host`` may give for a server listening on ``host``."""
    names = dict.fromkeys(LOOPBACK_NAMES)
    if host in WILDCARDS:
        names.update(dict.fromkeys(_machine_names()))
    else:
        names[host_name(host)] = None
    return list(names)


def _machine_names() -> list[str]:
    """This machine's name, its full name and the addresses they resolve to (what another machine may type)."""
    names = [socket.gethostname(), socket.getfqdn()]
    with contextlib.suppress(OSError):  # a name that does not resolve: the names alone
        names += [str(address[4][0]) for address in socket.getaddrinfo(socket.gethostname(), None)]
    return [host_name(name.split("%")[0]) for name in names if name and name not in WILDCARDS]


def exposure_warning(host: str, what: str) -> str | None:
    """The line said when ``host`` lets other machines in (None for loopback)."""
    if is_loopback(host):
        return None
    return (f"pacsim: listening on {host}, not only on this machine: anyone who can reach it can {what} "
            f"(names it answers to: {', '.join(accepted_hosts(host))})")


def guarded(app: App, host: str) -> App:
    """``app`` behind the host check, the headers and the body cap."""
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    checked = TrustedHostMiddleware(app, allowed_hosts=accepted_hosts(host), www_redirect=False)
    return _Guard(checked)


class _Guard:
    """ASGI middleware: the headers on every reply (a refusal's too), and the body cap."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = refused = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if refused:  # the app's own reply to a body cut short: the 413 went first
                return
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        if not _declared_length_fits(scope):
            await _refuse(send_with_headers, 413, "request body too large")
            return
        received = 0

        async def bounded_receive() -> Message:
            nonlocal received, refused
            message = await receive()
            received += len(message.get("body", b""))
            if received > MAX_BODY_BYTES:  # a body sent without its length (chunked) that ran over
                if not started:
                    await _refuse(send_with_headers, 413, "request body too large")
                refused = True
                return {"type": "http.disconnect"}  # the app stops reading as if the client had gone
            return message

        try:
            await self.app(scope, bounded_receive, send_with_headers)
        except Exception:
            if not refused:  # the app's complaint that its client went: said already
                raise


def _declared_length_fits(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            return value.isdigit() and int(value) <= MAX_BODY_BYTES
    return True


async def _refuse(send: Send, status: int, text: str) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": text.encode()})


def server_config(app: App, **options: Any) -> Any:
    """Uvicorn's configuration of ``app`` with this module's limits (``options``: host, port, lifespan, ...)."""
    import uvicorn

    return uvicorn.Config(app, http=deadline_protocol(), limit_concurrency=MAX_CONNECTIONS,
                          timeout_keep_alive=IDLE_SECONDS, h11_max_incomplete_event_size=MAX_HEAD_BYTES,
                          server_header=False, log_level="warning", **options)


@cache
def deadline_protocol() -> type:
    """Uvicorn's h11 protocol with a deadline for each request: Uvicorn's own
    keep-alive timeout starts only after a first reply, so a connection that
    sends half a request (or nothing) was held for ever."""
    import asyncio

    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class DeadlineProtocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self.conn.their_state is h11.IDLE:
                self._arm()  # a next request's first bytes on a kept-alive connection
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE and self.conn.their_state is not h11.SEND_BODY:
                self._disarm()  # the request is whole (or the connection is done with)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

    return DeadlineProtocol
