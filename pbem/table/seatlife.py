"""A seat's life at the table, as the service sees it: the hooks of vacations (``pbem.table.away``), autopilot and
resignation (``pbem.table.autopilot``) and replacement (``pbem.table.replacing``), in one place."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, Sequence

from events.envelope import Event, NewEvent
from events.handling import Cause, CommandResult
from events.rules import ActionError
from events.replay import GameState
from events.store import ConcurrencyError, Row, SQLiteEventStore
from pbem.table import autopilot, away, botseats, replacing
from pbem.errors import ServiceError
from pbem.table.hooks import Host
from pbem.table.autopilot import check_command, check_may_act
from pbem.table.seat_events import SEAT_EVENT_TYPES


__all__ = ["SEAT_EVENT_TYPES", "adjust", "away", "check_command", "check_may_act", "create_tables", "follow",
           "replacing", "rows", "seat_command", "tick"]

log = logging.getLogger(__name__)


def create_tables(store: SQLiteEventStore) -> None:
    autopilot.create_tables(store)
    away.create_tables(store)


def follow(service: Host, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
    """What a command adds: a game's bot seats go on autopilot at its creation; a seat missing once too often goes
    on autopilot, or comes off it by acting."""
    return botseats.follow(after, events) + autopilot.follow(service.store, after, events)


def adjust(store: SQLiteEventStore, game_id: str, drafts: list[NewEvent], now: datetime | None = None
           ) -> list[NewEvent]:
    """New deadlines of a player whose clock is stopped (away, under the allowance) start when it runs again."""
    return away.adjust(store, game_id, drafts, now)


def rows(service: Host, after: GameState[Any], events: Sequence[Event]) -> list[Row]:
    """The read models (``seat_status``, ``absences``) and the organiser's mail a command causes."""
    return autopilot.rows(service, after, events) + away.rows(after.game_id, events)


SEAT_COMMANDS = ("back", "take-back", "resign")


def seat_command(service: Host, game_id: str, seat: int, what: str, *, cause: Cause) -> CommandResult:
    """A player's own command about their seat: ``back`` (ends their absence, and takes the seat off
    autopilot if it is on), ``take-back`` (off autopilot) or ``resign``.

    :raises ServiceError: unknown, or nothing to do.
    """
    if what == "resign":
        return autopilot.resign(service, game_id, seat, cause=cause)
    if what == "take-back":
        return autopilot.take_back(service, game_id, seat, cause=cause)
    if what == "back":
        if away.absences_of(service.store, game_id, seat):
            return away.back(service, game_id, seat, cause=cause)
        if autopilot.status(service.store, game_id, seat)["autopilot"]:
            return autopilot.take_back(service, game_id, seat, cause=cause)
        raise ServiceError("you have no absence declared in this game, and your seat is not on autopilot")
    raise ServiceError(f"unknown seat command {what!r}: back, take-back or resign")


def tick(service: autopilot.Piloted, now: datetime, limit: int = 200) -> tuple[int, int]:
    """The scheduler's run: start and end the absences due, then play at once for the seats on autopilot
    (again while a seat on autopilot is asked again, up to ``limit`` moves). Returns both counts."""
    changed = away.tick(service, now)
    played = 0
    for _ in range(limit):
        moved = False
        for row in autopilot.due(service.store):
            try:
                if autopilot.play_for(service, str(row["game_id"]), int(row["seat"])):
                    played += 1
                    moved = True
                    service.apply_standing_orders(str(row["game_id"]))
            except (ActionError, ConcurrencyError) as err:  # the game moved on meanwhile: the next pass sees it
                log.info("autopilot of seat %s of game %s skipped: %s", row["seat"], row["game_id"], err)
        if not moved:
            break
    return changed, played


def parse_line(line: str) -> tuple[str, list[str]] | None:
    """A reply's line about the player's seat, or None (a game command or talk):

    ``away 2026-12-01 2026-12-08 [share] [REASON]`` (the reason is kept to yourself unless ``share`` comes
    first), ``back``, ``take back my seat``, ``resign``.

    :raises ServiceError: an ``away`` line without its two days.
    """
    words = line.strip().split()
    if not words:
        return None
    head = words[0].lower()
    if head == "away":
        if len(words) < 3:
            raise ServiceError("write away FIRST-DAY BACK-DAY [share] [REASON], e.g. away 2026-12-01 2026-12-08 "
                               "skiing")
        return "away", words[1:]
    if len(words) == 1 and head in ("back", "resign"):
        return head, []
    if [w.lower() for w in words] == ["take", "back", "my", "seat"]:
        return "take-back", []
    return None


def apply_line(service: Host, game_id: str, seat: int, parsed: tuple[str, list[str]], *,
               cause: Cause) -> CommandResult:
    """Do what ``parse_line`` read."""
    what, args = parsed
    if what == "away":
        share = len(args) > 2 and args[2].lower() == "share"
        reason = " ".join(args[3:] if share else args[2:])
        return service.declare_absence(game_id, seat, args[0], args[1], reason, share, cause=cause)
    return seat_command(service, game_id, seat, what, cause=cause)


def seats_of(service: Host, game_id: str) -> dict[str, Any]:
    """What the table knows of its seats: the game's policies, and each seat's absences, autopilot and
    resignation (public: no address, no kept reason)."""
    state = service.load(game_id)
    names = [s.name for s in state.config.seats]
    absences = away.absences_of(service.store, game_id)
    bots = botseats.bots_of(state.config.options)
    seats = []
    for seat, name in enumerate(names):
        held = autopilot.status(service.store, game_id, seat)
        mine = [{"from": a["starts_at"], "until": a["until"], "running": a["status"] == "active",
                 "reason": a["reason"] if a["shared"] else None} for a in absences if int(a["seat"]) == seat]
        bot = bots.get(seat) if not held["since_seq"] else None  # a bot seat, until given to a human
        seats.append({"seat": seat, "name": name, "autopilot": bool(held["autopilot"]), "bot": bot,
                      "resigned": bool(held["resigned"]), "missed_in_a_row": held["missed"], "away": mine})
    policy, days = away.policy_of(state.config.options)
    return {"vacation": policy, "vacation_days": days if policy == "allowance" else None,
            "vacation_words": away.policy_words(state.config.options),
            "autopilot_after": autopilot.after_misses(state.config.options),
            "autopilot_bot": botseats.autopilot_level(state.config.options), "seats": seats}


def options(vacation: str | None, autopilot_after: int | None, autopilot_bot: str | None = None) -> dict[str, Any]:
    """The game options of ``--vacation``, ``--autopilot-after`` and ``--autopilot-bot`` (none given: none).

    :raises ServiceError: a policy, a number or a level that is not one.
    """
    chosen: dict[str, Any] = botseats.options(autopilot_bot)
    if vacation is not None:
        chosen.update(away.parse_policy(vacation))
    if autopilot_after is not None:
        chosen["autopilot_after"] = autopilot.check_after(autopilot_after)
    return chosen
