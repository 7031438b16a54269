"""Giving a seat to another player: the organiser's replacement, and the old holder's links refused.

``pbem.SeatReplaced`` names the seat, the new player's name and a salted hash of their address (never the
address: the log is shown whole once the game ends). In the same command the ``seats`` row takes the new
address, the new player gets a welcome mail with the seat's private view and the seat's log as that seat
saw it, and the old player is told, in a mail with nothing of the seat's view in it.

The old links stop working by their seq: every play link names the move it was issued at, and a link
issued before the replacement (``seat_status.since_seq``) is refused with a clear message and writes
nothing; so are unsubscribe links (which carry the seq too) and undo links of requests made before it.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from events.envelope import ORGANISER, Event, NewEvent
from events.handling import Cause, CommandResult
from events.store import Row, SQLiteEventStore
from pbem.table import away
from pbem.table.autopilot import STATUS, status
from pbem.errors import ServiceError
from pbem.instance.players import Player
from pbem.table.hooks import Host
from pbem.table.seat_events import SEAT_REPLACED


REFUSED = ("this seat of game {game} was given to another player, so the links in the mails you had for it "
           "no longer work; nothing was changed")


def since_seq(store: SQLiteEventStore, game_id: str, seat: int) -> int:
    """The seq of the event that gave the seat its current player (0: the player it was created for)."""
    return status(store, game_id, seat)["since_seq"]


def link_refusal(store: SQLiteEventStore, game_id: str, seat: int, issued_seq: int) -> str | None:
    """Why a link of this seat issued at ``issued_seq`` no longer works, or None if it does."""
    if issued_seq < since_seq(store, game_id, seat):
        return REFUSED.format(game=game_id)
    return None


def undo_refusal(store: SQLiteEventStore, game_id: str, request: str, seat: int) -> str | None:
    """An undo link asks the seat's player of the time: refused if the request came before a replacement."""
    since = since_seq(store, game_id, seat)
    if not since:
        return None
    rows = store.query("SELECT requested_seq FROM undo_requests WHERE game_id = ? AND request = ?",
                       (game_id, request))
    if rows and int(rows[0]["requested_seq"] or 0) < since:
        return REFUSED.format(game=game_id)
    return None


def replace(service: Host, game_id: str, seat: int, player: Player, *, cause: Cause,
            expected_seq: int | None = None) -> CommandResult:
    """Give ``seat`` to ``player``: one command, with the welcome mail and the old player's notice.

    :raises ServiceError: the game is over, the seat does not exist, or the address plays in this game already.
    """
    state = service.load(game_id)
    if state.ended:
        raise ServiceError("the game is over: its seats can no longer change hands")
    players = service.players(game_id)
    if not 0 <= seat < len(players):
        raise ServiceError(f"game {game_id} has seats 0 to {len(players) - 1}, not {seat}")
    if any(p["email"] == player.email for p in players):
        raise ServiceError(f"{player.email} already plays in game {game_id}")
    old = dict(next(p for p in players if int(p["seat"]) == seat))
    salt = secrets.token_hex(16)
    holder = hashlib.sha256(f"{salt}:{player.email}".encode()).hexdigest()
    drafts = [NewEvent(SEAT_REPLACED, {"seat": seat, "name": player.name, "holder": holder})]
    now = away.clock_of(service)
    for absence in away.absences_of(service.store, game_id, seat):  # the old player's: ended, clocks given back
        drafts += away.end_drafts(service, state, absence, now, "replaced")
    new = {"seat": seat, "email": player.email, "name": player.name, "mail": 1}
    return service.kernel.record(game_id, drafts, actor=ORGANISER, cause=cause, expected_seq=expected_seq,
                                 hooks=_Hooks(service, seat, old, new, salt))


class _Hooks:
    """The service's hooks, plus the seat's new holder, the welcome mail and the old player's notice."""

    def __init__(self, service: Host, seat: int, old: dict[str, Any], new: dict[str, Any], salt: str) -> None:
        self.service, self.seat, self.old, self.new, self.salt = service, seat, old, new, salt

    def follow(self, before: Any, after: Any, events: list[Event]) -> list[NewEvent]:
        return self.service.follow(before, after, events)

    def rows(self, before: Any, after: Any, events: list[Event]) -> list[Row]:
        service, game_id = self.service, after.game_id
        found = self.service.rows(before, after, events)
        found += [
            Row("seats", {"game_id": game_id, **self.new}, pk=("game_id", "seat")),
            Row("players", {"email": self.new["email"], "player_id": service.player_id(self.new["email"]),
                            "name": self.new["name"]}, pk=("email",)),
            Row(STATUS, {"game_id": game_id, "seat": self.seat, "holder_salt": self.salt}, pk=("game_id", "seat")),
        ]
        if service.notifier is not None:  # the welcome mail, and the old player's notice
            found += service.notifier.seat_replaced(service, after, self.seat, self.old, self.new, events[0].seq)
        return found
