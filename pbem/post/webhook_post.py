"""Posting a webhook's row of the outbox: one HTTPS POST, signed for generic endpoints, with a timeout.

The sender (``pbem.post.mail.dispatch``) claims the row, calls ``Poster.post`` and records the outcome as for a mail:
a 2xx answer is sent; a 429 (no sooner than its ``Retry-After`` seconds, up to an hour), a 5xx, a timeout or a
connection that fails is retried with the mail's backoff; any other answer (a 4xx: the webhook was deleted or its
address is wrong; a redirect, which is not followed) fails for good at once (``PermanentFailure``), listed by
``pbem mail status`` and ``pbem webhook list``.

The host is resolved before each post and the connection made to the address checked, so a name that resolves
into a private network, to a multicast group (or, unless ``webhook_loopback`` allows it, to this machine) is
refused, whether written as IPv4 or as an IPv6 form that embeds one (``pbem.post.webhooks.postable``): a webhook
must not become a way to reach the server's neighbours. Errors name the host, never the address (it is a secret).

Signature of a generic (json) webhook's post, in its headers:

* ``X-Pbem-Timestamp``: the time of this attempt, in whole seconds since 1970 (UTC);
* ``X-Pbem-Signature``: ``v1=`` and the hex HMAC-SHA256, keyed with the webhook's secret, of
  ``TIMESTAMP + "." + BODY`` (the body's exact bytes);
* ``X-Pbem-Delivery``: the post's id, the same on every attempt (a receiver that saw it already ignores it).

A receiver recomputes the HMAC, compares in constant time, and refuses a timestamp more than a few minutes old
(``verify``): so a body cannot be changed, and a post recorded by someone cannot be replayed later.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import socket
import ssl
import time
from typing import Any, Mapping
from urllib.parse import urlsplit

from events.store import SQLiteEventStore
from pbem.post.mail.outbox import draft_of
from pbem.post.mail.transport import PermanentFailure
from pbem.post.webhooks import find, postable

USER_AGENT = "pbem-webhook/1"
TOLERANCE_SECONDS = 300
MAX_RETRY_AFTER = 3600.0  # the longest wait a 429's Retry-After may ask for; the backoff applies if longer


class Busy(OSError):
    """The endpoint asked to come back later (429): retried, no sooner than ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def retry_after(value: str | None) -> float:
    """A Retry-After header's seconds (a number; a date is not read), capped at ``MAX_RETRY_AFTER``."""
    try:
        return min(max(float(str(value).strip()), 0.0), MAX_RETRY_AFTER)
    except ValueError:
        return 0.0


def signature(secret: str, timestamp: int | str, body: bytes) -> str:
    """``v1=`` and the hex HMAC-SHA256 of ``TIMESTAMP.BODY`` keyed with the webhook's secret."""
    mac = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def verify(secret: str, body: bytes, timestamp: str | None, signed: str | None, *, now: float | None = None,
           tolerance: float = TOLERANCE_SECONDS) -> bool:
    """Whether a post is genuine and fresh: what a receiver checks (``docs/web.md`` has it standalone)."""
    if not timestamp or not signed or not timestamp.isdigit():
        return False
    if abs((time.time() if now is None else now) - int(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, timestamp, body), signed)


def headers_for(hook: Mapping[str, Any], post_id: str, body: bytes, now: float | None = None) -> dict[str, str]:
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, "X-Pbem-Delivery": post_id,
               "X-Pbem-Webhook": str(hook["id"])}
    if hook.get("secret"):
        stamp = str(int(time.time() if now is None else now))
        headers["X-Pbem-Timestamp"] = stamp
        headers["X-Pbem-Signature"] = signature(str(hook["secret"]), stamp, body)
    return headers


def _connect(addresses: list[str], port: int, timeout: float) -> socket.socket:
    """A connection to the first of the addresses that answers (each one already checked)."""
    error: OSError = OSError("no address to connect to")
    for address in addresses:
        try:
            return socket.create_connection((address, port), timeout)
        except OSError as err:
            error = err
    raise error


