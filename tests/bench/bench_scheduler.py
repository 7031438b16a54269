"""The scheduler's tick when nothing is due: its cost must follow what is due, not how many games run.

    python tests/bench/bench_scheduler.py [--runs N] [--json]

Two instances on real SQLite files, one with 100 running games and one with 10,000, each game with a
deadline per seat far in the future (nothing due). Interleaved, each tick is what ``pbem worker`` does
every minute: ``pbem.post.reminders.count_due`` (one UPDATE of what is due) and ``Service.due_deadlines``. Goal: the 10,000-game tick within
1.5 x the 100-game tick (figures in docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from events.store import SQLiteEventStore  # noqa: E402
from pbem.table import deadlines
from pbem.post import reminders  # noqa: E402
from pbem.service import create_tables  # noqa: E402

REMINDERS = (0.5, 0.9)


def instance(folder: Path, games: int) -> SQLiteEventStore:
    store = SQLiteEventStore(folder / f"bench-{games}.sqlite3", synchronous="OFF")
    create_tables(store)
    now = datetime.now(timezone.utc)
    with store.transaction() as conn:
        for g in range(games):
            game_id = f"g{g:06d}"
            conn.execute("INSERT INTO games (game_id, game_type, title, status, seats, last_seq, created_at, "
                         "updated_at) VALUES (?, 'emerald', 'A Study in Emerald', 'running', 3, 40, ?, ?)",
                         (game_id, now.isoformat(), now.isoformat()))
            for seat in range(3):
                issued = now - timedelta(hours=seat)
                due = issued + timedelta(hours=72 + g % 50)
                conn.execute("INSERT INTO deadlines (game_id, seat, kind, issued_at, due_at, reminders_sent, "
                             "issued_seq, remind_at) VALUES (?, ?, 'turn', ?, ?, 0, 40, ?)",
                             (game_id, seat, issued.isoformat(), due.isoformat(timespec="seconds"),
                              deadlines.remind_at(issued.isoformat(), due.isoformat(timespec="seconds"),
                                                  REMINDERS, 0)))
    return store


def tick(store: SQLiteEventStore, now: datetime) -> int:
    """What the worker's deadlines job asks every minute: count the reminders due (one UPDATE), find time-outs."""
    return reminders.count_due(store, REMINDERS, now) + len(deadlines.due(store, now))


def scan_tick(store: SQLiteEventStore, now: datetime) -> int:
    """The tick as it was: every running deadline read and decided in Python (for comparison only)."""
    found = 0
    for row in store.query("SELECT d.* FROM deadlines d JOIN games g ON g.game_id = d.game_id "
                           "WHERE g.status = 'running' AND g.paused_at IS NULL AND d.reminders_sent < ?",
                           (len(REMINDERS),)):
        issued, due = datetime.fromisoformat(row["issued_at"]), datetime.fromisoformat(row["due_at"])
        found += now >= issued + (due - issued) * REMINDERS[int(row["reminders_sent"])] and now < due
    return found + len(deadlines.due(store, now))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        small, large = instance(Path(tmp), 100), instance(Path(tmp), 10_000)
        now = datetime.now(timezone.utc) + timedelta(minutes=1)
        assert tick(small, now) == 0 and tick(large, now) == 0
        times: dict[str, list[float]] = {"100": [], "10000": [], "scan 100": [], "scan 10000": []}
        for run in range(args.runs):
            for name, store in (("100", small), ("10000", large)):
                start = time.perf_counter()
                tick(store, now)
                times[name].append(time.perf_counter() - start)
                if run < 20:  # the old scan is slow at 10,000 games: a few runs tell enough
                    start = time.perf_counter()
                    scan_tick(store, now)
                    times[f"scan {name}"].append(time.perf_counter() - start)
        ms = {k: statistics.median(v) * 1000 for k, v in times.items()}
        result = {"runs": args.runs, "tick_100_ms": round(ms["100"], 4), "tick_10000_ms": round(ms["10000"], 4),
                  "ratio": round(ms["10000"] / ms["100"], 2), "goal": 1.5,
                  "scan_100_ms": round(ms["scan 100"], 3), "scan_10000_ms": round(ms["scan 10000"], 3)}
        if args.json:
            print(json.dumps(result))
        else:
            for key, value in result.items():
                print(f"{key:<16}{value:>10}")
            print("(scan_*: the tick before remind_at, every running deadline read and decided in Python)")
            print("goal (<= 1.5x): " + ("met" if result["ratio"] <= 1.5 else "missed"))


if __name__ == "__main__":
    main()
