"""Kernel benchmarks (issue 2, section 7): each figure against a baseline measured in the same run.

Run from the repository root::

    python tests/bench/bench_kernel.py            # full sizes, about 1-2 minutes
    python tests/bench/bench_kernel.py --quick    # smaller sizes, under 30 s (not the reported figures)
    python tests/bench/bench_kernel.py --json     # the same, as JSON on stdout
    python tests/bench/bench_kernel.py --profile replay   # cProfile of one benchmark's measured call

This is a report, not a test: it exits 0 whether goals are met or missed (non-zero only on a crash).
The file name has no ``test_`` prefix so pytest does not collect it.

Benchmarks
  append   appends/s, one command per transaction: ``Kernel.execute`` (full command path) and
           ``SQLiteEventStore.append`` of pre-sealed events, against raw sqlite3 inserts of the
           same rows (same table, WITHOUT ROWID, WAL, synchronous=FULL, BEGIN IMMEDIATE per insert).
           Goal: store.append >= 0.5 x raw.
  replay   ``Replayer.fold(store.read(game))`` of a 1,000-event stream against reading the same rows
           with raw sqlite3 and ``json.loads`` of payload and cause. Goal: <= 3 x the floor.
  load     ``Kernel.load`` of a 10,000-event game against a 10-event game. Goal: ratio <= 1.5.
  read     ``store.read(game)`` of one game in a store of 1,000,000 events across 10,000 games, against
           the same game's rows alone in a store. Goal: <= 2 x.

The streams are made by a bench game defined here (``benchcounter``): it never ends and each
action emits exactly one small event, so the figures measure the kernel, not a game's rules.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import secrets
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Mapping

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bench.timing import timed  # noqa: E402

from marshmallow import Schema, fields  # noqa: E402

from events import replay as replay_module  # noqa: E402
from events.envelope import Event, NewEvent  # noqa: E402
from events.handling import Cause, Kernel  # noqa: E402
from events.rng import Rng  # noqa: E402
from events.rules import (Action, EventType, GameConfig, IllegalAction, InvalidAction,  # noqa: E402
                          Outcome, Prompt)
from events.store import _EVENT_COLUMNS, SQLiteEventStore, _event_to_row, connect  # noqa: E402
from kernelgame import RULES as HIGHDIE  # noqa: E402

CAUSE = Cause("cli")


# ---- the bench game: never ends, one event per action ---------------------------------------


@dataclass(frozen=True)
class CounterState:
    seats: int
    ticks: int = 0
    turn: int = 0


class TickedSchema(Schema):
    seat = fields.Integer(required=True)
    n = fields.Integer(required=True)


class BenchCounter:
    """Two seats take turns to ``tick``; each tick is one ``bench.Ticked`` event; the game never ends."""

    name = "benchcounter"
    title = "Bench counter"
    version = "1"
    min_seats = 2
    max_seats = 2
    event_types = (EventType("bench.Ticked", TickedSchema, doc="One tick."),)

    def load_data(self, override: Mapping[str, Any] | None) -> Mapping[str, Any]:
        return {}

    def initial_state(self, config: GameConfig) -> CounterState:
        return CounterState(seats=len(config.seats))

    def setup(self, config: GameConfig, rng: Rng) -> list[NewEvent]:
        return []

    def evolve(self, state: CounterState, event: Event) -> CounterState:
        return CounterState(state.seats, state.ticks + 1, (state.turn + 1) % state.seats)

    def prompts(self, state: CounterState) -> Mapping[int, Prompt]:
        return {state.turn: Prompt(state.turn, "turn", "tick", default={"kind": "tick"})}

    def legal_actions(self, state: CounterState, seat: int) -> list[Action]:
        return [{"kind": "tick"}] if seat == state.turn else []

    def decide(self, state: CounterState, seat: int, action: Action, rng: Rng) -> list[NewEvent]:
        if seat != state.turn or action.get("kind") != "tick":
            raise IllegalAction("only the seat to play may tick")
        return [NewEvent("bench.Ticked", {"seat": seat, "n": state.ticks + 1})]

    def view(self, state: CounterState, seat: int | None) -> Mapping[str, Any]:
        return {"ticks": state.ticks, "turn": state.turn}

    def outcome(self, state: CounterState) -> Outcome | None:
        return None

    def parse(self, state: CounterState, text: str) -> Action:
        if text.strip() != "tick":
            raise InvalidAction("try: tick")
        return {"kind": "tick"}

    def format(self, state: CounterState, action: Action) -> str:
        return "tick"

    def describe(self, event: Event, seat: int | None) -> str:
        return f"tick {event.payload['n']}"


COUNTER = BenchCounter()
GAMES = {COUNTER.name: COUNTER, HIGHDIE.name: HIGHDIE}
TICK = {"kind": "tick"}


def play_ticks(kernel: Kernel, game_id: str, count: int, first_seq: int) -> None:
    """``count`` commands of one event each; the game is at ``first_seq`` events now (seat = parity)."""
    for i in range(count):
        kernel.execute(game_id, (first_seq - 1 + i) % 2, TICK, cause=CAUSE)


def new_counter_game(kernel: Kernel, events: int) -> str:
    """A benchcounter game of exactly ``events`` events (GameCreated + ticks), snapshots included."""
    game_id = kernel.create(COUNTER.name, ["ann", "bob"], cause=CAUSE).after.game_id
    play_ticks(kernel, game_id, events - 1, 1)
    return game_id


# ---- measuring -----------------------------------------------------------------------------




def median(values: list[float]) -> float:
    return statistics.median(values)


def evict(path: Path) -> bool:
    """Drop a file's clean pages from the OS page cache (Linux posix_fadvise DONTNEED)."""
    if not hasattr(os, "posix_fadvise") or not path.exists():
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return True


