"""Any number of processes may start on a brand-new database at once: WAL, tables and indexes are made once.

The first start of gunicorn workers next to ``pbem worker`` opens one new file from several processes at
the same moment; switching it to WAL takes a lock SQLite does not wait for, and every process creates the
tables. Dozens of trials, no failure.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from events.store import SQLiteEventStore
from pbem.service import Service

PROCESSES, TRIALS = 6, 15


def _open(path: str, start: "multiprocessing.synchronize.Event", failures: "multiprocessing.Queue[str]") -> None:
    start.wait(10)
    try:
        store = SQLiteEventStore(path)
        Service(store)
        store.close()
    except Exception as err:  # any failure is the finding
        failures.put(f"{type(err).__name__}: {err}")


def test_processes_starting_on_one_new_database_at_once_all_succeed(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    failures: multiprocessing.Queue[str] = context.Queue()
    for trial in range(TRIALS):
        path = str(tmp_path / f"new-{trial}.sqlite3")
        start = context.Event()
        workers = [context.Process(target=_open, args=(path, start, failures)) for _ in range(PROCESSES)]
        for worker in workers:
            worker.start()
        start.set()
        for worker in workers:
            worker.join(30)
            assert worker.exitcode == 0
        store = SQLiteEventStore(path)
        assert str(store.conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
        assert {"events", "games", "deadlines", "outbox"} <= set(store.db.table_names())
        store.close()
    found = []
    while not failures.empty():
        found.append(failures.get())
    assert found == []
