"""One event explained, as its reader may read it: the organiser (everything, addresses included) or a player."""

from __future__ import annotations

from typing import Any, Protocol

from events import audit
from events.envelope import actor_seat, seat_actor
from events.schema import GAME_ENDED
from pbem.errors import NotFound, ServiceError
from pbem.proof import logbook
from pbem.table import talk


class Auditor(logbook.Archive, Protocol):
    """What an audit reads of the service (which passes itself): the log's reads, and the game's seats."""

    def players(self, game_id: str) -> list[dict[str, Any]]: ...


def explain(host: Auditor, game_id: str, seq: int, *, reader: int | None = None, organiser: bool = True) -> dict[str, Any]:
    """One event explained (``events.audit.explain``) for the organiser, or for the player at ``reader``.

    A player may audit their own moves and public events; until the game ends they see
    only their own views, and of another player's move not what was typed or chosen.
    """
    state = host.load(game_id)
    events = host.store.read(game_id)
    if not 1 <= seq <= len(events):
        raise NotFound(f"there is no event {seq}; this game has events 1 to {len(events)}")
    target = events[seq - 1]
    ended = any(e.type == GAME_ENDED for e in events)
    own = reader is not None and target.cause.get("actor") == seat_actor(reader)
    if not organiser and not ended and not target.visibility.allows(reader):
        raise ServiceError("this event was hidden from you; you can audit your own moves and what was public "
                           "(the organiser can audit every event)")
    found = audit.explain(host.kernel.replayer, events, seq, host.kernel.seed(game_id))
    owner = target.visibility.seats[0] if target.visibility.kind == "seats" and target.visibility.seats else None
    found["described"] = logbook.describe_event(host.kernel.rules(state), target, owner, ended,
                                             [s.name for s in state.config.seats])
    if organiser and target.type in talk.TALK_TYPES:
        talk.withhold(found, target, ended, [s.name for s in state.config.seats])
    if not organiser and not ended and not own:
        found["views"] = {"public": found["views"]["public"]}
        found["changes"] = {"public": found["changes"]["public"]}
        found["command"]["cause"] = {k: v for k, v in found["command"]["cause"].items()
                                     if k in ("via", "actor", "seat", "command")}
    seat = actor_seat(str(found["event"]["cause"].get("actor", "")))
    if seat is not None:
        found["player"] = host.store.query("SELECT seat, name FROM seats WHERE game_id = ? AND seat = ?",
                                           (game_id, seat))[0]
        if organiser:
            found["player"]["email"] = host.players(game_id)[seat]["email"]
    return found