@dataclass
class Result:
    name: str
    measured: str
    value: float
    unit: str
    baseline_name: str
    baseline: float
    ratio: float          # measured relative to baseline, as the goal states it
    goal: str
    passed: bool
    notes: list[str]
    extra: dict[str, Any]


PROFILE: dict[str, Callable[[], Any]] = {}


# ---- a. appends ----------------------------------------------------------------------------


RAW_TABLE = """CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, version INTEGER NOT NULL,
    payload TEXT NOT NULL, actor TEXT NOT NULL, visibility TEXT NOT NULL, reveals INTEGER NOT NULL,
    recorded_at TEXT NOT NULL, cause TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID"""
INSERT = f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"


def bench_append(tmp: Path, per_run: int, runs: int) -> Result:
    # Pre-seal a long chain with the kernel itself (same sealing as a real command) in a scratch store.
    scratch = SQLiteEventStore(tmp / "append-source.sqlite3", synchronous="OFF")
    source = Kernel(scratch, GAMES)
    game_id = new_counter_game(source, 1 + per_run * runs)
    sealed = scratch.read(game_id)
    scratch.close()
    head, chain = sealed[0], sealed[1:]

    store = SQLiteEventStore(tmp / "append-store.sqlite3")        # synchronous=FULL, WAL
    store.append(game_id, 0, [head])
    raw = connect(tmp / "append-raw.sqlite3")                      # same settings: WAL, FULL
    raw.execute(RAW_TABLE)
    raw.execute("BEGIN IMMEDIATE")
    raw.execute(INSERT, _event_to_row(head))
    raw.execute("COMMIT")
    kstore = SQLiteEventStore(tmp / "append-kernel.sqlite3")
    kernel = Kernel(kstore, GAMES)
    kgame = kernel.create(COUNTER.name, ["ann", "bob"], cause=CAUSE).after.game_id
    hstore = SQLiteEventStore(tmp / "append-highdie.sqlite3")
    hkernel = Kernel(hstore, GAMES)

    raw_rates, store_rates, kernel_rates, highdie_rates = [], [], [], []
    for run in range(runs):
        batch = chain[run * per_run:(run + 1) * per_run]
        rows = [_event_to_row(e) for e in batch]   # the raw baseline gets its rows ready-made

        def raw_inserts(rows: list[tuple[Any, ...]] = rows) -> None:
            for row in rows:
                raw.execute("BEGIN IMMEDIATE")
                raw.execute(INSERT, row)
                raw.execute("COMMIT")

        def store_appends(batch: list[Event] = batch) -> None:
            for event in batch:
                store.append(game_id, event.seq - 1, [event])

        def kernel_commands(run: int = run) -> None:
            play_ticks(kernel, kgame, per_run, 1 + run * per_run)

        def highdie_commands() -> None:
            done = 0
            while done < per_run:
                state = hkernel.create(HIGHDIE.name, ["ann", "bob"], cause=CAUSE).after
                hid = state.game_id
                done += 1           # a create is a command too (one transaction)
                while not state.ended and done < per_run:
                    seat = next(iter(HIGHDIE.prompts(state.game)))
                    action = {"kind": "accept"} if state.game.contest else {"kind": "bet", "points": 1}
                    state = hkernel.execute(hid, seat, action, cause=CAUSE).after
                    done += 1

        raw_rates.append(per_run / timed(raw_inserts))
        store_rates.append(per_run / timed(store_appends))
        kernel_rates.append(per_run / timed(kernel_commands))
        highdie_rates.append(per_run / timed(highdie_commands))

    PROFILE["append"] = lambda: play_ticks(kernel, kgame, 200, 1 + per_run * runs)
    raw_rate, store_rate = median(raw_rates), median(store_rates)
    kernel_rate, highdie_rate = median(kernel_rates), median(highdie_rates)
    ratio = store_rate / raw_rate
    raw.close()
    store.close()
    return Result(
        "a. append", "SQLiteEventStore.append, 1 pre-sealed event per transaction", store_rate, "appends/s",
        "raw sqlite3 INSERT, BEGIN IMMEDIATE per row, same table/WAL/FULL", raw_rate, ratio,
        ">= 0.5 x raw", ratio >= 0.5,
        [f"full command path Kernel.execute (benchcounter, 1 event/command): {kernel_rate:,.0f} commands/s "
         f"= {kernel_rate / raw_rate:.2f} x raw",
         f"full command path Kernel.execute (highdie 'bet 1', 2 events/command, a create every 17 "
         f"commands): {highdie_rate:,.0f} commands/s = {highdie_rate / raw_rate:.2f} x raw",
         f"{runs} runs x {per_run} transactions each, interleaved; median of the per-run rates"],
        {"raw_per_s": raw_rates, "store_per_s": store_rates, "kernel_execute_per_s": kernel_rates,
         "kernel_execute_per_s_median": kernel_rate, "kernel_execute_ratio": kernel_rate / raw_rate,
         "highdie_execute_per_s": highdie_rates, "highdie_execute_per_s_median": highdie_rate,
         "highdie_execute_ratio": highdie_rate / raw_rate},
    )