class _To(http.client.HTTPConnection):
    """A connection to addresses already resolved and checked (the Host header still names the host)."""

    def __init__(self, host: str, port: int, addresses: list[str], timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.addresses = addresses

    def connect(self) -> None:
        self.sock = _connect(self.addresses, self.port, self.timeout)


class _TlsTo(http.client.HTTPSConnection):
    """The same over TLS: the certificate is checked against the host's name (SNI), not the address."""

    def __init__(self, host: str, port: int, addresses: list[str], timeout: float, context: ssl.SSLContext) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self.addresses = addresses

    def connect(self) -> None:
        sock = _connect(self.addresses, self.port, self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class Poster:
    """Posts webhook rows: ``timeout`` seconds for the connection and each read; loopback only if allowed."""

    def __init__(self, timeout: float = 10.0, allow_loopback: bool = False,
                 context: ssl.SSLContext | None = None) -> None:
        self.timeout = timeout
        self.allow_loopback = allow_loopback
        self.context = context  # the certificates trusted (default: the system's)

    @classmethod
    def of(cls, settings: Any) -> Poster:
        return cls(float(settings["webhook_timeout"]), bool(settings["webhook_loopback"]))

    def allowed(self, address: str) -> bool:
        """Whether a resolved address may be posted to (``pbem.post.webhooks.postable``: the same rule as when the
        webhook was added)."""
        return postable(ipaddress.ip_address(address.split("%", 1)[0]), allow_loopback=self.allow_loopback)

    def resolve(self, host: str, port: int) -> list[str]:
        """The addresses to connect to; every address of the host must be allowed.

        :raises PermanentFailure: the host resolves into a private network, to this machine or a multicast group.
        """
        try:
            found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror as err:
            raise OSError(f"{host} cannot be resolved now ({err.strerror})") from None
        addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
        if not addresses or not all(self.allowed(a) for a in addresses):
            raise PermanentFailure(f"{host} resolves to an address this server does not post to "
                                   "(a private network, this machine or a multicast group)")
        return addresses

    def post(self, store: SQLiteEventStore, row: Mapping[str, Any]) -> None:
        """Post one outbox row to its webhook; returns when the endpoint accepted it.

        :raises PermanentFailure: the webhook was removed, or the endpoint refused the post for good.
        :raises OSError: a failure worth retrying (connection, timeout, 429, 5xx).
        """
        draft = draft_of(row)
        hook = find(store, str(draft["webhook"]))
        if hook is None or hook["removed_at"]:
            raise PermanentFailure("the webhook was removed before this was posted")
        body = str(draft["body"]).encode("utf-8")
        parts = urlsplit(str(hook["url"]))
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        addresses = self.resolve(host, port)
        conn: http.client.HTTPConnection
        if parts.scheme == "https":
            conn = _TlsTo(host, port, addresses, self.timeout, self.context or ssl.create_default_context())
        else:
            conn = _To(host, port, addresses, self.timeout)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        try:
            conn.request("POST", path, body=body, headers=headers_for(hook, str(row["id"]), body))
            response = conn.getresponse()
            status, reason, later = response.status, response.reason, response.getheader("Retry-After")
            said = response.read(300).decode("utf-8", "replace").strip()
        finally:
            conn.close()
        if 200 <= status < 300:
            return
        what = f"{host} answered {status} {reason}" + (f": {said[:200]}" if said else "")
        if status == 429:
            raise Busy(what, retry_after(later))  # retried with backoff, and not before it asked
        if status >= 500:
            raise OSError(what)  # broken for now: retried with backoff
        if 300 <= status < 400:
            raise PermanentFailure(what + " (a redirect: webhooks are not redirected; give the final address)")
        raise PermanentFailure(what)
