"""One rule for what a reader may read of an event and of everything recorded beside it.

Every surface (pages, the JSON API, the log, replay, mails, webhooks, records, the audit) asks here.

- **A game's secrets** (a hand, an identity, a deck's order, the draws, the position a game began from) are read
  by the seats an event names, by the organiser's audit, and by everyone once the game has ended.
- **People's private words never open.** A message to chosen players is read by them and its writer; a private
  note and a standing order by their writer alone. They belong to the person, not to the seat: a player who took
  a seat over reads neither what was said to nor written by the one before (``Reader.since``). A sealed note is
  read by its writer, and by everyone once the game has ended, as promised when it was sealed.
- **The cause of a command** (what carried it) is read in three parts (``events.envelope.split_cause``): who
  acted and which command, by everyone; its words (the command as typed and parsed, the channel, a standing
  order's answer, a time-out's deadline) by the player who gave it, and by the organiser's audit where it may read
  every event the command recorded; the address of the mail that carried it by its sender and the organiser's
  audit. So an answer by a standing order reads to the others exactly as an answer by hand: who, and when.

A record of an event for a reader (``record``) withholds what the reader may not read behind the same salted
commitments the hash chain holds, so that the reader can still check every event's place in the chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parseaddr
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence

from events.envelope import (CAUSE_PARTS, Event, cause_commitment, cause_salt, is_hidden, payload_commitment,
                             payload_hash, payload_salt, seat_actor, split_cause)
from pbem.table.delivery import STANDING_ORDER_SET
from pbem.table.talk import NOTE_KEPT, NOTE_SEALED, SAID

PRIVATE_WORDS = (SAID, NOTE_KEPT, STANDING_ORDER_SET)  # never opened at the end (a message to the table is public)


@dataclass(frozen=True)
class Reader:
    """Who reads: the player at ``seat`` (holding it since event ``since``), a spectator (no seat), the organiser's
    audit, or the server itself (``everything``: verification, the full export with its secrets)."""

    seat: int | None = None
    since: int = 0
    email: str | None = None      # the reader's own address: an address in a cause is read by its owner only
    organiser: bool = False
    everything: bool = False

    def holds(self, seat: int | None, seq: int) -> bool:
        """Whether ``seat`` was this reader's own at event ``seq``."""
        return self.seat is not None and seat == self.seat and seq >= self.since


SPECTATOR = Reader()
ORGANISER = Reader(organiser=True)
SERVER = Reader(everything=True)


def writer_of(event: Event) -> int | None:
    """The seat whose player's command recorded the event (None: the scheduler, the system, the organiser)."""
    actor = event.actor or ""
    return int(actor.split(":", 1)[1]) if actor.startswith("seat:") and actor[5:].isdigit() else None


def reads_payload(reader: Reader, event: Event, ended: bool) -> bool:
    """Whether the reader may read the event's payload."""
    if reader.everything:
        return True
    kind = event.type
    if kind in PRIVATE_WORDS:
        if kind == SAID and event.visibility.kind == "public":
            return True
        if kind == STANDING_ORDER_SET:  # recorded public once: its writer is its actor
            return reader.holds(writer_of(event), event.seq)
        return any(reader.holds(seat, event.seq) for seat in event.visibility.seats)
    if kind == NOTE_SEALED:
        return ended or reader.holds(writer_of(event), event.seq)
    if reader.organiser or ended or event.visibility.kind == "public":
        return True
    return event.visibility.allows(reader.seat)


def reads_words(reader: Reader, command: Sequence[Event], ended: bool) -> bool:
    """Whether the reader may read the words of the cause of a command (all of its events): the player who gave
    it, and the organiser's audit where it may read every event the command recorded. Other players and spectators
    read who acted and when, never how: the channel is the player's own, and an answer by a standing order must read
    exactly as one by hand."""
    if reader.everything:
        return True
    first = command[0]
    if reader.seat is not None and first.cause.get("actor") == seat_actor(reader.seat) and first.seq >= reader.since:
        return True
    return reader.organiser and all(reads_payload(reader, event, ended) for event in command)


def reads_address(reader: Reader, cause: Mapping[str, Any]) -> bool:
    """Whether the reader may read the address of the mail that carried a command (its sender, the organiser)."""
    if reader.everything or reader.organiser:
        return True
    carried = cause.get("from")
    if not carried:
        return False
    sender = address_of(str(carried))
    return bool(sender) and reader.email is not None and sender == reader.email.strip().lower()


