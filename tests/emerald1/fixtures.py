"""Recorded games of the 1st edition that every later version of the rules must replay unchanged.

Each fixture is a seeded game played on the kernel by random legal actions (a kind of action first, then one of
that kind, so that cards, claims and markers come up as often as cube placements), recorded as the record format's
JSON lines (with its seed, so that an unfinished game verifies and plays on) in ``records/<name>.jsonl.gz``.
``records/expected.json`` holds what each must still give: a rolling digest of every seat's and the spectator's
view after every event (checked every ``EVERY`` events and at the last), the outcome, and for a game stopped
half-way the digest of ``ON`` more actions played on by the same kind of random choice.

``python -m tests.emerald1.record_maker`` made them, with the code of the day; they are kept as they are.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events.envelope import Event
from events.handling import Cause, Kernel
from events.replay import GameState, Replayer

RECORDS = Path(__file__).with_name("records")
EXPECTED = RECORDS / "expected.json"
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")
EVERY = 100   # a checkpoint of the views' digest every so many events
ON = 40       # actions played on from a game stopped half-way


@dataclass(frozen=True)
class Fixture:
    name: str
    players: int
    seed: int
    stop: int | None = None  # stopped after this many actions (None: played to its end)

    @property
    def path(self) -> Path:
        return RECORDS / f"{self.name}.jsonl.gz"


FIXTURES = (
    Fixture("two-players-ended", 2, 1),
    Fixture("three-players-ended", 3, 0),   # a zombie is killed with an assassin's card
    Fixture("three-players-cthulhu", 3, 30),  # Cthulhu destroys a city with an agent whose card a player has
    Fixture("four-players-halfway", 4, 5, stop=150),
    Fixture("five-players-ended", 5, 1),    # ends on the Victory Point target
    Fixture("five-players-halfway", 5, 0, stop=250),
)


def choose(rules: Any, game: Any, seat: int, pick: random.Random) -> dict[str, Any]:
    """A random legal action: a kind first (not passing or discarding while anything else is legal), then one."""
    legal = rules.legal_actions(game, seat)
    doing = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
    kind = pick.choice(sorted({a["kind"] for a in doing}))
    return dict(pick.choice([a for a in doing if a["kind"] == kind]))


def play(kernel: Kernel, game_id: str, pick: random.Random, actions: int | None) -> int:
    """Play up to ``actions`` random actions (None: to the end); returns how many were played."""
    done = 0
    while actions is None or done < actions:
        state = kernel.load(game_id)
        if state.ended:
            break
        rules = kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        kernel.execute(game_id, seat, choose(rules, state.game, seat, pick), cause=Cause("test"))
        done += 1
    return done


def views_digest(replayer: Replayer, events: list[Event]) -> tuple[dict[str, str], dict[str, Any] | None]:
    """The rolling digest of every seat's and the spectator's view after every event (at each checkpoint and the
    last event), and the outcome (None for an unfinished game)."""
    state: GameState[Any] | None = None
    h = hashlib.sha256()
    marks: dict[str, str] = {}
    for event in events:
        state = replayer.fold([event], state)
        rules = replayer.rules_for(state.game_type)
        for seat in [None, *range(len(state.config.seats))]:
            h.update(json.dumps(rules.view(state.game, seat), sort_keys=True).encode())
        if event.seq % EVERY == 0 or event is events[-1]:
            marks[str(event.seq)] = h.hexdigest()
    assert state is not None
    outcome = replayer.rules_for(state.game_type).outcome(state.game)
    return marks, outcome.to_json() if outcome is not None else None


def events_digest(events: list[Event]) -> str:
    """What the rules decided, whatever the time it was done at: each event's type, payload and visibility."""
    h = hashlib.sha256()
    for e in events:
        h.update(json.dumps([e.type, e.payload, e.visibility.encode()], sort_keys=True).encode())
    return h.hexdigest()


def read(fixture: Fixture) -> list[str]:
    return gzip.decompress(fixture.path.read_bytes()).decode("utf-8").splitlines()


def expected() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    return found
