"""Game records: export, the record a reader may see, and reading a record back for import.

The format is ``docs/record-format.md``: a header line, then one event a line.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Iterable, Protocol, Sequence

from marshmallow import ValidationError

from events import audit
from events.gamedata import data_row, digest_of
from events.envelope import Event
from events.replay import GameState, Replayer
from events.schema import GAME_ENDED, EnvelopeSchema
from events.handling import Kernel
from events.store import Row, SQLiteEventStore
from pbem.errors import ServiceError
from pbem.instance.players import Player
from pbem.proof import reading

RECORD_FORMAT = "pbem-game-record"
RECORD_VERSION = 1


def export(store: SQLiteEventStore, state: GameState[Any], players: list[dict[str, Any]] | None, seed: str | None,
           *, with_secrets: bool) -> Iterable[str]:
    """The record as JSON lines. ``with_secrets``: the whole record, the players' addresses and the seed with it (to
    move the game to another instance); else the record a spectator may read (``pbem.proof.reading``), what they may
    not read withheld behind its commitment (``seed`` the game's, to make them; it is not written)."""
    header: dict[str, Any] = {
        "format": RECORD_FORMAT, "format_version": RECORD_VERSION, "game_id": state.game_id,
        "game_type": state.game_type, "rules_version": state.rules_version,
        "exported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "seats": [{"seat": s.index, "name": s.name} for s in state.config.seats],
    }
    if with_secrets:
        header["players"] = players or []
        header["seed"] = seed
    if state.config.data and "data_digest" in (created := store.read(state.game_id, 0, 1)[0].payload):
        # the game's data, which its GameCreated names by digest: the record verifies anywhere
        header["data"] = {created["data_digest"]: state.config.data}
    yield json.dumps(header, sort_keys=True, ensure_ascii=False)
    events = store.read(state.game_id)
    if with_secrets:
        for event in events:
            yield json.dumps(event.to_record(), sort_keys=True, ensure_ascii=False)
        return
    game = reading.Game(state.ended, seed, state.salted, state.causes_salted)
    for found in reading.records(reading.SPECTATOR, events, game):
        yield json.dumps(found, sort_keys=True, ensure_ascii=False)


def parse_record(lines: Iterable[str]) -> tuple[dict[str, Any], list[Event]]:
    """Read and validate a record's lines; raises ``ServiceError`` naming the first bad line."""
    rows = [line for line in lines if line.strip()]
    if not rows:
        raise ServiceError("the record is empty")
    try:
        header = json.loads(rows[0])
    except json.JSONDecodeError as err:
        raise ServiceError(f"line 1 is not JSON: {err}") from None
    if not isinstance(header, dict) or header.get("format") != RECORD_FORMAT:
        raise ServiceError(f"line 1 is not a {RECORD_FORMAT} header")
    if header.get("format_version") != RECORD_VERSION:
        raise ServiceError(f"record format version {header.get('format_version')} is not supported "
                           f"(this pbem reads version {RECORD_VERSION})")
    schema = EnvelopeSchema()
    events = []
    for number, line in enumerate(rows[1:], start=2):
        try:
            record = json.loads(line)
            schema.load(record)
        except json.JSONDecodeError as err:
            raise ServiceError(f"line {number} is not JSON: {err}") from None
        except ValidationError as err:
            raise ServiceError(f"line {number} is not a valid event: {err.messages}") from None
        if record["payload"] is None or record.get("cause_withheld"):
            what = "its payload" if record["payload"] is None else "part of its cause"
            raise ServiceError(f"line {number}: event {record['seq']} has {what} withheld; only a full record "
                               "(pbem game export --with-secrets) can be imported")
        events.append(Event.from_record(record))
    if not events or events[0].game_id != header.get("game_id"):
        raise ServiceError("the record's events do not belong to the game in its header")
    for digest, data in (header.get("data") or {}).items():
        if not isinstance(data, dict) or digest_of(data) != digest:
            raise ServiceError(f"the header's game data {str(digest)[:16]}... does not match its digest")
    named = events[0].payload.get("data_digest")
    if named is not None and named not in (header.get("data") or {}):
        raise ServiceError("the record's game names its data by digest, and the header does not carry it")
    return header, events


def check(replayer: Replayer, header: dict[str, Any], events: Sequence[Event]) -> tuple[str, list[dict[str, Any]]]:
    """Verify a parsed record whole; its seed (the header's, or the one revealed at the end) and seats.

    :raises ServiceError: an unfinished game's record without its seed, or any failed check.
    """
    ended = [e for e in events if e.type == GAME_ENDED]
    seed = header.get("seed") or (str(ended[-1].payload["seed"]) if ended else None)
    if seed is None:
        raise ServiceError("this record of an unfinished game has no seed, so it could not go on here; "
                           "export it with --with-secrets")
    report = audit.verify(replayer, events, header.get("seed"))
    if not report.ok:
        raise ServiceError(f"the record does not verify: {report.failure}")
    return seed, list(header["seats"])


class Importer(Protocol):
    """What an import uses of the service (which passes itself): the store, the kernel, and the read models and
    mails of a command (``rows``)."""

    store: SQLiteEventStore
    kernel: Kernel

    def rows(self, before: GameState[Any] | None, after: GameState[Any], events: list[Event],
             players: list[dict[str, Any]] | None = None) -> list[Row]: ...


def import_record(host: Importer, lines: Iterable[str], players: Sequence[Player] = ()) -> GameState[Any]:
    """Load a record, verify it whole, and store it; nothing is stored if any check fails."""
    header, events = parse_record(lines)
    game_id = header["game_id"]
    if host.store.last(game_id)[0]:
        raise ServiceError(f"game {game_id} already exists here")
    data = list((header.get("data") or {}).values())  # each checked against its digest by parse_record
    for found in data:
        host.kernel.data.add(found)
    seed, seats = check(host.kernel.replayer, header, events)
    if not players:
        players = [Player(p["email"], p["name"]) for p in header.get("players", [])]
    if players and len(players) != len(seats):
        raise ServiceError(f"the record has {len(seats)} seats but {len(players)} players were given")
    if not players:
        players = [Player(f"seat{s['seat']}@import.invalid", s["name"]) for s in seats]
    state = host.kernel.replayer.fold(events)
    rows = host.rows(None, state, events)
    rows += [Row("seats", {"game_id": game_id, "seat": i, "email": p.email, "name": p.name, "mail": 1})
             for i, p in enumerate(players)]
    rows.append(Row("game_secrets", {"game_id": game_id, "seed": seed}))
    rows += [data_row(d) for d in data]
    return host.kernel.import_events(events, rows)
