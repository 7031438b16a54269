"""Replies from an IMAP mailbox (``inbound_imap``): read once for cron, or watched by the worker with IDLE.

Each new message is fetched without marking it read (``BODY.PEEK``), read as ``pbem inbound`` reads one
(``pbem.post.mail.inbound.read_message``: claimed by Message-ID, or by the folder's UIDVALIDITY and UID if it has none),
and only then marked: flagged ``\\Seen`` and ``$PbemRead`` and moved to the ``inbound_imap_done`` folder (or, with
that setting empty, left in place, flagged). A reader that dies between applying a message and marking it finds the
message recorded as read when it meets it again, and only marks it; one that dies while applying it leaves its
claim, and the next reader after the claim's lease goes on where it stopped. A message another reader is applying
is left to that reader. So nothing is applied twice, and nothing is lost: a message stays in the folder until it
was recorded.

The worker (the scheduler's leader) keeps one connection: IDLE where the server offers it, re-armed every
``IDLE_SECONDS`` (servers drop an IDLE after 29 minutes), polling every ``inbound_imap_poll_seconds`` otherwise; a
dropped connection is opened again after a pause that doubles with each failure in a row.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import socket
import ssl
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator
from urllib.parse import unquote, urlsplit

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError

from pbem.instance.config import ConfigError, Settings
from pbem.post.mail.inbound import Outcome, Report, read_message

log = logging.getLogger(__name__)

READ = b"$PbemRead"  # our own keyword: a message marked with it was read and recorded
IDLE_SECONDS = 600.0  # IDLE is re-armed every 10 minutes, well within the 29 that servers allow
WAKE_SECONDS = 5.0  # how often a waiting reader looks whether it should stop
TIMEOUT_SECONDS = 60.0  # a server that answers nothing for this long is taken as gone
MAX_PAUSE_SECONDS = 300.0
# what a dropped or refused connection raises
TROUBLE: tuple[type[BaseException], ...] = (IMAPClientError, OSError, ssl.SSLError, EOFError)


@dataclass(frozen=True)
class Mailbox:
    """The mailbox replies arrive in, from the settings (``inbound_imap``, its password, the folder for read mail)."""

    host: str
    port: int
    user: str
    folder: str
    tls: bool  # imaps: TLS from the start; imap: STARTTLS, or plain only on loopback
    password: str
    done_folder: str
    poll_seconds: float

    @classmethod
    def of(cls, settings: Settings) -> Mailbox:
        """:raises ConfigError: an address that is not ``imaps://USER@HOST[:PORT]/FOLDER`` (or ``imap://``)."""
        address = str(settings["inbound_imap"])
        parts = urlsplit(address)
        example = "write it like imaps://play@example.org@imap.example.org/INBOX"
        if parts.scheme not in ("imap", "imaps") or not parts.hostname or not parts.username:
            raise ConfigError(f"inbound_imap {address!r} is not an IMAP mailbox's address ({example})")
        if parts.password:
            raise ConfigError("inbound_imap holds a password: put it in inbound_imap_password (or the "
                              "PBEM_INBOUND_IMAP_PASSWORD variable) instead, so that it is never shown or logged")
        return cls(host=parts.hostname, port=parts.port or (993 if parts.scheme == "imaps" else 143),
                   user=unquote(parts.username), folder=unquote(parts.path.lstrip("/")) or "INBOX",
                   tls=parts.scheme == "imaps", password=str(settings["inbound_imap_password"]),
                   done_folder=str(settings["inbound_imap_done"]),
                   poll_seconds=float(settings["inbound_imap_poll_seconds"]))

    def key(self) -> str:
        """A short name of this folder for messages without a Message-ID (``<imap.UIDVALIDITY.UID.KEY@pbem>``)."""
        return hashlib.sha256(f"{self.user}@{self.host}:{self.port}/{self.folder}".encode()).hexdigest()[:12]

    def describe(self) -> str:
        return f"{'imaps' if self.tls else 'imap'}://{self.user}@{self.host}:{self.port}/{self.folder}"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def connect(box: Mailbox, timeout: float = TIMEOUT_SECONDS) -> tuple[IMAPClient, int]:
    """A logged-in connection with the folder selected, and the folder's UIDVALIDITY.

    :raises ConfigError: a password would cross the network in clear.
    """
    context = ssl.create_default_context()
    client = IMAPClient(box.host, port=box.port, ssl=box.tls, ssl_context=context if box.tls else None,
                        timeout=timeout)
    try:
        if not box.tls:
            if client.has_capability("STARTTLS"):
                client.starttls(context)
            elif not _loopback(box.host):
                raise ConfigError(f"{box.host} offers no STARTTLS: use imaps://, so that the password is not sent "
                                  "in clear (plain imap:// is for a server on this machine)")
        client.login(box.user, box.password)
        selected = client.select_folder(box.folder)
        if box.done_folder and not client.folder_exists(box.done_folder):
            try:
                client.create_folder(box.done_folder)
            except IMAPClientError:
                if not client.folder_exists(box.done_folder):  # made meanwhile by another reader: as good
                    raise
        return client, int(selected[b"UIDVALIDITY"])
    except BaseException:
        _close(client)
        raise


def _close(client: IMAPClient) -> None:
    try:
        client.logout()
    except TROUBLE:
        try:
            client.shutdown()
        except TROUBLE:
            pass


