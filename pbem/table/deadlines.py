"""Deadlines that keep a slow game moving: issued with each prompt, found when due, timed out, paused and moved.

Every change is an event of the delivery layer in the game's own stream (``pbem.table.delivery``), appended
through the kernel with the host's hooks, so the read models and mails follow in the same transaction.
The host is the service, seen through the little it needs here (``Host``).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Protocol, Sequence

from events.envelope import ORGANISER, SCHEDULER, Event, NewEvent, actor_seat
from events.handling import Cause, CommandResult, Kernel
from events.replay import GameState
from events.schema import ACTIONS_UNDONE
from events.store import Row, SQLiteEventStore
from pbem.table.delivery import DEADLINE_EXTENDED, DEADLINE_SET, GAME_PAUSED, GAME_RESUMED, TIMED_OUT, public_prompt
from pbem.errors import ServiceError


class Host(Protocol):
    """What deadlines need of the service: its store and kernel, the hours allowed, and its hooks."""

    store: SQLiteEventStore
    kernel: Kernel
    turn_hours: float
    interrupt_hours: float

    def follow(self, before: GameState[Any] | None, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
        ...

    def rows(self, before: GameState[Any] | None, after: GameState[Any], events: list[Event],
             players: list[dict[str, Any]] | None = None) -> list[Row]:
        ...

    def load(self, game_id: str, upto_seq: int | None = None) -> GameState[Any]:
        ...


def due_at(store: SQLiteEventStore, game_id: str, seat: int) -> str | None:
    """When the seat's running deadline falls due (None: it has none)."""
    rows = store.query("SELECT due_at FROM deadlines WHERE game_id = ? AND seat = ?", (game_id, seat))
    return str(rows[0]["due_at"]) if rows else None


