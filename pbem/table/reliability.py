"""How reliably a player keeps their deadlines: answered on time, answered late, missed, and how fast.

Computed from the log (``from_log``: the ``pbem.DeadlineSet``, ``pbem.DeadlineExtended`` and ``pbem.TimedOut``
events and the seat's own moves), and kept as a read model written with each command (``rows``: a
``reliability`` row per game and seat, summed per player for their home page), so the home page of a player
in a thousand games reads one indexed sum. The two agree: the tests compare them over seeded games.

A deadline counts once, when the seat first moves after it was set: on time if by its due time (as moved by
any extension), late if after (the scheduler was down, say); the response is the time from the deadline's
setting to that move. A deadline the scheduler ran out counts as missed. Moves made under a deadline already
answered or run out (the second action of a turn) do not count again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Sequence

from events.envelope import Event, actor_seat
from events.store import Row, SQLiteEventStore
from pbem.table.delivery import DEADLINE_EXTENDED, DEADLINE_SET, TIMED_OUT

COLUMNS = {"game_id": str, "seat": int, "email": str, "on_time": int, "late": int, "missed": int,
           "response_seconds": float}


@dataclass
class Record:
    on_time: int = 0
    late: int = 0
    missed: int = 0
    response_seconds: float = 0.0

    @property
    def answered(self) -> int:
        return self.on_time + self.late

    def words(self) -> str:
        """``12 turns on time, 1 late, 2 missed; answers in 5 h 10 min on average``."""
        if not (self.answered or self.missed):
            return "no deadline met or missed yet"
        parts = [f"{self.on_time} on time"] + ([f"{self.late} late"] if self.late else [])
        parts.append(f"{self.missed} missed")
        mean = f"; answers in {_span(self.response_seconds / self.answered)} on average" if self.answered else ""
        return ", ".join(parts) + mean


def _span(seconds: float) -> str:
    minutes = int(seconds // 60)
    days, rest = divmod(minutes, 1440)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"


def _seconds(later: str, earlier: str) -> float:
    return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds()


def from_log(events: Sequence[Event], seat: int) -> Record:
    """The seat's record, from the game's events alone."""
    found = Record()
    open_: dict[str, Any] | None = None  # the seat's deadline: set_at, due_at, answered
    for event in events:
        p = event.payload
        if event.type == DEADLINE_SET and p["seat"] == seat:
            open_ = {"set_at": event.recorded_at, "due_at": p["due_at"], "answered": False}
        elif event.type == DEADLINE_EXTENDED and p["seat"] == seat and open_ is not None:
            open_["due_at"] = p["due_at"]
        elif event.type == TIMED_OUT and p["seat"] == seat:
            found.missed += 1
            open_ = None
        elif (open_ is not None and not open_["answered"] and actor_seat(event.actor) == seat
              and "action" in event.cause and event.cause.get("seat") == seat):
            _answer(found, event.recorded_at, open_["set_at"], open_["due_at"])
            open_["answered"] = True
    return found


def _answer(record: Record, at: str, set_at: str, due_at: str) -> None:
    if _seconds(due_at, at) >= 0:
        record.on_time += 1
    else:
        record.late += 1
    record.response_seconds += max(0.0, _seconds(at, set_at))


def rows(store: SQLiteEventStore, game_id: str, events: Sequence[Event],
         players: Sequence[dict[str, Any]]) -> list[Row]:
    """The ``reliability`` rows a command changes (read before it: the seat's deadline row and its record), and
    the deadline row marked answered. Written before the command's own deadline rows, which delete the row of a
    seat no longer asked and reset ``answered_at`` for a new deadline."""
    changed: list[Row] = []
    emails = {int(p["seat"]): str(p["email"]) for p in players}
    first = events[0]
    mover = actor_seat(first.actor)
    touched: dict[int, Record] = {}

    def record(seat: int) -> Record:
        if seat not in touched:
            held = store.query("SELECT on_time, late, missed, response_seconds FROM reliability "
                               "WHERE game_id = ? AND seat = ?", (game_id, seat))
            touched[seat] = Record(**{k: held[0][k] or 0 for k in ("on_time", "late", "missed",
                                                                    "response_seconds")}) if held else Record()
        return touched[seat]

    if mover is not None and "action" in first.cause and first.cause.get("seat") == mover:
        held = store.query("SELECT issued_at, due_at, answered_at FROM deadlines WHERE game_id = ? AND seat = ?",
                           (game_id, mover))
        if held and not held[0]["answered_at"]:
            _answer(record(mover), first.recorded_at, str(held[0]["issued_at"]), str(held[0]["due_at"]))
            changed.append(Row("deadlines", {"game_id": game_id, "seat": mover, "answered_at": first.recorded_at},
                               pk=("game_id", "seat")))
    for event in events:
        if event.type == TIMED_OUT:  # missed; and the deadline is done with: later moves under it do not count
            record(int(event.payload["seat"])).missed += 1
            changed.append(Row("deadlines", {"game_id": game_id, "seat": int(event.payload["seat"]),
                                             "answered_at": event.recorded_at}, pk=("game_id", "seat")))
    for seat, found in touched.items():
        changed.append(Row("reliability", {"game_id": game_id, "seat": seat, "email": emails.get(seat, ""),
                                           "on_time": found.on_time, "late": found.late, "missed": found.missed,
                                           "response_seconds": found.response_seconds}, pk=("game_id", "seat")))
    return changed


def of_player(store: SQLiteEventStore, email: str) -> Record:
    """The player's record over all their games (an indexed sum)."""
    row = store.query("SELECT sum(on_time) AS on_time, sum(late) AS late, sum(missed) AS missed, "
                      "sum(response_seconds) AS response_seconds FROM reliability WHERE email = ?", (email,))[0]
    return Record(int(row["on_time"] or 0), int(row["late"] or 0), int(row["missed"] or 0),
                  float(row["response_seconds"] or 0.0))
