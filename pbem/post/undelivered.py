"""Mail that does not arrive, told to the people it concerns; and told again when it arrives.

``pbem.post.mail.bounces`` marks an address ``bouncing`` or ``unreachable`` (a hard bounce by any route, a refusal
at send time). ``tell`` then tells, once per game and seat:

* the table: ``pbem.MailNotArriving`` in every running game the address plays in, public, naming the player by
  name and giving the report's words with every address cut out (``public_reason``): an address is read only by
  its owner and the organiser's audit;
* the organiser of each of those games, if it has one: a mail, in the same command;
* the player: not by mail (theirs does not arrive) but by a banner on their pages (``trouble_of``).

A seat whose address works again (a new one confirmed by the player, ``pbem.post.new_address``; one the organiser
gave, ``give_address``; a mark the operator cleared) is told ``pbem.MailArriving``. What each table was told is the
``mail_told`` row of the seat, written in the command that told it, so ``tell`` compares the marks with what the
tables know: it can run as often as wanted (after every dispatch run, after a report is read), tells each change
once however many processes run it, and after a crash tells what was left untold.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timezone
from typing import Any, Protocol

from events.envelope import ORGANISER, SYSTEM, Event, NewEvent
from events.handling import Cause, CommandResult, Kernel, StaleCommand
from events.replay import GameState
from events.store import ConcurrencyError, Row
from pbem.errors import ServiceError
from pbem.instance.addresses import AddressError, check_address
from pbem.instance.links import Links
from pbem.instance.players import player_id
from pbem.post.mail import bounces
from pbem.post.mail.outbox import mail_rows
from pbem.post.mail.render import new_message_id
from pbem.table import replacing
from pbem.table.autopilot import organiser_of
from pbem.table.hooks import Hooks, WithRows
from pbem.table.seat_events import MAIL_ARRIVING, MAIL_NOT_ARRIVING, MAX_MAIL_REASON

log = logging.getLogger(__name__)

TOLD = "mail_told"
RETRIES = 3  # another writer came first: look again, at most this many times, then leave it to the next run

# an address in angle brackets goes with its brackets; a bare one becomes words
ANGLED = re.compile(r"<[^<>\s@]+@[^<>\s]+>")
BARE = re.compile(r"[^\s<>@\"',;:()\[\]]+@[^\s<>@\"',;:()\[\]]+")
DIAGNOSTIC_TYPE = re.compile(r"^\s*(smtp|x-postfix|x-unix|x-local)\s*;\s*", re.I)
REFUSED_WORDS = "the server refused the address:"


def create_tables(store: Any) -> None:
    # what each table was told of a seat's mail: a row while it was told that it does not arrive (the address it
    # was told of, and the event's seq); cleared_by: who made it arrive again, once known (the player's confirmed
    # address, ``pbem.post.new_address``)
    store.ensure_table(TOLD, {"game_id": str, "seat": int, "address": str, "seq": int, "at": str,
                              "cleared_by": str}, pk=("game_id", "seat"), indexes=[("address",)])


class Mailer(Protocol):
    """What these mails use of the notifier: the sender, the server's address and links, the organiser's page."""

    sender: str
    base_url: str
    links: Links

    def organiser_url(self, game_id: str) -> str: ...


class Teller(Hooks, Protocol):
    """What telling uses of the service (which passes itself): the store, the kernel, a game's state and seats, the
    notifier, and the hooks every command of a game goes through."""

    store: Any
    kernel: Kernel

    @property
    def notifier(self) -> Mailer | None: ...

    def load(self, game_id: str, upto_seq: int | None = None) -> GameState[Any]: ...

    def players(self, game_id: str) -> list[dict[str, Any]]: ...


def public_reason(reason: str) -> str:
    """A report's words as the table may read them: every address cut out, the diagnostic's type dropped.

    ``smtp; 550 5.1.1 <ann@example.org>: user unknown`` -> ``550 5.1.1: user unknown``.
    """
    text = ANGLED.sub("", reason or "")
    text = BARE.sub("the address", text)
    text = DIAGNOSTIC_TYPE.sub("", text)
    if text.strip().lower().startswith(REFUSED_WORDS):
        text = text.strip()[len(REFUSED_WORDS):]
    text = re.sub(r"\s+([:;,.])(?=\s|$)", r"\1", " ".join(text.split()))
    text = text.strip(" :;,")
    return (text or "the mail came back")[:MAX_MAIL_REASON]


# ---- telling the tables -------------------------------------------------------------------------------------

# Seats of running games whose address is marked and whose table was not told of that address.
NOT_TOLD = (f"SELECT s.game_id, s.seat FROM {bounces.TABLE} m JOIN seats s ON s.email = m.address "
            f"JOIN games g ON g.game_id = s.game_id LEFT JOIN {TOLD} t ON t.game_id = s.game_id AND t.seat = s.seat "
            f"WHERE m.status IN ('bouncing', 'unreachable') AND g.status = 'running' "
            f"AND (t.address IS NULL OR t.address <> s.email) "
            f"ORDER BY s.game_id, s.seat")
# Seats told that their mail does not arrive whose address is not marked now (or whose game is over).
ARRIVING = (f"SELECT t.game_id, t.seat FROM {TOLD} t JOIN seats s ON s.game_id = t.game_id AND s.seat = t.seat "
            f"JOIN games g ON g.game_id = t.game_id LEFT JOIN {bounces.TABLE} m ON m.address = s.email "
            f"WHERE m.address IS NULL OR m.status = 'ok' OR g.status <> 'running' ORDER BY t.game_id, t.seat")
SEAT_NOW = (f"SELECT s.email, s.name, g.status AS game_status, m.status AS mark, m.reason, m.outbox_id, "
            f"t.address AS told, t.seq AS told_seq, t.cleared_by FROM seats s JOIN games g ON g.game_id = s.game_id "
            f"LEFT JOIN {bounces.TABLE} m ON m.address = s.email "
            f"LEFT JOIN {TOLD} t ON t.game_id = s.game_id AND t.seat = s.seat WHERE s.game_id = ? AND s.seat = ?")


def tell(host: Teller) -> int:
    """Tell every table what changed in its players' mail since it was last told; returns how many were told.

    Each telling is one command of the game, with the ``mail_told`` row (and the organiser's mail) in its
    transaction, appended only if nothing was recorded in the game since the seat was looked at: a second process
    telling the same table at the same moment finds it told.
    """
    told = 0
    for row in host.store.query(NOT_TOLD):
        told += _tell(host, str(row["game_id"]), int(row["seat"]), arriving=False)
    for row in host.store.query(ARRIVING):
        told += _tell(host, str(row["game_id"]), int(row["seat"]), arriving=True)
    return told


def _tell(host: Teller, game_id: str, seat: int, *, arriving: bool) -> int:
    for _ in range(RETRIES):
        seq = host.store.last(game_id)[0]  # read first: whatever is recorded after it makes the append stale
        rows = host.store.query(SEAT_NOW, (game_id, seat))
        if not rows:
            return 0
        now = rows[0]
        marked = now["mark"] not in (None, bounces.Status.OK.value)
        if not arriving and not (marked and now["game_status"] == "running" and now["told"] != now["email"]):
            return 0  # told meanwhile, or no longer to be told
        if arriving and (now["told"] is None or marked and now["game_status"] == "running"):
            return 0
        if arriving and (now["game_status"] != "running"
                         or replacing.since_seq(host.store, game_id, seat) > int(now["told_seq"] or 0)):
            # the game is over, or the seat has another player since (the table read that): nothing to tell
            with host.store.transaction() as conn:
                conn.execute(f"DELETE FROM {TOLD} WHERE game_id = ? AND seat = ?", (game_id, seat))
            return 0
        if arriving:
            how = str(now["cleared_by"] or "cleared")
            drafts = [NewEvent(MAIL_ARRIVING, {"seat": seat, "how": how})]
            cause = Cause("delivery", {"mail": "arriving", "cleared_by": how})
            hooks: Hooks = WithRows(host, [Row(TOLD, {"game_id": game_id, "seat": seat}, delete=True)])
        else:
            reason = public_reason(str(now["reason"] or ""))
            drafts = [NewEvent(MAIL_NOT_ARRIVING, {"seat": seat, "reason": reason})]
            cause = Cause("delivery", {"mail": "not arriving", **({"outbox_id": now["outbox_id"]}
                                                                  if now["outbox_id"] else {})})
            hooks = _NotArriving(host, seat, str(now["email"]), str(now["name"]), reason)
        try:
            host.kernel.record(game_id, drafts, actor=SYSTEM, cause=cause, hooks=hooks, expected_seq=seq)
        except (StaleCommand, ConcurrencyError):
            continue  # something was recorded in the game meanwhile: look again
        log.info("game %s told that the mail of seat %s %s", game_id, seat,
                 "arrives again" if arriving else "is not arriving")
        return 1
    log.info("game %s: the mail of seat %s is told on a later run (the game kept moving)", game_id, seat)
    return 0


class _NotArriving:
    """The service's hooks, plus what the table was told (``mail_told``) and the organiser's mail."""

    def __init__(self, host: Teller, seat: int, email: str, name: str, reason: str) -> None:
        self.host, self.seat, self.email, self.name, self.reason = host, seat, email, name, reason

    def follow(self, before: Any, after: Any, events: list[Event]) -> list[NewEvent]:
        return self.host.follow(before, after, events)

    def rows(self, before: Any, after: GameState[Any], events: list[Event]) -> list[Row]:
        found = self.host.rows(before, after, events)
        found.append(Row(TOLD, {"game_id": after.game_id, "seat": self.seat, "address": self.email,
                                "seq": events[0].seq, "at": events[0].recorded_at, "cleared_by": None},
                         pk=("game_id", "seat")))
        return found + organiser_mail(self.host, after, self.seat, self.name, self.reason)


def organiser_mail(host: Teller, state: GameState[Any], seat: int, name: str, reason: str) -> list[Row]:
    """The organiser's mail: a player's mail is not arriving, and what the organiser can do (no organiser: none)."""
    organiser = organiser_of(host.store, state.game_id)
    notifier = host.notifier
    if not organiser or notifier is None:
        return []
    title = host.kernel.rules(state).title
    subject = f"[{title} · {state.game_id}] {name}'s mail is not arriving"
    stamp = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    context = {"title": title, "game_id": state.game_id, "name": name, "reason": reason, "seat": seat + 1,
               "organise_url": notifier.organiser_url(state.game_id)}
    message_id = new_message_id(notifier.sender)
    draft = {"template": "not_arriving", "context": context, "sender": notifier.sender, "subject": subject,
             "to": organiser, "message_id": message_id, "thread_root": message_id, "reply_to": None,
             "date": stamp, "unsubscribe_url": None}
    return mail_rows(game_id=state.game_id, seat=None, to_addr=organiser, kind="not_arriving", subject=subject,
                     message_id=message_id, draft=draft, now=stamp)


# ---- what the player and the organiser read -----------------------------------------------------------------

def trouble_of(store: Any, email: str) -> dict[str, Any] | None:
    """What the player's banner says of mail to their address, or None when it arrives (as far as we know)."""
    rows = store.query(f"SELECT status, reason FROM {bounces.TABLE} WHERE address = ? AND status <> 'ok'", (email,))
    if not rows:
        return None
    last = store.query(f"SELECT max(at) AS at FROM {bounces.BOUNCES} WHERE address = ? AND kind = 'hard'", (email,))
    return {"address": email, "status": str(rows[0]["status"]), "reason": public_reason(str(rows[0]["reason"] or "")),
            "last": last[0]["at"] if last else None}


def seats_of(store: Any, game_id: str) -> list[dict[str, Any]]:
    """The seats of a game whose mail is not arriving, for the organiser's page: name and reason, no address."""
    rows = store.query(f"SELECT s.seat, s.name, m.status, m.reason, m.last_bounce_at FROM seats s "
                       f"JOIN {bounces.TABLE} m ON m.address = s.email WHERE s.game_id = ? AND m.status <> 'ok' "
                       f"ORDER BY s.seat", (game_id,))
    return [{"seat": int(r["seat"]), "name": str(r["name"]), "status": str(r["status"]),
             "reason": public_reason(str(r["reason"] or "")), "last": r["last_bounce_at"]} for r in rows]


# ---- the organiser gives an address ---------------------------------------------------------------------------

def give_address(host: Teller, game_id: str, seat: int, email: Any, *, cause: Cause,
                 expected_seq: int | None = None) -> CommandResult:
    """The organiser gives a seat whose mail is not arriving an address (a new one, or the same once it works):
    at once, in one command with ``pbem.MailArriving``; the seat's holder stays the same (their links work on).

    :raises ServiceError: the game is over, no such seat, a bad address, an address of another seat of the game,
        or a seat whose mail arrives (its address is its player's to change, on their home page).
    """
    state = host.load(game_id)
    if state.ended:
        raise ServiceError("the game is over: there is no more mail to send for it")
    players = host.players(game_id)
    held = [p for p in players if int(p["seat"]) == seat]
    if not held:
        raise ServiceError(f"game {game_id} has seats 1 to {len(players)}, not {seat + 1}")
    try:
        address = check_address(str(email or ""))
    except AddressError as err:
        raise ServiceError(str(err)) from None
    old, name = str(held[0]["email"]), str(held[0]["name"])
    mark = bounces.status_of(host.store, old)
    if mark is None or mark.status is bounces.Status.OK:
        raise ServiceError(f"mail to {name} is arriving: only the player changes a working address (on their "
                           "games page); to give the seat to someone else, give the seat to another player")
    if any(str(p["email"]) == address and int(p["seat"]) != seat for p in players):
        raise ServiceError("that address already plays another seat of this game")
    tell(host)  # the table reads that the mail was not arriving before it reads that it arrives again
    rows = [Row("seats", {"game_id": game_id, "seat": seat, "email": address}, pk=("game_id", "seat")),
            Row(bounces.TABLE, {"address": address}, delete=True),  # the address given is taken to work
            Row(TOLD, {"game_id": game_id, "seat": seat}, delete=True)]
    if not host.store.query("SELECT 1 FROM players WHERE email = ?", (address,)):
        rows.append(Row("players", {"email": address, "player_id": player_id(address), "name": name},
                        pk=("email",)))
    if host.store.query("SELECT 1 FROM reliability WHERE game_id = ? AND seat = ?", (game_id, seat)):
        rows.append(Row("reliability", {"game_id": game_id, "seat": seat, "email": address}, pk=("game_id", "seat")))
    result = host.kernel.record(game_id, [NewEvent(MAIL_ARRIVING, {"seat": seat, "how": "organiser"})],
                                actor=ORGANISER, cause=cause, hooks=WithRows(host, rows),
                                expected_seq=expected_seq, exact=False)
    tell(host)  # the same address given again works in the player's other games too
    return result