# ---- b. replay, c. load --------------------------------------------------------------------


def bench_replay(kernel: Kernel, path: Path, game_id: str, events: int, runs: int) -> Result:
    store = kernel.store
    replayer = kernel.replayer
    raw = sqlite3.connect(str(path), isolation_level=None)
    sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ? ORDER BY seq"

    def floor() -> None:
        for row in raw.execute(sql, (game_id, 0)).fetchall():
            json.loads(row[4])
            json.loads(row[9])

    def full() -> None:
        replayer.fold(store.read(game_id))

    assert replayer.fold(store.read(game_id)).seq == events
    read_events = store.read(game_id)
    floor_t, full_t, read_t, fold_t = [], [], [], []
    for _ in range(3):          # warm both paths
        floor()
        full()
    for _ in range(runs):
        floor_t.append(timed(floor))
        full_t.append(timed(full))
        read_t.append(timed(lambda: store.read(game_id)))
        fold_t.append(timed(lambda: replayer.fold(read_events)))
    raw.close()
    PROFILE["replay"] = lambda: [replayer.fold(store.read(game_id)) for _ in range(20)]
    f, k = median(floor_t), median(full_t)
    return Result(
        "b. replay", f"Replayer.fold(store.read(game)), {events} events", k * 1000, "ms",
        "raw sqlite3 SELECT of the rows + json.loads(payload), json.loads(cause)", f * 1000, k / f,
        "<= 3 x floor", k / f <= 3,
        [f"of which store.read {median(read_t) * 1000:.2f} ms ({median(read_t) / f:.2f} x floor), "
         f"fold of the read list {median(fold_t) * 1000:.2f} ms ({median(fold_t) / f:.2f} x floor)",
         f"per event: {k / events * 1e6:.1f} us against a floor of {f / events * 1e6:.1f} us",
         f"median of {runs} runs, warm cache"],
        {"floor_s": floor_t, "replay_s": full_t, "read_s": read_t, "fold_s": fold_t},
    )


