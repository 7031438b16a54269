"""Writers of one SQLite file take turns on ``<database>-writer``, held from before ``BEGIN IMMEDIATE`` to the
end of the transaction (``events.store.WriterTurns``): nothing is lost, a writer outside the turns is still kept
out by SQLite, nothing is left locked after a refusal, a failure or a killed process, and a thread cannot wait
for itself."""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import subprocess
import sys
import threading
import time
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


def test_an_outside_lock_held_past_the_busy_timeout_fails_the_write_and_frees_the_turn(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite3"
    store, other = SQLiteEventStore(path), SQLiteEventStore(path)
    store.conn.execute("PRAGMA busy_timeout = 200")
    outsider = sqlite3.connect(str(path), isolation_level=None)
    outsider.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        append_one(store, "g", "too late")
    outsider.execute("ROLLBACK")
    assert store.read("g") == []
    append_one(other, "g", "next")  # the queue was given up with the failure
    append_one(store, "g", "then")
    assert [e.payload["text"] for e in other.read("g")] == ["next", "then"]
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


def turn_taken(path: Path) -> bool:
    """Whether some writer holds the database's turn now (asked without waiting, on a file of our own)."""
    fd = os.open(f"{path}-writer", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_the_turn_is_held_for_the_whole_transaction_and_given_up_after_it(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite3"
    store = SQLiteEventStore(path)
    assert not turn_taken(path)
    with store.transaction() as conn:
        conn.execute("INSERT INTO game_secrets (game_id, seed) VALUES ('a', 's')")
        assert turn_taken(path)
    assert not turn_taken(path)
    with pytest.raises(ZeroDivisionError):
        with store.transaction() as conn:
            conn.execute("INSERT INTO game_secrets (game_id, seed) VALUES ('b', 's')")
            1 / 0
    assert not turn_taken(path)  # given up after the rollback too
    assert [r[0] for r in store.conn.execute("SELECT game_id FROM game_secrets")] == ["a"]
    store.close()


def test_the_next_writer_waits_for_the_turn_and_goes_in_when_it_is_given_up(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite3"
    first, second = SQLiteEventStore(path), SQLiteEventStore(path)
    order: list[str] = []
    with first.transaction() as conn:
        waiter = threading.Thread(target=lambda: (append_one(second, "g", "second"), order.append("second")))
        waiter.start()
        waiter.join(0.3)
        assert waiter.is_alive() and order == []
        conn.execute("INSERT INTO game_secrets (game_id, seed) VALUES ('first', 's')")
        order.append("first")
    waiter.join(5)
    assert order == ["first", "second"]
    first.close()
    second.close()


def test_a_thread_writing_on_one_connection_is_refused_a_second_at_once(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite3"
    store, other = SQLiteEventStore(path), SQLiteEventStore(path)
    started = time.monotonic()
    with store.transaction() as conn:
        with pytest.raises(sqlite3.OperationalError, match="already writing to it on another connection"):
            append_one(other, "g", "inner")
        conn.execute("INSERT INTO game_secrets (game_id, seed) VALUES ('outer', 's')")
    assert time.monotonic() - started < 5  # not the busy timeout: it would wait for itself
    assert store.read("g") == []
    append_one(other, "g", "after")  # and the refused connection writes once the turn is free
    assert [e.payload["text"] for e in store.read("g")] == ["after"]
    store.close()
    other.close()


KILLED_HOLDER = """
import sys, time
sys.path.insert(0, sys.argv[2])
from events.store import SQLiteEventStore
store = SQLiteEventStore(sys.argv[1])
with store.transaction() as conn:
    conn.execute("INSERT INTO game_secrets (game_id, seed) VALUES ('killed', 's')")
    print("in", flush=True)
    time.sleep(60)
"""


def test_a_writer_killed_in_its_transaction_gives_the_turn_up_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite3"
    SQLiteEventStore(path).close()
    root = str(Path(__file__).resolve().parents[1])
    holder = subprocess.Popen([sys.executable, "-c", KILLED_HOLDER, str(path), root], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"in\n"
        assert turn_taken(path)
        holder.kill()
        holder.wait(10)
        store = SQLiteEventStore(path)
        append_one(store, "g", "after")
        assert [e.payload["text"] for e in store.read("g")] == ["after"]
        assert store.conn.execute("SELECT count(*) FROM game_secrets WHERE game_id = 'killed'").fetchone()[0] == 0
        store.close()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(10)
        if holder.stdout is not None:
            holder.stdout.close()
