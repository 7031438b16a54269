"""The EventStore contract: every backend subclasses ``StoreContract`` and must pass it."""

from __future__ import annotations

import multiprocessing
from abc import ABC, abstractmethod
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest

from events.audit import verify_chain
from events.envelope import GENESIS_HASH, Event, Visibility, event_hash, payload_hash
from events.store import ConcurrencyError, EventStore, Row, Snapshot, SQLiteEventStore


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


class StoreContract(ABC):
    """Subclass and provide ``make_store(tmp_path)``."""

    @abstractmethod
    def make_store(self, tmp_path: Path) -> EventStore:
        """A new, empty store of the backend under test."""

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

    def test_a_batch_with_a_conflict_writes_nothing_not_even_its_rows(self, s: EventStore, tmp_path: Path) -> None:
        assert isinstance(s, SQLiteEventStore)
        s.ensure_table("outbox", {"id": str, "body": str}, pk="id")
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]), [Row("outbox", {"id": "m1", "body": "a"})])
        with pytest.raises(ConcurrencyError):
            s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}, {"n": 2}]),
                     [Row("outbox", {"id": "m2", "body": "b"})])
        assert [e.seq for e in s.read("g1")] == [1]
        assert [r["id"] for r in s.query("SELECT id FROM outbox")] == ["m1"]

    def test_a_failing_extra_row_rolls_back_the_events(self, s: EventStore) -> None:
        assert isinstance(s, SQLiteEventStore)
        with pytest.raises(sqlite3.OperationalError):
            s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]), [Row("no_such_table", {"x": 1})])
        assert s.read("g1") == []

    def test_events_must_follow_the_expected_seq_and_chain(self, s: EventStore) -> None:
        with pytest.raises(ValueError):
            s.append("g1", 0, sealed("g1", 1, GENESIS_HASH, [{"n": 2}]))
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": 1}]))
        with pytest.raises(ValueError, match="chain"):
            s.append("g1", 1, sealed("g1", 1, "f" * 64, [{"n": 2}]))
        assert len(s.read("g1")) == 1

    def test_a_tampered_row_is_detected_at_its_seq(self, s: EventStore) -> None:
        assert isinstance(s, SQLiteEventStore)
        s.append("g1", 0, sealed("g1", 0, GENESIS_HASH, [{"n": n} for n in range(1, 6)]))
        assert verify_chain(s.read("g1")) is None
        s.conn.execute("UPDATE events SET payload = '{\"n\":99}' WHERE game_id = 'g1' AND seq = 3")
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

def _race(path: str, name: str, count: int, results: Any) -> None:
    store = SQLiteEventStore(path)
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
    def make_store(self, tmp_path: Path) -> EventStore:
        return SQLiteEventStore(tmp_path / "race.sqlite3")

    def test_settings_are_the_measured_ones(self, tmp_path: Path) -> None:
        s = SQLiteEventStore(tmp_path / "x.sqlite3")
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert s.conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
        ddl = s.conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()[0]
        assert "WITHOUT ROWID" in ddl and "PRIMARY KEY (game_id, seq)" in ddl

    def test_two_processes_appending_to_one_game_each_seq_won_once_nothing_lost(self, tmp_path: Path) -> None:
        path = tmp_path / "race.sqlite3"
        ctx = multiprocessing.get_context("spawn")
        results = ctx.Queue()
        workers = [ctx.Process(target=_race, args=(str(path), name, 150, results)) for name in ("a", "b")]
        for w in workers:
            w.start()
        wins = dict(results.get(timeout=120) for _ in workers)
        for w in workers:
            w.join(timeout=60)
        store = SQLiteEventStore(path)
        events = store.read("race")
        assert [e.seq for e in events] == list(range(1, 301))
        assert verify_chain(events) is None
        by_writer = {"a": 0, "b": 0}
        for e in events:
            by_writer[e.payload["writer"]] += 1
        assert by_writer == wins == {"a": 150, "b": 150}
        store.close()
