"""Event envelope: what every recorded event carries, canonical JSON and the hash chain."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

# Events are made by the thousand per action replayed: a frozen dataclass's generated ``__init__`` sets each field
# through ``object.__setattr__`` (twelve calls for an ``Event``), so the two event classes below write their fields
# as one dict instead (about half the cost). They stay frozen: assigning a field still raises.
_set_attr = object.__setattr__

GENESIS_HASH = "0" * 64

SYSTEM = "system"
SCHEDULER = "scheduler"
ORGANISER = "organiser"


def seat_actor(seat: int) -> str:
    """The actor string of a seat: ``seat:N``."""
    return f"seat:{seat}"


def actor_seat(actor: str) -> int | None:
    """The seat an actor string names, or None for system, scheduler and organiser."""
    if actor.startswith("seat:"):
        return int(actor[5:])
    return None


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical_json(value: Any) -> str:
    """JSON with sorted keys, no spaces and no NaN: the same value always gives the same text.

    One encoder made once (what ``json.dumps`` with these arguments makes anew at every call): the chain's check
    writes every event's envelope, payload and cause parts this way."""
    return _CANONICAL.encode(value)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Visibility:
    """Who may read an event's payload: everyone, some seats, or the server only.

    Stored as ``public``, ``server`` or ``seats:0,2``. Once a game has ended every
    event is shown to everyone: hands, identities and the random draws alike.
    """

    kind: str  # "public" | "seats" | "server"
    seats: tuple[int, ...] = ()

    @classmethod
    def public(cls) -> Visibility:
        return cls("public")

    @classmethod
    def server(cls) -> Visibility:
        return cls("server")

    @classmethod
    def to(cls, *seats: int) -> Visibility:
        return cls("seats", tuple(sorted(set(seats))))

    def encode(self) -> str:
        if self.kind == "seats":
            return "seats:" + ",".join(str(s) for s in self.seats)
        return self.kind

    @classmethod
    def decode(cls, text: str) -> Visibility:
        if text in ("public", "server"):
            return cls(text)
        if text.startswith("seats:"):
            body = text[6:]
            return cls("seats", tuple(int(s) for s in body.split(",")) if body else ())
        raise ValueError(f"unknown visibility {text!r}")

    def allows(self, seat: int | None, *, finished: bool = False) -> bool:
        """Whether a reader at ``seat`` (None: a spectator) may read the payload."""
        if self.kind == "public" or finished:
            return True
        return self.kind == "seats" and seat is not None and seat in self.seats


_PUBLIC = Visibility("public")


@dataclass(frozen=True, init=False)
class NewEvent:
    """An event a rule or the kernel wants appended; the store fills in the rest.

    ``reveals`` marks an event that shows information that was hidden until now (a
    card turned face up, a card drawn into a hand); undo may not cross it.
    """

    type: str
    payload: Mapping[str, Any]
    visibility: Visibility = field(default_factory=Visibility.public)
    reveals: bool = False
    actor: str | None = None  # None: the command's actor

    def __init__(self, type: str, payload: Mapping[str, Any], visibility: Visibility | None = None,
                 reveals: bool = False, actor: str | None = None) -> None:
        _set_attr(self, "__dict__", {"type": type, "payload": payload,
                                     "visibility": _PUBLIC if visibility is None else visibility,
                                     "reveals": reveals, "actor": actor})


