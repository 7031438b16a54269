"""The scheduler: APScheduler interval jobs over the database, which is the only truth.

Jobs send due mails, remind players before their deadlines, time out those past them, close undo
requests nobody finished answering in time, expire invitations to games nobody answered in time, mail the daily
digests that are due, and read replies from a Maildir or an IMAP mailbox if one is configured. Nothing is kept in
memory between runs, so a restart loses nothing. Exactly one scheduler may run per instance: on SQLite a lock file held for the life
of the process (``fcntl.flock``; released by the OS if the process dies) refuses a second one; on
PostgreSQL a session advisory lock (``pbem.instance.leader``) makes a second worker wait and take over when
the first stops.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from apscheduler.events import EVENT_SCHEDULER_SHUTDOWN
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.blocking import BlockingScheduler

from events.rules import ActionError
from events.store import ConcurrencyError, write_row
from events.store import StoreUnavailable
from pbem.organising import muster
from pbem.instance.config import Settings, is_postgres
from pbem.post.mail import dkim_signing
from pbem.post import undelivered
from pbem.post.mail.dispatch import DispatchReport, dispatch, lease_for, prune, sender_store
from pbem.post.mail.transport import FileTransport, SMTPTransport, Transport
from pbem.table import seatlife
from pbem.post.people import digests_due, next_digest
from pbem.service import Service, ServiceError
from pbem.post.webhook_post import Poster

log = logging.getLogger(__name__)

LOCK_FILE = "scheduler.lock"


class SchedulerRunning(Exception):
    pass


@contextmanager
def scheduler_lock(instance: Path, database: str = "", *, wait: bool = False) -> Iterator[Any]:
    """Hold the instance's scheduler lock, or raise ``SchedulerRunning`` naming the holder.

    With a PostgreSQL ``database``, the advisory lock (``pbem.instance.leader.LeaderLock``): with ``wait``, the
    lock is waited for in the background instead of refused; pass it to ``build``, whose jobs run only
    while it is held (another worker leads meanwhile).
    """
    if is_postgres(database):
        from pbem.instance.leader import LeaderLock
        lock = LeaderLock(database)
        try:
            if not lock.acquire(wait=False):
                if not wait:
                    raise SchedulerRunning(f"a scheduler is already running on this database ({lock.holder()}); "
                                           "only one may run at a time")
                log.warning("another scheduler leads (%s): this one waits to take over", lock.holder())
                threading.Thread(target=lock.acquire, name="pbem-leader-wait", daemon=True).start()
            yield lock
        finally:
            lock.release()
        return
    with _file_lock(instance) as handle:
        yield handle


@contextmanager
def _file_lock(instance: Path) -> Iterator[IO[str]]:
    instance.mkdir(parents=True, exist_ok=True)
    handle = open(instance / LOCK_FILE, "a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise SchedulerRunning(f"a scheduler is already running for {instance} ({holder}); "
                               "only one may run at a time") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}")
    handle.flush()
    try:
        yield handle
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def transport_for(settings: Settings) -> Transport:
    if settings["mail_transport"] == "smtp":
        return SMTPTransport(str(settings["smtp_host"]), int(settings["smtp_port"]), str(settings["smtp_security"]),
                             str(settings["smtp_user"]), str(settings["smtp_password"]),
                             float(settings["smtp_timeout"]), str(settings["bounce_address"]),
                             dkim_signing.signer_of(settings))
    if settings["mail_transport"] == "file":
        return FileTransport(settings.mailbox)
    raise ValueError(f"mail_transport must be file or smtp, not {settings['mail_transport']!r}")


class Jobs:
    """The scheduler's jobs; each opens its own service (a connection per thread) and closes it."""

    def __init__(self, settings: Settings, open_service: Callable[[], Service] | None = None,
                 leading: Callable[[], bool] = lambda: True) -> None:
        self.settings = settings
        self.open_service = open_service or (lambda: Service.open(settings))
        self.leading = leading  # False while the scheduler lock is lost (PostgreSQL restarting): jobs wait
        self.stopping = threading.Event()  # set when the process is being stopped: a mail batch ends early
        self.imap: Any = None  # the IMAP reader (``pbem.post.mail.imap.Watcher``), once ``inbound_imap`` started it

    @contextmanager
    def service(self) -> Iterator[Service]:
        """The job's service; a database that cannot be reached ends the run (the next run tries again)."""
        try:
            service = self.open_service()
            try:
                yield service
            finally:
                service.close()
        except StoreUnavailable as err:
            log.warning("scheduler: %s; the next run tries again", err)


    def send_mail(self, every: bool = False) -> None:
        """Compose the owed mails and send a batch of the due ones (``every``: batch after batch, until none is due:
        ``pbem mail send``; the worker's next run sends the next batch)."""
        report, pruned = DispatchReport(), 0
        with self.service() as service:
            composed = service.write_owed_mail()  # the mails of the moves made on the web pages since the last run
            if composed:
                log.info("mail: %d owed mails composed", composed)
            self._dispatch(service, report, every)
            # an address refused at send time: its tables are told now, and their organisers' mails go at once
            if undelivered.tell(service) and not self.stopping.is_set():
                self._dispatch(service, report, every)
            pruned = prune(service.store, float(self.settings["mail_retention_days"]))
        if pruned:
            log.info("mail: the bodies of %d mails sent over %s days ago dropped", pruned,
                     self.settings["mail_retention_days"])
        if report.sent or report.retried or report.failed or report.lost:
            log.info("mail: %d sent, %d to retry, %d failed%s", report.sent, report.retried, report.failed,
                     f", {report.lost} taken over by another sender" if report.lost else "")

    def _dispatch(self, service: Service, report: DispatchReport, every: bool) -> None:
        """Send a batch of the due mails into ``report`` (``every``: batch after batch, until none is due)."""
        sender = sender_store(service.store)
        try:
            while True:
                report.add(dispatch(sender, transport_for(self.settings), str(self.settings["mail_from"]),
                                    max_attempts=int(self.settings["mail_max_attempts"]),
                                    retry_seconds=float(self.settings["mail_retry_seconds"]),
                                    lease_seconds=lease_for(max(float(self.settings["smtp_timeout"]),
                                                                float(self.settings["webhook_timeout"]))),
                                    poster=Poster.of(self.settings), stopping=self.stopping.is_set))
                if not (every and report.full) or self.stopping.is_set():
                    break
        finally:
            sender.close()

    def deadlines(self, now: datetime | None = None) -> None:
        now = now or datetime.now(timezone.utc)
        with self.service() as service:
            reminded = service.remind_due(now)  # one statement, however many are due
            written = service.write_reminders()  # then their mails, a batch per transaction
            if reminded or written:
                log.info("%d reminders due, %d reminder mails written", reminded, written)
            for row in service.due_deadlines(now):
                try:
                    if service.time_out(row["game_id"], int(row["seat"]), now):
                        log.info("timed out seat %s of game %s", row["seat"], row["game_id"])
                except (ActionError, ConcurrencyError) as err:  # the game moved on meanwhile: next run sees it
                    log.info("time-out of seat %s of game %s skipped: %s", row["seat"], row["game_id"], err)
            changed, played = seatlife.tick(service, now)  # absences begun and ended; seats on autopilot answered
            if changed or played:
                log.info("%d absences begun or ended, %d moves played on autopilot", changed, played)

    def undo_requests(self, now: datetime | None = None) -> None:
        """Close the undo requests past their deadline: no answer counts as a refusal."""
        now = now or datetime.now(timezone.utc)
        with self.service() as service:
            for row in service.due_undo_requests(now):
                try:
                    if service.expire_undo_request(row["game_id"], row["request"], now):
                        log.info("undo request %s of game %s expired", row["request"], row["game_id"])
                except (ActionError, ConcurrencyError) as err:  # answered or played meanwhile: next run sees it
                    log.info("expiry of undo request %s of game %s skipped: %s", row["request"], row["game_id"], err)

    def musters(self, now: datetime | None = None) -> None:
        """Expire the invitations unanswered at their expiry (the organiser is told); create a started muster's
        game if the process that started it stopped before creating it."""
        now = now or datetime.now(timezone.utc)
        with self.service() as service:
            for row in muster.due(service.store, now):
                try:
                    if muster.expire(service, row["muster_id"], int(row["slot"]), int(row["invitation"]), now):
                        log.info("invitation to place %s of %s expired", int(row["slot"]) + 1, row["muster_id"])
                except ConcurrencyError as err:  # answered meanwhile: the next run sees it
                    log.info("expiry of an invitation of %s skipped: %s", row["muster_id"], err)
            for muster_id in muster.stalled(service.store):
                try:
                    if muster.start(service, muster.get(service.store, muster_id)):
                        log.info("game of %s created", muster_id)
                except (ActionError, ServiceError) as err:  # checked when the muster opened: never, unless the
                    log.warning("the game of %s cannot be created: %s", muster_id, err)  # rules changed since

    def digests(self, now: datetime | None = None) -> None:
        """Mail the daily digest of every player whose ``digest_at`` has come (an indexed query), and set their next.

        Each player's mail and their next ``digest_at`` are written in one transaction, so a digest
        is written once however often the job runs.
        """
        now = now or datetime.now(timezone.utc)
        with self.service() as service:
            for player in digests_due(service.store, now):
                rows = service.notifier.digest(service, player, now) if service.notifier else []
                due = next_digest(player["timezone"], now).isoformat(timespec="seconds")
                with service.store.transaction() as conn:
                    moved = conn.execute("UPDATE players SET digest_at = ? WHERE email = ? AND digest_at = ?",
                                         (due, player["email"], player["digest_at"])).rowcount
                    if moved:  # else the player changed it meanwhile: their new time stands
                        for row in rows:
                            write_row(conn, row)
                if rows and moved:
                    log.info("digest mailed to player %s", player["player_id"])

    def inbound_imap(self) -> None:
        """Keep the IMAP reader running while this process leads (``pbem.post.mail.imap``)."""
        if self.imap is None:
            from pbem.post.mail.imap import Watcher
            self.imap = Watcher(self.settings, self.open_service, self.leading, self.stopping)
        self.imap.tick()

    def inbound(self) -> None:
        folder = str(self.settings["inbound_maildir"])
        if not folder:
            return
        from pbem.post.mail.inbound import process_maildir
        with self.service() as service:
            report = process_maildir(service, Path(folder))
        if report.read:
            log.info("inbound: %s", report.summary())


