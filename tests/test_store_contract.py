"""The EventStore contract: every backend subclasses ``StoreContract`` and must pass it."""

from __future__ import annotations

import multiprocessing
import threading
import time
from abc import ABC, abstractmethod
import sqlite3
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest

from events.audit import verify_chain
from events.envelope import GENESIS_HASH, Event, Visibility, canonical_json, event_hash, payload_hash
from events.gamedata import data_row, digest_of
from events.store import _EVENT_COLUMNS, ConcurrencyError, EventStore, Row, Snapshot, SQLiteEventStore, _event_to_row


def sealed(game_id: str, after_seq: int, prev_hash: str, payloads: list[dict[str, Any]],
           actor: str = "seat:0") -> list[Event]:
    """Events numbered after ``after_seq`` and chained to ``prev_hash``."""
    events = []
    for i, payload in enumerate(payloads, start=1):
        seq = after_seq + i
        fields = dict(game_id=game_id, seq=seq, type="test.Noted", version=1, actor=actor,
                      visibility="public", reveals=False, recorded_at="2026-01-01T00:00:00+00:00",
                      cause={"command": f"c{seq}"}, prev_hash=prev_hash)
        digest = event_hash(payload_digest=payload_hash(payload), **fields)  # type: ignore[arg-type]
        events.append(Event(game_id, seq, "test.Noted", 1, payload, actor, Visibility.public(), False,
                            fields["recorded_at"], fields["cause"], prev_hash, digest))  # type: ignore[arg-type]
        prev_hash = digest
    return events


def open_store(address: str) -> Any:
    """A store from an address a child process can be given: a DSN for PostgreSQL, else a SQLite path."""
    if address.startswith("host=") or address.startswith("postgresql://"):
        from events.pgstore import PostgresEventStore
        return PostgresEventStore(address)
    return SQLiteEventStore(address)


