"""Games of Nanty Narking recorded under earlier code, kept in ``records/`` with what each must still give.

Each fixture is a record (``<name>.jsonl.gz``, exported with its seed so that an unfinished game verifies and plays
on) and what it gave when it was made (``<name>.expected.json``): a digest of every seat's and the spectator's view
after every event, the legal actions of every seat at its last event, and its outcome. ``record_maker.py`` made them;
``test_recorded_games.py`` replays each on today's code and compares.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from events.envelope import Event
from events.handling import Kernel
from events.replay import GameState
from events.store import SQLiteEventStore
from pbem.proof import records
from pbem.games.nanty import RULES

RECORDS = Path(__file__).with_name("records")


@dataclass(frozen=True)
class Fixture:
    """One recorded game: its seats, options and data override, its seed, and where it stopped."""

    name: str
    seats: int
    seed: str
    options: Mapping[str, Any] = field(default_factory=dict)
    data_override: Mapping[str, Any] | None = None
    commands: int | None = None  # stop after this many commands (None: play to the end)
    revision: int = 1            # the rules' revision the game was recorded under

    @property
    def record(self) -> Path:
        return RECORDS / f"{self.name}.jsonl.gz"

    @property
    def expected(self) -> Path:
        return RECORDS / f"{self.name}.expected.json"


# Rules version 1 (the rules before options were recorded): games of 2 to 4 players (the game's range), three to
# their end and two stopped half-way, under each personality table and each reading of Grenadiers and powers.
REVISION_1 = (
    Fixture("r1-two-classic-end", 2, "fixture-2c", {"personalities": "classic"}),
    Fixture("r1-three-standard-end", 3, "fixture-3s"),
    Fixture("r1-four-standard-end", 4, "fixture-4s", {"personalities": "standard"}),
    Fixture("r1-four-half-way", 4, "fixture-4h", commands=60),
    Fixture("r1-two-grenadiers-leave-powers-half-way", 2, "fixture-2g", {"grenadiers_disable_powers": False},
            commands=40),
    Fixture("r1-three-data-without-grenadier-rule-end", 3, "fixture-3d",
            data_override={"game": {"grenadiers_disable_powers": False}}),
    # a Fire that Holborn's holder keeps a building from: under these rules it stops the fire (ruling 28 as it was)
    Fixture("r1-three-holborn-stops-a-fire-end", 3, "fire-36", {"personalities": "standard"}),
)

# Rules version 2, revision 2 (every option recorded): the default readings, and every other reading.
OTHER_READINGS = {"interrupts": "any_time", "fire_saved_building": "stops", "fire_spread": "rolls_on",
                  "power_relocation": "none", "relocation_adjacency": "before_lifting",
                  "grenadier_counts": "not_counted", "ties": "money", "grenadiers_disable_powers": False}
REVISION_2 = (
    Fixture("r2-three-defaults-end", 3, "fixture-r2-3", revision=2),
    Fixture("r2-two-other-readings-end", 2, "fixture-r2-2o", OTHER_READINGS, revision=2),
    Fixture("r2-four-other-readings-half-way", 4, "fixture-r2-4o", {**OTHER_READINGS, "personalities": "classic"},
            commands=70, revision=2),
)
FIXTURES = REVISION_1 + REVISION_2

NAMES = ("Ann", "Ben", "Cid", "Dot")


def view_digest(game: Any, seats: int) -> str:
    """The spectator's and every seat's view, as one digest (16 hex digits are plenty to tell views apart)."""
    views = [RULES.view(game, seat) for seat in (None, *range(seats))]
    text = json.dumps(views, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def legal_digest(game: Any, seats: int) -> str:
    text = json.dumps([RULES.legal_actions(game, seat) for seat in range(seats)], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def read(fixture: Fixture) -> tuple[dict[str, Any], list[Event]]:
    """The record's header and events, checked as an import checks them."""
    lines = gzip.decompress(fixture.record.read_bytes()).decode("utf-8").splitlines()
    return records.parse_record(lines)


def kernel_for(store: SQLiteEventStore, header: Mapping[str, Any]) -> Kernel:
    """A kernel over Nanty Narking that knows the record's data."""
    kernel = Kernel(store, {"nanty": RULES})
    for data in (header.get("data") or {}).values():
        kernel.data.add(data)
    return kernel


def expectations(states: Sequence[GameState[Any]], seats: int) -> dict[str, Any]:
    """What a record gives: a view digest after every event, the last legal actions, the outcome."""
    last = states[-1]
    return {"views": [view_digest(s.game, seats) for s in states], "legal": legal_digest(last.game, seats),
            "outcome": dict(last.outcome) if last.outcome is not None else None, "events": len(states)}
