"""Bytes a finished three-player A Study in Emerald game takes on disk, events and outbox apart.

    python tests/bench/bench_storage.py [--seed S] [--json]

A three-player game is played at random to its end through ``Service`` (each move written with its
deadline and its mails, as the web and mail paths write them), every mail is rendered and sent
(to a folder) as the worker would, then the database is vacuumed and measured page by page with
SQLite's ``dbstat`` (each table with its indexes). Measured twice: with every mail body retained
(within the retention period) and after the bodies of sent mails are pruned (``mail_retention_days``
passed). The baseline, in the same run, is the game's record as exported (``pbem game export``: every
event as canonical JSON), the least the log can take. Goal (issue "lean at scale"): at most 3 MB
(3,000,000 bytes) with the mail retained, for what the game adds to a database: the file less the same
instance's file with its tables and no game (each of the ~25 tables and their indexes takes at least
one 16 KiB page, about 1 MB that a database of many games shares). A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from events.handling import Cause  # noqa: E402
from pbem.post.mail.dispatch import dispatch, prune  # noqa: E402
from pbem.post.mail.transport import FileTransport  # noqa: E402
from pbem.service import Player, Service  # noqa: E402
from pbem.web import create_app  # noqa: E402

GOAL = 3_000_000
PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]


def play_to_the_end(service: Service, seed: str, mailbox: Path) -> str:
    game_id = service.create_game("emerald", PLAYERS, seed=seed).after.game_id
    pick = random.Random(seed)
    moves = 0
    while True:
        state = service.load(game_id)
        if state.ended:
            break
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        legal = rules.legal_actions(state.game, seat)
        options = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
        service.act_as(game_id, seat, pick.choice(options), cause=Cause("mail"))
        moves += 1
        if moves % 20 == 0:  # the worker's rhythm: render what is pending, send it
            send(service, mailbox)
    send(service, mailbox)
    return game_id


def send(service: Service, mailbox: Path) -> None:
    dispatch(service.store, FileTransport(mailbox), "pbem@localhost", max_attempts=3, retry_seconds=1, batch=10_000)


def measure(path: Path) -> dict[str, int]:
    """Bytes per table (its indexes counted with it) after a VACUUM, and the file."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    owner = dict(conn.execute("SELECT name, tbl_name FROM sqlite_schema"))
    sizes: dict[str, int] = {}
    for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
        table = owner.get(name, name)
        sizes[table] = sizes.get(table, 0) + int(size)
    conn.close()
    sizes["(file)"] = path.stat().st_size
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", default="bench-storage")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="pbem-bench-storage-"))
    empty_app = create_app({"instance": folder / "empty", "secret_key": "bench-secret-key", "TESTING": True})
    Service.open(empty_app.config["PBEM_SETTINGS"]).close()  # every table, no game
    empty = measure(empty_app.config["PBEM_SETTINGS"].database)["(file)"]
    app = create_app({"instance": folder / "inst", "secret_key": "bench-secret-key", "TESTING": True})
    settings = app.config["PBEM_SETTINGS"]
    service = Service.open(settings)
    game_id = play_to_the_end(service, args.seed, folder / "mailbox")
    events = service.store.read(game_id)
    record = sum(len(json.dumps(e.to_record(), sort_keys=True, ensure_ascii=False)) + 1 for e in events)
    created = len(json.dumps(events[0].payload, sort_keys=True, separators=(",", ":")))
    mails = service.store.query("SELECT count(*) AS n, sum(length(draft)) AS draft FROM outbox")[0]
    database = Path(service.store.path)
    service.close()

    retained = measure(database)
    service = Service.open(settings)
    prune(service.store, 30, now=datetime.now(timezone.utc) + timedelta(days=31), batch=1_000_000)
    service.close()
    pruned = measure(database)

    def outbox(sizes: dict[str, int]) -> int:
        return sizes.get("outbox", 0) + sizes.get("mail_attempts", 0)

    results: dict[str, Any] = {
        "events": len(events), "mails": mails["n"], "GameCreated payload, bytes": created,
        "record as exported (baseline), bytes": record,
        "events table, bytes": retained.get("events", 0),
        "outbox with bodies, bytes": outbox(retained), "mail drafts, bytes": mails["draft"],
        "database with mail retained, bytes": retained["(file)"],
        "outbox after pruning, bytes": outbox(pruned),
        "database after pruning, bytes": pruned["(file)"],
        "database of the tables alone, bytes": empty,
        "the game, mail retained, bytes": retained["(file)"] - empty,
        "the game, after pruning, bytes": pruned["(file)"] - empty,
        "events table / record": retained.get("events", 0) / record,
        "database (mail retained) / record": retained["(file)"] / record,
        "goal (the game <= 3 MB with mail retained)": "met" if retained["(file)"] - empty <= GOAL else "MISSED",
    }
    if args.json:
        print(json.dumps({"results": results, "tables retained": retained, "tables pruned": pruned}, indent=2))
        return
    for key, value in results.items():
        print(f"{key:<42} {value:>12.2f}" if isinstance(value, float) else f"{key:<42} {value:>12}")
    print("tables, mail retained:", ", ".join(f"{k} {v // 1024} KiB" for k, v in sorted(retained.items())))


if __name__ == "__main__":
    main()
