"""Writers of one SQLite file queue on ``<database>-writer`` before asking SQLite for the write lock
(``events.store.WriterTurns``): nothing is lost, a writer outside the queue is still kept out by SQLite, and
nothing is left locked after a refusal."""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

import pytest

from events.envelope import GENESIS_HASH
from events.store import SQLiteEventStore
from test_store_contract import sealed


def append_one(store: SQLiteEventStore, game_id: str, text: str) -> None:
    seq, last_hash = store.last(game_id)
    store.append(game_id, seq, sealed(game_id, seq, last_hash, [{"text": text}]))


def test_the_queue_is_a_file_beside_the_database(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "pbem.sqlite3")
    append_one(store, "g", "one")
    assert (tmp_path / "pbem.sqlite3-writer").exists()
    assert (tmp_path / "pbem.sqlite3-writer").read_bytes() == b""  # it holds nothing
    store.close()


def test_writers_of_many_connections_each_take_their_turn_and_all_land(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite3"
    stores = [SQLiteEventStore(path) for _ in range(4)]
    errors: list[BaseException] = []

    def write(store: SQLiteEventStore, name: str) -> None:
        try:
            for n in range(40):
                append_one(store, name, f"{name}{n}")
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=write, args=(s, f"game{i}")) for i, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for i in range(4):
        assert [e.payload["text"] for e in stores[0].read(f"game{i}")] == [f"game{i}{n}" for n in range(40)]
    for s in stores:
        s.close()


def test_a_writer_outside_the_queue_is_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite3"
    store = SQLiteEventStore(path)
    outsider = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    outsider.execute("BEGIN IMMEDIATE")
    outsider.execute("INSERT INTO game_secrets (game_id, seed) VALUES ('outside', 's')")
    order: list[str] = []
    writer = threading.Thread(target=lambda: (append_one(store, "g", "mine"), order.append("pbem")))
    writer.start()
    writer.join(0.3)
    assert writer.is_alive() and order == []  # waiting for the outsider's lock
    order.append("outsider")
    outsider.execute("COMMIT")
    writer.join()
    assert order == ["outsider", "pbem"]
    assert [e.payload["text"] for e in store.read("g")] == ["mine"]
    outsider.close()
    store.close()


def test_a_lock_held_past_the_busy_timeout_fails_the_write_and_frees_the_queue(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite3"
    store, other = SQLiteEventStore(path), SQLiteEventStore(path)
    store._turns.busy_timeout_ms = 200
    outsider = sqlite3.connect(str(path), isolation_level=None)
    outsider.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        append_one(store, "g", "too late")
    outsider.execute("ROLLBACK")
    assert store.read("g") == []
    append_one(other, "g", "next")  # the queue was given up with the failure
    append_one(store, "g", "then")
    assert [e.payload["text"] for e in other.read("g")] == ["next", "then"]
    assert int(store.conn.execute("PRAGMA busy_timeout").fetchone()[0]) == 200  # restored after the wait
    outsider.close()
    store.close()
    other.close()


def test_a_transaction_inside_a_transaction_is_refused_and_leaves_no_turn_taken(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite3"
    store, other = SQLiteEventStore(path), SQLiteEventStore(path)
    with store.transaction():
        with pytest.raises(sqlite3.OperationalError, match="within a transaction"):
            with store.transaction():
                pass
    append_one(other, "g", "after")
    assert [e.payload["text"] for e in store.read("g")] == ["after"]
    store.close()
    other.close()


def test_without_a_queue_file_the_store_still_writes(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "pbem.sqlite3"
    (tmp_path / "pbem.sqlite3-writer").mkdir()  # cannot be opened as a file
    with caplog.at_level(logging.WARNING, logger="events.store"):
        store = SQLiteEventStore(path)
    assert "do not queue" in caplog.text
    assert store._turns.fd is None
    store.append("g", 0, sealed("g", 0, GENESIS_HASH, [{"text": "still"}]))
    assert [e.payload["text"] for e in store.read("g")] == ["still"]
    store.close()