def read_new(client: IMAPClient, uidvalidity: int, box: Mailbox, service: Any, *,
             claim_seconds: float | None = None) -> Report:
    """Read every message of the selected folder not marked read, in order; mark each once it was recorded."""
    report = Report()
    reply_address = service.notifier.reply_address if service.notifier else "play@localhost"
    options = {} if claim_seconds is None else {"claim_seconds": claim_seconds}
    for uid in sorted(client.search(["UNDELETED", "UNKEYWORD", READ])):
        fetched = client.fetch([uid], ["BODY.PEEK[]"]).get(uid) or {}
        if fetched.get(b"BODY[]") is None:
            continue  # gone meanwhile (another reader moved it): the server has no body to give
        outcome = read_message(service, bytes(fetched[b"BODY[]"]), reply_address,
                               fallback_id=f"<imap.{uidvalidity}.{uid}.{box.key()}@pbem>", **options)
        report.count(outcome)
        if isinstance(outcome, Outcome) and outcome.busy:
            continue  # another reader applies it, and marks it
        try:
            mark(client, box, uid)
        except IMAPClientAbortError:
            raise
        except IMAPClientError:
            if client.search(["UID", str(uid)]):
                raise
            # another reader met it too (a duplicate to both) and moved it first: it is marked
    return report


def mark(client: IMAPClient, box: Mailbox, uid: int) -> None:
    """Mark a message read: flagged, and moved to the done folder if there is one."""
    client.add_flags([uid], [b"\\Seen", READ])
    if not box.done_folder:
        return
    if client.has_capability("MOVE"):
        client.move([uid], box.done_folder)
        return
    client.copy([uid], box.done_folder)
    client.delete_messages([uid])
    if client.has_capability("UIDPLUS"):
        client.uid_expunge([uid])
    else:
        client.expunge()


def read_once(settings: Settings, service: Any) -> Report:
    """Read the mailbox once (``pbem inbound --imap``, for cron).

    :raises ConfigError: no ``inbound_imap``, or a setting that cannot work.
    """
    if not settings["inbound_imap"]:
        raise ConfigError("no inbound_imap mailbox is set (docs/configuration.md)")
    box = Mailbox.of(settings)
    client, uidvalidity = connect(box)
    try:
        return read_new(client, uidvalidity, box, service)
    finally:
        _close(client)


class Watcher:
    """The worker's reader: one thread that keeps a connection, reads what arrives, and waits in IDLE.

    ``tick`` (a scheduler job) starts the thread while this process leads and none runs; the thread ends when
    ``stopping`` is set or the lead is lost, or on a dropped connection (the next tick after the pause opens it
    again). ``on_read`` is told each round's report (the tests await it).
    """

    def __init__(self, settings: Settings, open_service: Callable[[], Any], leading: Callable[[], bool],
                 stopping: threading.Event, on_read: Callable[[Report], None] | None = None) -> None:
        self.settings, self.open_service, self.leading, self.stopping = settings, open_service, leading, stopping
        self.on_read = on_read
        self.thread: threading.Thread | None = None
        self.failures = 0
        self.retry_at = 0.0
        self.client: IMAPClient | None = None

    def tick(self) -> None:
        if self.stopping.is_set() or not self.leading() or time.monotonic() < self.retry_at:
            return
        if self.thread is not None and self.thread.is_alive():
            return
        self.thread = threading.Thread(target=self._run, name="pbem-imap", daemon=True)
        self.thread.start()

    def stop(self, timeout: float = 2 * WAKE_SECONDS) -> None:
        """Wait for the thread to end (``stopping`` must be set first); cut its connection if it waits."""
        client, thread = self.client, self.thread
        if client is not None:
            try:
                client.socket().shutdown(socket.SHUT_RDWR)  # wakes an IDLE wait at once
            except OSError:
                pass
        if thread is not None:
            thread.join(timeout)

    def _running(self) -> bool:
        return not self.stopping.is_set() and self.leading()

    def _run(self) -> None:
        try:
            box = Mailbox.of(self.settings)
            client, uidvalidity = connect(box)
        except ConfigError as err:
            self._failed(f"the inbound mailbox cannot be read: {err}")
            return
        except TROUBLE as err:
            self._failed(f"the inbound mailbox cannot be reached: {type(err).__name__}: {err}")
            return
        self.client = client
        try:
            idle = client.has_capability("IDLE")
            while self._running():
                with self._service() as service:
                    report = read_new(client, uidvalidity, box, service)
                if report.read:
                    log.info("inbound (IMAP): %s", report.summary())
                if self.on_read is not None:
                    self.on_read(report)
                self.failures = 0
                if idle:
                    self._idle(client)
                else:
                    self.stopping.wait(box.poll_seconds)
        except TROUBLE as err:
            if self._running():
                self._failed(f"the inbound mailbox's connection was lost: {type(err).__name__}: {err}")
        finally:
            self.client = None
            _close(client)

    def _idle(self, client: IMAPClient) -> None:
        """Wait in IDLE until a message arrives, the re-arm time comes, or the reader must stop."""
        client.idle()
        deadline = time.monotonic() + IDLE_SECONDS
        try:
            while self._running() and time.monotonic() < deadline:
                responses = client.idle_check(timeout=min(WAKE_SECONDS, max(0.0, deadline - time.monotonic())))
                if any(len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses):
                    return
        finally:
            if self._running():
                client.idle_done()

    @contextmanager
    def _service(self) -> Iterator[Any]:
        service = self.open_service()
        try:
            yield service
        finally:
            service.close()

    def _failed(self, what: str) -> None:
        self.failures += 1
        pause = min(MAX_PAUSE_SECONDS, 2.0 ** self.failures)
        self.retry_at = time.monotonic() + pause
        log.warning("%s; trying again in %d s", what, pause)
