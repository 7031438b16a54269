"""Makes the recorded games in ``tests/emerald1/records/`` and what each must still give (``fixtures``).

Run ``python -m tests.emerald1.record_maker`` only to add a record: the records are kept as they are, so that
every later version of the rules must replay them, verify them and play on from them as the code that made them
did.
"""

from __future__ import annotations

import gzip
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from events.store import SQLiteEventStore
from pbem.proof import records
from pbem.games.emerald1 import RULES
from pbem.service import Service
from tests.emerald1.fixtures import EXPECTED, FIXTURES, NAMES, ON, Fixture, events_digest, play, views_digest


def make(fixture: Fixture) -> dict[str, Any]:
    """Play and record one fixture; returns what it must still give."""
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteEventStore(Path(tmp) / "fixture.sqlite3")
        try:
            service = Service(store, {"emerald1": RULES})
            kernel = service.kernel
            seed = f"fixture-{fixture.players}-{fixture.seed}"
            kernel.create("emerald1", list(NAMES[:fixture.players]), seed=seed, game_id=fixture.name)
            pick = random.Random(fixture.seed)
            actions = play(kernel, fixture.name, pick, fixture.stop)
            state = kernel.load(fixture.name)
            lines = list(records.export(store, state, None, kernel.seed(fixture.name), with_secrets=True))
            fixture.path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), mtime=0))
            events = store.read(fixture.name)
            marks, outcome = views_digest(kernel.replayer, events)
            found: dict[str, Any] = {"actions": actions, "events": len(events), "views": marks, "outcome": outcome}
            if fixture.stop is not None:
                play(kernel, fixture.name, random.Random(f"{fixture.seed}-on"), ON)
                found["played_on"] = events_digest(store.read(fixture.name, len(events)))
            return found
        finally:
            store.close()


def main() -> None:
    EXPECTED.parent.mkdir(exist_ok=True)
    found = {f.name: make(f) for f in FIXTURES}
    EXPECTED.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for name, what in found.items():
        print(name, what["actions"], "actions,", what["events"], "events,", (what["outcome"] or {}).get("summary"))


if __name__ == "__main__":
    main()
