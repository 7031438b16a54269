"""Makes the recorded logs in ``tests/records/`` with the old versions of the test game's events.

Run ``python tests/record_maker.py`` only to add a record; the records are kept as they
are, so that every future version of the code must keep replaying them.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from marshmallow import Schema, fields

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from events.envelope import Event, NewEvent  # noqa: E402
from events.handling import Cause, Kernel  # noqa: E402
from events.rng import Rng  # noqa: E402
from events.rules import EventType  # noqa: E402
from events.store import SQLiteEventStore  # noqa: E402
from kernelgame import EVENT_TYPES, Highdie  # noqa: E402


class BetV1Schema(Schema):
    seat = fields.Integer(required=True)
    amount = fields.Integer(required=True)


class HighdieV1(Highdie):
    """Highdie as it was when a bet's points were called "amount"."""

    event_types = tuple(EventType("dice.Bet", BetV1Schema) if t.name == "dice.Bet" else t for t in EVENT_TYPES)

    def decide(self, state: Any, seat: int, action: Any, rng: Rng) -> list[NewEvent]:
        events = super().decide(state, seat, action, rng)
        return [NewEvent(e.type, {"seat": e.payload["seat"], "amount": e.payload["points"]}) if e.type == "dice.Bet"
                else e for e in events]

    def evolve(self, state: Any, event: Event) -> Any:
        if event.type == "dice.Bet":
            event = replace(event, payload={"seat": event.payload["seat"], "points": event.payload["amount"]})
        return super().evolve(state, event)


def make_v1_record(path: Path) -> None:
    from pbem.service import Service
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteEventStore(Path(tmp) / "r.sqlite3")
        service = Service(store, {"highdie": HighdieV1()})
        kernel: Kernel = service.kernel
        game_id = kernel.create("highdie", ["Ann", "Ben"], seed="recorded-v1", game_id="rec1v1").after.game_id
        moves = [(0, {"kind": "bet", "points": 3}), (1, {"kind": "roll"}), (0, {"kind": "bet", "points": 2}),
                 (1, {"kind": "bet", "points": 1})]
        for seat, action in moves:
            kernel.execute(game_id, seat, action, cause=Cause("cli"))
        while not kernel.load(game_id).ended:
            state = kernel.load(game_id)
            seat = next(iter(kernel.rules(state).prompts(state.game)))
            kernel.execute(game_id, seat, {"kind": "bet", "points": 3}, cause=Cause("cli"))
        path.write_text("\n".join(service.export(game_id)) + "\n", encoding="utf-8")
        store.close()


if __name__ == "__main__":
    make_v1_record(Path(__file__).parent / "records" / "highdie-v1.jsonl")
