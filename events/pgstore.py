"""The PostgreSQL event store: the ``EventStore`` protocol on psycopg 3 and its connection pool.

Needs the ``postgres`` extra (``pip install -e '.[postgres]'``). The events, the game secrets and the
snapshots live here; the delivery layer's own queries (service, outbox, deadlines) still use SQLite.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from events.envelope import GENESIS_HASH, Event
from events.store import (
    _EVENT_COLUMNS, KEEP_SNAPSHOT_EVERY, ConcurrencyError, Row, Snapshot, _event_to_row, _row_to_event, _sql_value,
)

# Byte order ("C") for game ids, as SQLite compares them, whatever the database's locale.
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS events (
        game_id TEXT COLLATE "C" NOT NULL, seq BIGINT NOT NULL, type TEXT NOT NULL, version INTEGER NOT NULL,
        payload TEXT NOT NULL, actor TEXT NOT NULL, visibility TEXT NOT NULL, reveals SMALLINT NOT NULL,
        recorded_at TEXT NOT NULL, cause TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
    'CREATE TABLE IF NOT EXISTS game_secrets (game_id TEXT COLLATE "C" PRIMARY KEY, seed TEXT)',
    'CREATE TABLE IF NOT EXISTS game_data (digest TEXT COLLATE "C" PRIMARY KEY, data TEXT NOT NULL)',
    """CREATE TABLE IF NOT EXISTS snapshots (
        game_id TEXT COLLATE "C" NOT NULL, seq BIGINT NOT NULL, key TEXT NOT NULL, state BYTEA NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
)
# Any constant: processes creating the tables at the same moment take turns (CREATE TABLE IF NOT EXISTS
# is not safe against a concurrent create).
_SCHEMA_LOCK = 0x7062656D

_INSERT_EVENT = f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
_INSERT_CHAINED = (
    f"INSERT INTO events ({_EVENT_COLUMNS}) SELECT %s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s "
    "WHERE EXISTS (SELECT 1 FROM events WHERE game_id = %s AND seq = %s AND hash = %s)"
)
_LAST = "SELECT seq, hash FROM events WHERE game_id = %s ORDER BY seq DESC LIMIT 1"


