"""The mails a command owes, written with it and composed after it.

A command decides whom it mails and what kind of mail each gets (their turn, a decision, the game's end, a
receipt...): that is cheap, and it is written as a ``mail_owed`` row in the command's own transaction, so a
mail owed is never lost, whatever stops afterwards. Composing the mail (what happened since the player's last
mail in words, their view of the board, the commands they may type, the signed links) is most of a move's
cost, and needs nothing the command could change: it is done from the game as it stood at the command's
``seq``, after the command has been recorded.

* A command made through a web page leaves its mails to the worker (``Desk.defer_mail``): the page
  answers at once, and the worker composes what is owed before it sends (``pbem.scheduler.Jobs.send_mail``).
* Any other command (the command line, a mail reply, a time-out in the worker) composes its game's owed
  mails as soon as it is recorded, so they are in the outbox when the command returns.

Both do the same (``write``): a game's owed mails in the order they were owed, each from the game at its
``seq``, each player's "since your last mail" carried from one to the next. The outbox rows are written, and
the owed rows deleted, in one transaction that also checks that nobody else wrote them meanwhile (the owed
row is still there, and the player's last mail is still the one this composition started from); if somebody
did, nothing is written, and whatever is still owed is composed by the next call.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from typing import Any, Mapping

from events.replay import GameState
from events.store import Row, write_row
from pbem.games.options import described
from pbem.post.desk import Desk


log = logging.getLogger("pbem.post.mail")

BATCH = 50  # owed mails composed per transaction


class Conflict(Exception):
    """Another process composed some of these mails meanwhile: write none of them."""


def create_tables(store: Any) -> None:
    store.ensure_table("mail_owed", {"id": str, "game_id": str, "seq": int, "n": int, "seat": int, "email": str,
                                     "name": str, "kind": str, "deadline": str, "extra": str, "tz": str,
                                     "created_at": str},
                       pk="id", indexes=[("game_id", "seq", "n")])


def owe(state: GameState[Any], n: int, player: Mapping[str, Any], kind: str, *, deadline: str | None,
        extra: Mapping[str, Any] | None, tz: str) -> Row:
    """The row of one mail owed by the command that left the game at ``state`` (its ``n``-th)."""
    return Row("mail_owed", {
        "id": f"{state.game_id}.{state.seq}.{n}", "game_id": state.game_id, "seq": state.seq, "n": n,
        "seat": int(player["seat"]), "email": str(player["email"]), "name": str(player["name"]), "kind": kind,
        "deadline": deadline, "extra": json.dumps(dict(extra), sort_keys=True) if extra else None, "tz": tz,
        "created_at": datetime.now(timezone.utc).isoformat(timespec="microseconds")})


def pending(service: Desk, game_id: str | None = None) -> int:
    """How many mails are owed (of one game, or of all)."""
    where, params = ("WHERE game_id = ?", (game_id,)) if game_id else ("", ())
    return int(service.store.query(f"SELECT count(*) AS n FROM mail_owed {where}", params)[0]["n"])


def write(service: Desk, *, game_id: str | None = None, state: GameState[Any] | None = None,
          limit: int = 5_000) -> int:
    """Compose the owed mails (of one game, or of all), oldest first, and put them in the outbox; how many were.

    ``state`` is the game as the command just left it, if the caller has it (it saves loading it again).
    """
    where, params = ("WHERE game_id = ?", [game_id]) if game_id else ("", [])
    owed = service.store.query(f"SELECT * FROM mail_owed {where} ORDER BY game_id, seq, n LIMIT ?", [*params, limit])
    written = 0
    told: dict[tuple[str, int], int] = {}  # the last seq each player was told of, as the mails written so far left it
    states: dict[str, GameState[Any]] = {state.game_id: state} if state is not None else {}
    for start in range(0, len(owed), BATCH):
        batch = owed[start:start + BATCH]
        expected: dict[tuple[str, int], int] = {}
        rows: list[Row] = []
        for row in batch:
            key = (str(row["game_id"]), int(row["seat"]))
            if key not in told:
                told[key] = _told(service, *key)
            expected.setdefault(key, told[key])
            try:
                rows += _compose(service, row, _state_at(service, states, key[0], int(row["seq"])), told[key])
            except Exception:  # one game's trouble must not hold the others' mails back; the operator sees it
                log.exception("the %s mail to seat %s of game %s (move %s) could not be composed; it is dropped",
                              row["kind"], row["seat"], row["game_id"], row["seq"])
                continue
            told[key] = int(row["seq"])
        try:
            with service.store.transaction() as conn:
                for row in batch:
                    if conn.execute("DELETE FROM mail_owed WHERE id = ?", (row["id"],)).rowcount != 1:
                        raise Conflict(row["id"])
                for (gid, seat), seen in expected.items():
                    found = conn.execute("SELECT last_seq FROM seat_mail WHERE game_id = ? AND seat = ?",
                                         (gid, seat)).fetchone()
                    if (int(found[0]) if found else 0) != seen:
                        raise Conflict(f"{gid}.{seat}")
                for r in rows:
                    write_row(conn, r)
        except Conflict as which:
            log.info("owed mails composed by another process meanwhile (%s); the rest is left for the next run", which)
            return written
        written += len(batch)
    return written


def _told(service: Desk, game_id: str, seat: int) -> int:
    rows = service.store.query("SELECT last_seq FROM seat_mail WHERE game_id = ? AND seat = ?", (game_id, seat))
    return int(rows[0]["last_seq"]) if rows else 0


def _state_at(service: Desk, states: dict[str, GameState[Any]], game_id: str, seq: int) -> GameState[Any]:
    """The game as it stood at ``seq``: the one just used, carried forward to ``seq`` (the rows of a game come in
    order), the latest (cached), or replayed up to there.

    Only the last state is kept (the rows come game by game): a state holds a whole board.
    """
    found = states.get(game_id)
    if found is not None and found.seq == seq:
        return found
    carried = service.kernel.replayer.advance(service.store, found, seq) if found and found.seq < seq else None
    if carried is None or carried.seq != seq:
        latest = service.load(game_id)
        carried = latest if latest.seq == seq else service.load(game_id, upto_seq=seq)
    states.clear()
    states[game_id] = carried
    return carried


def _compose(service: Desk, row: Mapping[str, Any], state: GameState[Any], told: int) -> list[Row]:
    notifier = service.notifier
    if notifier is None:
        return []
    rules = service.kernel.rules(state)
    seat = int(row["seat"])
    prompt = rules.prompts(state.game).get(seat) if not state.ended else None
    player = {"seat": seat, "email": row["email"], "name": row["name"], "mail": 1}
    extra = json.loads(row["extra"]) if row["extra"] else None
    if told == 0:  # the seat's first mail says which reading of each contested rule the game is played by
        offered = getattr(rules, "option_choices", ())
        extra = {**(extra or {}), "played_under": described(offered, state.config.options)}
    return notifier.compose(service, state, [], player, str(row["kind"]), prompt, deadline=row["deadline"],
                            extra=extra, tz=str(row["tz"]), told=told)
