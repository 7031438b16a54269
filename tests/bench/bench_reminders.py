"""10,000 reminders due at once (after an outage): the tick that counts them, against bare indexed updates.

    python tests/bench/bench_reminders.py [--due N] [--runs N] [--write N] [--json]

a. The tick: ``Service.remind_due`` with ``--due`` running games each with one reminder due (the rows of
   ``games`` and ``deadlines`` written directly, as many games would leave them; the tick reads nothing
   else): each reminder counted on its deadline row, the time of the next set, and its mail marked owed,
   in one transaction. Baseline, same run, same database: the same number of bare indexed updates of
   the deadline rows (``UPDATE deadlines SET reminders_sent = reminders_sent + 1 WHERE game_id = ? AND
   seat = ?``) in one transaction. Goal (issue "lean at scale"): within 3x.
b. Writing the owed mails (``Service.write_reminders``, after the count in the same job): ``--write`` real
   three-player A Study in Emerald games 12 moves in, one reminder owed each, from a new worker's
   service (nothing cached); given per reminder, with the rendering of a written one (``build``) when
   it is sent.

Both sides run on ``synchronous = FULL`` files. A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from events.handling import Cause  # noqa: E402
from pbem.post.mail.outbox import message_of  # noqa: E402
from pbem.service import Player, Service  # noqa: E402
from pbem.web import create_app  # noqa: E402

REMINDERS = [0.5, 0.9]
PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]


def fill(service: Service, due: int, now: datetime) -> None:
    """``due`` running games, each with a turn deadline whose first reminder has come."""
    issued = now - timedelta(hours=40)
    deadline = now + timedelta(hours=32)
    with service.store.transaction() as conn:
        for g in range(due):
            game_id = f"g{g:06d}"
            conn.execute("INSERT INTO games (game_id, game_type, title, status, seats, last_seq, created_at, "
                         "updated_at) VALUES (?, 'emerald', 'A Study in Emerald (2nd edition)', 'running', 3, 40, ?, ?)",
                         (game_id, issued.isoformat(), issued.isoformat()))
            conn.execute("INSERT INTO deadlines (game_id, seat, kind, issued_at, due_at, reminders_sent, issued_seq, "
                         "remind_at) VALUES (?, ?, 'turn', ?, ?, 0, 40, ?)",
                         (game_id, g % 3, issued.isoformat(), deadline.isoformat(timespec="seconds"),
                          (issued + (deadline - issued) * 0.5).isoformat(timespec="seconds")))


def tick(folder: Path, due: int) -> tuple[float, float]:
    app = create_app({"instance": folder, "secret_key": "bench-secret-key", "TESTING": True,
                      "reminders": REMINDERS, "turn_hours": 72})
    service = Service.open(app.config["PBEM_SETTINGS"])
    now = datetime.now(timezone.utc)
    fill(service, due, now)
    keys = [(r["game_id"], r["seat"]) for r in service.store.query("SELECT game_id, seat FROM deadlines")]
    start = time.perf_counter()
    with service.store.transaction() as conn:
        conn.executemany("UPDATE deadlines SET reminders_sent = reminders_sent + 1 WHERE game_id = ? AND seat = ?", keys)
    bare = time.perf_counter() - start
    with service.store.transaction() as conn:
        conn.execute("UPDATE deadlines SET reminders_sent = 0")
    start = time.perf_counter()
    counted = service.remind_due(now)
    ours = time.perf_counter() - start
    assert counted == due, counted
    owed = service.store.query("SELECT count(*) AS n FROM deadlines WHERE owed = 1")[0]["n"]
    assert owed == due, owed
    service.close()
    return bare, ours


def write(folder: Path, games: int) -> tuple[float, float]:
    app = create_app({"instance": folder, "secret_key": "bench-secret-key", "TESTING": True,
                      "reminders": REMINDERS, "turn_hours": 72})
    service = Service.open(app.config["PBEM_SETTINGS"])
    pick = random.Random(3)
    for g in range(games):
        game_id = service.create_game("emerald", PLAYERS, seed=f"bench-write-{g}").after.game_id
        for _ in range(12):
            state = service.load(game_id)
            rules = service.kernel.rules(state)
            seat = sorted(rules.prompts(state.game))[0]
            service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("bench"))
    service.close()
    service = Service.open(app.config["PBEM_SETTINGS"])  # a new worker's tick: nothing cached
    assert service.remind_due(datetime.now(timezone.utc) + timedelta(hours=40)) == games
    start = time.perf_counter()
    assert service.write_reminders() == games
    written = (time.perf_counter() - start) / games
    rows = service.store.query("SELECT * FROM outbox WHERE kind = 'reminder'")
    start = time.perf_counter()
    for row in rows:
        message_of(row)
    rendered = (time.perf_counter() - start) / len(rows)
    service.close()
    return written, rendered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--due", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bares, ours = [], []
    for run in range(args.runs):
        bare, mine = tick(Path(tempfile.mkdtemp(prefix="pbem-bench-reminders-")) / "inst", args.due)
        bares.append(bare)
        ours.append(mine)
    written, rendered = write(Path(tempfile.mkdtemp(prefix="pbem-bench-reminders-")) / "inst", args.write)
    bare, mine = statistics.median(bares), statistics.median(ours)
    results: dict[str, Any] = {
        "due": args.due,
        "a. bare indexed updates, s": bare, "a. remind_due (counted, mails owed), s": mine,
        "a. ratio": mine / bare,
        "b. writing an owed reminder mail (load, compose, queue), ms": written * 1000,
        "b. rendering a written one, ms": rendered * 1000,
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for key, value in results.items():
        print(f"{key:<64} {value:10.3f}" if isinstance(value, float) else f"{key:<64} {value:>10}")
    print(f"goal a (<= 3x): {'met' if mine / bare <= 3 else 'MISSED'}")


if __name__ == "__main__":
    main()
