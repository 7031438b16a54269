"""What every command of a game adds beside its events: the deadlines and records it leads to (``follow``), and the
read models it changes (``rows``): the ``games`` row, reliability, deadlines, standing orders, undo requests and
the seats' status, written in the command's own transaction."""

from __future__ import annotations

from typing import Any, Sequence

from events.envelope import Event, NewEvent
from events.replay import GameState
from events.schema import GAME_CREATED
from events.store import Row, SQLiteEventStore
from pbem.errors import LinkRefused, NoSuchSeat, NotFound, ServiceError
from pbem.instance.players import player_id
from pbem.table import botseats, deadlines, naming, reliability, replacing, seatlife, undo_requests
from pbem.table.delivery import GAME_PAUSED, GAME_RESUMED, STANDING_ORDER_SET
from pbem.table.hooks import Host


def create_tables(store: SQLiteEventStore) -> None:
    """The table's read models and the tables of its capabilities."""
    store.ensure_table("games", {"game_id": str, "game_type": str, "title": str, "status": str, "seats": int,
                                 "last_seq": int, "created_at": str, "updated_at": str, "paused_at": str,
                                 "organiser": str, "name": str},
                       pk="game_id")
    store.ensure_table("seats", {"game_id": str, "seat": int, "email": str, "name": str, "mail": int},
                       pk=("game_id", "seat"), indexes=[("email",)])
    store.ensure_table("deadlines", {"game_id": str, "seat": int, "kind": str, "issued_at": str, "due_at": str,
                                     "reminders_sent": int, "issued_seq": int, "remind_at": str, "owed": int,
                                     "answered_at": str},
                       pk=("game_id", "seat"), indexes=[("due_at",), ("remind_at",), ("owed",)])
    store.ensure_table("reliability", reliability.COLUMNS, pk=("game_id", "seat"), indexes=[("email",)])
    store.ensure_table("notes", {"game_id": str, "commitment": str, "seat": int, "text": str, "key": str},
                       pk=("game_id", "commitment"))  # private notes' words: only their writers' pages read them
    store.ensure_table("standing_orders", {"game_id": str, "seat": int, "topic": str, "answer": str},
                       pk=("game_id", "seat", "topic"))
    undo_requests.create_tables(store)
    seatlife.create_tables(store)


def games(store: SQLiteEventStore) -> list[dict[str, Any]]:
    """Every game of the instance, oldest first."""
    return store.query("SELECT game_id, game_type, title, name, status, seats, last_seq, created_at, updated_at "
                       "FROM games ORDER BY created_at, game_id")


