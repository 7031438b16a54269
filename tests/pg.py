"""A throwaway PostgreSQL server for the tests and benchmarks, from the Debian package's binaries.

The server runs in a temporary folder, listens only on a unix socket in that folder (no TCP port),
with ``fsync=off``, and is stopped and deleted at the end. PostgreSQL refuses to run as root, so
when the tests run as root, ``initdb`` and ``pg_ctl`` run as the ``postgres`` user (``runuser``).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

START_TIMEOUT = 20  # seconds, for initdb, start and stop each


class Unavailable(Exception):
    """No PostgreSQL server can be started here; the message says why."""


def bindir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's newest version, else the ``PATH``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


class PgServer:
    """One server; ``dsn(name)`` addresses a database on it, ``create_database`` makes a fresh one."""

    def __init__(self) -> None:
        bins = bindir()
        if bins is None or not (bins / "pg_ctl").exists():
            raise Unavailable("PostgreSQL binaries not found (Debian package 'postgresql')")
        self.bins = bins
        self._as_postgres: list[str] = []
        if os.geteuid() == 0:
            runuser = shutil.which("runuser")
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                account = None
            if runuser is None or account is None:
                raise Unavailable("running as root, and no 'postgres' user or no runuser to start the server")
            self._as_postgres = [runuser, "-u", "postgres", "--"]
        self.folder = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
        if self._as_postgres:
            os.chown(self.folder, account.pw_uid, account.pw_gid)  # type: ignore[union-attr]
        self.data = self.folder / "data"
        self._names = itertools.count(1)
        self._with_tables: str | None = None  # the template database with pbem's tables, once made
        self._shape: str | None = None  # its schema, as ``_shape_of`` writes it
        self._spare: list[str] = []  # databases with pbem's tables, emptied after a test, for the next
        self._admin_conn: Any = None  # a connection to the server's own database, kept
        self._started = False
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _run(self, *args: str) -> None:
        try:
            done = subprocess.run([*self._as_postgres, *args], capture_output=True, text=True,
                                  timeout=START_TIMEOUT + 5)
        except subprocess.TimeoutExpired as err:
            raise Unavailable(f"{Path(args[0]).name} did not finish in {START_TIMEOUT + 5} s") from err
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-600:] if log.exists() else ""
            raise Unavailable(f"{Path(args[0]).name} failed: {(done.stderr or done.stdout).strip()[-600:]} {tail}")

    def _start(self) -> None:
        self._run(str(self.bins / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        self.start()

    def start(self) -> None:
        """Start the server on its data (again, after ``pause``)."""
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        self._run(str(self.bins / "pg_ctl"), "start", "-D", str(self.data), "-l", str(self.folder / "server.log"),
                  "-w", "-t", str(START_TIMEOUT), "-o", options)
        self._started = True

    def pause(self) -> None:
        """Stop the server as an operator restarting it would (``-m fast``: every connection is cut), keeping its
        data; ``start`` brings it back."""
        self._close_admin()
        self._run(str(self.bins / "pg_ctl"), "stop", "-D", str(self.data), "-m", "fast", "-w",
                  "-t", str(START_TIMEOUT))

    def dsn(self, dbname: str = "postgres") -> str:
        return f"host={self.folder} user=postgres dbname={dbname}"

    def url(self, dbname: str = "postgres") -> str:
        """The database's address as ``PBEM_DATABASE`` takes it (a URL; the socket folder as ``host``)."""
        return f"postgresql://postgres@/{dbname}?host={self.folder}"

    def create_database(self, tables: bool = False) -> str:
        """A new database, empty or (``tables``) with every table of pbem's made; its name.

        pbem's tables are made once, in a template database of their own, and each database that asks for them is a
        copy of it: a test's service finds them there and makes none (the PostgreSQL tests of three delivery files
        set up in 28 s instead of 48 s; a copy by ``STRATEGY FILE_COPY`` was slower, its checkpoints writing out
        what the other tests left in the server's buffers).
        """
        import psycopg
        template = self._tables_template() if tables else "template1"
        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return name

    def _tables_template(self) -> str:
        if self._with_tables is None:
            from events.pgstore import PostgresEventStore
            from pbem.service import create_tables
            name = self.create_database()
            store = PostgresEventStore(self.dsn(name))
            try:
                create_tables(store)
            finally:
                store.close()  # no connection may stay open to a template that is copied
            import psycopg
            with psycopg.connect(self.dsn(name), autocommit=True) as conn:
                self._shape = _shape_of(conn)
            self._with_tables = name
        return self._with_tables

    def take_database(self) -> str:
        """A database with pbem's tables and no rows in them: one a finished test gave back, else a new copy.

        Emptying a database is some 15 ms; copying the template took 110 ms on a quiet machine and 400 to 550 ms
        beside other tests (``CREATE DATABASE`` copies the template's every block through the write-ahead log).
        """
        return self._spare.pop() if self._spare else self.create_database(tables=True)

    def give_back(self, name: str) -> None:
        """Empty a database ``take_database`` gave, for the next test, under a new name: once nobody is connected to
        it, it is renamed (a thread or process the test left behind, still holding its address, finds no database
        there, as if it had been dropped), and if its schema is still the template's (every table, column, index,
        constraint, trigger, function, sequence, view and setting) every row is deleted; otherwise, or if anything
        fails, it is dropped."""
        import psycopg
        try:
            admin = self._admin()
            clients = "FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend'"
            admin.execute(f"SELECT pg_terminate_backend(pid) {clients}", (name,))
            for _ in range(200):  # a terminated session ends a moment later; its transaction is rolled back
                if not admin.execute(f"SELECT 1 {clients}", (name,)).fetchone():
                    break
                time.sleep(0.01)
            else:
                raise RuntimeError(f"sessions still connected to {name}")
            fresh = f"t{os.getpid()}_{next(self._names)}"
            admin.execute(f'ALTER DATABASE "{name}" RENAME TO "{fresh}"')
            name = fresh
            with psycopg.connect(self.dsn(name), autocommit=True) as conn:
                if self._shape is None or _shape_of(conn) != self._shape:
                    raise RuntimeError(f"{name} no longer has the template's schema")
                tables = [row[0] for row in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
                with conn.transaction():
                    conn.execute("; ".join(f'DELETE FROM "{table}"' for table in tables).encode())
        except Exception:
            self.drop_database(name)
            return
        self._spare.append(name)

    def _admin(self) -> Any:
        import psycopg
        if self._admin_conn is None or self._admin_conn.closed or self._admin_conn.broken:
            self._admin_conn = psycopg.connect(self.dsn(), autocommit=True)
        return self._admin_conn

    def _close_admin(self) -> None:
        if self._admin_conn is not None:
            self._admin_conn.close()
            self._admin_conn = None

    def drop_database(self, name: str) -> None:
        import psycopg
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server (immediately: its data is thrown away) and delete its folder."""
        self._close_admin()
        if self._started:
            try:
                self._run(str(self.bins / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate",
                          "-w", "-t", str(START_TIMEOUT))
            except Unavailable:
                pass
            self._started = False
        shutil.rmtree(self.folder, ignore_errors=True)


def _shape_of(conn: Any) -> str:
    """A database's schema in one text: what a test may have changed that emptying its tables would not undo."""
    return str(conn.execute("""
        SELECT string_agg(item, E'\\n' ORDER BY item) FROM (
            SELECT format('column %s.%s %s %s %s %s', c.relnamespace::regnamespace, c.relname, a.attname,
                          format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid)) AS item
              FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
              LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
              WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relnamespace NOT IN
                ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)
            UNION ALL SELECT format('index %s %s', schemaname, indexdef) FROM pg_indexes
              WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
            UNION ALL SELECT format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
              FROM pg_constraint WHERE connamespace NOT IN ('pg_catalog'::regnamespace,
                                                            'information_schema'::regnamespace)
            UNION ALL SELECT format('trigger %s %s', tgrelid::regclass, tgname) FROM pg_trigger WHERE NOT tgisinternal
            UNION ALL SELECT format('function %s', oid::regprocedure) FROM pg_proc
              WHERE pronamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
            UNION ALL SELECT format('schema %s', nspname) FROM pg_namespace
            UNION ALL SELECT format('sequence %s.%s', schemaname, sequencename) FROM pg_sequences
            UNION ALL SELECT format('setting %s', setconfig) FROM pg_db_role_setting
              WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
        ) AS everything""").fetchone()[0])
