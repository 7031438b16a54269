"""The muster: a game asked for from the web, waiting until every invited player has accepted.

A muster is an event stream of its own in the ``events`` table, under an id no game can have (``muster-``
and ten hex digits), numbered and hash-chained like a game's and checked by the same ``(game_id, seq)``
key, so it replays, audits and verifies like a game (``verify``):

* ``pbem.MusterOpened``: the game asked for (type, options, data override, the position it begins from if
  any), the organiser; server only.
* ``pbem.MusterInvited``: one player invited to one place (a slot), with the invitation's expiry; visible
  to that invitee (their address is theirs and the organiser's, never the other invitees').
* ``pbem.MusterAnswered``: accepted or declined, through the invitation's link; visible to that invitee.
* ``pbem.MusterExpired``: the scheduler found an invitation unanswered at its expiry.
* ``pbem.MusterCancelled``: the organiser called it off; everyone invited is told.
* ``pbem.MusterStarted``: every place accepted; names the game, created right after with the places in
  their order and the chosen options, so its first mails go out.

An invitation's link names the muster, the slot and the seq of its ``pbem.MusterInvited``: once answered
the link is spent, and when the organiser replaces a player (a new ``pbem.MusterInvited`` for the slot)
the old link stops working. The read models ``musters`` and ``muster_invitations`` and the mails are
written in the same transaction as the events.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

from events import audit
from events.envelope import ORGANISER, SALTED, SCHEDULER, Event, NewEvent, Visibility, event_hash, payload_digest
from events.handling import Cause, CommandResult, Kernel
from events.rng import new_seed
from events.store import ConcurrencyError, Row, SQLiteEventStore
from pbem.errors import NotFound, ServiceError
from pbem.instance.players import Player
from pbem.organising.muster_events import (ANSWERED, ANSWERS, CANCELLED, EXPIRED, INVITED, MUSTER_EVENT_TYPES, OPENED,
                                           STARTED)
from pbem.organising.muster_mails import Head, invitation_mails, listed, notice, organiser_mail, shown_time

if TYPE_CHECKING:
    from pbem.post.notify import Notifier

PREFIX = "muster-"
STATUS_WORDS = {"invited": "has not answered yet", "accepted": "accepted", "declined": "declined",
                "expired": "did not answer in time"}


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table("musters", {"muster_id": str, "game_type": str, "title": str, "organiser": str,
                                   "organiser_name": str, "status": str, "game_id": str, "options": str,
                                   "data_override": str, "last_seq": int, "created_at": str, "updated_at": str,
                                   "position": str, "name": str},
                       pk="muster_id", indexes=[("organiser",), ("status",)])
    store.ensure_table("muster_invitations", {"muster_id": str, "slot": int, "name": str, "email": str,
                                              "status": str, "invitation": int, "invited_at": str,
                                              "expires_at": str, "answered_at": str},
                       pk=("muster_id", "slot"), indexes=[("status", "expires_at")])


class Host(Protocol):
    """What a muster needs of the service: the store, the kernel's event types, mail, and creating the game."""

    store: SQLiteEventStore
    kernel: Kernel
    notifier: Notifier | None

    def create_game(self, game_type: str, players: Sequence[Player], *, seed: str | None = None,
                    options: Mapping[str, Any] | None = None, data_override: Mapping[str, Any] | None = None,
                    cause: Cause = ..., game_id: str | None = None, organiser: str | None = None,
                    position: Mapping[str, Any] | None = None, title: str | None = None) -> CommandResult:
        ...


