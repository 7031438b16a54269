"""Makes the recorded games of ``tests/nanty/records/`` (``recorded.py`` names them) under the code of the day.

Run ``python -m tests.nanty.record_maker`` only to add a record, never to remake one: the records are kept as they
are, so that every later version of the code must keep replaying them and giving what they gave.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from events.handling import Cause
from events.replay import live_states
from events.store import SQLiteEventStore
from pbem.proof import records
from tests.nanty.recorded import FIXTURES, NAMES, Fixture, expectations, kernel_for


def choose(legal: list[dict[str, Any]], pick: random.Random) -> dict[str, Any]:
    """A player who mostly uses what a card offers, so that games move on and reach their ends."""
    doing = [a for a in legal if a["kind"] != "skip"] or legal
    return pick.choice(doing if pick.random() < 0.9 else legal)


def make(fixture: Fixture) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteEventStore(Path(tmp) / "r.sqlite3")
        kernel = kernel_for(store, {})
        game_id = kernel.create("nanty", list(NAMES[:fixture.seats]), options=dict(fixture.options),
                                data_override=fixture.data_override, seed=fixture.seed,
                                game_id=fixture.name[:40]).after.game_id
        pick = random.Random(fixture.seed)
        commands = 0
        while fixture.commands is None or commands < fixture.commands:
            state = kernel.load(game_id)
            if state.ended:
                break
            rules = kernel.rules(state)
            seat = pick.choice(sorted(rules.prompts(state.game)))
            kernel.execute(game_id, seat, choose(rules.legal_actions(state.game, seat), pick), cause=Cause("cli"))
            commands += 1
        state = kernel.load(game_id)
        lines: Iterable[str] = records.export(store, state, None, kernel.seed(game_id), with_secrets=True)
        fixture.record.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), mtime=0))
        found = expectations(live_states(kernel.replayer, store.read(game_id)), fixture.seats)
        fixture.expected.write_text(json.dumps(found, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        store.close()
        print(f"{fixture.name}: {commands} commands, {found['events']} events, "
              f"{'ended' if found['outcome'] else 'in play'}")


if __name__ == "__main__":
    wanted = set(sys.argv[1:])
    for fixture in FIXTURES:
        if (not wanted and not fixture.record.exists()) or fixture.name in wanted:
            make(fixture)
