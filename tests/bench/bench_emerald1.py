"""Benchmark of the 1st edition Emerald rules (not a test): playout speed and the cost of each call.

Run: ``python tests/bench/bench_emerald1.py [games_per_count]``. Prints, per player count, full random
games per second, and the mean cost of ``legal_actions``, ``view`` and of one action's
``decide`` + ``evolve`` + a fresh ``view`` for every seat (to compare with one durable event append).

``--profile legal|decide|evolve|views [--players N]``: instead, a cProfile of that call kind alone over the
measured games (of one player count, 4 unless said), the functions that cost most first. ``--breakdown`` also
prints ``decide`` and ``evolve`` apart, and the events per action.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from events.envelope import Event
from events.rng import Rng
from events.rules import GameConfig, Seat
from pbem.games.emerald1 import RULES


def _event(seq: int, ne) -> Event:  # type: ignore[no-untyped-def]
    return Event("bench", seq, ne.type, 1, dict(ne.payload), "system", ne.visibility, ne.reveals, "", {}, "", "")


def play(players: int, seed: int, stats: dict[str, list[float]] | None = None,
         profile: tuple[str, cProfile.Profile] | None = None) -> int:
    data = RULES.load_data(None)
    config = GameConfig(seats=tuple(Seat(i, f"p{i}") for i in range(players)), data=data)
    rng = Rng(f"bench-{seed}")
    state = RULES.initial_state(config)
    seq = 0
    for ne in RULES.setup(config, rng):
        seq += 1
        state = RULES.evolve(state, _event(seq, ne))
    chooser = random.Random(seed)
    kind, profiler = profile if profile else ("", None)
    steps = 0
    while True:
        prompts = RULES.prompts(state)
        if not prompts:
            return steps
        seat = next(iter(prompts))
        t0 = time.perf_counter()
        if kind == "legal":
            legal = profiler.runcall(RULES.legal_actions, state, seat)  # type: ignore[union-attr]
        else:
            legal = RULES.legal_actions(state, seat)
        t1 = time.perf_counter()
        options = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
        action = chooser.choice(options)
        t2 = time.perf_counter()
        if kind == "decide":
            new = profiler.runcall(RULES.decide, state, seat, action, rng)  # type: ignore[union-attr]
        else:
            new = RULES.decide(state, seat, action, rng)
        td = time.perf_counter()
        events = []
        for ne in new:
            seq += 1
            events.append(_event(seq, ne))
        if kind == "evolve":
            profiler.enable()  # type: ignore[union-attr]
        for ev in events:
            state = RULES.evolve(state, ev)
        if kind == "evolve":
            profiler.disable()  # type: ignore[union-attr]
        t3 = time.perf_counter()
        if kind == "views":
            profiler.enable()  # type: ignore[union-attr]
        if stats is not None:
            for s in [None, *range(players)]:
                RULES.view(state, s)
        if kind == "views":
            profiler.disable()  # type: ignore[union-attr]
        t4 = time.perf_counter()
        if stats is not None:
            stats["legal"].append(t1 - t0)
            stats["decide_evolve"].append(t3 - t2)
            stats["view"].append((t4 - t3) / (players + 1))
            stats["action_total"].append((t3 - t2) + (t4 - t3))
            stats["decide"].append(td - t2)
            stats["evolve"].append(t3 - td)  # the envelopes' making included, as in decide+evolve
            stats["events"].append(len(events))
        steps += 1


def durable_append_us(count: int = 2000) -> float:
    """One event row per transaction into SQLite (WAL, synchronous=FULL, BEGIN IMMEDIATE): the baseline."""
    import json
    import sqlite3
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        db = sqlite3.connect(str(Path(tmp) / "append.sqlite3"), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE events (game_id TEXT, seq INTEGER, type TEXT, payload TEXT, "
                   "PRIMARY KEY (game_id, seq)) WITHOUT ROWID")
        payload = json.dumps({"seat": 1, "city": "paris", "count": 2, "cards": [201, 204]})
        t0 = time.perf_counter()
        for seq in range(count):
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", ("g", seq, "emerald1.CubesMoved", payload))
            db.execute("COMMIT")
        elapsed = time.perf_counter() - t0
        db.close()
    return 1e6 * elapsed / count


def main() -> None:
    parser = argparse.ArgumentParser(description="A Study in Emerald (1st edition) rules benchmark")
    parser.add_argument("games", nargs="?", type=int, default=20, help="random games per player count")
    parser.add_argument("--profile", choices=["legal", "decide", "evolve", "views"],
                        help="a cProfile of one call kind over the measured games, instead of the figures")
    parser.add_argument("--players", type=int, default=4, help="the player count to profile (default 4)")
    parser.add_argument("--breakdown", action="store_true", help="also print decide and evolve apart")
    args = parser.parse_args()
    games = args.games
    if args.profile:
        profiler = cProfile.Profile()
        for seed in range(max(2, games // 5)):
            play(args.players, 10_000 + seed, {k: [] for k in STATS}, (args.profile, profiler))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return
    print(f"A Study in Emerald (1st edition) rules benchmark ({games} random games per player count)")
    print(f"{'players':>7} {'games/s':>8} {'steps/game':>10} {'legal_actions':>14} {'view':>9} "
          f"{'decide+evolve':>14} {'action+views':>13}"
          + (f" {'decide':>9} {'evolve':>9} {'events':>7}" if args.breakdown else ""))
    for players in (2, 3, 4, 5):
        t0 = time.perf_counter()
        steps = sum(play(players, seed) for seed in range(games))
        elapsed = time.perf_counter() - t0
        stats: dict[str, list[float]] = {k: [] for k in STATS}
        for seed in range(max(2, games // 5)):
            play(players, 10_000 + seed, stats)
        us = {k: 1e6 * sum(v) / len(v) for k, v in stats.items()}
        print(f"{players:>7} {games / elapsed:>8.1f} {steps / games:>10.0f} {us['legal']:>12.0f}us "
              f"{us['view']:>7.0f}us {us['decide_evolve']:>12.0f}us {us['action_total']:>11.0f}us"
              + (f" {us['decide']:>7.0f}us {us['evolve']:>7.0f}us {us['events'] / 1e6:>7.1f}"
                 if args.breakdown else ""))
    print(f"baseline: one durable event append (raw sqlite3, WAL, synchronous=FULL): {durable_append_us():.0f}us")
    print("games/s: whole random games, no views; the other columns are means per call, measured in "
          "separate games; action+views = decide + evolve + a fresh view for every seat and a spectator.")
    if args.breakdown:
        print("decide and evolve apart: evolve includes making each event's envelope; events: per action.")


STATS = ("legal", "decide_evolve", "view", "action_total", "decide", "evolve", "events")


if __name__ == "__main__":
    main()