class StoreContract(ABC):
    """Subclass and provide ``address(tmp_path)``, ``execute`` and ``database_error``."""

    database_error: type[Exception]
    """What a write to a missing table raises."""

    @abstractmethod
    def address(self, tmp_path: Path) -> str:
        """Where a new, empty store of the backend under test lives (``open_store`` opens it)."""

    @abstractmethod
    def execute(self, s: Any, statement: str) -> list[Sequence[Any]]:
        """Raw SQL on the store's database, committed: to arrange and inspect what the API does not show."""

    def make_store(self, tmp_path: Path) -> EventStore:
        return open_store(self.address(tmp_path))  # type: ignore[no-any-return]

    @pytest.fixture
    def s(self, tmp_path: Path) -> Iterator[EventStore]:
        store = self.make_store(tmp_path)
        yield store
        store.close()  # type: ignore[attr-defined]

    def test_an_empty_stream_has_no_events(self, s: EventStore) -> None:
        assert s.read("g1") == []
        assert s.last("g1") == (0, GENESIS_HASH)

    def test_appended_events_read_back_equal(self, s: EventStore) -> None:
        events = sealed("g1", 0, GENESIS_HASH, [{"n": 1}, {"n": 2, "text": "é"}])
        s.append("g1", 0, events)
        assert s.read("g1") == events
        assert s.last("g1") == (2, events[-1].hash)

    def test_reads_after_a_seq_and_up_to_a_seq(self, s: EventStore) -> None:
        events = sealed("g1", 0, GENESIS_HASH, [{"n": n} for n in range(1, 6)])
        s.append("g1", 0, events)
        assert [e.seq for e in s.read("g1", after_seq=3)] == [4, 5]
        assert [e.seq for e in s.read("g1", after_seq=1, upto_seq=3)] == [2, 3]

    def test_streams_of_different_games_are_apart(self, s: EventStore) -> None:
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]))
        s.append("g2", 0, sealed("g2", 0, GENESIS_HASH, [{"n": 1}, {"n": 2}]))
        assert [e.seq for e in s.read("g1")] == [1]
        assert s.game_ids() == ["g1", "g2"]

    def test_a_stale_expected_seq_raises_and_writes_nothing(self, s: EventStore) -> None:
        first = sealed("g1", 0, GENESIS_HASH, [{"n": 1}])
        s.append("g1", 0, first)
        with pytest.raises(ConcurrencyError) as err:
            s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": "other"}]))
        assert err.value.actual_seq == 1
        assert "moved on" in str(err.value)
        assert s.read("g1") == first

    def test_an_expected_seq_beyond_the_stream_raises(self, s: EventStore) -> None:
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]))
        with pytest.raises(ConcurrencyError) as err:
            s.append("g1", 3, sealed("g1", 3, "f" * 64, [{"n": 4}]))
        assert (err.value.expected_seq, err.value.actual_seq) == (3, 1)
        assert [e.seq for e in s.read("g1")] == [1]

    def test_payload_and_cause_are_stored_as_canonical_json(self, s: EventStore) -> None:
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"z": [1, {"b": 2, "a": "é"}], "a": None}]))
        assert [tuple(r) for r in self.execute(s, "SELECT payload, cause FROM events")] == [
            ('{"a":null,"z":[1,{"a":"é","b":2}]}', '{"command":"c1"}')]

    def test_a_batch_with_a_conflict_writes_nothing_not_even_its_rows(self, s: EventStore, tmp_path: Path) -> None:
        self.execute(s, "CREATE TABLE outbox (id TEXT PRIMARY KEY, body TEXT)")
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]), [Row("outbox", {"id": "m1", "body": "a"})])
        with pytest.raises(ConcurrencyError):
            s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}, {"n": 2}]),
                     [Row("outbox", {"id": "m2", "body": "b"})])
        assert [e.seq for e in s.read("g1")] == [1]
        assert [r[0] for r in self.execute(s, "SELECT id FROM outbox")] == ["m1"]

    def test_rows_are_inserted_upserted_and_deleted_with_the_events(self, s: EventStore) -> None:
        self.execute(s, "CREATE TABLE board (game_id TEXT, seat INTEGER, note TEXT, PRIMARY KEY (game_id, seat))")
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]), [
            Row("board", {"game_id": "g1", "seat": 0, "note": "a"}),
            Row("board", {"game_id": "g1", "seat": 1, "note": {"x": [1]}}),
            Row("game_secrets", {"game_id": "g1", "seed": "s3cret"}, pk=("game_id",)),
        ])
        seq, last_hash = s.last("g1")
        s.append("g1", seq, sealed("g1", seq, last_hash, [{"n": 2}]), [
            Row("board", {"game_id": "g1", "seat": 0, "note": "b"}, pk=("game_id", "seat")),
            Row("board", {"game_id": "g1", "seat": 1}, delete=True),
            Row("board", {"game_id": "g1", "seat": 2}, pk=("game_id", "seat")),
            Row("board", {"game_id": "g1", "seat": 2}, pk=("game_id", "seat")),
        ])
        assert [tuple(r) for r in self.execute(s, "SELECT seat, note FROM board ORDER BY seat")] == [
            (0, "b"), (2, None)]
        assert s.seed("g1") == "s3cret"
        assert s.seed("g2") is None

    def test_game_data_is_written_with_the_events_once_and_read_by_its_digest(self, s: EventStore) -> None:
        data = {"cards": [{"id": 1, "name": "Zoë"}], "vp": 7}
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]), [data_row(data)])
        s.append("g2", 0, sealed("g2", 0, GENESIS_HASH, [{"n": 1}]), [data_row(data)])  # a second game: no-op
        assert s.game_data(digest_of(data)) == canonical_json(data)
        assert self.execute(s, "SELECT count(*) FROM game_data")[0][0] == 1
        assert s.game_data("0" * 64) is None

    def test_a_json_row_value_is_stored_as_json_text(self, s: EventStore) -> None:
        self.execute(s, "CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT)")
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]), [Row("notes", {"id": "a", "body": {"b": 1, "a": [2]}})])
        assert [r[0] for r in self.execute(s, "SELECT body FROM notes")] == ['{"a":[2],"b":1}']

    def test_a_failing_extra_row_rolls_back_the_events(self, s: EventStore) -> None:
        with pytest.raises(self.database_error):
            s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]), [Row("no_such_table", {"x": 1})])
        assert s.read("g1") == []
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]))
        assert s.last("g1")[0] == 1

    def test_events_must_follow_the_expected_seq_and_chain(self, s: EventStore) -> None:
        with pytest.raises(ValueError):
            s.append("g1", 0, sealed("g1", 1, GENESIS_HASH, [{"n": 2}]))
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]))
        with pytest.raises(ValueError, match="chain"):
            s.append("g1", 1, sealed("g1", 1, "f" * 64, [{"n": 2}]))
        assert len(s.read("g1")) == 1

    def test_a_tampered_row_is_detected_at_its_seq(self, s: EventStore) -> None:
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": n} for n in range(1, 6)]))
        assert verify_chain(s.read("g1")) is None
        self.execute(s, "UPDATE events SET payload = '{\"n\":99}' WHERE game_id = 'g1' AND seq = 3")
        finding = verify_chain(s.read("g1"))
        assert finding is not None and finding.seq == 3 and "altered" in finding.problem

    def test_snapshots_come_newest_first_and_old_ones_are_thinned(self, s: EventStore) -> None:
        for seq in (10, 20, 100, 110, 120, 130):
            s.save_snapshot(Snapshot("g1", seq, "k1", f"state{seq}".encode()))
        assert [(x.seq, x.state) for x in s.snapshots("g1")] == [(130, b"state130"), (100, b"state100")]
        assert [x.seq for x in s.snapshots("g1", upto_seq=120)] == [100]
        assert list(s.snapshots("g2")) == []

    def test_a_snapshot_is_written_with_the_events_or_not_at_all(self, s: EventStore) -> None:
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]), snapshot=Snapshot("g1", 1, "k", b"one"))
        with pytest.raises(ConcurrencyError):
            s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]), snapshot=Snapshot("g1", 2, "k", b"x"))
        assert [x.seq for x in s.snapshots("g1")] == [1]

    def test_rows_and_a_snapshot_without_events_need_the_expected_seq(self, s: EventStore) -> None:
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]))
        with pytest.raises(ConcurrencyError):
            s.append("g1", 0, [], [Row("game_secrets", {"game_id": "g1", "seed": "x"})])
        s.append("g1", 1, [], [Row("game_secrets", {"game_id": "g1", "seed": "y"})], Snapshot("g1", 1, "k", b"s"))
        assert s.seed("g1") == "y"
        assert [x.state for x in s.snapshots("g1")] == [b"s"]

    def test_two_processes_appending_to_one_game_each_seq_won_once_nothing_lost(self, tmp_path: Path) -> None:
        address = self.address(tmp_path)
        ctx = multiprocessing.get_context("spawn")
        results = ctx.Queue()
        workers = [ctx.Process(target=_race, args=(address, name, 150, results)) for name in ("a", "b")]
        for w in workers:
            w.start()
        wins = dict(results.get(timeout=120) for _ in workers)
        for w in workers:
            w.join(timeout=60)
        store = open_store(address)
        events = store.read("race")
        assert [e.seq for e in events] == list(range(1, 301))
        assert verify_chain(events) is None
        by_writer = {"a": 0, "b": 0}
        for e in events:
            by_writer[e.payload["writer"]] += 1
        assert by_writer == wins == {"a": 150, "b": 150}
        store.close()