def issued(host: Host, before: GameState[Any] | None, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
    """A deadline for every seat newly prompted (its turn, or an out-of-turn decision).

    Its public reason is the prompt's kind in words, never its text (``pbem.table.delivery.public_prompt``).
    """
    if after.ended:
        return []
    rules = host.kernel.rules(after)
    prompted_before = rules.prompts(before.game) if before is not None and not before.ended else {}
    if any(e.type == ACTIONS_UNDONE for e in events):
        prompted_before = {}  # after an undo every prompt is issued afresh, with a fresh link
    actor = actor_seat(str(events[0].cause.get("actor", "")))
    now = datetime.fromisoformat(events[0].recorded_at)  # the prompt's time, by the clock the kernel records at
    hours = {"turn": after.config.options.get("turn_hours", host.turn_hours),
             "interrupt": after.config.options.get("interrupt_hours", host.interrupt_hours)}
    drafts = []
    for seat, prompt in sorted(rules.prompts(after.game).items()):
        if seat in prompted_before and seat != actor:
            continue
        if seat in prompted_before and seat == actor and prompted_before[seat].kind == prompt.kind:
            continue  # the same player goes on with the same prompt: the deadline stands
        due = now + timedelta(hours=float(hours.get(prompt.kind, host.turn_hours)))
        drafts.append(NewEvent(DEADLINE_SET, {"seat": seat, "kind": prompt.kind,
                                              "due_at": due.isoformat(timespec="seconds"),
                                              "reason": public_prompt(prompt.kind)}))
    return drafts


def due(store: SQLiteEventStore, now: datetime) -> list[dict[str, Any]]:
    """The deadlines passed in running, unpaused games, oldest first (an indexed ``due_at`` query)."""
    return store.query(
        "SELECT d.* FROM deadlines d JOIN games g ON g.game_id = d.game_id "
        "WHERE g.status = 'running' AND g.paused_at IS NULL AND d.due_at <= ? ORDER BY d.due_at",
        (now.isoformat(timespec="seconds"),))


class _WithTimeOut:
    """The host's hooks, with the ``pbem.TimedOut`` that says why the scheduler moved."""

    def __init__(self, host: Host, seat: int, due_at: str, action: dict[str, Any]) -> None:
        self.host, self.seat, self.due_at, self.action = host, seat, due_at, action

    def follow(self, before: Any, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
        return [NewEvent(TIMED_OUT, {"seat": self.seat, "due_at": self.due_at, "action": self.action},
                         actor=SCHEDULER)] + self.host.follow(before, after, events)

    def rows(self, before: Any, after: GameState[Any], events: list[Event]) -> list[Row]:
        return self.host.rows(before, after, events)


def time_out(host: Host, game_id: str, seat: int, now: datetime) -> CommandResult | None:
    """Play the prompt's default action for a seat whose deadline passed; None if it no longer applies."""
    rows = host.store.query("SELECT due_at, issued_seq FROM deadlines WHERE game_id = ? AND seat = ?",
                            (game_id, seat))
    state = host.load(game_id)
    if not rows or rows[0]["due_at"] > now.isoformat(timespec="seconds") or state.ended:
        return None
    prompt = host.kernel.rules(state).prompts(state.game).get(seat)
    if prompt is None or prompt.default is None:
        return None
    due_at = str(rows[0]["due_at"])
    return host.kernel.execute(game_id, seat, prompt.default, expected_seq=state.seq, actor=SCHEDULER,
                               cause=Cause("scheduler", {"deadline": due_at}),
                               hooks=_WithTimeOut(host, seat, due_at, dict(prompt.default)))


NO_REMINDER = "9999-12-31T23:59:59+00:00"  # ``remind_at`` once every reminder is sent: never due, still indexed


def remind_at(issued_at: str, due_at: str, reminders: Sequence[float], sent: int) -> str:
    """When the next reminder of a deadline is due: a fraction of the time allowed, or never."""
    if sent >= len(reminders):
        return NO_REMINDER
    issued, due_ = datetime.fromisoformat(issued_at), datetime.fromisoformat(due_at)
    return (issued + (due_ - issued) * reminders[sent]).astimezone(timezone.utc).isoformat(timespec="seconds")


def rows(store: SQLiteEventStore, reminders: Sequence[float], game_id: str, seq: int,
         events: Sequence[Event]) -> list[Row]:
    """The ``deadlines`` rows a command's events set or move, each with its next reminder's time."""
    found: list[Row] = []
    for event in events:
        p = event.payload
        if event.type == DEADLINE_SET:
            found.append(Row("deadlines", {"game_id": game_id, "seat": p["seat"], "kind": p["kind"],
                                           "issued_at": event.recorded_at, "due_at": p["due_at"],
                                           "reminders_sent": 0, "issued_seq": seq, "owed": 0, "answered_at": None,
                                           "remind_at": remind_at(event.recorded_at, p["due_at"], reminders, 0)},
                             pk=("game_id", "seat")))
        elif event.type == DEADLINE_EXTENDED:
            held = store.query("SELECT issued_at, reminders_sent FROM deadlines WHERE game_id = ? AND seat = ?",
                               (game_id, p["seat"]))
            values = {"game_id": game_id, "seat": p["seat"], "due_at": p["due_at"]}
            if held:
                values["remind_at"] = remind_at(held[0]["issued_at"], p["due_at"], reminders,
                                                int(held[0]["reminders_sent"]))
            found.append(Row("deadlines", values, pk=("game_id", "seat")))
    return found


def backfill_remind_at(store: SQLiteEventStore, reminders: Sequence[float]) -> None:
    """Give the rows written before ``remind_at`` existed their next reminder's time (found by its index)."""
    for row in store.query("SELECT game_id, seat, issued_at, due_at, reminders_sent FROM deadlines "
                           "WHERE remind_at IS NULL"):
        with store.transaction() as conn:
            conn.execute("UPDATE deadlines SET remind_at = ? WHERE game_id = ? AND seat = ? AND remind_at IS NULL",
                         (remind_at(row["issued_at"], row["due_at"], reminders, int(row["reminders_sent"])),
                          row["game_id"], row["seat"]))


def remind_at_sql(reminders: Sequence[float], store: Any) -> tuple[str, list[Any]]:
    """``remind_at`` after one more reminder, as an SQL expression of a row's ``issued_at``, ``due_at`` and
    ``reminders_sent`` (the count before it), with its parameters: what ``remind_at`` computes, to the second
    (SQLite's date arithmetic keeps milliseconds, so a time within a millisecond of a whole second may come
    out one second apart)."""
    cases, params = [], []
    for sent, fraction in enumerate(reminders[1:], start=0):
        cases.append(f"WHEN ? THEN {store.time_between('issued_at', 'due_at')}")
        params += [sent, float(fraction)]
    if not cases:
        return "?", [NO_REMINDER]
    return f"CASE reminders_sent {' '.join(cases)} ELSE ? END", [*params, NO_REMINDER]


def reminders_due(store: SQLiteEventStore, reminders: Sequence[float], now: datetime) -> list[dict[str, Any]]:
    """Deadlines whose next reminder (a fraction of the time allowed) has come, by the indexed ``remind_at``.

    The cost follows what is due, not how many games run. Rows written before ``remind_at``
    existed get theirs first (found through the same index).
    """
    backfill_remind_at(store, reminders)
    moment = now.astimezone(timezone.utc).isoformat(timespec="seconds")
    return store.query(
        "SELECT d.* FROM deadlines d JOIN games g ON g.game_id = d.game_id "
        "WHERE d.remind_at <= ? AND d.due_at > ? AND g.status = 'running' AND g.paused_at IS NULL "
        "ORDER BY d.remind_at", (moment, moment))


def pause(host: Host, game_id: str, reason: str, *, cause: Cause, expected_seq: int | None = None) -> CommandResult:
    """Pause a game; with ``expected_seq``, refused if anything was recorded since (so for resume, extend)."""
    if host.store.query("SELECT 1 FROM games WHERE game_id = ? AND paused_at IS NOT NULL", (game_id,)):
        raise ServiceError(f"game {game_id} is already paused")
    return host.kernel.record(game_id, [NewEvent(GAME_PAUSED, {"reason": reason})], actor=ORGANISER,
                              cause=cause, hooks=host, expected_seq=expected_seq)


def resume(host: Host, game_id: str, reason: str, *, cause: Cause, expected_seq: int | None = None) -> CommandResult:
    """Resume a paused game; every running deadline moves on by the length of the pause."""
    found = host.store.query("SELECT paused_at FROM games WHERE game_id = ? AND paused_at IS NOT NULL",
                             (game_id,))
    if not found:
        raise ServiceError(f"game {game_id} is not paused")
    paused = datetime.fromisoformat(host.kernel.clock()) - datetime.fromisoformat(found[0]["paused_at"])
    drafts = [NewEvent(GAME_RESUMED, {"reason": reason})]
    for row in host.store.query("SELECT seat, due_at FROM deadlines WHERE game_id = ? ORDER BY seat", (game_id,)):
        moved = datetime.fromisoformat(row["due_at"]) + paused
        drafts.append(NewEvent(DEADLINE_EXTENDED, {"seat": row["seat"], "due_at": moved.isoformat(timespec="seconds"),
                                                   "reason": f"the game was paused for {_span(paused)}"}))
    return host.kernel.record(game_id, drafts, actor=ORGANISER, cause=cause, hooks=host, expected_seq=expected_seq)


def extend(host: Host, game_id: str, hours: float, reason: str, *, cause: Cause, seat: int | None = None,
           expected_seq: int | None = None) -> CommandResult:
    """Move the deadlines of the game (or of one seat) later by some hours."""
    rows = host.store.query("SELECT seat, due_at FROM deadlines WHERE game_id = ? ORDER BY seat", (game_id,))
    rows = [r for r in rows if seat is None or r["seat"] == seat]
    if not rows:
        raise ServiceError("no running deadline to extend" + ("" if seat is None else " for that player"))
    drafts = [NewEvent(DEADLINE_EXTENDED, {
        "seat": r["seat"], "reason": reason or f"extended by {hours:g} hours",
        "due_at": (datetime.fromisoformat(r["due_at"]) + timedelta(hours=hours)).isoformat(timespec="seconds")})
        for r in rows]
    return host.kernel.record(game_id, drafts, actor=ORGANISER, cause=cause, hooks=host, expected_seq=expected_seq)


def _span(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:.1f} hours" if hours < 48 else f"{hours / 24:.1f} days"