def build(settings: Settings, *, blocking: bool, jobs: Jobs | None = None, lock: Any = None) -> Any:
    """An APScheduler with the jobs; a long misfire grace and coalescing, so a late run is never dropped.

    With a PostgreSQL ``lock`` (``pbem.instance.leader.LeaderLock``), a job runs only while the lock is held.
    """
    jobs = jobs or Jobs(settings)
    if lock is not None and hasattr(lock, "held"):
        jobs.leading = lambda: bool(lock.held)
    kind = BlockingScheduler if blocking else BackgroundScheduler
    scheduler = kind(job_defaults={"coalesce": True, "misfire_grace_time": 3600, "max_instances": 1},
                     timezone=timezone.utc)

    def gated(job: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            if jobs.leading():
                job()
        return run

    start = datetime.now(timezone.utc)
    every = {"send_mail": "dispatch_seconds", "deadlines": "deadline_seconds", "undo_requests": "deadline_seconds",
             "musters": "deadline_seconds", "digests": "deadline_seconds"}
    if settings["inbound_maildir"]:
        every["inbound"] = "dispatch_seconds"
    if settings["inbound_imap"]:
        every["inbound_imap"] = "dispatch_seconds"
        scheduler.add_listener(lambda _: jobs.imap and jobs.imap.stop(), EVENT_SCHEDULER_SHUTDOWN)
    for name, setting in every.items():
        first = {"next_run_time": start} if name != "inbound" else {}  # the inbound Maildir: after one interval
        scheduler.add_job(gated(getattr(jobs, name)), "interval", seconds=int(settings[setting]), id=name, **first)
    return scheduler
