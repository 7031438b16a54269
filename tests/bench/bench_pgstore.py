"""The PostgreSQL event store against raw psycopg on the same server, in the same run.

    python tests/bench/bench_pgstore.py [--appends N] [--events N] [--runs N] [--json]

a. Appends: ``PostgresEventStore.append`` of one event at a time to a stream (the expected-seq check,
   the chain check, the insert, one transaction each), against raw psycopg inserting the same rows
   into a table of the same shape, one transaction per row, on one connection. Goal: at least 0.5x
   the raw rate.
b. Reads: ``PostgresEventStore.read`` of one game's whole stream (rows to ``Event`` objects, the
   JSON parsed), against the raw floor: the same ``SELECT`` fetched as tuples. Goal: within 3x.
c. The delivery layer's SQL surface: ``store.query`` of one read-model row (``?`` placeholders, the
   translation cached, rows as dicts), and a one-statement ``store.transaction`` (an update, as a
   claim or a digest does), against raw psycopg doing the same on one connection. Reported, no goal.

The server is the tests' throwaway one (``tests/pg.py``: unix socket, ``fsync=off``), so the figures
are the store's own cost over the driver, not the disk's. Times are medians, with the garbage
collector off during each timed call. A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.timing import timed  # noqa: E402

import psycopg  # noqa: E402

from events.envelope import GENESIS_HASH  # noqa: E402
from events.pgstore import PostgresEventStore  # noqa: E402
from events.store import _EVENT_COLUMNS, _event_to_row  # noqa: E402
from pg import PgServer  # noqa: E402
from test_store_contract import sealed  # noqa: E402




def payload(i: int) -> dict[str, Any]:
    """A payload the size of a typical game event."""
    return {"card": f"c{i % 40}", "from": "hand", "to": ["board", i % 7], "n": i}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000, help="appends per run (each run a new stream)")
    parser.add_argument("--events", type=int, default=1000, help="events in the stream that is read")
    parser.add_argument("--runs", type=int, default=5, help="runs of each append measurement, interleaved")
    parser.add_argument("--reads", type=int, default=200, help="reads of each kind, interleaved")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    server = PgServer()
    try:
        dsn = server.dsn(server.create_database())
        store = PostgresEventStore(dsn)
        raw = psycopg.connect(dsn, autocommit=True)
        raw.execute("CREATE TABLE raw_events (LIKE events INCLUDING ALL)")
        insert = f"INSERT INTO raw_events ({_EVENT_COLUMNS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"

        # One chained stream per run, made beforehand: the timing is of the writes alone.
        streams = [sealed(f"append-{run}", 0, GENESIS_HASH, [payload(i) for i in range(args.appends)])
                   for run in range(args.runs)]
        store_times, raw_times = [], []
        for events in streams:
            def store_appends() -> None:
                for e in events:
                    store.append(e.game_id, e.seq - 1, [e])

            def raw_inserts() -> None:
                for e in events:
                    with raw.transaction():
                        raw.execute(insert, _event_to_row(e))
            if len(store_times) % 2:  # alternate which goes first
                raw_times.append(timed(raw_inserts))
                store_times.append(timed(store_appends))
            else:
                store_times.append(timed(store_appends))
                raw_times.append(timed(raw_inserts))
        store_rate = args.appends / statistics.median(store_times)
        raw_rate = args.appends / statistics.median(raw_times)

        game = sealed("read-game", 0, GENESIS_HASH, [payload(i) for i in range(args.events)])
        store.append("read-game", 0, game)
        with raw.transaction():
            raw.cursor().executemany(insert, [_event_to_row(e) for e in game])
        select = f"SELECT {_EVENT_COLUMNS} FROM raw_events WHERE game_id = %s AND seq > %s ORDER BY seq"
        read_times, floor_times = [], []
        assert store.read("read-game") == game
        for _ in range(args.reads):
            read_times.append(timed(lambda: store.read("read-game")))
            floor_times.append(timed(lambda: raw.execute(select, ("read-game", 0)).fetchall()))
        read_ms = statistics.median(read_times) * 1000
        floor_ms = statistics.median(floor_times) * 1000

        raw.execute("CREATE TABLE raw_model (game_id TEXT PRIMARY KEY, last_seq BIGINT)")
        store.ensure_table("model", {"game_id": str, "last_seq": int}, pk="game_id")
        for table in ("model", "raw_model"):
            raw.execute(f"INSERT INTO {table} SELECT 'g' || n, n FROM generate_series(1, 1000) n")
        n = 2000
        query_times, raw_query_times, update_times, raw_update_times = [], [], [], []

        def store_queries() -> None:
            for i in range(n):
                store.query("SELECT game_id, last_seq FROM model WHERE game_id = ?", (f"g{i % 1000 + 1}",))

        def raw_queries() -> None:
            for i in range(n):
                raw.execute("SELECT game_id, last_seq FROM raw_model WHERE game_id = %s", (f"g{i % 1000 + 1}",)).fetchall()

        def store_updates() -> None:
            for i in range(n):
                with store.transaction() as conn:
                    conn.execute("UPDATE model SET last_seq = last_seq + 1 WHERE game_id = ?", (f"g{i % 1000 + 1}",))

        def raw_updates() -> None:
            for i in range(n):
                with raw.transaction():
                    raw.execute("UPDATE raw_model SET last_seq = last_seq + 1 WHERE game_id = %s", (f"g{i % 1000 + 1}",))
        for _ in range(3):
            query_times.append(timed(store_queries))
            raw_query_times.append(timed(raw_queries))
            update_times.append(timed(store_updates))
            raw_update_times.append(timed(raw_updates))
        query_us = statistics.median(query_times) / n * 1e6
        raw_query_us = statistics.median(raw_query_times) / n * 1e6
        update_us = statistics.median(update_times) / n * 1e6
        raw_update_us = statistics.median(raw_update_times) / n * 1e6
        raw.close()
        store.close()
    finally:
        server.stop()

    figures = {
        "appends_per_s": round(store_rate), "raw_inserts_per_s": round(raw_rate),
        "append_ratio": round(store_rate / raw_rate, 2), "append_goal_met": store_rate / raw_rate >= 0.5,
        "read_ms": round(read_ms, 3), "raw_read_ms": round(floor_ms, 3),
        "read_ratio": round(read_ms / floor_ms, 2), "read_goal_met": read_ms / floor_ms <= 3,
        "appends": args.appends, "runs": args.runs, "events_read": args.events, "reads": args.reads,
        "query_us": round(query_us, 1), "raw_query_us": round(raw_query_us, 1),
        "update_us": round(update_us, 1), "raw_update_us": round(raw_update_us, 1),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"a. appends: {store_rate:,.0f}/s against raw inserts {raw_rate:,.0f}/s: "
          f"{figures['append_ratio']} x (goal >= 0.5 x) {'PASS' if figures['append_goal_met'] else 'MISS'}")
    print(f"b. read of {args.events} events: {read_ms:.2f} ms against the raw floor {floor_ms:.2f} ms: "
          f"{figures['read_ratio']} x (goal <= 3 x) {'PASS' if figures['read_goal_met'] else 'MISS'}")
    print(f"c. store.query of one row {query_us:.0f} us against raw {raw_query_us:.0f} us "
          f"({query_us / raw_query_us:.2f} x); a one-update transaction {update_us:.0f} us against raw "
          f"{raw_update_us:.0f} us ({update_us / raw_update_us:.2f} x)")


if __name__ == "__main__":
    main()