def _race(address: str, name: str, count: int, results: Any) -> None:
    store = open_store(address)
    won = conflicts = 0
    while won < count:
        seq, last_hash = store.last("race")
        try:
            store.append("race", seq, sealed("race", seq, last_hash, [{"writer": name, "i": won}]))
            won += 1
        except ConcurrencyError:
            conflicts += 1
    store.close()
    results.put((name, won))


class TestSQLiteEventStore(StoreContract):
    database_error = sqlite3.OperationalError

    def address(self, tmp_path: Path) -> str:
        return str(tmp_path / "race.sqlite3")

    def execute(self, s: Any, statement: str) -> list[Sequence[Any]]:
        assert isinstance(s, SQLiteEventStore)
        with s.transaction() as conn:
            return conn.execute(statement).fetchall()

    def test_settings_are_the_measured_ones(self, tmp_path: Path) -> None:
        s = SQLiteEventStore(tmp_path / "x.sqlite3")
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert s.conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
        ddl = s.conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()[0]
        assert "WITHOUT ROWID" in ddl and "PRIMARY KEY (game_id, seq)" in ddl
        s.close()


class TestPostgresEventStore(StoreContract):
    """The same contract on a real PostgreSQL server (``tests/pg.py``), a fresh database per test."""

    @pytest.fixture(autouse=True)
    def _database(self, pg_database: str) -> None:
        self.dsn = pg_database
        import psycopg
        self.database_error = psycopg.errors.UndefinedTable

    def address(self, tmp_path: Path) -> str:
        return self.dsn

    def execute(self, s: Any, statement: str) -> list[Sequence[Any]]:
        with s.pool.connection() as conn:
            cursor = conn.execute(statement)
            return cursor.fetchall() if cursor.description else []

    def test_the_events_table_is_keyed_on_game_and_seq(self, s: EventStore) -> None:
        key = self.execute(s, "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                              "WHERE conrelid = 'events'::regclass AND contype = 'p'")
        assert key == [("PRIMARY KEY (game_id, seq)",)]

    def test_a_duplicate_key_from_a_racing_writer_is_a_concurrency_error(self, s: EventStore) -> None:
        """Another writer inserts the same seq and commits while this append waits on the key."""
        import psycopg
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]))
        seq, last_hash = s.last("g1")
        theirs, mine = (sealed("g1", seq, last_hash, [{"who": w}]) for w in ("them", "me"))
        outcome: list[BaseException | None] = []
        with psycopg.connect(self.dsn) as other:
            other.execute(f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES ({', '.join(['%s'] * 12)})",
                          _event_to_row(theirs[0]))

            def append_mine() -> None:
                try:
                    s.append("g1", seq, mine)
                    outcome.append(None)
                except BaseException as err:  # noqa: BLE001 - handed to the test's thread
                    outcome.append(err)
            writer = threading.Thread(target=append_mine)
            writer.start()
            deadline = time.monotonic() + 10
            while not self.execute(s, "SELECT 1 FROM pg_locks WHERE NOT granted") and time.monotonic() < deadline:
                time.sleep(0.01)
            other.commit()
        writer.join(timeout=10)
        assert isinstance(outcome[0], ConcurrencyError) and outcome[0].actual_seq == 2
        assert s.read("g1")[-1] == theirs[0]

    def test_a_stale_expected_seq_after_the_first_event_raises(self, s: EventStore) -> None:
        first = sealed("g1", 0, GENESIS_HASH, [{"n": 1}, {"n": 2}, {"n": 3}])
        s.append("g1", 0, first)
        with pytest.raises(ConcurrencyError) as err:
            s.append("g1", 1, sealed("g1", 1, first[0].hash, [{"n": "other"}, {"n": "more"}]))
        assert err.value.actual_seq == 3
        assert s.read("g1") == first
