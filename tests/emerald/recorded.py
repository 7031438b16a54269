"""Games of A Study in Emerald recorded under earlier rules, and what each must still give.

``python -m tests.emerald.recorded`` made the records in ``tests/emerald/records/`` and makes only those not made
yet (to add a record: the records are kept as they are, so that every later version of the code must replay them). Each is a seeded game
played on the kernel by a seeded random choice of legal moves; one is stopped half-way. Beside the records,
``expected.json`` keeps, for each, a digest of every seat's and the spectator's view after every event (of the whole
game, the part played on after a stopped record included) and the outcome.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from events.envelope import Event
from events.handling import Cause, Kernel
from events.replay import live_states
from events.store import SQLiteEventStore
from pbem.games.emerald import RULES
from pbem.proof.records import export

RECORDS = Path(__file__).with_name("records")
EXPECTED = RECORDS / "expected.json"
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


@dataclass(frozen=True)
class Recorded:
    """One recorded game: how it was made, and the command it was stopped after (None: played to its end)."""

    name: str
    players: int
    seed: str
    options: Mapping[str, Any] = field(default_factory=dict)
    override: Mapping[str, Any] | None = None
    stop_after: int | None = None
    ruthless: bool = False      # prefers moves that take agents off the board

    @property
    def path(self) -> Path:
        return RECORDS / f"{self.name}.jsonl.gz"


CITIES = ("berlin", "cairo", "constantinople", "london", "madrid", "paris", "rome", "st_petersburg", "vienna")

# Chosen among seeds so that between them they hold what later rules changed: Action cards with points kept beside
# the identity card (Terrors of the Night, Zombies, Society of Leopold), Cthulhu beside a Royalty card, a revealed
# Loyalist left without agents (easy assassinations and a die that drives players mad), a second card with the
# Fenians text (an override the data check accepted then), the option against free actions after the last action,
# and a game stopped inside an interrupt window.
GAMES = (
    Recorded("two-players", 2, "recorded-2p-1"),
    Recorded("three-players-no-free-actions-at-the-end", 3, "recorded-3p-2",
             options={"free_actions_after_last_action": False}),
    Recorded("three-players-ruthless-mad-two-fenians", 3, "recorded-3p-r3", ruthless=True,
             override={"sanity_die": {"faces": ["insane", "insane", "insane", "blank", "blank", "blank"]},
                       "game_cards": [{"number": "014", "text": "fenians", "text_type": "one-use benefit"}],
                       "cities": [{"id": city, "defence": 1} for city in CITIES]}),
    Recorded("four-players-stopped-in-an-interrupt-window", 4, "recorded-4p-1", stop_after=271),
    Recorded("five-players", 5, "recorded-5p-3"),
)


RUTHLESS_TEXTS = ("shoggoth", "irene_adler", "vampires", "cthulhu", "terrors")


def choose(state: Any, seed: str, ruthless: bool = False) -> tuple[int, dict[str, Any]]:
    """The seat prompted and a legal action, drawn from the seed and the game's seq alone (so a game stopped
    half-way plays on as it would have), preferring to do something over passing and discarding (and, when
    ``ruthless``, to take agents off the board)."""
    pick = random.Random(f"{seed}/{state.seq}")
    prompts = RULES.prompts(state.game)
    seat = min(prompts)
    legal = RULES.legal_actions(state.game, seat)
    active = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
    if ruthless:
        cards = state.game.cat.cards
        active = [a for a in active if a["kind"] in ("assassinate", "yog_take", "zombie_kill", "decline")
                  or a["kind"] == "play" and cards[a["card"]].text in RUTHLESS_TEXTS] or active
    return seat, pick.choice(active)


def play(kernel: Kernel, game_id: str, seed: str, stop_after: int | None = None, limit: int = 5000,
         ruthless: bool = False) -> int:
    """Play until the game ends (or after ``stop_after`` commands); how many commands were played."""
    for played in range(limit):
        state = kernel.load(game_id)
        if state.ended or played == stop_after:
            return played
        seat, action = choose(state, seed, ruthless)
        kernel.execute(game_id, seat, action, cause=Cause("test"))
    raise AssertionError(f"{game_id} did not end in {limit} commands")


def digests(kernel: Kernel, events: Sequence[Event]) -> list[str]:
    """After every event, a digest of every seat's view and the spectator's."""
    out = []
    for state in live_states(kernel.replayer, events):
        if state.seq == 1:   # GameCreated: the rules' state before any event of their own
            seats: Sequence[int | None] = [None]
        else:
            seats = [*range(len(state.config.seats)), None]
        views = [RULES.view(state.game, seat) for seat in seats]
        text = json.dumps(views, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        out.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])
    return out


def outcome(kernel: Kernel, game_id: str) -> dict[str, Any] | None:
    found = RULES.outcome(kernel.load(game_id).game)
    return found.to_json() if found is not None else None


def new_kernel(folder: Path) -> Kernel:
    # a test's store: it need not survive a power cut, and each command's fsync would be most of the test's time
    return Kernel(SQLiteEventStore(folder / "events.sqlite3", synchronous="OFF"), {"emerald": RULES})


def make(game: Recorded, folder: Path) -> dict[str, Any]:
    """Play ``game`` on today's code: its record (written beside this module) and what it must give."""
    kernel = new_kernel(folder)
    try:
        game_id = kernel.create("emerald", NAMES[:game.players], options=dict(game.options),
                                data_override=game.override, seed=game.seed, game_id=game.name).after.game_id
        commands = play(kernel, game_id, game.seed, game.stop_after, ruthless=game.ruthless)
        state = kernel.load(game_id)
        lines = export(kernel.store, state, None, kernel.seed(game_id), with_secrets=True)
        RECORDS.mkdir(exist_ok=True)
        game.path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), mtime=0))
        recorded = state.seq
        commands += play(kernel, game_id, game.seed, ruthless=game.ruthless)
        events = kernel.store.read(game_id)
        return {"recorded_events": recorded, "commands": commands, "events": len(events),
                "digests": digests(kernel, events), "outcome": outcome(kernel, game_id)}
    finally:
        kernel.store.close()


if __name__ == "__main__":
    # only games not recorded yet: a record, once kept, is what every later version must replay
    expected = json.loads(EXPECTED.read_text(encoding="utf-8")) if EXPECTED.exists() else {}
    for game in GAMES:
        if game.name in expected and game.path.exists():
            continue
        with tempfile.TemporaryDirectory() as tmp:
            expected[game.name] = make(game, Path(tmp))
        print(game.name, {k: v for k, v in expected[game.name].items() if k != "digests"})
    EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n", encoding="utf-8")