@dataclass(frozen=True, init=False)
class Event:
    """A recorded event, as stored and hash-chained."""

    game_id: str
    seq: int
    type: str
    version: int
    payload: Mapping[str, Any]
    actor: str
    visibility: Visibility
    reveals: bool
    recorded_at: str
    cause: Mapping[str, Any]
    prev_hash: str
    hash: str

    def __init__(self, game_id: str, seq: int, type: str, version: int, payload: Mapping[str, Any], actor: str,
                 visibility: Visibility, reveals: bool, recorded_at: str, cause: Mapping[str, Any],
                 prev_hash: str, hash: str) -> None:
        _set_attr(self, "__dict__", {
            "game_id": game_id, "seq": seq, "type": type, "version": version, "payload": payload, "actor": actor,
            "visibility": visibility, "reveals": reveals, "recorded_at": recorded_at, "cause": cause,
            "prev_hash": prev_hash, "hash": hash})

    @property
    def seat(self) -> int | None:
        return actor_seat(self.actor)

    @property
    def command_id(self) -> str | None:
        """Events appended by one command share this id (from the cause)."""
        value = self.cause.get("command")
        return str(value) if value is not None else None

    def to_record(self) -> dict[str, Any]:
        """The JSON form used in exports and ``--json`` output."""
        return {
            "game_id": self.game_id,
            "seq": self.seq,
            "type": self.type,
            "version": self.version,
            "payload": dict(self.payload),
            "actor": self.actor,
            "visibility": self.visibility.encode(),
            "reveals": self.reveals,
            "recorded_at": self.recorded_at,
            "cause": dict(self.cause),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Event:
        return cls(
            game_id=record["game_id"],
            seq=int(record["seq"]),
            type=record["type"],
            version=int(record["version"]),
            payload=record["payload"],
            actor=record["actor"],
            visibility=Visibility.decode(record["visibility"]),
            reveals=bool(record["reveals"]),
            recorded_at=record["recorded_at"],
            cause=record["cause"],
            prev_hash=record["prev_hash"],
            hash=record["hash"],
        )


def payload_hash(payload: Mapping[str, Any]) -> str:
    return sha256_hex(canonical_json(payload))


SALTED = "hmac-sha256"  # ``pbem.GameCreated``'s ``payload_commitments`` in games whose hidden digests hide
# (and its ``cause_commitments`` in games whose causes enter the chain in parts: ``cause_form``)


SALTS_KEPT = 65_536  # salts kept per process: a log or replay of a long game asks for each event's, page after page


@lru_cache(maxsize=SALTS_KEPT)
def payload_salt(seed: str, seq: int) -> str:
    """The secret salt of event ``seq``'s payload commitment, drawn from the game's seed.

    The message cannot collide with a random draw's (``"n.i"``), and knowing some salts
    tells nothing of the seed or of the other salts; the seed, revealed at the end, gives
    them all.
    """
    return hmac.new(seed.encode("utf-8"), f"payload-salt.{seq}".encode("ascii"), hashlib.sha256).hexdigest()


def payload_commitment(payload: Mapping[str, Any], salt: str) -> str:
    """A hiding commitment to a payload: HMAC-SHA256 keyed with the event's salt.

    A plain sha256 of a hidden payload gives it away when its candidates are few (a
    secret identity has two): whoever holds the digest hashes every candidate. Without
    the salt, no guess can be checked.
    """
    return _commitment(canonical_json(payload), salt)


def _commitment(text: str, salt: str) -> str:
    return hmac.digest(salt.encode("ascii"), text.encode("utf-8"), "sha256").hex()  # hmac.new's, in one C call


def is_hidden(visibility: Visibility) -> bool:
    """Whether some reader may not see a payload of this visibility before the end."""
    return visibility.kind != "public"


def payload_digest(payload: Mapping[str, Any], visibility: Visibility, seq: int, salt_seed: str | None) -> str:
    """The digest a payload enters its event's hash through.

    ``salt_seed`` is the game's seed in a game with hiding commitments, None in a game
    recorded before them: there every payload enters as its plain sha256.
    """
    return payload_text_digest(canonical_json(payload), visibility, seq, salt_seed)


def payload_text_digest(text: str, visibility: Visibility, seq: int, salt_seed: str | None) -> str:
    """``payload_digest`` of a payload already written as its canonical JSON ``text``."""
    if salt_seed is None or not is_hidden(visibility):
        return sha256_hex(text)
    return _commitment(text, payload_salt(salt_seed, seq))


# ---- causes: what carried a command, committed to in parts -------------------------------------------------------
#
# A command's cause names who acted (public) and carries their words (the command as typed and parsed, the channel,
# a standing order's answer) and, for a reply by mail, the sender's address. In a game whose ``pbem.GameCreated``
# says ``cause_commitments``, the cause enters each event's hash as its public part and one salted commitment to
# each other part, so that a record showing a reader only what they may read of a cause still proves its place in
# the chain, and no guess of the withheld part can be checked against it.

PUBLIC_CAUSE = ("command", "actor", "seat")  # who acted, and which command an event belongs to
ADDRESS_CAUSE = ("from", "message_id")       # whose mail carried it: the sender's address and their message
CAUSE_PARTS = ("words", "address")


def split_cause(cause: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """A cause's parts: ``public``, ``words`` (everything else), ``address``."""
    parts: dict[str, dict[str, Any]] = {"public": {}, "words": {}, "address": {}}
    for key, value in cause.items():
        part = "public" if key in PUBLIC_CAUSE else "address" if key in ADDRESS_CAUSE else "words"
        parts[part][key] = value
    return parts


@lru_cache(maxsize=SALTS_KEPT)
def cause_salt(seed: str, seq: int, part: str) -> str:
    """The secret salt of one part of event ``seq``'s cause, drawn from the game's seed (as ``payload_salt``)."""
    return hmac.new(seed.encode("utf-8"), f"cause-salt.{part}.{seq}".encode("ascii"), hashlib.sha256).hexdigest()


def cause_commitment(part: Mapping[str, Any], salt: str) -> str:
    return _commitment(canonical_json(part), salt)


def cause_form(cause: Mapping[str, Any], seq: int, cause_seed: str | None) -> Mapping[str, Any]:
    """What a cause enters its event's hash as: whole in a game recorded before cause commitments (``cause_seed``
    None), else its public part and ``{part}_commitment`` for its words and its address."""
    if cause_seed is None:
        return cause
    parts = split_cause(cause)
    return {**parts["public"], **{f"{part}_commitment": cause_commitment(parts[part], cause_salt(cause_seed, seq, part))
                                  for part in CAUSE_PARTS}}


def event_hash(
    *,
    game_id: str,
    seq: int,
    type: str,
    version: int,
    payload_digest: str,
    actor: str,
    visibility: str,
    reveals: bool,
    recorded_at: str,
    cause: Mapping[str, Any],
    prev_hash: str,
) -> str:
    """sha256 over the canonical JSON of every envelope field.

    The payload enters through its own digest, so a record with a hidden payload
    (shown to a player without it) still proves its place in the chain.
    """
    return sha256_hex(
        canonical_json(
            {
                "game_id": game_id,
                "seq": seq,
                "type": type,
                "version": version,
                "payload_sha256": payload_digest,
                "actor": actor,
                "visibility": visibility,
                "reveals": reveals,
                "recorded_at": recorded_at,
                "cause": cause,
                "prev_hash": prev_hash,
            }
        )
    )


def recompute_hash(event: Event, salt_seed: str | None = None, cause_seed: str | None = None) -> str:
    """The event's hash from its content; ``salt_seed`` as in ``payload_digest``, ``cause_seed`` as in
    ``cause_form``."""
    return event_hash(
        game_id=event.game_id,
        seq=event.seq,
        type=event.type,
        version=event.version,
        payload_digest=payload_digest(event.payload, event.visibility, event.seq, salt_seed),
        actor=event.actor,
        visibility=event.visibility.encode(),
        reveals=event.reveals,
        recorded_at=event.recorded_at,
        cause=cause_form(event.cause, event.seq, cause_seed),
        prev_hash=event.prev_hash,
    )
