"""The game as one reader may see it now: where it stands, whom it waits for, and the reader's view and undo."""

from __future__ import annotations

from typing import Any, Protocol

from events.handling import undoable_commands
from events.replay import GameState
from pbem.instance.statecache import StateCache
from pbem.proof.logbook import Archive
from pbem.table import undo_requests
from pbem.table.delivery import waiting_for


class Viewer(Archive, Protocol):
    """What a view of the game reads of the service: the log's reads, its state cache, what undo requests read."""

    states: StateCache
    undo_request_hours: float

    def players(self, game_id: str) -> list[dict[str, Any]]: ...


def headline(host: Archive, state: GameState[Any], seat: int | None) -> dict[str, Any]:
    """What a receipt page says of the game at ``state``: where it stands and whom it waits for, not the board."""
    rules = host.kernel.rules(state)
    prompts = rules.prompts(state.game)
    names = [s.name for s in state.config.seats]
    return {
        "game_id": state.game_id, "game_type": state.game_type, "title": rules.title, "seq": state.seq,
        "status": "ended" if state.ended else "running", "seat": seat,
        "seats": [{"seat": s.index, "name": s.name} for s in state.config.seats],
        "waiting_for": waiting_for(prompts, names, seat),
        "your_prompt": prompts[seat].to_json() if seat is not None and seat in prompts else None,
        "outcome": state.outcome, "seed": state.seed,
    }


def show(host: Viewer, game_id: str, seat: int | None) -> dict[str, Any]:
    """The game as the reader at ``seat`` (None: a spectator) may see it: a player's private view, or the public one,
    with what the player may undo or ask to undo."""
    state = host.load(game_id)
    rules = host.kernel.rules(state)
    recent = (host.states.derived(state, "recent_commands", lambda: host.kernel.recent_commands(game_id, state.seq))
              if seat is not None else [])
    undo_now, undo_why = undoable_commands(recent, seat) if seat is not None else ([], "")
    ask, ask_why = (undo_requests.requestable(host, state, seat, bool(undo_now))  # type: ignore[arg-type]
                    if seat is not None else (None, ""))
    asked = undo_requests.open_request(host.store, game_id)
    names = [s.name for s in state.config.seats]
    return {
        **headline(host, state, seat),
        "rules_version": state.rules_version,
        "can_undo": bool(undo_now) if seat is not None else None,
        "undo_refused_because": (undo_why if not undo_now else None) if seat is not None else None,
        "can_request_undo": ask is not None if seat is not None else None,
        "undo_request_refused_because": (ask_why or None) if seat is not None else None,
        "undo_request": asked.to_json(names) if asked is not None else None,
        "seed_commitment": state.seed_commitment,
        "view": rules.view(state.game, seat),
    }
