"""Shared fixtures: a real SQLite store in a temp folder, the kernel over the Highdie test game."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Iterator

import pytest

from events.handling import Kernel
from events.store import SQLiteEventStore
from kernelgame import RULES as HIGHDIE
from pbem import games
from pbem.service import Service


@pytest.fixture(autouse=True)
def _no_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """An ERROR log during a test fails it."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    if errors:
        pytest.fail("ERROR logged: " + "; ".join(r.getMessage() for r in errors))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteEventStore]:
    s = SQLiteEventStore(tmp_path / "events.sqlite3")
    yield s
    s.close()


@pytest.fixture
def kernel(store: SQLiteEventStore) -> Kernel:
    return Kernel(store, {"highdie": HIGHDIE})


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
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
