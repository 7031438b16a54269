"""The scheduler's single-instance lock on PostgreSQL: a session advisory lock, held on its own connection.

Several workers (on several hosts) may run against one database; one of them, the leader, runs the
scheduler's jobs, and the others wait for the lock and take over when the leader stops: the server
releases a session's advisory lock when its connection ends, so a killed worker frees it at once.
A keeper thread checks the lock's connection; if it is lost (the database restarted), the jobs stop
(``held`` is False) until the lock is taken again. The claims on due rows (``FOR UPDATE SKIP LOCKED``)
and the expected seq of every command still hold if two schedulers ever overlapped.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Any

log = logging.getLogger(__name__)

# Any constant other than the schema lock's: the key of the scheduler's advisory lock.
LEADER_KEY = 0x7062656D5343  # "pbemSC"


# Who holds the lock in this database (an advisory lock is the database's own: one server may hold several).
HOLDER = ("SELECT a.application_name, a.client_addr FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
          "WHERE l.locktype = 'advisory' AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = %s "
          "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())")


class LeaderLock:
    """The advisory lock on a connection of its own (not from the pool: the lock lives as long as it)."""

    def __init__(self, url: str, *, poll_seconds: float = 2.0) -> None:
        self.url = url
        self.poll_seconds = poll_seconds
        self._conn: Any = None
        self._held = threading.Event()
        self._stop = threading.Event()
        self._keeper: threading.Thread | None = None
        self._turn = threading.Lock()  # a take and a release one after the other, never interleaved

    @property
    def held(self) -> bool:
        return self._held.is_set()

    def try_acquire(self) -> bool:
        """Take the lock if it is free; False if another process holds it or the database cannot be reached."""
        import psycopg
        with self._turn:
            if self._stop.is_set():  # released: a waiting thread must not take the lock after that
                return False
            return self._try_acquire(psycopg)

    def _try_acquire(self, psycopg: Any) -> bool:
        try:
            if self._conn is None or self._conn.closed or self._conn.broken:
                self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10,
                                             application_name=f"pbem scheduler {socket.gethostname()}:{os.getpid()}")
            got = bool(self._conn.execute("SELECT pg_try_advisory_lock(%s)", (LEADER_KEY,)).fetchone()[0])
        except psycopg.OperationalError as err:
            log.warning("scheduler lock: the database cannot be reached (%s)", str(err).strip())
            self._drop()
            return False
        if got:
            self._held.set()
        return got

    def acquire(self, wait: bool = True) -> bool:
        """Take the lock, waiting for it (``wait``) until it is free or ``stop`` is called; then keep it."""
        while not self._stop.is_set():
            if self.try_acquire():
                self._keep()
                return True
            if not wait:
                return False
            self._stop.wait(self.poll_seconds)
        return False

    def holder(self) -> str:
        """Who holds the lock, as far as the server tells (its application name), for messages."""
        try:
            import psycopg
            with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                row = conn.execute(
                    HOLDER, (LEADER_KEY,)).fetchone()
            return f"{row[0] or 'a process'}" if row else "another process"
        except Exception:  # only a message: never fail for it
            return "another process"

    def _keep(self) -> None:
        if self._keeper is None or not self._keeper.is_alive():
            self._keeper = threading.Thread(target=self._watch, name="pbem-leader", daemon=True)
            self._keeper.start()

    def _watch(self) -> None:
        """Check the lock's connection; if it dropped, the lock is gone: stop the jobs and take it again."""
        while not self._stop.wait(self.poll_seconds):
            if self._held.is_set() and not self._alive():
                self._held.clear()
                log.warning("scheduler lock lost (the database connection dropped): jobs paused until it is "
                            "taken again")
            if not self._held.is_set() and self.try_acquire():
                log.warning("scheduler lock taken again: jobs resume")

    def _alive(self) -> bool:
        try:
            self._conn.execute("SELECT 1")
            return True
        except Exception:
            self._drop()
            return False

    def _drop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:
                pass
        self._conn = None
        self._held.clear()

    def release(self) -> None:
        """Give the lock up (closing its connection releases it) and stop the keeper."""
        self._stop.set()
        if self._keeper is not None:
            self._keeper.join(timeout=self.poll_seconds + 5)
        with self._turn:
            if self._held.is_set():  # unlocked before the connection closes: the server ends a session only after
                try:                 # its client has gone, and a waiting worker should not wait for that
                    self._conn.execute("SELECT pg_advisory_unlock(%s)", (LEADER_KEY,))
                except Exception:  # the connection is gone already, and the lock with it
                    pass
            self._drop()
