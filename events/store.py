"""Event stores: the ``EventStore`` protocol and the SQLite store on sqlite-utils."""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import os
import sqlite3
import random
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence, TypeVar

import sqlite_utils

from events.envelope import GENESIS_HASH, Event, Visibility

try:
    import fcntl
except ImportError:  # not on this platform: writers meet SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)


class ConcurrencyError(Exception):
    """The stream moved on: the command was decided on an older state."""

    def __init__(self, game_id: str, expected_seq: int, actual_seq: int) -> None:
        super().__init__(
            f"game {game_id} has moved on: expected to append after event {expected_seq}, "
            f"but the last event is now {actual_seq}"
        )
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq


class CorruptLog(Exception):
    """A stream that does not read back or replay: an event no honest append wrote (a row edited in the database)."""

    def __init__(self, game_id: str, seq: Any, err: BaseException) -> None:
        problem = f"{err} is missing" if isinstance(err, KeyError) else str(err) or type(err).__name__
        super().__init__(f"event {seq} of game {game_id} does not replay: {problem}")
        self.game_id = game_id
        self.seq = seq
        self.problem = problem


class StoreUnavailable(Exception):
    """The database cannot be reached now (a server restarting, a network fault): nothing was written."""


@dataclass(frozen=True)
class Row:
    """A row written in the same transaction as the events (outbox, read models, secrets).

    With ``pk`` the row is upserted on those columns, else inserted; with ``delete`` the rows
    matching ``values`` are deleted.
    """

    table: str
    values: Mapping[str, Any]
    pk: tuple[str, ...] = field(default=())
    delete: bool = False


@dataclass(frozen=True)
class Snapshot:
    game_id: str
    seq: int
    key: str        # the rules and kernel version the state was made with
    state: bytes


