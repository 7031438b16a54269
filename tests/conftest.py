"""Shared fixtures: a real SQLite store in a temp folder, the kernel over the Highdie test game."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from events.handling import Kernel
from events.store import SQLiteEventStore
from kernelgame import RULES as HIGHDIE
from pbem import games
from pbem.service import Service


# The tests' SQLite files commit without waiting for the disk (WAL with synchronous NORMAL: a process killed mid-test
# loses nothing; only a power cut would). Every store a test opens, and every pbem process it starts, does the same;
# the production default stays FULL (`docs/configuration.md`), and the store's own tests check that default.
os.environ.setdefault("PBEM_SYNCHRONOUS", "NORMAL")


def _share_url_builders() -> None:
    """Werkzeug compiles two small functions for every URL rule of every app (``Rule._compile_builder``: an AST
    made and compiled, most of the 50 ms an app of this project costs); the tests make over a thousand apps of the
    same rules, so each function is compiled once per process. The function is a plain one that reads the rule it
    builds for from its first argument: it depends on the rule's text, its parts, its defaults (and their
    converters) and on whether unknown arguments are appended, which make its key. Should werkzeug's inside differ,
    the tests compile as werkzeug does."""
    import inspect

    from werkzeug.routing.rules import Rule
    original = getattr(Rule, "_compile_builder", None)
    if original is None or list(inspect.signature(original).parameters) != ["self", "append_unknown"]:
        return  # not the werkzeug this was written for: it compiles as it does
    built: dict[Any, Any] = {}

    def shared(self: Any, append_unknown: bool = True) -> Any:
        try:
            key = (self.rule, tuple(self._trace), append_unknown,
                   repr(sorted((self.defaults or {}).items())),
                   repr(sorted((name, type(c).__qualname__, vars(c)) for name, c in self._converters.items())))
        except (AttributeError, TypeError):
            return original(self, append_unknown)
        found = built.get(key)
        if found is None:
            found = built[key] = original(self, append_unknown)
        return found

    Rule._compile_builder = shared  # type: ignore[method-assign]


_share_url_builders()


@pytest.fixture(autouse=True)
def _no_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """An ERROR log during a test fails it."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    if errors:
        pytest.fail("ERROR logged: " + "; ".join(r.getMessage() for r in errors))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the PostgreSQL server and Dovecot once if a selected test needs them; else skip those tests with one
    message."""
    _start_dovecot(config, items)
    needing = [item for item in items if "pg_server" in getattr(item, "fixturenames", ())
               or "postgresql" in getattr(getattr(item, "callspec", None), "params", {}).values()]
    if not needing:
        return
    from pg import PgServer, Unavailable
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
        server = PgServer()
    except ImportError:
        reason = "PostgreSQL tests skipped: psycopg is not installed (pip install 'psycopg[binary,pool]')"
    except Unavailable as err:
        reason = f"PostgreSQL tests skipped: no server could be started ({err})"
    else:
        config.stash[_PG_SERVER] = server
        config.add_cleanup(server.stop)
        _stop_on_sigterm()
        return
    for item in needing:
        item.add_marker(pytest.mark.skip(reason=reason))


_PG_SERVER = pytest.StashKey[Any]()
_DOVECOT = pytest.StashKey[Any]()


def _start_dovecot(config: pytest.Config, items: list[pytest.Item]) -> None:
    needing = [item for item in items if "dovecot_server" in getattr(item, "fixturenames", ())]
    if not needing:
        return
    from dovecot import Dovecot, Unavailable
    try:
        server = Dovecot()
    except Unavailable as err:
        for item in needing:
            item.add_marker(pytest.mark.skip(reason=f"IMAP tests skipped: no Dovecot could be started ({err})"))
        return
    config.stash[_DOVECOT] = server
    config.add_cleanup(server.stop)
    _stop_on_sigterm()


@pytest.fixture(scope="session")
def dovecot_server(pytestconfig: pytest.Config) -> Any:
    """The session's Dovecot (``tests/dovecot.py``), started at collection when a selected test needs it."""
    return pytestconfig.stash[_DOVECOT]


def _stop_on_sigterm() -> None:
    """A run ended by SIGTERM (a CI time limit, ``kill``) stops as on Ctrl-C, so the session's cleanup still stops
    the PostgreSQL server, which ``pg_ctl`` started apart from this process; Python's own default would end the
    process at once and leave the server running."""
    import signal
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        def interrupt(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt(f"signal {signum}")
        signal.signal(signal.SIGTERM, interrupt)


@pytest.fixture(scope="session")
def pg_server(pytestconfig: pytest.Config) -> Any:
    """The session's PostgreSQL server (``tests/pg.py``), started at collection when a selected test needs it."""
    return pytestconfig.stash[_PG_SERVER]


@pytest.fixture
def pg_database(pg_server: Any) -> Iterator[str]:
    """The DSN of a new, empty database on the session's server, dropped after the test."""
    name = pg_server.create_database()
    yield pg_server.dsn(name)
    pg_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The engine a delivery test runs on: SQLite (None: the instance's own file), then PostgreSQL.

    On PostgreSQL: a database on the session's server with pbem's tables and nothing in them (a copy of a template,
    or one an earlier test gave back and that was emptied: ``tests/pg.py``); ``make_settings`` and every process the
    test starts (``PBEM_DATABASE``) use it. Tests that take it run once per engine.
    """
    import delivery
    if request.param == "sqlite":
        yield None
        return
    server = request.getfixturevalue("pg_server")
    name = server.take_database()
    url = server.url(name)
    patch = pytest.MonkeyPatch()  # its own: a test's monkeypatch.undo() must not take the engine away
    patch.setattr(delivery, "DATABASE", url)
    patch.setattr(delivery, "PG_SERVER", server)
    patch.setenv("PBEM_DATABASE", url)
    try:
        yield url
    finally:
        patch.undo()
        from events import pgstore
        pgstore.close_shared()
        # dropped, not given back for the next test (``PgServer.give_back``): in whole runs since databases were
        # reused, PostgreSQL mail tests sent fewer mails than they queued, four times, never before; until that is
        # understood each test has a fresh copy (some 110 to 500 ms more each)
        server.drop_database(name)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteEventStore]:
    s = SQLiteEventStore(tmp_path / "events.sqlite3", synchronous="NORMAL")
    yield s
    s.close()


@pytest.fixture
def kernel(store: SQLiteEventStore) -> Kernel:
    return Kernel(store, {"highdie": HIGHDIE})


@pytest.fixture
def service(tmp_path: Path, database: str | None) -> Iterator[Service]:
    """The service of a fresh instance (random secret key, file mailbox): mails are composed."""
    from delivery import make_settings
    opened = Service.open(make_settings(tmp_path / "inst"))
    yield opened
    opened.close()


@pytest.fixture
def highdie_registered() -> Iterator[None]:
    games.register(HIGHDIE)
    yield
    games.unregister(HIGHDIE.name)


@pytest.fixture(scope="session")
def chrome(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One headless Chromium (selenium over Debian's chromedriver) for every browser test of this process."""
    from browser import CHROMEDRIVER, CHROMIUM, MISSING, start_chrome
    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip(MISSING)
    driver = start_chrome(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture
def browser(chrome: Any) -> Any:
    """The session's Chromium, cleared as a new browser: no cookies, the default window, a blank page."""
    from browser import Browser
    found = Browser(chrome)
    found.reset()
    return found
