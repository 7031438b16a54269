"""Long playout batches (``@pytest.mark.slow``) run only when asked for.

Run them with ``pytest -m slow tests/emerald`` or with ``PBEM_SLOW=1`` in the environment.
"""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("PBEM_SLOW") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long playout batch: run with -m slow or PBEM_SLOW=1")
    for item in items:
        if "slow" in item.keywords and "tests/emerald" in str(item.fspath).replace("\\", "/"):
            item.add_marker(skip)