class EventStore(Protocol):
    """What the kernel needs from a store; ``tests/test_store_contract.py`` checks any backend."""

    def append(self, game_id: str, expected_seq: int, events: Sequence[Event],
               extra_rows: Sequence[Row] = (), snapshot: Snapshot | None = None) -> None:
        """Write events, rows and a snapshot in one transaction, or nothing.

        :raises ConcurrencyError: the stream's last seq is not ``expected_seq``.
        """
        ...

    def read(self, game_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[Event]: ...

    def last(self, game_id: str) -> tuple[int, str]:
        """The last seq and hash of a stream: ``(0, GENESIS_HASH)`` if it is empty."""
        ...

    def game_ids(self) -> list[str]: ...

    def seed(self, game_id: str) -> str | None:
        """The game's secret seed, written as a ``game_secrets`` row when the game was created."""
        ...

    def game_data(self, digest: str) -> str | None:
        """The game data with this digest (canonical JSON), written as a ``game_data`` row by the first game
        that used it: a game's ``GameCreated`` names its data by digest (``events.gamedata``)."""
        ...

    def save_snapshot(self, snapshot: Snapshot) -> None: ...

    def snapshots(self, game_id: str, upto_seq: int | None = None) -> Iterator[Snapshot]:
        """The game's snapshots at or before ``upto_seq``, newest first, each read only when reached."""
        ...


KEEP_SNAPSHOT_EVERY = 100

_EVENT_COLUMNS = "game_id, seq, type, version, payload, actor, visibility, reveals, recorded_at, cause, prev_hash, hash"


_scan_json = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # the C scanner, not in the stubs
_visibility = functools.lru_cache(maxsize=256)(Visibility.decode)  # immutable values, a few distinct texts


def _loads(text: str) -> Any:
    """``json.loads`` of one stored JSON text, at half the cost: the C scanner without the wrappers.

    Anything but a single JSON value with nothing after it goes to ``json.loads`` for its error.
    """
    try:
        value, end = _scan_json(text, 0)
    except StopIteration:
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


_EVENT_FIELDS = tuple(f.name for f in dataclasses.fields(Event))
# Event is a plain frozen dataclass: its __init__ only sets the fields, one object.__setattr__ each, which
# was half the cost of reading a stream; filling __dict__ does the same. Were it ever to check anything
# (__post_init__), rows go through __init__ again.
_FILL_EVENT_DICT = not hasattr(Event, "__post_init__") and not hasattr(Event, "__slots__")


def _rows_to_events(rows: Sequence[Sequence[Any]]) -> list[Event]:
    """Events from stored rows, decoding each distinct cause once: the events of one command share its cause (as
    the command sealed them, one object), and causes are most of a stream's JSON (the command's text, action and
    link): decoding each event's cause was half the cost of reading a stream."""
    # Reading a stream is mostly this function (docs/benchmarks.md, "PostgreSQL event store").
    causes: dict[str, Any] = {}
    found = []
    row: Sequence[Any] = ()
    try:
        for row in rows:
            cause = causes.get(row[9])
            if cause is None:
                cause = causes[row[9]] = _loads(row[9])
            payload = _loads(row[4])
            if type(payload) is not dict or type(cause) is not dict or type(row[1]) is not int \
                    or type(row[3]) is not int:  # what no append writes, and SQLite's columns would take
                raise TypeError("not a JSON object, or not a number")
            values = (row[0], row[1], row[2], row[3], payload, row[5], _visibility(row[6]), bool(row[7]),
                      row[8], cause, row[10], row[11])
            if _FILL_EVENT_DICT:
                event: Event = object.__new__(Event)
                event.__dict__.update(zip(_EVENT_FIELDS, values))
            else:
                event = Event(*values)
            found.append(event)
    except (ValueError, TypeError) as err:  # a row edited by hand: JSON that does not parse, an unknown visibility
        raise CorruptLog(str(row[0]), row[1], ValueError(_unreadable(row))) from err
    return found


def _unreadable(row: Sequence[Any]) -> str:
    """Which part of a stored event cannot be read back, and why (only when one could not)."""
    for name, index in (("payload", 4), ("cause", 9)):
        try:
            value = json.loads(row[index])
        except (ValueError, TypeError) as err:
            return f"its {name} cannot be read: {err}"
        if type(value) is not dict:
            return f"its {name} is {_JSON_NAMES.get(type(value), 'a number')}, not a JSON object"
    for name, index in (("seq", 1), ("version", 3)):
        if type(row[index]) is not int:
            return f"its {name} is {row[index]!r}, not a whole number"
    return f"its visibility {row[6]!r} is none of public, server or seats:N,..."


_JSON_NAMES = {list: "an array", str: "a string", bool: "true or false", type(None): "null"}


def stored_as(event: Event, payload_json: str, cause_json: str) -> None:
    """Remember the canonical JSON of a new event's payload and cause, written already to hash them, so that
    storing the event does not write them again (``_event_to_row``)."""
    event.__dict__["_stored_json"] = (payload_json, cause_json)


def _event_to_row(event: Event) -> tuple[Any, ...]:
    texts = event.__dict__.get("_stored_json")
    if texts is None:
        texts = (json.dumps(event.payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
                 json.dumps(event.cause, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    return (event.game_id, event.seq, event.type, event.version, texts[0], event.actor, event.visibility.encode(),
            int(event.reveals), event.recorded_at, texts[1], event.prev_hash, event.hash)


JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")  # SQLite's settings; a store's is one of them, checked


def connect(path: str | Path, *, synchronous: str = "FULL", busy_timeout_ms: int = 10_000) -> sqlite3.Connection:
    """A connection with the settings measured for this workload (docs/storage.md).

    Autocommit mode: transactions are opened explicitly with ``BEGIN IMMEDIATE``, so
    a read-then-write never fails half-way with "database is locked".
    """
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                           timeout=busy_timeout_ms / 1000)
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    # 16 KiB pages keep one game's rows on fewer pages (docs/benchmarks.md); it only takes effect on a
    # new database, before WAL is set.
    conn.execute("PRAGMA page_size = 16384")
    _wal(conn, busy_timeout_ms / 1000)
    if synchronous.upper() not in SYNCHRONOUS:
        raise ValueError(f"synchronous is one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
    conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
    # After a checkpoint the WAL file is cut back to this size, instead of keeping its largest size forever.
    conn.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
    return conn


def _wal(conn: sqlite3.Connection, patience: float) -> None:
    """Put the database in WAL mode, once; then every later connection only reads that it is.

    Switching the mode needs a lock that SQLite does not wait for (the busy timeout does not
    apply), so processes opening a new database at the same moment retry for a while.
    """
    def switch() -> None:
        if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
            conn.execute("PRAGMA journal_mode = WAL")

    patiently(switch, patience)


T = TypeVar("T")


def patiently(step: Callable[[], T], patience: float = 10.0) -> T:
    """Run a schema step, again while another process holds the database ("database is locked").

    Creating tables and switching to WAL are what every process does when it first opens a new
    database; where SQLite answers busy without waiting (a lock it gives no busy handler to, a
    read snapshot another process's schema change made stale), the step is simply run again.
    """
    deadline = time.monotonic() + patience
    while True:
        try:
            return step()
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.005 + 0.02 * random.random())


class WriterTurns:
    """Who writes next to one SQLite file: pbem's writers take turns on a lock file, held for a whole transaction.

    SQLite lets one writer at a time in, and gives the others a busy handler that sleeps and tries again
    (1, 2, 5, 10 ... 100 ms): under load a waiter sleeps through most of the moments the lock is free. A web
    move waited 20-35 ms for a lock held 2-3 ms at a time (docs/benchmarks.md). So every pbem writer of a
    database file, in every process, first takes ``<database>-writer`` (``flock``) and keeps it until its
    transaction ends: a waiter sleeps in the kernel, using nothing, and is woken the moment the writer before
    it commits or rolls back. (Taking the file only until ``BEGIN IMMEDIATE`` succeeded left the next writer
    asking SQLite every 0.1 to 1 ms while the lock was held: CPU spent, and up to a millisecond lost at each
    hand-over.) The file only orders pbem's own writers: SQLite still decides who writes, so a writer that
    does not take it (another program, an old process) is still kept out by SQLite, and waited for with the
    connection's busy timeout. The kernel frees the file when its holder's process dies.

    A thread already writing to the file on one connection that opens a transaction on another connection to
    it is refused at once (it would wait for itself).
    """

    _held = threading.local()  # per thread: the writer files it holds, by (device, inode)

    def __init__(self, path: Path) -> None:
        self.fd: int | None = None
        self.key: tuple[int, int] | None = None
        if fcntl is None or str(path) == ":memory:":
            return
        try:
            self.fd = os.open(f"{path}-writer", os.O_RDWR | os.O_CREAT, 0o600)
            found = os.fstat(self.fd)
            self.key = (found.st_dev, found.st_ino)
        except OSError as err:  # a read-only folder: no queue, SQLite's busy handler alone
            log.warning("writers of %s do not queue (%s); SQLite's busy handler is their only wait", path, err)

    def begin(self, conn: sqlite3.Connection) -> None:
        """Take the turn, then ``BEGIN IMMEDIATE`` on ``conn``; ``end`` gives the turn up.

        :raises sqlite3.OperationalError: SQLite's lock still held (by a writer outside the turns) after the
            busy timeout, or this thread already writes to the database on another connection.
        """
        if self.fd is None:
            conn.execute("BEGIN IMMEDIATE")
            return
        held: set[tuple[int, int]] = self._held.__dict__.setdefault("files", set())
        if self.key in held:
            raise sqlite3.OperationalError("database is locked: this thread is already writing to it "
                                           "on another connection")
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            raise
        held.add(self.key)  # type: ignore[arg-type]

    def end(self) -> None:
        """Give the turn up, after ``COMMIT`` or ``ROLLBACK``."""
        if self.fd is not None:
            self._held.__dict__.get("files", set()).discard(self.key)
            fcntl.flock(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


# a side table asked for (``ensure_table``): its name, columns, key and indexes
TableSpec = tuple[str, dict[str, Any], str | tuple[str, ...], tuple[tuple[str, ...], ...]]


class SQLiteEventStore:
    """Events in a ``WITHOUT ROWID`` table clustered on ``(game_id, seq)``; WAL; one host only."""

    engine = "sqlite"

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        self.path = Path(path)
        self.synchronous = synchronous
        self.conn = connect(self.path, synchronous=synchronous)
        self.db = sqlite_utils.Database(self.conn)
        self._lock = threading.RLock()
        self._turns = WriterTurns(self.path)
        self._schema: list[TableSpec] | None = None
        self._create_tables()

    def close(self) -> None:
        self.conn.close()
        self._turns.close()

    @property
    def name(self) -> str:
        """The database file's full path: how caches and messages name the database."""
        return str(self.path.resolve())

    @property
    def address(self) -> str:
        """What opens this database again (``pbem.instance.database.open_address``): the file's path."""
        return str(self.path)

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    @staticmethod
    def time_between(start: str, end: str) -> str:
        """SQL of the ISO-8601 UTC time (to the second) a fraction (one ``?``) of the way from column ``start``
        to ``end`` (both ISO-8601 text). SQLite's date arithmetic keeps milliseconds, so a time within a
        millisecond of a whole second may come out one second apart from Python's."""
        return (f"strftime('%Y-%m-%dT%H:%M:%S+00:00', julianday({start}) + "
                f"(julianday({end}) - julianday({start})) * ?)")

    def checkpoint(self) -> None:
        """Fold the WAL back into the database file (after a batch of deletes), if no reader holds it."""
        with self._lock:
            self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def for_sending(self) -> SQLiteEventStore:
        """The store a mail sender records its mails on: its own connection, ``synchronous = NORMAL``
        (``pbem.post.mail.dispatch.sender_store`` says why)."""
        return SQLiteEventStore(self.path, synchronous="NORMAL")

    def _create_tables(self) -> None:
        patiently(lambda: self.conn.execute(
            """CREATE TABLE IF NOT EXISTS events (
                game_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, version INTEGER NOT NULL,
                payload TEXT NOT NULL, actor TEXT NOT NULL, visibility TEXT NOT NULL, reveals INTEGER NOT NULL,
                recorded_at TEXT NOT NULL, cause TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
                PRIMARY KEY (game_id, seq)
            ) WITHOUT ROWID"""
        ))
        patiently(lambda: self.db.table("game_data").create({"digest": str, "data": str}, pk="digest",
                                                             if_not_exists=True))
        patiently(lambda: self.db.table("game_secrets").create({"game_id": str, "seed": str}, pk="game_id",
                                                                if_not_exists=True))
        patiently(lambda: self.db.table("snapshots").create(
            {"game_id": str, "seq": int, "key": str, "state": bytes},
            pk=("game_id", "seq"), if_not_exists=True,
        ))

    @contextmanager
    def schema(self) -> Iterator[None]:
        """Make the side tables ``ensure_table`` is asked for inside this block in one transaction, when it ends.

        A new database's tables each made in a transaction of its own cost a commit each, most of what opening
        an instance took; made together they cost one."""
        with self._lock:
            if self._schema is not None:  # inside another such block: that one makes them
                yield
                return
            self._schema = []
            try:
                yield
                asked = self._schema
            finally:
                self._schema = None
            if asked:
                patiently(lambda: self._make(asked))

    def ensure_table(self, name: str, columns: Mapping[str, Any], pk: str | tuple[str, ...],
                     indexes: Sequence[Sequence[str]] = ()) -> None:
        """Create a side table (outbox, read model) if it is missing, add the columns it lacks, and its indexes.

        A database made by an older version gains the new columns (``ALTER TABLE ADD COLUMN``: its rows get NULL
        there). All of it is one ``BEGIN IMMEDIATE`` transaction (SQL as sqlite-utils writes it, indexes named as
        it names them), so two processes starting at once do not both add them; inside ``schema`` it waits for the
        block's end and joins its transaction.
        """
        table = (name, dict(columns), pk, tuple(tuple(index) for index in indexes))
        with self._lock:
            if self._schema is not None:
                self._schema.append(table)
                return
        patiently(lambda: self._make([table]))

    def _make(self, tables: Sequence[TableSpec]) -> None:
        with self.transaction() as conn:
            for name, columns, pk, indexes in tables:
                conn.execute(self.db.create_table_sql(name, columns, pk=pk, if_not_exists=True))
                have = {r[1] for r in conn.execute(f'PRAGMA table_info("{name}")')}
                for column, kind in columns.items():
                    if column not in have:
                        sql_type = sqlite_utils.db.COLUMN_TYPE_MAPPING[kind]
                        conn.execute(f'ALTER TABLE "{name}" ADD COLUMN "{column}" {sql_type}')
                for index in indexes:
                    listed = ", ".join(f'"{column}"' for column in index)
                    conn.execute(f'CREATE INDEX IF NOT EXISTS "idx_{name}_{"_".join(index)}" ON "{name}" ({listed})')

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` (in turn: ``WriterTurns``) ... ``COMMIT``, or ``ROLLBACK`` on any error."""
        with self._lock:
            if self.conn.in_transaction:
                self.conn.execute("BEGIN IMMEDIATE")  # refused by SQLite: no transaction inside a transaction
            self._turns.begin(self.conn)
            try:
                try:
                    yield self.conn
                except BaseException:
                    self.conn.execute("ROLLBACK")
                    raise
                self.conn.execute("COMMIT")
            finally:
                self._turns.end()

    def append(self, game_id: str, expected_seq: int, events: Sequence[Event],
               extra_rows: Sequence[Row] = (), snapshot: Snapshot | None = None) -> None:
        for offset, event in enumerate(events, start=1):
            if event.game_id != game_id or event.seq != expected_seq + offset:
                raise ValueError(f"event {event.game_id}/{event.seq} does not follow {game_id}/{expected_seq}")
        # everything but the writing is done before the lock is taken: other writers wait while it is held
        rows = [_event_to_row(e) for e in events]
        statements = [row_statement(row) for row in extra_rows]
        with self.transaction() as conn:
            seq, last_hash = self._last(conn, game_id)
            if seq != expected_seq:
                raise ConcurrencyError(game_id, expected_seq, seq)
            if events and events[0].prev_hash != last_hash:
                raise ValueError(f"event {game_id}/{events[0].seq} does not chain to the stored event {seq}")
            conn.executemany(f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
            for sql, values in statements:
                conn.execute(sql, values)
            if snapshot is not None:
                self._write_snapshot(conn, snapshot)

    @staticmethod
    def _last(conn: sqlite3.Connection, game_id: str) -> tuple[int, str]:
        found = conn.execute(
            "SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
        return (found[0], found[1]) if found else (0, GENESIS_HASH)

    def last(self, game_id: str) -> tuple[int, str]:
        with self._lock:
            return self._last(self.conn, game_id)

    def read(self, game_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[Event]:
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ?"
        params: list[Any] = [game_id, after_seq]
        if upto_seq is not None:
            sql += " AND seq <= ?"
            params.append(upto_seq)
        with self._lock:
            rows = self.conn.execute(sql + " ORDER BY seq", params).fetchall()
        return _rows_to_events(rows)

    def game_ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self.conn.execute("SELECT DISTINCT game_id FROM events ORDER BY game_id")]

    def seed(self, game_id: str) -> str | None:
        with self._lock:
            found = self.conn.execute("SELECT seed FROM game_secrets WHERE game_id = ?", (game_id,)).fetchone()
        return found[0] if found else None

    def game_data(self, digest: str) -> str | None:
        with self._lock:
            found = self.conn.execute("SELECT data FROM game_data WHERE digest = ?", (digest,)).fetchone()
        return str(found[0]) if found else None

    def save_snapshot(self, snapshot: Snapshot) -> None:
        with self.transaction() as conn:
            self._write_snapshot(conn, snapshot)

    @staticmethod
    def _write_snapshot(conn: sqlite3.Connection, snapshot: Snapshot) -> None:
        """Write a snapshot; of the older ones keep one per ``KEEP_SNAPSHOT_EVERY`` events (a cache, bounded)."""
        conn.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, key, state) VALUES (?,?,?,?)",
                     (snapshot.game_id, snapshot.seq, snapshot.key, snapshot.state))
        conn.execute("DELETE FROM snapshots WHERE game_id = ? AND seq < ? AND seq % ? != 0",
                     (snapshot.game_id, snapshot.seq, KEEP_SNAPSHOT_EVERY))

    def snapshots(self, game_id: str, upto_seq: int | None = None) -> Iterator[Snapshot]:
        sql = "SELECT seq, key FROM snapshots WHERE game_id = ?"
        params: list[Any] = [game_id]
        if upto_seq is not None:
            sql += " AND seq <= ?"
            params.append(upto_seq)
        with self._lock:
            found = self.conn.execute(sql + " ORDER BY seq DESC LIMIT 10", params).fetchall()
        for seq, key in found:
            with self._lock:
                row = self.conn.execute("SELECT state FROM snapshots WHERE game_id = ? AND seq = ?",
                                        (game_id, seq)).fetchone()
            if row is not None:
                yield Snapshot(game_id, seq, key, row[0])

    def query(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[dict[str, Any]]:
        """Rows of a read-only query as dicts (read models)."""
        with self._lock:
            cursor = self.conn.execute(sql, params)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, r)) for r in cursor.fetchall()]


def write_row(conn: sqlite3.Connection, row: Row) -> None:
    conn.execute(*row_statement(row))


def row_statement(row: Row) -> tuple[str, list[Any]]:
    """The statement that writes (or deletes) ``row``, and its values."""
    columns = tuple(row.values)
    values = [_sql_value(row.values[c]) for c in columns]
    return _row_sql(row.table, columns, row.pk, row.delete), values


@functools.lru_cache(maxsize=512)
def _row_sql(table: str, columns: tuple[str, ...], pk: tuple[str, ...] | None, delete: bool) -> str:
    if delete:
        where = " AND ".join(f'"{c}" = ?' for c in columns) or "1 = 1"
        return f'DELETE FROM "{table}" WHERE {where}'
    names = ", ".join(f'"{c}"' for c in columns)
    marks = ", ".join("?" for _ in columns)
    sql = f'INSERT INTO "{table}" ({names}) VALUES ({marks})'
    if pk:
        updates = [c for c in columns if c not in pk]
        conflict = ", ".join(f'"{c}"' for c in pk)
        if updates:
            sets = ", ".join(f'"{c}" = excluded."{c}"' for c in updates)
            sql += f" ON CONFLICT ({conflict}) DO UPDATE SET {sets}"
        else:
            sql += f" ON CONFLICT ({conflict}) DO NOTHING"
    return sql


def lock_clause(conn: Any) -> str:
    """What a select of rows to claim ends with on this connection: ``FOR UPDATE SKIP LOCKED`` on PostgreSQL
    (another sender's rows are passed over, not waited for); nothing on SQLite, whose write transactions
    (``BEGIN IMMEDIATE``) run one at a time."""
    return str(getattr(conn, "skip_locked", ""))


def _sql_value(value: Any) -> Any:
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    return value
