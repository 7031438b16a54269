"""The game as one reader may see it now: where it stands, whom it waits for, and the reader's view and undo."""

from __future__ import annotations

from typing import Any, Protocol

from events.replay import GameState
from pbem.instance.statecache import StateCache
from pbem.proof.logbook import Archive
from pbem.table import deadlines, undo_requests
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
    found = headline(host, state, seat)
    found.update(undo_requests.choices(host, state, seat, lambda: host.states.derived(  # type: ignore[arg-type]
        state, "recent_commands", lambda: host.kernel.recent_commands(game_id, state.seq))))
    found.update({"rules_version": state.rules_version, "seed_commitment": state.seed_commitment,
                  "view": host.kernel.rules(state).view(state.game, seat)})
    return found


def legal(host: Viewer, game_id: str, seat: int) -> list[dict[str, Any]]:
    """Every legal action of the seat now: its text command and its structured form (none once the game is over)."""
    state = host.load(game_id)
    if state.ended:
        return []
    rules = host.kernel.rules(state)
    return [{"text": rules.format(state.game, a), "action": dict(a)} for a in rules.legal_actions(state.game, seat)]


def seat_view(host: Viewer, game_id: str, seat: int) -> dict[str, Any]:
    """What a player's page or the API shows them now: the game as they see it, their prompt, their legal actions
    (as commands and structured), and their deadline."""
    game = show(host, game_id, seat)
    return {"game": game, "prompt": game["your_prompt"],
            "legal_actions": legal(host, game_id, seat) if game["your_prompt"] else [],
            "deadline": deadlines.due_at(host.store, game_id, seat)}