def players(store: SQLiteEventStore, game_id: str) -> list[dict[str, Any]]:
    """A game's seats in order: each with its player's address and name, and whether they get mail."""
    return store.query("SELECT seat, email, name, mail FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))


def seat_of(store: SQLiteEventStore, game_id: str, email: str) -> int:
    """The seat of the player with this address.

    :raises ServiceError: there is no such game, or they do not play in it.
    """
    if not store.last(game_id)[0]:  # a cheap existence check: no need to load the game
        raise ServiceError(f"there is no game {game_id!r}; `pbem game list` shows the games")
    rows = store.query("SELECT seat FROM seats WHERE game_id = ? AND email = ?", (game_id, email.strip().lower()))
    if not rows:
        raise ServiceError(f"{email} is not playing in game {game_id}")
    return int(rows[0]["seat"])


def link_seat(host: Host, game_id: str, seat: int, issued_seq: int) -> dict[str, Any]:
    """The seat a play link names, as the game stands now: its player's ``email`` and ``name``, the game's ``seq``,
    and whether the game ``moved_on`` since the link was issued (delivery records aside).

    :raises NotFound: no such game or seat. :raises LinkRefused: the seat has another player since the link.
    """
    seq = host.store.last(game_id)[0]
    if not seq:
        raise NotFound(f"There is no game {game_id!r} on this server.")
    found = [p for p in players(host.store, game_id) if p["seat"] == seat]
    if not found:
        raise NoSuchSeat(f"Game {game_id} has no seat {seat}.")
    refused = replacing.link_refusal(host.store, game_id, seat, issued_seq)
    if refused:
        raise LinkRefused(refused, "seat_replaced")
    return {"email": str(found[0]["email"]), "name": str(found[0]["name"]), "seq": seq,
            "moved_on": host.kernel.moved_on(game_id, issued_seq, seq)}


def seat_rows(game_id: str, players: Sequence[Any], organiser: str | None) -> tuple[list[Row], list[dict[str, Any]]]:
    """A new game's ``seats`` (and its organiser, and the ``players`` known), and the seats as the service reads
    them (``players``: each with ``email`` and ``name``). A bot seat (``pbem.table.botseats``) takes no mail and is
    no player known."""
    table = [{"seat": i, "email": p.email, "name": p.name, "mail": 0 if botseats.is_bot_address(p.email) else 1}
             for i, p in enumerate(players)]
    rows = [Row("seats", {"game_id": game_id, **row}) for row in table]
    if organiser is not None:
        rows.append(Row("games", {"game_id": game_id, "organiser": organiser}, pk=("game_id",)))
    rows += [Row("players", {"email": p.email, "player_id": player_id(p.email), "name": p.name}, pk=("email",))
             for p in players if not botseats.is_bot_address(p.email)]
    return rows, table


class WithSeats:
    """The service's hooks for a new game, with the game's seats and players (``seat_rows``)."""

    def __init__(self, host: Any, players: Sequence[Any], organiser: str | None) -> None:
        self.host, self.players, self.organiser = host, players, organiser

    def follow(self, before: Any, after: GameState[Any], events: list[Event]) -> list[NewEvent]:
        return list(self.host.follow(before, after, events))

    def rows(self, before: Any, after: GameState[Any], events: list[Event]) -> list[Row]:
        seats, table = seat_rows(after.game_id, self.players, self.organiser)
        return seats + list(self.host.rows(before, after, events, table))


def follow(host: deadlines.Host, before: GameState[Any] | None, after: GameState[Any],
           events: list[Event]) -> list[NewEvent]:
    """A deadline for every seat newly prompted (its turn, or an out-of-turn decision), the close of an undo
    request that a move overtook, and a seat missing once too often put on autopilot (or back from it)."""
    issued = seatlife.adjust(host.store, after.game_id, deadlines.issued(host, before, after, events))
    return issued + undo_requests.lapse(host, events) + seatlife.follow(host, after, events)  # type: ignore[arg-type]


def rows(host: Host, reminders: Sequence[float], after: GameState[Any], events: Sequence[Event],
         players: list[dict[str, Any]]) -> list[Row]:
    """The read models a command changes (not its mails)."""
    rules = host.kernel.rules(after)
    game_id = after.game_id
    values: dict[str, Any] = {"game_id": game_id, "game_type": after.game_type, "title": rules.title,
                              "status": "ended" if after.ended else "running", "seats": len(after.config.seats),
                              "last_seq": after.seq, "updated_at": events[-1].recorded_at}
    if events[0].type == GAME_CREATED:
        values["created_at"] = events[0].recorded_at
        values["name"] = naming.name_of(after, rules.title)
    for event in events:
        if event.type == GAME_PAUSED:
            values["paused_at"] = event.recorded_at
        elif event.type == GAME_RESUMED:
            values["paused_at"] = None
    found = [Row("games", values, pk=("game_id",))] + reliability.rows(host.store, game_id, events, players)
    prompted = set(rules.prompts(after.game)) if not after.ended else set()
    for seat in range(len(after.config.seats)):
        if seat not in prompted:
            found.append(Row("deadlines", {"game_id": game_id, "seat": seat}, delete=True))
    found += deadlines.rows(host.store, reminders, game_id, after.seq, events)
    for event in events:
        p = event.payload
        if event.type == STANDING_ORDER_SET:
            found.append(Row("standing_orders", {"game_id": game_id, "seat": p["seat"], "topic": p["topic"],
                                                 "answer": p["answer"]}, pk=("game_id", "seat", "topic")))
    return found + undo_requests.rows(game_id, events) + seatlife.rows(host, after, events)