class PostgresEventStore:
    """Events in a table keyed on ``(game_id, seq)``: a duplicate key is the expected-seq conflict.

    Connections come from a pool, in autocommit mode: a read is one statement; ``append`` opens its
    own transaction. Payloads and causes are stored as the same canonical JSON text as in SQLite,
    so the hashes verify the same.
    """

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 4, timeout: float = 30.0) -> None:
        self.dsn = dsn
        self.pool = ConnectionPool(dsn, min_size=min_size, max_size=max_size, timeout=timeout,
                                   kwargs={"autocommit": True}, open=True, name="pbem-events")
        try:
            self.pool.wait(timeout=timeout)
            self._create_tables()
        except BaseException:
            self.pool.close()
            raise

    def close(self) -> None:
        self.pool.close()

    def _create_tables(self) -> None:
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for statement in _SCHEMA:
                conn.execute(statement)

    def append(self, game_id: str, expected_seq: int, events: Sequence[Event],
               extra_rows: Sequence[Row] = (), snapshot: Snapshot | None = None) -> None:
        """Write events, rows and a snapshot in one transaction, or nothing.

        The stored event at ``expected_seq`` must exist (and the first new event chain to it); a
        later one is caught by the primary key when the first new event is inserted.
        ``ValueError``: the events do not follow ``expected_seq`` or do not chain to the stored one.

        :raises ConcurrencyError: the stream's last seq is not ``expected_seq``.
        """
        for offset, event in enumerate(events, start=1):
            if event.game_id != game_id or event.seq != expected_seq + offset:
                raise ValueError(f"event {event.game_id}/{event.seq} does not follow {game_id}/{expected_seq}")
        with self.pool.connection() as conn:
            try:
                with conn.transaction(), conn.cursor() as cursor:
                    if events:
                        self._insert_events(cursor, game_id, expected_seq, events)
                    else:
                        self._check_last(cursor, game_id, expected_seq)
                    for row in extra_rows:
                        write_row(cursor, row)
                    if snapshot is not None:
                        _write_snapshot(cursor, snapshot)
            except psycopg.errors.UniqueViolation as err:
                if err.diag.table_name != "events":
                    raise
                raise ConcurrencyError(game_id, expected_seq, _last(conn, game_id)[0]) from None

    @staticmethod
    def _insert_events(cursor: psycopg.Cursor[Any], game_id: str, expected_seq: int,
                       events: Sequence[Event]) -> None:
        """Insert the events, the first only if the stored event at ``expected_seq`` is the one it chains to.

        One statement checks and inserts (no round trip for a separate check); a later stored event
        makes the first insert a duplicate key. The checks are diagnosed only when the insert wrote nothing.
        """
        rows = [_event_to_row(e) for e in events]
        if expected_seq == 0:
            if events[0].prev_hash != GENESIS_HASH:
                raise ValueError(f"event {game_id}/{events[0].seq} does not chain to the stored event 0")
            cursor.execute(_INSERT_EVENT, rows[0])
        else:
            cursor.execute(_INSERT_CHAINED, (*rows[0], game_id, expected_seq, events[0].prev_hash))
            if cursor.rowcount != 1:
                stored = cursor.execute("SELECT hash FROM events WHERE game_id = %s AND seq = %s",
                                        (game_id, expected_seq)).fetchone()
                if stored is None:
                    raise ConcurrencyError(game_id, expected_seq, _last(cursor.connection, game_id)[0])
                raise ValueError(f"event {game_id}/{events[0].seq} does not chain to the stored event {expected_seq}")
        if len(rows) > 1:
            cursor.executemany(_INSERT_EVENT, rows[1:])

    @staticmethod
    def _check_last(cursor: psycopg.Cursor[Any], game_id: str, expected_seq: int) -> None:
        """No event for the key to catch: lock the last event so that it stays the last until the commit."""
        found = cursor.execute(_LAST + " FOR SHARE", (game_id,)).fetchone()
        seq = found[0] if found else 0
        if seq != expected_seq:
            raise ConcurrencyError(game_id, expected_seq, seq)

    def last(self, game_id: str) -> tuple[int, str]:
        with self.pool.connection() as conn:
            return _last(conn, game_id)

    def read(self, game_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[Event]:
        query = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = %s AND seq > %s"
        params: list[Any] = [game_id, after_seq]
        if upto_seq is not None:
            query += " AND seq <= %s"
            params.append(upto_seq)
        with self.pool.connection() as conn:
            rows = conn.execute(query + " ORDER BY seq", params).fetchall()
        return [_row_to_event(r) for r in rows]

    def game_ids(self) -> list[str]:
        with self.pool.connection() as conn:
            return [r[0] for r in conn.execute("SELECT DISTINCT game_id FROM events ORDER BY game_id")]

    def seed(self, game_id: str) -> str | None:
        with self.pool.connection() as conn:
            found = conn.execute("SELECT seed FROM game_secrets WHERE game_id = %s", (game_id,)).fetchone()
        return found[0] if found else None

    def game_data(self, digest: str) -> str | None:
        with self.pool.connection() as conn:
            found = conn.execute("SELECT data FROM game_data WHERE digest = %s", (digest,)).fetchone()
        return str(found[0]) if found else None

    def save_snapshot(self, snapshot: Snapshot) -> None:
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            _write_snapshot(cursor, snapshot)

    def snapshots(self, game_id: str, upto_seq: int | None = None) -> Iterator[Snapshot]:
        query = "SELECT seq, key FROM snapshots WHERE game_id = %s"
        params: list[Any] = [game_id]
        if upto_seq is not None:
            query += " AND seq <= %s"
            params.append(upto_seq)
        with self.pool.connection() as conn:
            found = conn.execute(query + " ORDER BY seq DESC LIMIT 10", params).fetchall()
        for seq, key in found:
            with self.pool.connection() as conn:
                row = conn.execute("SELECT state FROM snapshots WHERE game_id = %s AND seq = %s",
                                   (game_id, seq)).fetchone()
            if row is not None:
                yield Snapshot(game_id, seq, key, bytes(row[0]))


def _last(conn: psycopg.Connection[Any], game_id: str) -> tuple[int, str]:
    found = conn.execute(_LAST, (game_id,)).fetchone()
    return (found[0], found[1]) if found else (0, GENESIS_HASH)


def _write_snapshot(cursor: psycopg.Cursor[Any], snapshot: Snapshot) -> None:
    """Write a snapshot; of the older ones keep one per ``KEEP_SNAPSHOT_EVERY`` events (a cache, bounded)."""
    cursor.execute(
        "INSERT INTO snapshots (game_id, seq, key, state) VALUES (%s,%s,%s,%s) "
        "ON CONFLICT (game_id, seq) DO UPDATE SET key = excluded.key, state = excluded.state",
        (snapshot.game_id, snapshot.seq, snapshot.key, snapshot.state))
    cursor.execute("DELETE FROM snapshots WHERE game_id = %s AND seq < %s AND seq %% %s != 0",
                   (snapshot.game_id, snapshot.seq, KEEP_SNAPSHOT_EVERY))


def write_row(cursor: psycopg.Cursor[Any], row: Row) -> None:
    """Insert, upsert on ``row.pk``, or delete, as ``events.store.write_row`` does in SQLite."""
    columns = list(row.values)
    values = [_sql_value(row.values[c]) for c in columns]
    table = sql.Identifier(row.table)
    if row.delete:
        where = sql.SQL(" AND ").join(sql.SQL("{} = %s").format(sql.Identifier(c)) for c in columns)
        cursor.execute(sql.SQL("DELETE FROM {} WHERE {}").format(table, where if columns else sql.SQL("TRUE")),
                       values)
        return
    statement: sql.Composable = sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(
        table, sql.SQL(", ").join(map(sql.Identifier, columns)), sql.SQL(", ").join([sql.Placeholder()] * len(columns)))
    if row.pk:
        conflict = sql.SQL(", ").join(map(sql.Identifier, row.pk))
        updates = [c for c in columns if c not in row.pk]
        if updates:
            sets = sql.SQL(", ").join(sql.SQL("{0} = excluded.{0}").format(sql.Identifier(c)) for c in updates)
            statement += sql.SQL(" ON CONFLICT ({}) DO UPDATE SET {}").format(conflict, sets)
        else:
            statement += sql.SQL(" ON CONFLICT ({}) DO NOTHING").format(conflict)
    cursor.execute(statement, values)
