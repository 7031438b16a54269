"""Reminders of a decision still awaited: counted at the tick, a batch per statement; mailed before sending.

A reminder is due when its deadline row's ``remind_at`` has come (an indexed query). The scheduler's
tick only counts the due ones: each deadline row gets one more reminder sent, the time of its next
one, and ``owed = 1`` (a reminder mail is owed), in one transaction for the whole tick with one
``executemany``. Nothing is loaded or composed there, so 10,000 reminders after an outage cost about
what updating their rows costs (``tests/bench/bench_reminders.py``).

Before the worker sends mail it writes what is owed (``write_owed``, an index on ``owed``): the game
loaded as it stands, the mail composed as every mail is (``Notifier.compose``: what happened since the
player's last mail, the board, the commands), the outbox row written and ``owed`` cleared in one
transaction per ``WRITE_BATCH``. A reminder that is owed when its deadline is met or replaced (the
player moved, a new decision was asked) is no longer written: the row that owed it is gone or new, so
nobody is reminded of a decision already taken.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any, Sequence

from events.store import SQLiteEventStore, write_row
from pbem.table import deadlines
from pbem.post.desk import Desk


log = logging.getLogger("pbem.post.reminders")

WRITE_BATCH = 100  # owed reminders composed and written per transaction before sending

# per due row, through the games key: the tick reads what is due (by the remind_at index), never every running game
_RUNNING = ("EXISTS (SELECT 1 FROM games g WHERE g.game_id = deadlines.game_id AND g.status = 'running' "
            "AND g.paused_at IS NULL)")


def count_due(store: SQLiteEventStore, reminders: Sequence[float], now: datetime,
              *, game_id: str | None = None, seat: int | None = None) -> int:
    """Count every reminder due at ``now`` (or this game's seat's, due or not) and mark its mail owed, in one
    statement; returns how many. A deadline is reminded at most once per call, however many of its reminder
    times have passed."""
    deadlines.backfill_remind_at(store, reminders)
    moment = now.astimezone(timezone.utc).isoformat(timespec="seconds")
    following, params = deadlines.remind_at_sql(reminders, store)
    where, keys = ("remind_at <= ? AND due_at > ?", [moment, moment]) if game_id is None else \
        ("due_at > ? AND game_id = ? AND seat = ?", [moment, game_id, seat])  # an operator's reminder now
    with store.transaction() as conn:
        return int(conn.execute(
            f"UPDATE deadlines SET reminders_sent = reminders_sent + 1, owed = 1, remind_at = {following} "
            f"WHERE {where} AND {_RUNNING}", [*params, *keys]).rowcount)


def write_owed(service: Desk, limit: int = 10_000) -> int:
    """Compose and queue every owed reminder mail (the game as it stands); returns how many mails were queued."""
    owed = service.store.query("SELECT game_id, seat, due_at, issued_at FROM deadlines WHERE owed = 1 LIMIT ?",
                               (limit,))
    queued = 0
    for start in range(0, len(owed), WRITE_BATCH):
        rows: list[Any] = []
        cleared: list[tuple[Any, ...]] = []
        for row in owed[start:start + WRITE_BATCH]:
            game_id, seat = str(row["game_id"]), int(row["seat"])
            cleared.append((game_id, seat, row["issued_at"]))
            try:
                mail = _compose(service, game_id, seat, str(row["due_at"]))
            except Exception:  # one game's trouble must not hold the others' reminders back; the operator sees it
                log.exception("the reminder of seat %s of game %s could not be written; it is dropped", seat, game_id)
                continue
            rows += mail
            queued += bool(mail)
        with service.store.transaction() as conn:
            for r in rows:
                write_row(conn, r)
            # only the deadline that owed it: a new deadline issued meanwhile owes nothing yet
            conn.executemany("UPDATE deadlines SET owed = 0 WHERE game_id = ? AND seat = ? AND issued_at = ?", cleared)
    return queued


def _compose(service: Desk, game_id: str, seat: int, due_at: str) -> list[Any]:
    if service.notifier is None:
        return []
    state = service.load(game_id)
    prompt = service.kernel.rules(state).prompts(state.game).get(seat) if not state.ended else None
    player = next((p for p in service.players(game_id) if int(p["seat"]) == seat), None)
    if prompt is None or player is None or not player["mail"]:
        return []
    return service.notifier.compose(service, state, [], player, "reminder", prompt, deadline=due_at)
