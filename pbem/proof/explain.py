"""One event explained, as its reader may read it: the organiser (everything, addresses included) or a player."""

from __future__ import annotations

from typing import Any, Protocol

from events import audit
from events.envelope import actor_seat, seat_actor
from events.schema import GAME_ENDED
from pbem.errors import NotFound, ServiceError
from pbem.proof import logbook, reading
from pbem.table import replacing


class Auditor(logbook.Archive, Protocol):
    """What an audit reads of the service (which passes itself): the log's reads, and the game's seats."""

    def players(self, game_id: str) -> list[dict[str, Any]]: ...


HIDDEN = ("this event was hidden from you; you can audit your own moves and what was public (the organiser can audit "
          "every move)")


def explain(host: Auditor, game_id: str, seq: int, *, reader: int | None = None, organiser: bool = True,
            email: str | None = None) -> dict[str, Any]:
    """One event explained (``events.audit.explain``) for the organiser, or for the player at ``reader`` (their
    address ``email``), through the one rule of what each may read (``pbem.proof.reading``).

    A player may audit their own moves and what they may read; until the game ends they see only their own views,
    and of another player's move not what was typed or chosen. The organiser audits every move and reads every
    address, but not the players' private words (messages to some of them, notes, standing orders).
    """
    state = host.load(game_id)
    since = replacing.since_seq(host.store, game_id, reader) if reader is not None and not organiser else 0
    who = reading.ORGANISER if organiser else reading.Reader(seat=reader, since=since, email=email)
    if not organiser and seq >= 1:  # refused before the game is read whole (the end, if any, is in the state)
        alone = host.store.read(game_id, seq - 1, seq)
        if alone and not reading.reads_payload(who, alone[0], state.ended):
            raise ServiceError(HIDDEN)
    events = host.store.read(game_id)
    if not 1 <= seq <= len(events):
        raise NotFound(f"there is no event {seq}; this game has events 1 to {len(events)}")
    target = events[seq - 1]
    ended = any(e.type == GAME_ENDED for e in events)
    if not organiser and not reading.reads_payload(who, target, ended):
        raise ServiceError(HIDDEN)
    found = audit.explain(host.kernel.replayer, events, seq, host.kernel.seed(game_id))
    command = [e for e in events if e.cause.get("command") == target.cause.get("command")] or [target]
    game = reading.Game(ended, host.kernel.seed(game_id) if state.salted or state.causes_salted else None,
                        state.salted, state.causes_salted)
    found["event"] = reading.record(who, target, command, game)
    found["command"]["cause"], withheld = reading.cause_for(who, command, ended)
    if withheld:
        found["command"]["cause_withheld"] = withheld
    owner = target.visibility.seats[0] if target.visibility.kind == "seats" and target.visibility.seats else None
    readable = reading.reads_payload(who, target, ended)  # else (the organiser and private words): who, to whom, when
    found["described"] = logbook.describe_event(host.kernel.rules(state), target, owner if readable else None, ended,
                                                [s.name for s in state.config.seats],
                                                since if owner == reader else 0)
    own = reader is not None and not organiser and "words" not in withheld and \
        target.cause.get("actor") == seat_actor(reader)
    if not organiser and not ended and not own:
        found["views"] = {"public": found["views"]["public"]}
        found["changes"] = {"public": found["changes"]["public"]}
    seat = actor_seat(str(target.cause.get("actor", "")))
    if seat is not None:
        found["player"] = host.store.query("SELECT seat, name FROM seats WHERE game_id = ? AND seat = ?",
                                           (game_id, seat))[0]
        if organiser:
            found["player"]["email"] = host.players(game_id)[seat]["email"]
    return found
