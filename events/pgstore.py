"""The PostgreSQL event store: the ``EventStore`` protocol on psycopg 3 and its connection pool.

The store offers the delivery layer the same small SQL surface as ``SQLiteEventStore`` (``query``,
``transaction`` yielding a connection whose ``execute`` takes ``?`` placeholders, ``ensure_table``,
``write_row``), so every query of ``pbem/`` runs on both engines: each SQL text is translated once
(``?`` to ``%s``), then cached. A lost connection (the server restarted) is dropped by the pool and
the next command gets a new one; while the server cannot be reached, commands fail with
``StoreUnavailable`` and write nothing.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from contextlib import contextmanager
from typing import Any, Iterator, Mapping, Sequence

import psycopg
from psycopg import sql
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from events.envelope import GENESIS_HASH, Event
from events.store import (_EVENT_COLUMNS, KEEP_SNAPSHOT_EVERY, ConcurrencyError, Row, Snapshot, StoreUnavailable,
                          TableSpec, _event_to_row, _rows_to_events, write_row as write_row_of_sql)

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


# Column types of ``ensure_table``, as SQLite's tables declare them (sqlite-utils): text compares byte by byte
# ("C"), as in SQLite, whatever the database's locale.
COLUMN_TYPES: Mapping[Any, str] = {str: 'TEXT COLLATE "C"', int: "BIGINT", float: "DOUBLE PRECISION",
                                   bytes: "BYTEA", bool: "BIGINT"}

_TOKENS = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|[?%]""")


@functools.lru_cache(maxsize=4096)
def translate(text: str) -> str:
    """An SQL text of the delivery layer (``?`` placeholders) as psycopg takes it (``%s``); once per text.

    Quoted strings, quoted names and comments are left alone; a literal ``%`` is doubled.
    """
    return _TOKENS.sub(lambda m: "%s" if m.group() == "?" else "%%" if m.group() == "%" else m.group(), text)


def _values(params: Any) -> Any:
    """Parameters as SQLite takes them: a bool is an integer (the columns are integers, not booleans)."""
    if isinstance(params, Mapping):
        return params
    return [int(p) if p.__class__ is bool else p for p in params]


def _down(err: BaseException, conn: psycopg.Connection[Any] | None) -> bool:
    """Whether an error means the server cannot be reached (rather than a refused statement)."""
    if isinstance(err, PoolTimeout):
        return True
    if not isinstance(err, psycopg.OperationalError):
        return False
    return conn is None or conn.broken or conn.closed or getattr(err, "sqlstate", None) in (None, "57P01", "57P02",
                                                                                          "57P03")


class Result:
    """A statement's outcome as the delivery layer reads it from ``sqlite3``: rows (none for a write)."""

    __slots__ = ("_cursor",)

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def description(self) -> Any:
        return self._cursor.description

    def fetchall(self) -> list[Any]:
        return self._cursor.fetchall() if self._cursor.description is not None else []

    def fetchone(self) -> Any:
        return self._cursor.fetchone() if self._cursor.description is not None else None

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class Connection:
    """One connection in a transaction, with ``sqlite3``'s ``execute``/``executemany`` and ``?`` placeholders."""

    skip_locked = " FOR UPDATE SKIP LOCKED"  # added to the selects of rows to claim (``events.store.lock_clause``)

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.raw = conn

    def execute(self, text: str, params: Any = ()) -> Result:
        cursor = self.raw.cursor()
        cursor.execute(translate(text), _values(params))
        return Result(cursor)

    def executemany(self, text: str, rows: Any) -> Result:
        cursor = self.raw.cursor()
        cursor.executemany(translate(text), [_values(r) for r in rows])
        return Result(cursor)


