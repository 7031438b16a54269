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
from pathlib import Path

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
            self._with_tables = name
        return self._with_tables

    def drop_database(self, name: str) -> None:
        import psycopg
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server (immediately: its data is thrown away) and delete its folder."""
        if self._started:
            try:
                self._run(str(self.bins / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate",
                          "-w", "-t", str(START_TIMEOUT))
            except Unavailable:
                pass
            self._started = False
        shutil.rmtree(self.folder, ignore_errors=True)
