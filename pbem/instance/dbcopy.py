"""Copying an instance's database to another engine: SQLite to PostgreSQL, and back.

Every game's events go through the target store's ``append`` (its own chain check), then every game's
chain is read back from the target and verified (``events.audit.verify_chain``); every other table
(secrets, game data, read models, the outbox and its attempts, ...) is copied row by row, the columns
both sides have. Snapshots are a cache: they are not copied (the target makes its own). The target
must be empty: nothing is ever merged into a database that is in use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from events.audit import verify_chain
from events.envelope import GENESIS_HASH

SKIPPED = ("events", "snapshots")  # the events go through append; snapshots are a cache
BATCH = 1000


class CopyRefused(Exception):
    """The copy cannot start (a target in use) or did not arrive whole; the message says which."""


Progress = Callable[[int, int, str], None]  # (steps done, steps in all, the step in words): never silent


@dataclass
class CopyReport:
    games: int = 0
    events: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    not_copied: list[str] = field(default_factory=list)  # tables the target lacks (made by another version?)


def _silent(done: int, total: int, words: str) -> None:
    """No progress shown."""


def table_names(store: Any) -> list[str]:
    """The tables of a store's database, in name order."""
    if store.engine == "sqlite":
        found = store.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                            "ORDER BY name")
        return [str(r["name"]) for r in found]
    found = store.query("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = "
                        "current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name")
    return [str(r["name"]) for r in found]


def _columns(store: Any, table: str) -> dict[str, str]:
    """A table's columns and their declared types (lower case)."""
    if store.engine == "sqlite":
        rows = store.query(f'SELECT name, type FROM pragma_table_info(\'{table}\')')
        return {str(r["name"]): str(r["type"]).lower() for r in rows}
    rows = store.query("SELECT column_name AS name, data_type AS type FROM information_schema.columns "
                       "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position", (table,))
    return {str(r["name"]): str(r["type"]).lower() for r in rows}


def _empty(store: Any) -> bool:
    for table in table_names(store):
        if store.query(f'SELECT 1 AS x FROM "{table}" LIMIT 1'):
            return False
    return True


def _fit(value: Any, kind: str) -> Any:
    """A value of the source as the target's column takes it (SQLite keeps any type in any column)."""
    if isinstance(value, memoryview):
        value = bytes(value)
    if kind == "bytea" and isinstance(value, str):
        return value.encode("utf-8")  # a draft kept as JSON text by an older version
    if kind in ("text", "character varying") and isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="replace")
    return value


def copy(source: Any, target: Any, create_tables: Callable[[Any], None], progress: Progress = _silent) -> CopyReport:
    """Copy everything of ``source`` into the empty ``target``; verify every game's chain there.

    ``create_tables`` makes the delivery layer's tables on the target first (``pbem.service.create_tables``).
    ``progress`` is told of each step: a game copied, a table copied, a game verified on the target.

    :raises CopyRefused: the target is not empty, or a game's chain did not verify on arrival.
    """
    if not _empty(target):
        raise CopyRefused(f"the target database {target.name} is not empty: copy only into a new, empty one")
    create_tables(target)
    report = CopyReport()
    game_ids = list(source.game_ids())
    tables = [t for t in table_names(source) if t not in SKIPPED]
    total, done = 2 * len(game_ids) + len(tables), 0

    def step(words: str) -> None:
        nonlocal done
        done += 1
        progress(done, total, words)

    for game_id in game_ids:
        events = source.read(game_id)
        if events:
            if events[0].prev_hash != GENESIS_HASH:
                raise CopyRefused(f"game {game_id}: its first stored event does not start a chain")
            target.append(game_id, 0, events)
        report.games += 1
        report.events += len(events)
        step(f"game {game_id}: {len(events)} events copied")
    have = set(table_names(target))
    for table in tables:
        if table not in have:
            report.not_copied.append(table)
            step(f"table {table}: not on the target (made by another version?); not copied")
            continue
        theirs, ours = _columns(target, table), _columns(source, table)
        names = [c for c in ours if c in theirs]
        listed = ", ".join(f'"{c}"' for c in names)
        marks = ", ".join("?" for _ in names)
        rows = source.query(f'SELECT {listed} FROM "{table}"')
        for start in range(0, len(rows), BATCH):
            with target.transaction() as conn:
                conn.executemany(f'INSERT INTO "{table}" ({listed}) VALUES ({marks})',
                                 [[_fit(r[c], theirs[c]) for c in names] for r in rows[start:start + BATCH]])
        report.rows[table] = len(rows)
        step(f"table {table}: {len(rows)} rows")
    for game_id in game_ids:
        arrived = target.read(game_id)
        finding = verify_chain(arrived, game_id, target.seed(game_id))
        if finding is not None or len(arrived) != len(source.read(game_id)):
            raise CopyRefused(f"game {game_id} did not arrive whole: {finding or 'events are missing'}")
        step(f"game {game_id}: its chain of {len(arrived)} events verified on the target")
    return report