class PostgresEventStore:
    """Events in a table keyed on ``(game_id, seq)``: a duplicate key is the expected-seq conflict.

    Connections come from a pool, in autocommit mode: a read is one statement; ``append`` and
    ``transaction`` open their own transaction. Payloads and causes are stored as the same canonical
    JSON text as in SQLite, so the hashes verify the same. One store serves every thread of a process.
    """

    engine = "postgresql"

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 4, timeout: float = 30.0,
                 shared: bool = False) -> None:
        self.dsn = dsn
        self.shared = shared  # one store per process and address (``shared``): ``close`` leaves it open
        self.pool = ConnectionPool(dsn, min_size=min_size, max_size=max_size, timeout=timeout,
                                   kwargs={"autocommit": True}, open=True, name="pbem-events")
        self._local = threading.local()
        try:
            self.pool.wait(timeout=timeout)
            self._create_tables()
        except PoolTimeout as err:
            self.pool.close()
            raise StoreUnavailable(f"the database at {self.name} cannot be reached: {err}") from None
        except BaseException:
            self.pool.close()
            raise

    @property
    def name(self) -> str:
        """The database's address, without any password: how logs and caches name it."""
        return redact(self.dsn)

    @property
    def address(self) -> str:
        """What opens this database again (``pbem.instance.database.open_address``): its address, password and all."""
        return self.dsn

    def close(self) -> None:
        if not self.shared:
            self.pool.close()

    def _create_tables(self) -> None:
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for statement in _SCHEMA:
                conn.execute(statement)

    # ---- the SQL surface the delivery layer shares with the SQLite store ----------------------

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool; ``StoreUnavailable`` if the server cannot be reached."""
        conn: psycopg.Connection[Any] | None = None
        try:
            with self.pool.connection() as conn:
                yield conn
        except (psycopg.OperationalError, PoolTimeout) as err:
            if _down(err, conn):
                raise StoreUnavailable(f"the database cannot be reached ({str(err).strip() or type(err).__name__}); "
                                       "nothing was written") from err
            raise

    @property
    def in_transaction(self) -> bool:
        """Whether this thread has a transaction open (``transaction``)."""
        return getattr(self._local, "conn", None) is not None

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """``BEGIN`` ... ``COMMIT`` on one connection of the pool, or ``ROLLBACK`` on any error.

        While it is open, this thread's ``query`` reads through it (as on SQLite's one connection).
        A connection the server dropped since it was last used fails at ``BEGIN``: another is taken.
        """
        if getattr(self._local, "conn", None) is not None:
            # as on SQLite (no BEGIN inside a transaction): a second connection could wait on the first's locks
            raise RuntimeError("a transaction is already open on this thread")
        for attempt in range(self.pool.max_size + 1):
            with self._connection() as conn:
                try:
                    conn.execute("BEGIN")
                except psycopg.OperationalError:
                    if conn.broken and attempt < self.pool.max_size:
                        continue  # the pool drops it when it comes back
                    raise
                self._local.conn = conn
                try:
                    yield Connection(conn)
                except BaseException:
                    self._local.conn = None
                    if not conn.broken:
                        conn.execute("ROLLBACK")
                    raise
                self._local.conn = None
                try:
                    conn.execute("COMMIT")
                except psycopg.OperationalError as err:
                    if not _down(err, conn):
                        raise
                    # the server may have committed before the connection was lost: say so, not "nothing written"
                    raise StoreUnavailable("the database connection was lost while committing; the command may "
                                           "or may not have been recorded (look again before repeating it)") from err
                return

    def query(self, text: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[dict[str, Any]]:
        """Rows of a read-only query as dicts (read models); inside ``transaction``, read through it."""
        current = getattr(self._local, "conn", None)
        if current is not None:
            cursor = current.cursor(row_factory=dict_row)
            rows: list[dict[str, Any]] = cursor.execute(translate(text), _values(params)).fetchall()
            return rows
        for attempt in range(self.pool.max_size + 1):
            with self._connection() as conn:
                try:
                    return conn.cursor(row_factory=dict_row).execute(translate(text), _values(params)).fetchall()
                except psycopg.OperationalError:
                    if conn.broken and attempt < self.pool.max_size:
                        continue  # a read is safe to run again, on a fresh connection
                    raise
        raise AssertionError("unreachable")

    @contextmanager
    def schema(self) -> Iterator[None]:
        """Make the side tables ``ensure_table`` is asked for inside this block in one transaction, when it ends
        (as the SQLite store: one commit and one look at the columns for them all)."""
        if getattr(self._local, "schema", None) is not None:  # inside another such block: that one makes them
            yield
            return
        self._local.schema = []
        try:
            yield
            asked = self._local.schema
        finally:
            self._local.schema = None
        if asked:
            self._make(asked)

    def ensure_table(self, name: str, columns: Mapping[str, Any], pk: str | tuple[str, ...],
                     indexes: Sequence[Sequence[str]] = ()) -> None:
        """Create a side table (outbox, read model) if it is missing, add the columns it lacks, and its indexes.

        One transaction under the schema lock: processes starting at once take turns. Inside ``schema`` it waits
        for the block's end and joins its transaction.
        """
        table = (name, dict(columns), pk, tuple(tuple(index) for index in indexes))
        asked = getattr(self._local, "schema", None)
        if asked is not None:
            asked.append(table)
            return
        self._make([table])

    def _make(self, tables: Sequence[TableSpec]) -> None:
        with self.transaction() as conn:
            conn.raw.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for name, columns, pk, _ in tables:
                keys = (pk,) if isinstance(pk, str) else tuple(pk)
                defs = [sql.SQL("{} {}").format(sql.Identifier(c), sql.SQL(COLUMN_TYPES[kind]))
                        for c, kind in columns.items()]
                defs.append(sql.SQL("PRIMARY KEY ({})").format(sql.SQL(", ").join(map(sql.Identifier, keys))))
                conn.raw.execute(sql.SQL("CREATE TABLE IF NOT EXISTS {} ({})").format(
                    sql.Identifier(name), sql.SQL(", ").join(defs)))
            have: dict[str, set[str]] = {}
            for table_name, column_name in conn.raw.execute(
                    "SELECT table_name, column_name FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = ANY(%s)", ([t[0] for t in tables],)):
                have.setdefault(table_name, set()).add(column_name)
            for name, columns, _, indexes in tables:
                ident = sql.Identifier(name)
                for column, kind in columns.items():
                    if column not in have.get(name, set()):
                        conn.raw.execute(sql.SQL("ALTER TABLE {} ADD COLUMN {} {}").format(
                            ident, sql.Identifier(column), sql.SQL(COLUMN_TYPES[kind])))
                for index in indexes:
                    conn.raw.execute(sql.SQL("CREATE INDEX IF NOT EXISTS {} ON {} ({})").format(
                        sql.Identifier(f"idx_{name}_{'_'.join(index)}"), ident,
                        sql.SQL(", ").join(map(sql.Identifier, index))))

    @staticmethod
    def time_between(start: str, end: str) -> str:
        """SQL of the ISO-8601 UTC time (to the second) a fraction (one ``?``) of the way from column ``start``
        to ``end`` (both ISO-8601 text)."""
        return (f"to_char(({start}::timestamptz + ({end}::timestamptz - {start}::timestamptz) * ?::float8) "
                "AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"+00:00\"')")

    def checkpoint(self) -> None:
        """Nothing to do: PostgreSQL recycles its write-ahead log itself (SQLite's store checkpoints here)."""

    def for_sending(self) -> PostgresEventStore:
        """The store a mail sender records on: this one (a commit waits for the server's own durability)."""
        return self

    # ---- the events -----------------------------------------------------------------------------

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
        try:
            with self.transaction() as conn, conn.raw.cursor() as cursor:
                if events:
                    self._insert_events(cursor, game_id, expected_seq, events)
                else:
                    self._check_last(cursor, game_id, expected_seq)
                for row in extra_rows:
                    write_row_of_sql(conn, row)  # type: ignore[arg-type]
                if snapshot is not None:
                    _write_snapshot(cursor, snapshot)
        except psycopg.errors.UniqueViolation as err:
            if err.diag.table_name != "events":
                raise
            raise ConcurrencyError(game_id, expected_seq, self.last(game_id)[0]) from None

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

    def _read(self, step: Any) -> Any:
        """``step(connection)`` of a read, run again on a fresh connection if the server dropped the first."""
        for attempt in range(self.pool.max_size + 1):
            with self._connection() as conn:
                try:
                    return step(conn)
                except psycopg.OperationalError:
                    if conn.broken and attempt < self.pool.max_size:
                        continue
                    raise
        raise AssertionError("unreachable")

    def last(self, game_id: str) -> tuple[int, str]:
        found: tuple[int, str] = self._read(lambda conn: _last(conn, game_id))
        return found

    def read(self, game_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[Event]:
        query = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = %s AND seq > %s"
        params: list[Any] = [game_id, after_seq]
        if upto_seq is not None:
            query += " AND seq <= %s"
            params.append(upto_seq)
        rows = self._read(lambda conn: conn.execute(query + " ORDER BY seq", params).fetchall())
        return _rows_to_events(rows)

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._read(
            lambda conn: conn.execute("SELECT DISTINCT game_id FROM events ORDER BY game_id").fetchall())]

    def seed(self, game_id: str) -> str | None:
        found = self._read(lambda conn: conn.execute("SELECT seed FROM game_secrets WHERE game_id = %s",
                                                     (game_id,)).fetchone())
        return found[0] if found else None

    def game_data(self, digest: str) -> str | None:
        found = self._read(lambda conn: conn.execute("SELECT data FROM game_data WHERE digest = %s",
                                                     (digest,)).fetchone())
        return str(found[0]) if found else None

    def save_snapshot(self, snapshot: Snapshot) -> None:
        with self.transaction() as conn, conn.raw.cursor() as cursor:
            _write_snapshot(cursor, snapshot)

    def snapshots(self, game_id: str, upto_seq: int | None = None) -> Iterator[Snapshot]:
        query = "SELECT seq, key FROM snapshots WHERE game_id = %s"
        params: list[Any] = [game_id]
        if upto_seq is not None:
            query += " AND seq <= %s"
            params.append(upto_seq)
        found = self._read(lambda conn: conn.execute(query + " ORDER BY seq DESC LIMIT 10", params).fetchall())
        for seq, key in found:
            row = self._read(lambda conn: conn.execute("SELECT state FROM snapshots WHERE game_id = %s AND seq = %s",
                                                       (game_id, seq)).fetchone())
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


def redact(dsn: str) -> str:
    """A connection string or URL without its password."""
    dsn = re.sub(r"(postgres(?:ql)?://[^:/@]*):[^@]*@", r"\1:***@", dsn)
    return re.sub(r"password\s*=\s*\S+", "password=***", dsn)


_shared: dict[tuple[str, int], PostgresEventStore] = {}
_shared_lock = threading.Lock()


def shared(dsn: str, *, max_size: int = 4, timeout: float = 30.0) -> PostgresEventStore:
    """The process's store for this address (one pool per process, whatever the number of services and
    threads); a new one in a forked child, whose parent's connections it must not use."""
    key = (dsn, os.getpid())
    with _shared_lock:
        found = _shared.get(key)
        if found is None or found.pool.closed:
            found = _shared[key] = PostgresEventStore(dsn, min_size=1, max_size=max_size, timeout=timeout,
                                                      shared=True)
        return found


def close_shared() -> None:
    """Close every shared store of this process (at its end, or in tests)."""
    with _shared_lock:
        for key, store in list(_shared.items()):
            if key[1] == os.getpid():
                store.pool.close()
            del _shared[key]