@lru_cache(maxsize=4096)
def address_of(sender: str) -> str:
    """The address of a mail's sender as written in a cause (``Ann <ann@example.org>``), in lower case; a log reads
    the same few senders thousands of times."""
    return parseaddr(sender)[1].strip().lower()


def cause_for(reader: Reader, command: Sequence[Event], ended: bool) -> tuple[dict[str, Any], list[str]]:
    """The cause of a command as the reader may read it, and the names of the parts withheld (``words``,
    ``address``) that the cause has."""
    parts = split_cause(command[0].cause)
    shown = dict(parts["public"])
    withheld = []
    if reads_words(reader, command, ended):
        shown.update(parts["words"])
    elif parts["words"]:
        withheld.append("words")
    if reads_address(reader, command[0].cause):
        shown.update(parts["address"])
    elif parts["address"]:
        withheld.append("address")
    return shown, withheld


@dataclass(frozen=True)
class Game:
    """What a record of one game's events needs to know of it: whether it has ended, its seed where its payloads or
    causes enter the chain behind salted commitments, and which of them do."""

    ended: bool
    seed: str | None = None
    salted: bool = False
    causes_salted: bool = False


def record(reader: Reader, event: Event, command: Sequence[Event], game: Game) -> dict[str, Any]:
    """The event's record for the reader (``docs/record-format.md``): what they may not read is withheld, and only
    its commitment shown; what is hidden from others and they may read comes with its salt, so that they can check
    every event's hash. ``command`` is every event of the event's command."""
    found = event.to_record()
    if not reads_payload(reader, event, game.ended):
        found["payload"] = None
        if game.salted and game.seed is not None:
            salt = payload_salt(game.seed, event.seq)
            found["payload_commitment"] = _kept(salt, event, lambda: payload_commitment(event.payload, salt))
        else:
            found["payload_sha256"] = payload_hash(event.payload)
    elif game.salted and game.seed is not None and is_hidden(event.visibility):
        found["payload_salt"] = payload_salt(game.seed, event.seq)
    if reader.everything:
        return found
    shown, withheld = cause_for(reader, command, game.ended)
    found["cause"] = shown
    if withheld:
        found["cause_withheld"] = withheld
    if game.causes_salted and game.seed is not None:
        parts = split_cause(event.cause)
        salts, commitments = {}, {}
        for part in CAUSE_PARTS:
            salt = cause_salt(game.seed, event.seq, part)
            if part in withheld:
                commitments[part] = _kept(salt, event, lambda: cause_commitment(parts[part], salt))
            else:
                salts[part] = salt
        found["cause_salts"] = salts
        if commitments:
            found["cause_commitments"] = commitments
    return found


COMMITMENTS_KEPT = 65_536  # commitments kept per process (a log of a long game withholds thousands, page after page)
_COMMITMENTS: dict[tuple[str, str], str] = {}


def _kept(salt: str, event: Event, commit: Callable[[], str]) -> str:
    """A commitment of a part of a recorded event, computed once: its salt names the game, the event and the part,
    and the event's hash pins what the part says (an event without a hash, not recorded, is never kept)."""
    if not event.hash:
        return commit()
    key = (salt, event.hash)
    found = _COMMITMENTS.get(key)
    if found is None:
        if len(_COMMITMENTS) >= COMMITMENTS_KEPT:
            _COMMITMENTS.clear()  # simpler than an order of use, and as good for pages that read a game front to back
        found = _COMMITMENTS[key] = commit()
    return found


def commands_of(events: Iterable[Event]) -> dict[str, list[Event]]:
    """The events of each command among ``events``, by command id."""
    found: dict[str, list[Event]] = {}
    for event in events:
        found.setdefault(str(event.cause.get("command", event.seq)), []).append(event)
    return found


def records(reader: Reader, events: Sequence[Event], game: Game,
            commands: Mapping[str, list[Event]] | None = None) -> list[dict[str, Any]]:
    """Each event's record for the reader; ``commands`` the whole commands, if ``events`` cut some short."""
    whole = commands if commands is not None else commands_of(events)
    return [record(reader, event, whole.get(str(event.cause.get("command", event.seq)), [event]), game)
            for event in events]
