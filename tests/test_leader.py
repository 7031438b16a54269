"""The scheduler's lock on PostgreSQL (``pbem.instance.leader``), in this process, on the session's real server.

``tests/test_pg_nodes.py`` runs whole workers against each other; here the lock itself: one holder at a time, the
holder named to the one refused, the lock freed when its holder's connection ends, lost and taken again when the
database drops the connection, and an unreachable database refused without an error.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Iterator

import pytest

from pbem.instance.leader import HOLDER, LEADER_KEY, LeaderLock
from pbem.scheduler import SchedulerRunning, scheduler_lock
from test_pg_nodes import until


@pytest.fixture
def url(pg_server: Any) -> Iterator[str]:
    name = pg_server.create_database()
    yield pg_server.url(name)
    pg_server.drop_database(name)


@pytest.fixture
def locks(url: str) -> Iterator[list[LeaderLock]]:
    made: list[LeaderLock] = []
    yield made
    for lock in made:
        lock.release()


def lock_of(url: str, made: list[LeaderLock], poll: float = 0.05) -> LeaderLock:
    lock = LeaderLock(url, poll_seconds=poll)
    made.append(lock)
    return lock


def holders(url: str) -> list[str]:
    """The application names of the sessions holding the scheduler's advisory lock, as the server reports them."""
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        return [row[0] for row in conn.execute(HOLDER, (LEADER_KEY,))]


def test_one_holder_at_a_time_named_to_the_other_and_freed_on_release(url: str, locks: list[LeaderLock]) -> None:
    first, second = lock_of(url, locks), lock_of(url, locks)
    assert first.acquire(wait=False) and first.held
    assert second.acquire(wait=False) is False and not second.held
    assert second.holder().startswith("pbem scheduler ")
    assert holders(url) == [second.holder()]

    first.release()
    assert not first.held
    assert second.acquire(wait=False) and second.held
    assert len(holders(url)) == 1


def test_a_waiting_scheduler_takes_over_when_the_holder_stops(url: str, locks: list[LeaderLock]) -> None:
    first, second = lock_of(url, locks), lock_of(url, locks)
    assert first.acquire(wait=False)
    waiter = threading.Thread(target=second.acquire, daemon=True)  # as ``scheduler_lock(wait=True)`` does
    waiter.start()
    time.sleep(0.2)
    assert not second.held  # it waits while the first holds the lock

    first.release()
    assert until(lambda: second.held)
    waiter.join(timeout=5)
    assert not waiter.is_alive()


def test_a_lost_connection_pauses_the_jobs_until_the_lock_is_taken_again(url: str, locks: list[LeaderLock],
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    import psycopg
    lock = lock_of(url, locks)
    assert lock.acquire(wait=False) and lock.held
    with caplog.at_level(logging.WARNING, logger="pbem.instance.leader"):
        with psycopg.connect(url, autocommit=True) as admin:  # the database ends the holder's session
            ended = admin.execute(
                "SELECT pg_terminate_backend(l.pid) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted "
                "AND ((l.classid::bigint << 32) | l.objid::bigint) = %s "
                "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                (LEADER_KEY,)).fetchall()
        assert ended == [(True,)]
        assert until(lambda: "scheduler lock taken again: jobs resume" in caplog.text)
    assert "scheduler lock lost (the database connection dropped)" in caplog.text
    assert lock.held and len(holders(url)) == 1


def test_an_unreachable_database_is_refused_without_an_error(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> None:
    lock = LeaderLock(f"postgresql:///pbem?host={tmp_path}&connect_timeout=1", poll_seconds=0.01)
    with caplog.at_level(logging.WARNING, logger="pbem.instance.leader"):
        assert lock.try_acquire() is False
    assert not lock.held
    assert "scheduler lock: the database cannot be reached" in caplog.text
    assert lock.holder() == "another process"  # only a message: never an error
    lock.release()


def test_a_second_scheduler_is_refused_or_waits(url: str, tmp_path: Any) -> None:
    with scheduler_lock(tmp_path / "one", url) as held:
        assert held.held
        with pytest.raises(SchedulerRunning, match="a scheduler is already running on this database"):
            with scheduler_lock(tmp_path / "two", url):
                pass
        with scheduler_lock(tmp_path / "two", url, wait=True) as waiting:
            assert not waiting.held  # it waits in the background while the first leads
    with scheduler_lock(tmp_path / "three", url) as again:  # both gave the lock up, the waiting one too
        assert again.held
        assert holders(url) == [again.holder()]


def test_each_database_has_its_own_lock(pg_server: Any, url: str, locks: list[LeaderLock]) -> None:
    """Two instances on one server (two databases) each have a scheduler: neither waits for, or names, the other."""
    other_name = pg_server.create_database()
    try:
        other = pg_server.url(other_name)
        assert lock_of(url, locks).acquire(wait=False)
        elsewhere = lock_of(other, locks)
        assert holders(other) == []
        assert elsewhere.holder() == "another process"  # nobody holds it there: no holder of this one is named
        assert elsewhere.acquire(wait=False) and elsewhere.held
        assert len(holders(url)) == 1 and len(holders(other)) == 1
        elsewhere.release()
    finally:
        pg_server.drop_database(other_name)
