"""Table talk that arrives: the messages a player may read, mailed when they chose (``MailSettings.talk``).

* ``soon``: one mail once the newest message for them is ``QUIET_MINUTES`` old, so a burst of messages is one mail
  (and at most ``MOST_MINUTES`` after the first it holds, so a long exchange is not held back for ever). Each
  message to them records a ``talk_held`` row (the game, the seat, when it is due); the worker writes the mail once
  it is due (``release``).
* ``turn`` (the default): no mail of its own; the messages are in their next turn mail, with the rest of what
  happened since their last turn (``pbem.post.story``).
* ``digest``: listed in their daily digest (``digest_lines``), which then comes even on a day nothing waits for
  them.

A talk mail holds only the messages its reader may read (``pbem.proof.reading``: a private message its recipients
and writer, never a player who took the seat over later), not their own, and none mailed to them before
(``talk_told``: the last message each seat was mailed). Its reply address carries a signed token
(``Links.talk``): a reply is recorded as a message to the table, or, to a mail of private messages from one
writer, to that writer (``pbem.post.mail.inbound``), never read as a move.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping, Sequence

from events.envelope import Event, actor_seat
from events.replay import GameState
from events.store import Row, SQLiteEventStore
from pbem.instance.times import zone_of
from pbem.post import held, webhooks
from pbem.post.desk import Desk
from pbem.post.mail.outbox import mail_rows
from pbem.post.mail.render import address, new_message_id
from pbem.post.people import MailSettings, readers
from pbem.proof import reading
from pbem.table import naming, replacing, talk

log = logging.getLogger("pbem.post.talk_mail")

HELD = "talk_held"
TOLD = "talk_told"
QUIET_MINUTES = 5.0  # a talk mail goes once the newest message is this old: a burst is one mail
MOST_MINUTES = 30.0  # ... and at most this long after the first message it holds
LINES = 50  # messages in one mail at most; the play page has the rest


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table(HELD, {"game_id": str, "seat": int, "first_at": str, "due_at": str},
                       pk=("game_id", "seat"), indexes=[("due_at",)])
    store.ensure_table(TOLD, {"game_id": str, "seat": int, "seq": int}, pk=("game_id", "seat"))


def readers_of(event: Event, seats: int) -> list[int]:
    """The seats a message is for: everyone at the table but its writer, or the seats it names."""
    writer = actor_seat(event.actor)
    chosen = range(seats) if event.visibility.kind == "public" else event.visibility.seats
    return [s for s in chosen if s != writer and 0 <= s < seats]


def wait(store: SQLiteEventStore, state: GameState[Any], events: Sequence[Event],
         players: Sequence[Mapping[str, Any]]) -> list[Row]:
    """The rows that hold a talk mail for each reader of these messages who wants talk soon (in the command's
    transaction): due ``QUIET_MINUTES`` after the newest, at most ``MOST_MINUTES`` after the first held."""
    said = [e for e in events if e.type == talk.SAID]
    if not said:
        return []
    seats = len(state.config.seats)
    by_seat = {int(p["seat"]): p for p in players}
    known = readers(store, [str(p["email"]) for p in players])
    held = {int(r["seat"]): str(r["first_at"]) for r in store.query(
        f"SELECT seat, first_at FROM {HELD} WHERE game_id = ?", (state.game_id,))}
    rows: dict[int, Row] = {}
    for event in said:
        at = datetime.fromisoformat(event.recorded_at).astimezone(timezone.utc)
        for seat in readers_of(event, seats):
            player = by_seat.get(seat)
            if player is None or not player.get("mail", 1):
                continue
            if MailSettings.of(known.get(str(player["email"]))).talk != "soon":
                continue
            first = datetime.fromisoformat(held.setdefault(seat, at.isoformat(timespec="seconds")))
            due = min(at + timedelta(minutes=QUIET_MINUTES), first + timedelta(minutes=MOST_MINUTES))
            rows[seat] = Row(HELD, {"game_id": state.game_id, "seat": seat, "first_at": held[seat],
                                    "due_at": due.isoformat(timespec="seconds")}, pk=("game_id", "seat"))
    return list(rows.values())


def told(store: SQLiteEventStore, game_id: str, seat: int) -> int:
    """The last message mailed to the seat (0: none)."""
    rows = store.query(f"SELECT seq FROM {TOLD} WHERE game_id = ? AND seat = ?", (game_id, seat))
    return int(rows[0]["seq"]) if rows else 0


def unread(store: SQLiteEventStore, state: GameState[Any], seat: int, after: int) -> list[Event]:
    """The messages after event ``after`` that the seat's player may read (``pbem.proof.reading``), not their own."""
    since = replacing.since_seq(store, state.game_id, seat)
    seqs = [int(r["seq"]) for r in store.query(
        "SELECT seq FROM events WHERE game_id = ? AND seq > ? AND type = ? ORDER BY seq",
        (state.game_id, max(after, since - 1), talk.SAID))]
    if not seqs:
        return []
    reader = reading.Reader(seat=seat, since=since)
    return [e for e in store.read(state.game_id, seqs[0] - 1, seqs[-1]) if e.type == talk.SAID
            and actor_seat(e.actor) != seat and reading.reads_payload(reader, e, state.ended)][-LINES:]


