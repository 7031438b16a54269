"""The delivery layer's SQL surface, the same on both stores: query, transaction, write_row, ensure_table."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from events.store import Row, SQLiteEventStore, write_row


def test_placeholders_are_translated_once_and_quoted_text_is_left_alone() -> None:
    from events.pgstore import translate
    assert translate("SELECT a FROM t WHERE b = ? AND c LIKE 'x?%' AND d % ? = 0") == \
        "SELECT a FROM t WHERE b = %s AND c LIKE 'x?%' AND d %% %s = 0"
    assert translate('SELECT "odd?name" FROM t -- why?\nWHERE x = ?') == 'SELECT "odd?name" FROM t -- why?\nWHERE x = %s'
    assert translate("SELECT 'it''s ?' WHERE y = ?") == "SELECT 'it''s ?' WHERE y = %s"
    before = translate.cache_info().hits
    translate("SELECT a FROM t WHERE b = ? AND c LIKE 'x?%' AND d % ? = 0")
    assert translate.cache_info().hits == before + 1


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "sqlite":
        found: Any = SQLiteEventStore(tmp_path / "s.sqlite3")
    else:
        from events.pgstore import PostgresEventStore
        found = PostgresEventStore(request.getfixturevalue("pg_database"))
    yield found
    found.close()


def test_one_surface_on_both_engines(store: Any) -> None:
    store.ensure_table("things", {"id": str, "n": int, "blob": bytes, "x": float}, pk="id", indexes=[("n",)])
    with store.transaction() as conn:
        write_row(conn, Row("things", {"id": "a", "n": 1, "blob": b"\x00\x01", "x": 0.5}, pk=("id",)))
        write_row(conn, Row("things", {"id": "a", "n": 2}, pk=("id",)))  # an upsert: the other columns stay
        write_row(conn, Row("things", {"id": "b", "n": True}))  # a bool is stored as the integer SQLite keeps
        assert store.query("SELECT count(*) AS n FROM things")[0]["n"] == 2  # read through the open transaction
        updated = conn.execute("UPDATE things SET n = n + 1 WHERE n >= ?", (1,))
        assert updated.rowcount == 2 and updated.fetchall() == []
        rows = conn.execute("SELECT id, n FROM things ORDER BY id").fetchall()
        assert [tuple(r) for r in rows] == [("a", 3), ("b", 2)]
        assert [d[0] for d in conn.execute("SELECT id, n FROM things").description] == ["id", "n"]
    assert store.query("SELECT id, n, blob, x FROM things WHERE id = ?", ("a",)) == \
        [{"id": "a", "n": 3, "blob": b"\x00\x01", "x": 0.5}]
    with pytest.raises(RuntimeError):
        with store.transaction() as conn:
            conn.execute("DELETE FROM things")
            raise RuntimeError("rolled back")
    assert store.query("SELECT count(*) AS n FROM things")[0]["n"] == 2 and not store.in_transaction
    store.ensure_table("things", {"id": str, "n": int, "blob": bytes, "x": float, "later": str}, pk="id")
    assert store.query("SELECT later FROM things WHERE id = ?", ("a",)) == [{"later": None}]
    with store.transaction() as conn:
        write_row(conn, Row("things", {"id": "b"}, delete=True))
        conn.executemany("INSERT INTO things (id, n) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", [("c", 5), ("a", 9)])
    assert [r["id"] for r in store.query("SELECT id FROM things ORDER BY id")] == ["a", "c"]


def test_a_postgresql_server_out_of_reach_fails_with_a_clear_error(pg_server: Any) -> None:
    from events.store import StoreUnavailable
    from events.pgstore import PostgresEventStore
    with pytest.raises(StoreUnavailable, match="cannot be reached"):
        PostgresEventStore(f"host={pg_server.folder}/nowhere user=postgres dbname=postgres", timeout=1)
