"""Which database an instance uses: a SQLite file (the embedded default) or a PostgreSQL server.

Both stores offer the same surface (``events.store``): the events, and for the delivery layer
``query``, ``transaction`` (a connection whose ``execute`` takes ``?`` placeholders), ``write_row``
and ``ensure_table``. A PostgreSQL store is shared by every service and thread of a process: one
connection pool of ``pool_size`` per process.
"""

from __future__ import annotations

from typing import Any, Union

from events.store import SQLiteEventStore
from pbem.instance import config

Store = Union[SQLiteEventStore, Any]  # or events.pgstore.PostgresEventStore (psycopg imported only when used)


def open_store(settings: config.Settings) -> Store:
    """The instance's store: PostgreSQL if ``database`` is a ``postgresql://`` address, else the SQLite file."""
    url = settings.database_url
    settings.instance.mkdir(parents=True, exist_ok=True)  # the mailbox and the lock file live there on both engines
    if config.is_postgres(url):
        return open_postgres(url, pool_size=int(settings["pool_size"]),
                             timeout=float(settings["database_timeout"]))
    return SQLiteEventStore(url, synchronous=str(settings["synchronous"]))


def open_postgres(url: str, *, pool_size: int = 4, timeout: float = 10.0) -> Any:
    """This process's store on the PostgreSQL database at ``url`` (one pool, shared)."""
    try:
        from events import pgstore
    except ImportError as err:
        raise config.ConfigError(f"database is a PostgreSQL address, but psycopg is not installed ({err}): "
                                 "pip install 'psycopg[binary,pool]'") from None
    return pgstore.shared(url, max_size=max(1, pool_size), timeout=timeout)


def open_address(address: str, *, synchronous: str = "FULL") -> Store:
    """A store from an address alone (a ``postgresql://`` URL, else a SQLite file path), e.g. ``pbem db copy``."""
    if config.is_postgres(address):
        return open_postgres(address)
    return SQLiteEventStore(address, synchronous=synchronous)