def reply_to_whom(messages: Sequence[Event]) -> int | None:
    """Whom a reply to a mail of these messages goes to: the writer of private messages all from one writer, or
    the table (None)."""
    writers = {actor_seat(e.actor) for e in messages}
    if len(writers) == 1 and all(e.visibility.kind != "public" for e in messages):
        return next(iter(writers))
    return None


def lines(state: GameState[Any], messages: Sequence[Event]) -> list[dict[str, str]]:
    """Each message in words (who wrote to whom, the words) and when it was written."""
    names = [s.name for s in state.config.seats]
    return [{"text": talk.describe(e, True, state.ended, names), "when": e.recorded_at} for e in messages]


def compose(service: Desk, state: GameState[Any], player: Mapping[str, Any], messages: Sequence[Event]) -> list[Row]:
    """The talk mail of these messages to the seat's player, and the mark of the last one told."""
    notifier = service.notifier
    assert notifier is not None
    game_id, seat = state.game_id, int(player["seat"])
    names = [s.name for s in state.config.seats]
    title = service.kernel.rules(state).title
    name = naming.name_of(state, title)
    to = reply_to_whom(messages)
    writers = sorted({names[w] for e in messages if (w := actor_seat(e.actor)) is not None and w < len(names)})
    count = len(messages)
    subject = (f"[{name}] A message from {writers[0] if writers else 'a player'}" if count == 1
               else f"[{name}] {count} messages from {' and '.join(writers)}")
    play_url = notifier.play_url(game_id, seat, state.seq)
    stamp = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    said = lines(state, messages)
    context = {"game_id": game_id, "title": title, "name": name, "player": player["name"], "seat": seat,
               "messages": said, "since": [m["text"] for m in said], "seq": state.seq,
               "talk_url": f"{play_url}#talk-h",
               "answer_to": names[to] if to is not None else None,
               "home_url": notifier.home_url(service.player_id(str(player["email"]))),
               "tz": zone_of(service.store, str(player["email"]), notifier.timezone)}
    message_id = new_message_id(notifier.sender)
    local, _, domain = notifier.reply_address.partition("@")
    draft = {"template": "talk", "context": context, "sender": notifier.sender, "subject": subject,
             "to": address(str(player["name"]), str(player["email"])), "message_id": message_id,
             "thread_root": notifier.thread_root(game_id, seat),
             "reply_to": f"{local}+{notifier.links.talk(game_id, seat, to, state.seq)}@{domain}", "date": stamp,
             "unsubscribe_url": notifier.unsubscribe_url(game_id, seat, state.seq)}
    return [*mail_rows(game_id=game_id, seat=seat, to_addr=str(player["email"]), kind="talk", subject=subject,
                     message_id=message_id, draft=draft, now=stamp),
            Row(TOLD, {"game_id": game_id, "seat": seat, "seq": messages[-1].seq}, pk=("game_id", "seat"))
            ] + webhooks.for_mail(service.store, draft, email=str(player["email"]), game_id=game_id, seat=seat,
                                  kind="talk", base_url=notifier.base_url)


def release(service: Desk, now: datetime | None = None) -> int:
    """Write the talk mail of every hold that is due; returns how many were written.

    Each mail and the end of its hold are written in one transaction, which ends only the hold it read: a hold moved
    on meanwhile (another message came) stays.
    """
    return held.release_holds(service, HELD, "due_at", _compose_held, "talk mail", now)


def _compose_held(service: Desk, game_id: str, seat: int) -> list[Row]:
    if service.notifier is None:
        return []
    state = service.load(game_id)
    player = next((p for p in service.players(game_id) if int(p["seat"]) == seat), None)
    if player is None or not player["mail"]:
        return []
    messages = unread(service.store, state, seat, told(service.store, game_id, seat))
    return compose(service, state, player, messages) if messages else []


def digest_lines(service: Desk, games: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[Row]]:
    """For a digest: the messages of each of the player's games (rows of ``games_of``) not mailed to them yet, by
    game, and the rows that mark them told."""
    found: list[dict[str, Any]] = []
    marks: list[Row] = []
    assert service.notifier is not None
    for row in games:
        game_id, seat = str(row["game_id"]), int(row["seat"])
        after = told(service.store, game_id, seat)
        if not service.store.query("SELECT seq FROM events WHERE game_id = ? AND seq > ? AND type = ? LIMIT 1",
                                   (game_id, after, talk.SAID)):
            continue  # nothing said since: the game is not even loaded
        state = service.load(game_id)
        messages = unread(service.store, state, seat, after)
        if not messages:
            continue
        title = service.kernel.rules(state).title
        found.append({"name": naming.name_of(state, title), "game_id": game_id, "lines": lines(state, messages),
                      "talk_url": f"{service.notifier.play_url(game_id, seat, state.seq)}#talk-h"})
        marks.append(Row(TOLD, {"game_id": game_id, "seat": seat, "seq": messages[-1].seq}, pk=("game_id", "seat")))
    return found, marks