def bench_load(kernel: Kernel, big: str, big_events: int, small: str, small_events: int,
               runs: int) -> list[Result]:
    def measure() -> tuple[float, float]:
        big_t, small_t = [], []
        for _ in range(3):
            kernel.load(big)
            kernel.load(small)
        for _ in range(runs):
            big_t.append(timed(lambda: kernel.load(big)))
            small_t.append(timed(lambda: kernel.load(small)))
        return median(big_t), median(small_t)

    assert kernel.load(small).seq == small_events
    # The figure depends on where each game stands after its newest snapshot (every SNAPSHOT_EVERY
    # events): both games are measured at the same distance from their newest snapshot, so the
    # ratio shows what the length of the history costs. Best case (a snapshot at the last event),
    # the middle, and the worst case (SNAPSHOT_EVERY - 1 events after it).
    every = replay_module.SNAPSHOT_EVERY
    figures: dict[int, tuple[float, float]] = {}
    at = big_events
    small_at = small_events
    for tail in (0, every // 2 - 1, every - 1):
        play_ticks(kernel, big, big_events + tail - at, at)
        play_ticks(kernel, small, small_events + tail - small_at, small_at)
        at, small_at = big_events + tail, small_events + tail
        assert kernel.load(big).seq == at and kernel.load(small).seq == small_at
        figures[tail] = measure()
    PROFILE["load"] = lambda: [kernel.load(big) for _ in range(200)]
    results = []
    for label, tail in (("c. load", 0), ("c. worst", every - 1)):
        b, s = figures[tail]
        notes = [f"{big_events + t:,} events ({t}-event tail): {figures[t][0] * 1000:.3f} ms = "
                 f"{figures[t][0] / figures[t][1]:.2f} x the {small_events + t}-event game "
                 f"({figures[t][1] * 1000:.3f} ms)" for t in figures if t != tail]
        notes.append(f"SNAPSHOT_EVERY = {every}; median of {runs} runs, warm cache")
        results.append(Result(
            label, f"Kernel.load, {big_events + tail:,} events ({tail}-event tail after the newest snapshot"
            + (", best case)" if tail == 0 else ", worst case)"), b * 1000, "ms",
            f"Kernel.load, {small_events + tail} events (same tail)", s * 1000, b / s, "<= 1.5 x", b / s <= 1.5,
            notes, {"by_tail_ms": {str(t): [v[0] * 1000, v[1] * 1000, v[0] / v[1]] for t, v in figures.items()}},
        ))
    return results


# ---- d. reading one game from a big store --------------------------------------------------


def bench_read(tmp: Path, games: int, per_game: int, runs: int) -> Result:
    # One real game of per_game events, sealed by the kernel: its rows are the template for all.
    src = SQLiteEventStore(tmp / "read-template.sqlite3", synchronous="OFF")
    template_id = new_counter_game(Kernel(src, GAMES), per_game)
    template = [_event_to_row(e) for e in src.read(template_id)]
    src.close()

    ids = sorted({secrets.token_hex(5) for _ in range(games * 2)})[:games]
    target = ids[len(ids) // 2]
    ids = [i for i in ids if i != target][:games - 1] + [target]
    random.Random(7).shuffle(ids)

    def rows_of(game_id: str) -> list[tuple[Any, ...]]:
        # Same shape and size as real rows; only the measured game's rows are its own real events
        # (the others reuse them under another game_id, so their hash chains would not verify).
        return [(game_id,) + r[1:] for r in template]

    big_path, small_path = tmp / "read-big.sqlite3", tmp / "read-small.sqlite3"
    build_start = time.perf_counter()
    big = SQLiteEventStore(big_path, synchronous="OFF")
    big.conn.execute("PRAGMA cache_size = -1000000")
    # Interleaved like a live service: every game's event 1, then every game's event 2, ...
    chunk = max(1, 100_000 // games)
    for first in range(0, per_game, chunk):
        big.conn.execute("BEGIN IMMEDIATE")
        big.conn.executemany(INSERT, ((g,) + template[s][1:] for s in range(first, min(per_game, first + chunk))
                                      for g in ids))
        big.conn.execute("COMMIT")
    big.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    count = big.conn.execute("SELECT count(*) FROM events").fetchone()[0]
    big.close()
    build_s = time.perf_counter() - build_start
    small = SQLiteEventStore(small_path, synchronous="OFF")
    small.conn.execute("BEGIN IMMEDIATE")
    small.conn.executemany(INSERT, rows_of(target))
    small.conn.execute("COMMIT")
    small.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    small.close()
    size_mb = big_path.stat().st_size / 1e6

    def cold_read(path: Path, game_id: str) -> float:
        evicted = evict(path)
        store = SQLiteEventStore(path)          # fresh connection: empty SQLite page cache
        try:
            store.read("0")                     # schema loaded; not what we measure
            t = timed(lambda: store.read(game_id))
            assert len(store.read(game_id)) == per_game
        finally:
            store.close()
        cold_read.evicted = evicted  # type: ignore[attr-defined]
        return t

    def warm_reads(path: Path, game_id: str) -> list[float]:
        store = SQLiteEventStore(path)
        try:
            for _ in range(3):
                store.read(game_id)
            return [timed(lambda: store.read(game_id)) for _ in range(runs)]
        finally:
            store.close()

    big_cold, small_cold, others_cold = [], [], []
    others = random.Random(11).sample([i for i in ids if i != target], runs)
    for i in range(runs):
        big_cold.append(cold_read(big_path, target))
        small_cold.append(cold_read(small_path, target))
        others_cold.append(cold_read(big_path, others[i]))
    evicted = getattr(cold_read, "evicted", False)
    big_warm, small_warm = warm_reads(big_path, target), warm_reads(small_path, target)
    bc, sc, bw, sw = median(big_cold), median(small_cold), median(big_warm), median(small_warm)
    for p in (big_path, small_path):
        for suffix in ("", "-wal", "-shm"):
            Path(str(p) + suffix).unlink(missing_ok=True)
    cache = ("cold: fresh connection and the file's pages dropped from the OS cache with "
             "posix_fadvise(DONTNEED) before each read" if evicted else
             "cold-ish: fresh connection; the OS page cache could not be dropped")
    return Result(
        "d. read", f"store.read(game), {per_game} events, store of {count:,} events / {games:,} games",
        bc * 1000, "ms", "the same game's rows alone in a store", sc * 1000, bc / sc, "<= 2 x", bc / sc <= 2,
        [cache + f"; median of {runs} reads",
         f"{runs} other games of the big store, cold: median {median(others_cold) * 1000:.2f} ms",
         f"warm (same connection): big {bw * 1000:.3f} ms, small {sw * 1000:.3f} ms = {bw / sw:.2f} x",
         f"big store built in {build_s:.1f} s (raw executemany, synchronous=OFF, games interleaved), "
         f"{size_mb:,.0f} MB; deleted after"],
        {"big_cold_s": big_cold, "small_cold_s": small_cold, "others_cold_s": others_cold,
         "big_warm_ms": bw * 1000, "small_warm_ms": sw * 1000, "warm_ratio": bw / sw,
         "events": count, "build_s": build_s, "size_mb": size_mb, "os_cache_dropped": evicted},
    )


# ---- main ----------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    return {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "nproc": os.cpu_count(),
            "python": platform.python_version(), "sqlite": sqlite3.sqlite_version,
            "platform": platform.platform()}


def print_table(results: list[Result], info: dict[str, Any]) -> None:
    print(f"pbem kernel benchmarks — {info['mode']} — {info['date']}")
    print(f"nproc {info['nproc']}, Python {info['python']}, SQLite {info['sqlite']}, {info['platform']}, "
          f"temp dir {info['tmp']}")
    print("streams: 'benchcounter' bench game (1 event per command, never ends): measures the kernel\n")
    head = f"{'benchmark':<10} {'measured':>14} {'baseline':>14} {'ratio':>7} {'goal':>14}  result"
    print(head)
    print("-" * len(head))
    for r in results:
        print(f"{r.name:<10} {r.value:>10,.3f} {'':>3}{r.baseline:>10,.3f} {'':>3}{r.ratio:>7.2f} "
              f"{r.goal:>14}  {'PASS' if r.passed else 'MISS'}   ({r.unit})")
    print()
    for r in results:
        print(f"{r.name}: {r.measured}\n    baseline: {r.baseline_name}")
        for note in r.notes:
            print(f"    {note}")
    print(f"\ntotal {info['seconds']:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller sizes, under 30 s (not the goal sizes)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    parser.add_argument("--only", choices=["append", "replay", "load", "read"], action="append",
                        help="run only these benchmarks (repeatable)")
    parser.add_argument("--profile", choices=["append", "replay", "load"],
                        help="after the run, cProfile the measured kernel call of this benchmark")
    parser.add_argument("--snapshot-every", type=int, metavar="N",
                        help="what-if: run with events.replay.SNAPSHOT_EVERY = N instead of the kernel's value")
    parser.add_argument("--tmp", help="folder for the temporary databases (default: system temp)")
    args = parser.parse_args()
    if args.snapshot_every:
        replay_module.SNAPSHOT_EVERY = args.snapshot_every
    only = set(args.only or ["append", "replay", "load", "read"])
    if args.profile:
        only.add(args.profile)
    q = args.quick
    sizes = {
        "append_per_run": 100 if q else 400, "append_runs": 3 if q else 7,
        "replay_events": 1000, "replay_runs": 7 if q else 31,
        "load_big": 2000 if q else 10_000, "load_small": 10, "load_runs": 21 if q else 101,
        "read_games": 1000 if q else 10_000, "read_per_game": 100, "read_runs": 5 if q else 31,
    }
    started = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-", dir=args.tmp))
    results: list[Result] = []
    try:
        if "append" in only:
            results.append(bench_append(tmp, sizes["append_per_run"], sizes["append_runs"]))
        if only & {"replay", "load"}:
            path = tmp / "replay.sqlite3"
            # built with synchronous=OFF (durability does not matter for a read benchmark)
            builder = SQLiteEventStore(path, synchronous="OFF")
            bkernel = Kernel(builder, GAMES)
            replay_game = new_counter_game(bkernel, sizes["replay_events"]) if "replay" in only else ""
            big = new_counter_game(bkernel, sizes["load_big"]) if "load" in only else ""
            small = new_counter_game(bkernel, sizes["load_small"]) if "load" in only else ""
            builder.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            builder.close()
            store = SQLiteEventStore(path)
            kernel = Kernel(store, GAMES)
            if "replay" in only:
                results.append(bench_replay(kernel, path, replay_game, sizes["replay_events"],
                                            sizes["replay_runs"]))
            if "load" in only:
                results.extend(bench_load(kernel, big, sizes["load_big"], small, sizes["load_small"],
                                          sizes["load_runs"]))
        if "read" in only:
            results.append(bench_read(tmp, sizes["read_games"], sizes["read_per_game"], sizes["read_runs"]))
        profile_text = ""
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(PROFILE[args.profile])
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
            profile_text = out.getvalue()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    mode = "QUICK (smaller sizes, not the goal sizes)" if q else "full"
    if args.snapshot_every:
        mode += f", WHAT-IF SNAPSHOT_EVERY={args.snapshot_every}"
    info = machine() | {"mode": mode,
                        "tmp": str(tmp.parent), "sizes": sizes, "seconds": time.perf_counter() - started}
    if args.json:
        print(json.dumps({"machine": info, "results": [r.__dict__ for r in results]}, indent=2))
    else:
        print_table(results, info)
        if profile_text:
            print(f"\ncProfile of {args.profile} (by own time):\n{profile_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