class InvitationRefused(ServiceError):
    """An invitation's link that cannot be used (answered, replaced, expired, or its muster closed)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Invitation:
    slot: int
    name: str
    email: str
    status: str
    invitation: int
    invited_at: str
    expires_at: str
    answered_at: str | None

    def to_json(self, *, with_email: bool) -> dict[str, Any]:
        found = {"slot": self.slot, "name": self.name, "status": self.status, "expires_at": self.expires_at,
                 "answered_at": self.answered_at}
        return {**found, "email": self.email} if with_email else found


@dataclass(frozen=True)
class Muster:
    muster_id: str
    game_type: str
    title: str
    organiser: str
    organiser_name: str
    status: str               # open | cancelled | started
    game_id: str | None
    options: dict[str, Any]
    data_override: dict[str, Any] | None
    last_seq: int
    created_at: str
    invitations: list[Invitation] = field(default_factory=list)
    position: dict[str, Any] | None = None  # the one the game begins from; it holds every secret of it
    name: str | None = None  # the organiser's name for the game

    def names(self) -> list[str]:
        return [i.name for i in self.invitations]

    def head(self, names: Sequence[str] | None = None) -> Head:
        return Head(self.muster_id, self.title, self.organiser, self.organiser_name,
                    list(self.names() if names is None else names), self.options, self.position is not None,
                    self.game_type, self.name, self.data_override)

    def to_json(self, *, with_emails: bool) -> dict[str, Any]:
        """The muster as its organiser (``with_emails``) or an invitee (names only) may read it."""
        return {"muster_id": self.muster_id, "game_type": self.game_type, "title": self.title,
                "name": self.head().called(),
                "organiser": self.organiser_name, "status": self.status, "game_id": self.game_id,
                "options": self.options, "data_override": self.data_override is not None,
                "position": self.position is not None,
                "created_at": self.created_at, "seq": self.last_seq,
                "invitations": [i.to_json(with_email=with_emails) for i in self.invitations]}


def is_muster(stream_id: str) -> bool:
    return stream_id.startswith(PREFIX)


def find(store: SQLiteEventStore, muster_id: str) -> Muster | None:
    rows = store.query("SELECT * FROM musters WHERE muster_id = ?", (muster_id,))
    if not rows:
        return None
    r = rows[0]
    invitations = [Invitation(int(i["slot"]), str(i["name"]), str(i["email"]), str(i["status"]),
                              int(i["invitation"]), str(i["invited_at"]), str(i["expires_at"]), i["answered_at"])
                   for i in store.query("SELECT * FROM muster_invitations WHERE muster_id = ? ORDER BY slot",
                                        (muster_id,))]
    return Muster(str(r["muster_id"]), str(r["game_type"]), str(r["title"]), str(r["organiser"]),
                  str(r["organiser_name"]), str(r["status"]), r["game_id"], json.loads(r["options"] or "{}"),
                  json.loads(r["data_override"]) if r["data_override"] else None, int(r["last_seq"]),
                  str(r["created_at"]), invitations, json.loads(r["position"]) if r.get("position") else None,
                  r.get("name") or None)


def get(store: SQLiteEventStore, muster_id: str) -> Muster:
    found = find(store, muster_id) if is_muster(muster_id) else None
    if found is None:
        raise NotFound(f"there is no muster {muster_id!r}; `pbem muster list` shows them")
    return found


def listing(store: SQLiteEventStore, organiser: str | None = None) -> list[dict[str, Any]]:
    """Every muster (or one organiser's), newest first, with how many places accepted."""
    sql = ("SELECT m.muster_id, m.title, m.status, m.game_id, m.created_at, m.updated_at, count(i.slot) AS places, "
           "sum(CASE WHEN i.status = 'accepted' THEN 1 ELSE 0 END) AS accepted FROM musters m "
           "LEFT JOIN muster_invitations i ON i.muster_id = m.muster_id")
    params: tuple[Any, ...] = ()
    if organiser is not None:
        sql, params = sql + " WHERE m.organiser = ?", (organiser,)
    return store.query(sql + " GROUP BY m.muster_id, m.title, m.status, m.game_id, m.created_at, m.updated_at "
                             "ORDER BY m.created_at DESC, m.muster_id", params)


# ---- writing ----------------------------------------------------------------------------------

def now_text(now: datetime | None = None) -> str:
    return (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")


def _seal(host: Host, muster_id: str, last: tuple[int, str], drafts: Sequence[NewEvent], actor: str,
          cause: Mapping[str, Any], seed: str) -> list[Event]:
    """Number, validate and chain the drafts after the event ``last`` (seq, hash), as the kernel seals a command."""
    seq, prev_hash = last
    stamp = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    sealed = []
    for draft in drafts:
        host.kernel.registry.validate(draft.type, draft.payload)
        seq += 1
        version = host.kernel.registry.current_version(draft.type)
        digest = event_hash(game_id=muster_id, seq=seq, type=draft.type, version=version,
                            payload_digest=payload_digest(draft.payload, draft.visibility, seq, seed), actor=actor,
                            visibility=draft.visibility.encode(), reveals=False, recorded_at=stamp, cause=cause,
                            prev_hash=prev_hash)
        sealed.append(Event(muster_id, seq, draft.type, version, draft.payload, actor, draft.visibility, False,
                            stamp, cause, prev_hash, digest))
        prev_hash = digest
    return sealed


Decision = Callable[[Muster | None], tuple[list[NewEvent], list[Row | None]]]


def _command(host: Host, muster_id: str, decide: Decision, *, actor: str, cause: Cause, seed: str | None = None,
             mails: Callable[[list[Event]], list[Row | None]] | None = None,
             retries: int = 3) -> tuple[Muster, list[Event]]:
    """Decide on the muster as stored, append the events with their rows; decided again if another write won."""
    for attempt in range(retries + 1):
        last = host.store.last(muster_id)  # read before the read model: a write in between fails the append
        seq = last[0]
        current = find(host.store, muster_id) if seq else None
        drafts, rows = decide(current)
        detail = {"command": uuid.uuid4().hex, "actor": actor, "via": cause.via, **cause.detail}
        events = _seal(host, muster_id, last, drafts, actor, detail, seed or host.store.seed(muster_id) or "")
        rows = rows + (mails(events) if mails else []) + _read_model(muster_id, current, events)
        rows = [r for r in rows if r is not None]
        try:
            host.store.append(muster_id, seq, events, rows)
        except ConcurrencyError:
            if attempt == retries:
                raise
            continue
        return get(host.store, muster_id), events
    raise AssertionError("unreachable")


def _read_model(muster_id: str, current: Muster | None, events: Sequence[Event]) -> list[Row]:
    """The ``musters`` and ``muster_invitations`` rows of these events."""
    rows: list[Row] = []
    values: dict[str, Any] = {"muster_id": muster_id, "last_seq": events[-1].seq, "updated_at": events[-1].recorded_at}
    for e in events:
        p = e.payload
        if e.type == OPENED:
            values.update(game_type=p["game_type"], organiser=p["organiser"], organiser_name=p["organiser_name"],
                          name=p.get("name"),
                          status="open", options=json.dumps(p["options"], sort_keys=True),
                          data_override=json.dumps(p["data_override"]) if p["data_override"] else None,
                          position=json.dumps(p["position"]) if p.get("position") else None,
                          created_at=e.recorded_at)
        elif e.type == INVITED:
            rows.append(Row("muster_invitations", {
                "muster_id": muster_id, "slot": p["slot"], "name": p["name"], "email": p["email"],
                "status": "invited", "invitation": e.seq, "invited_at": e.recorded_at, "expires_at": p["expires_at"],
                "answered_at": None}, pk=("muster_id", "slot")))
        elif e.type in (ANSWERED, EXPIRED):
            status = {"accept": "accepted", "decline": "declined"}.get(p.get("answer", ""), "expired")
            rows.append(Row("muster_invitations", {"muster_id": muster_id, "slot": p["slot"], "status": status,
                                                   "answered_at": e.recorded_at}, pk=("muster_id", "slot")))
        elif e.type == CANCELLED:
            values["status"] = "cancelled"
        elif e.type == STARTED:
            values.update(status="started", game_id=p["game_id"])
    return [Row("musters", values, pk=("muster_id",))] + rows


def _expiry(days: float, now: datetime | None = None) -> str:
    return now_text((now or datetime.now(timezone.utc)) + timedelta(days=days))


class AlreadyOpened(ServiceError):
    """The muster of this id was opened already (the same form sent twice): nothing more is written."""

    def __init__(self, found: Muster) -> None:
        super().__init__(f"this game was asked for already ({found.muster_id})")
        self.found = found


def muster_id_for(organiser: str, form: str) -> str:
    """The id of the muster one new-game form opens (``form``: the random id of that form as shown): the same form
    sent twice names the same stream, whose key takes its first event once."""
    return PREFIX + hashlib.sha256(f"{organiser}\n{form}".encode()).hexdigest()[:10]


def open_muster(host: Host, *, organiser: str, organiser_name: str, game_type: str, title: str,
                players: Sequence[Player], options: Mapping[str, Any], data_override: Mapping[str, Any] | None,
                days: float, cause: Cause, muster_id: str | None = None,
                position: Mapping[str, Any] | None = None, name: str | None = None) -> Muster:
    """Open a muster and invite every player (the request is checked before: ``pbem.organising.organisers.check``);
    ``name`` is the organiser's name for the game (None: it is named after the game and its players when it starts).

    :raises AlreadyOpened: ``muster_id`` names a muster opened before (a form sent twice).
    """
    muster_id = muster_id or PREFIX + secrets.token_hex(5)
    seed = new_seed()  # salts the commitments of the payloads only the organiser and each invitee may read
    expires = _expiry(days)
    head = Head(muster_id, title, organiser, organiser_name, [p.name for p in players], options, position is not None,
                game_type, name, data_override)

    def decide(current: Muster | None) -> tuple[list[NewEvent], list[Row | None]]:
        if current is not None:
            raise AlreadyOpened(current)
        opened = NewEvent(OPENED, {"game_type": game_type, "options": dict(options),
                                   "data_override": dict(data_override) if data_override else None,
                                   "organiser": organiser, "organiser_name": organiser_name,
                                   "places": len(players), "payload_commitments": SALTED, "name": name,
                                   **({"position": dict(position)} if position is not None else {})},
                           Visibility.server())
        invited = [NewEvent(INVITED, {"slot": i, "name": p.name, "email": p.email, "expires_at": expires,
                                      "replaces": None}, Visibility.to(i)) for i, p in enumerate(players)]
        return [opened, *invited], [Row("musters", {"muster_id": muster_id, "title": title}, pk=("muster_id",)),
                                    Row("game_secrets", {"game_id": muster_id, "seed": seed}),
                                    organiser_mail(host, head, "Your game is mustering", [
                                        f"You asked for a game of {title} with {listed(head.names)}, called "
                                        f"\u201c{head.called()}\u201d. Each of "
                                        f"them was sent an invitation, to answer by {shown_time(expires)}. The game "
                                        "starts as soon as everyone has accepted; you are told if anyone declines "
                                        "or does not answer in time, and may then invite someone else in their "
                                        "place, or cancel."])]

    found, _ = _command(host, muster_id, decide, actor=ORGANISER, cause=cause, seed=seed,
                        mails=lambda events: invitation_mails(host, head, events))
    return found


def answer(host: Host, muster_id: str, slot: int, invitation: int, choice: str, *, cause: Cause) -> Muster:
    """An invitee accepts or declines through their link; the last acceptance starts the game.

    :raises InvitationRefused: the link is spent, replaced or expired, or the muster is closed.
    """
    if choice not in ANSWERS:
        raise ServiceError("the answer is accept or decline")
    game_id = secrets.token_hex(5)

    def decide(current: Muster | None) -> tuple[list[NewEvent], list[Row | None]]:
        place = usable(current, muster_id, slot, invitation)
        assert current is not None
        if place.expires_at <= now_text():  # past its time, whether or not the scheduler has marked it yet
            raise InvitationRefused("this invitation expired before it was answered; ask the organiser for a new "
                                    "one", "expired")
        drafts = [NewEvent(ANSWERED, {"slot": slot, "invitation": invitation, "answer": choice},
                           Visibility.to(slot))]
        if choice == "decline":
            return drafts, [organiser_mail(host, current.head(), f"{place.name} declined", [
                f"{place.name} declined your invitation to {current.title}. Invite someone else in their place, "
                "or cancel the game, on the muster page."])]
        if any(i.status != "accepted" for i in current.invitations if i.slot != slot):
            return drafts, []
        url = host.notifier.organiser_url(game_id) if host.notifier is not None else ""
        return drafts + [NewEvent(STARTED, {"game_id": game_id})], [organiser_mail(
            host, current.head(), "Everyone accepted: the game has started",
            [f"Everyone accepted, so game {game_id} of {current.title} has started with "
             f"{listed(current.names())}; the first mails are on their way. Your organiser's page of the game "
             "pauses it, extends deadlines and audits moves."], [("Organise the game", url)])]

    found, events = _command(host, muster_id, decide, actor=f"invitee:{slot}", cause=cause)
    if any(e.type == STARTED for e in events):
        start(host, found)
    return found


def usable(current: Muster | None, muster_id: str, slot: int, invitation: int) -> Invitation:
    """The place an invitation's link answers for, if the link may still answer.

    :raises InvitationRefused: why not, in words for the invitee.
    """
    if current is None:
        raise InvitationRefused(f"there is no muster {muster_id}", "unknown_muster")
    place = next((i for i in current.invitations if i.slot == slot), None)
    if place is None or place.invitation != invitation:
        raise InvitationRefused("this invitation was withdrawn: the organiser invited someone else in its place",
                                "replaced")
    if current.status == "cancelled":
        raise InvitationRefused("the organiser cancelled this game; nothing more can be answered", "cancelled")
    if current.status == "started":
        raise InvitationRefused("the game has started; its mails have the links to play", "started")
    if place.status == "expired":
        raise InvitationRefused("this invitation expired before it was answered; ask the organiser for a new one",
                                "expired")
    if place.status != "invited":
        raise InvitationRefused(f"this invitation was answered already ({place.status}); the link is spent",
                                "spent")
    return place


def start(host: Host, found: Muster) -> CommandResult | None:
    """Create the game of a started muster (its places in order, its options); None if it exists already.

    The muster's ``pbem.MusterStarted`` is appended first and names the game: of two processes that
    take the last acceptance only one appends it, and should the process stop before the game is
    created, the scheduler creates it (``stalled``).
    """
    assert found.game_id is not None
    if host.store.last(found.game_id)[0]:
        return None
    players = [Player(i.email, i.name) for i in found.invitations]
    try:
        return host.create_game(found.game_type, players, options=found.options, data_override=found.data_override,
                                cause=Cause("muster", {"muster": found.muster_id}), game_id=found.game_id,
                                organiser=found.organiser, position=found.position, title=found.name)
    except ConcurrencyError:
        return None  # another process created it first


def replace(host: Host, muster_id: str, slot: int, player: Player, *, days: float, cause: Cause) -> Muster:
    """Invite another player to a place whose invitee declined or did not answer in time (the old link dies)."""
    def decide(current: Muster | None) -> tuple[list[NewEvent], list[Row | None]]:
        if current is None:
            raise NotFound(f"there is no muster {muster_id!r}")
        if current.status != "open":
            raise ServiceError(f"this muster is {current.status}; nobody can be invited any more")
        place = next((i for i in current.invitations if i.slot == slot), None)
        if place is None:
            raise ServiceError(f"this muster has no place {slot + 1}")
        if place.status not in ("declined", "expired"):
            raise ServiceError(f"{place.name} {STATUS_WORDS[place.status]}: only a player who declined or did not "
                               "answer in time can be replaced")
        if any(i.email == player.email for i in current.invitations if i.slot != slot):
            raise ServiceError(f"{player.email} is invited already, to another place")
        if any(i.name.lower() == player.name.lower() for i in current.invitations if i.slot != slot):
            raise ServiceError(f"another player is called {player.name} already; give another name")
        return [NewEvent(INVITED, {"slot": slot, "name": player.name, "email": player.email,
                                   "expires_at": _expiry(days), "replaces": place.invitation},
                         Visibility.to(slot))], []

    def mails(events: list[Event]) -> list[Row | None]:
        current = find(host.store, muster_id)
        assert current is not None
        names = [player.name if i.slot == slot else i.name for i in current.invitations]
        return invitation_mails(host, current.head(names), events)

    found, _ = _command(host, muster_id, decide, actor=ORGANISER, cause=cause, mails=mails)
    return found


def cancel(host: Host, muster_id: str, reason: str, *, cause: Cause) -> Muster:
    """Call the muster off; everyone invited (and the organiser) is told."""
    def decide(current: Muster | None) -> tuple[list[NewEvent], list[Row | None]]:
        if current is None:
            raise NotFound(f"there is no muster {muster_id!r}")
        if current.status != "open":
            raise ServiceError(f"this muster is {current.status} already; it cannot be cancelled")
        said = f" The organiser's reason: \u201c{reason}\u201d." if reason else ""
        rows = [notice(host, muster_id, i.name, i.email, f"Cancelled: {current.title}",
                       [f"The game of {current.title} you were invited to by {current.organiser_name} will not "
                        f"take place: it was cancelled.{said} Your invitation's links no longer work."])
                for i in current.invitations]
        rows.append(organiser_mail(host, current.head(), "Game cancelled",
                                   [f"You cancelled the game of {current.title}; every invited player was told."]))
        return [NewEvent(CANCELLED, {"reason": reason[:300]})], rows

    found, _ = _command(host, muster_id, decide, actor=ORGANISER, cause=cause)
    return found


def due(store: SQLiteEventStore, now: datetime) -> list[dict[str, Any]]:
    """Unanswered invitations of open musters past their expiry (an indexed query): muster_id, slot, invitation."""
    return store.query("SELECT i.muster_id, i.slot, i.invitation FROM muster_invitations i "
                       "JOIN musters m ON m.muster_id = i.muster_id "
                       "WHERE i.status = 'invited' AND i.expires_at <= ? AND m.status = 'open' "
                       "ORDER BY i.expires_at", (now_text(now),))


def expire(host: Host, muster_id: str, slot: int, invitation: int, now: datetime) -> Muster | None:
    """Record an invitation unanswered at its expiry and tell the organiser; None if it no longer applies."""
    def decide(current: Muster | None) -> tuple[list[NewEvent], list[Row | None]]:
        place = usable(current, muster_id, slot, invitation)
        if place.expires_at > now_text(now):
            raise InvitationRefused("not expired yet", "not_due")
        assert current is not None
        return [NewEvent(EXPIRED, {"slot": slot, "invitation": invitation})], [organiser_mail(
            host, current.head(), f"{place.name} did not answer",
            [f"{place.name} did not answer your invitation to {current.title} in time. Invite someone else in "
             "their place, or cancel the game, on the muster page."])]

    try:
        found, _ = _command(host, muster_id, decide, actor=SCHEDULER, cause=Cause("scheduler"))
    except InvitationRefused:
        return None  # answered, replaced or closed meanwhile
    return found


def stalled(store: SQLiteEventStore) -> list[str]:
    """Started musters whose game is not there (the process stopped between the two): to create again."""
    return [str(r["muster_id"]) for r in store.query(
        "SELECT m.muster_id FROM musters m LEFT JOIN games g ON g.game_id = m.game_id "
        "WHERE m.status = 'started' AND g.game_id IS NULL")]


def verify(store: SQLiteEventStore, muster_id: str) -> audit.Finding | None:
    """The first event of the muster's stream that breaks its chain, or None."""
    return audit.verify_chain(store.read(muster_id), muster_id, store.seed(muster_id))
