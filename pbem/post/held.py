"""Mails held while a player is at the game: one mail a turn, not one per action.

A player who has just acted (on the page, by a reply, on the command line, through the API) is at the game: a mail
for their next decision would arrive while they are on the page, and a turn of three steps would send three mails
with one subject. So every command of a player's own records that they are at it (a ``mail_held`` row: the game,
the seat, until when), and for ``idle_minutes`` after it (10 by default) a decision that comes to them (the next
action of their turn, the answer they waited for, their next turn in a quick game) sends no mail of its own.

If they go on playing, nothing is mailed: each own command moves the time on. If they leave a decision waiting, the
worker writes one mail once the time has passed (``release``), composed as the game stands, with everything since
their last turn; if nothing waits for them by then, nothing is mailed. A mail a command owes them meanwhile (a
time-out, the game's end, a decision while they were away from it) ends the hold: it tells all a held one would.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

from events.replay import GameState
from events.store import Row, SQLiteEventStore, write_row
from pbem.post.desk import Desk
from pbem.post.people import mail_settings

log = logging.getLogger("pbem.post.held")

TABLE = "mail_held"
OWN = ("link", "mail", "cli", "api")  # how a player's own command arrives (not a time-out, an order or autopilot)


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table(TABLE, {"game_id": str, "seat": int, "until": str, "seq": int}, pk=("game_id", "seat"),
                       indexes=[("until",)])


def active(store: SQLiteEventStore, game_id: str, now: datetime) -> set[int]:
    """The seats of the game whose player is at it: their hold has not passed."""
    stamp = now.astimezone(timezone.utc).isoformat(timespec="seconds")
    return {int(r["seat"]) for r in store.query(f"SELECT seat FROM {TABLE} WHERE game_id = ? AND until > ?",
                                                (game_id, stamp))}


def hold(state: GameState[Any], seat: int, acted_at: str, minutes: float) -> Row:
    """The row that says the seat's player is at the game until ``minutes`` after they acted."""
    until = datetime.fromisoformat(acted_at).astimezone(timezone.utc) + timedelta(minutes=minutes)
    return Row(TABLE, {"game_id": state.game_id, "seat": seat, "until": until.isoformat(timespec="seconds"),
                       "seq": state.seq}, pk=("game_id", "seat"))


def drop(game_id: str, seat: int) -> Row:
    """No mail held for the seat any more: the command mails them itself."""
    return Row(TABLE, {"game_id": game_id, "seat": seat}, delete=True, pk=("game_id", "seat"))


def release(service: Desk, now: datetime | None = None) -> int:
    """Write one mail for every hold that has passed while its decision still waits; returns how many were written.

    Each hold's mail and the end of the hold are written in one transaction, which ends only the hold it read: a
    hold renewed meanwhile (the player acted again) stays.
    """
    return release_holds(service, TABLE, "until", _compose, "held mail", now)


def release_holds(service: Desk, table: str, column: str, compose: Callable[[Desk, str, int], list[Row]],
                  what: str, now: datetime | None = None) -> int:
    """Write the mail of every hold in ``table`` (a row per game and seat) whose time in ``column`` has passed;
    returns how many were written. Held mail and talk mail (``pbem.post.talk_mail``) both release this way.

    Each hold's mail (``compose``) and the end of the hold are one transaction, which ends only the hold it read: a
    hold moved on meanwhile stays. One game's trouble never holds the others' mails back: its mail is dropped and
    logged.
    """
    stamp = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="seconds")
    written = 0
    for row in service.store.query(f"SELECT game_id, seat, {column} FROM {table} WHERE {column} <= ? "
                                   f"ORDER BY {column}", (stamp,)):
        game_id, seat = str(row["game_id"]), int(row["seat"])
        try:
            mail = compose(service, game_id, seat)
        except Exception:  # one game's trouble must not hold the others' mails back; the operator sees it
            log.exception("the %s of seat %s of game %s could not be written; it is dropped", what, seat, game_id)
            mail = []
        with service.store.transaction() as conn:
            ended = conn.execute(f"DELETE FROM {table} WHERE game_id = ? AND seat = ? AND {column} = ?",
                                 (game_id, seat, row[column])).rowcount
            if ended:
                for r in mail:
                    write_row(conn, r)
        written += bool(ended and mail)
    return written


def _moved_since_told(store: SQLiteEventStore, game_id: str, seat: int) -> bool:
    """Whether anything was played (a move, an undo) since the seat's last mail."""
    told = store.query("SELECT last_seq FROM seat_mail WHERE game_id = ? AND seat = ?", (game_id, seat))
    since = int(told[0]["last_seq"]) if told else 0
    return bool(store.query("SELECT seq FROM events WHERE game_id = ? AND seq > ? AND "
                            "(type NOT LIKE ? OR type = 'pbem.ActionsUndone') ORDER BY seq LIMIT 1",
                            (game_id, since, "pbem.%")))


def _compose(service: Desk, game_id: str, seat: int) -> list[Row]:
    notifier = service.notifier
    if notifier is None:
        return []
    state = service.load(game_id)
    prompt = service.kernel.rules(state).prompts(state.game).get(seat) if not state.ended else None
    player = next((p for p in service.players(game_id) if int(p["seat"]) == seat), None)
    if prompt is None or player is None or not player["mail"]:
        return []
    if mail_settings(service.store, str(player["email"])).mode == "daily":
        return []  # the digest lists it
    if not _moved_since_told(service.store, game_id, seat):
        return []  # nothing was played since their last mail, which asked this already (they set an absence, say)
    kind = "turn" if prompt.kind == "turn" else "prompt"
    return notifier.compose(service, state, player, kind, prompt)
