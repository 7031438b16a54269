"""What an undo request takes back, told as players count: the asker's move by the game's turn and action, how many
moves came after it, and each taken-back line of the log with the turn it was played in.

The count is the replay's (``Timeline.where``: the game's own words at the start of each move, ``turn 23, action 2
of 2``, ``setup``; a game whose presentation gives none is counted in the replay's turns), so the request, its
mail and the replay name a move alike. Event numbers are the audit's and the witness lines', never these words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.handling import group_commands
from events.replay import GameState, effective
from events.schema import ACTIONS_UNDONE
from pbem.proof.logbook import Archive, describe_event, left_out
from pbem.proof.replay import timeline
from pbem.table.undo_requests import Request


@dataclass(frozen=True)
class TakeBack:
    """What one request takes back, as one reader may read it."""

    where: str               # the game's count when the asker's move began: "turn 23, action 2 of 2"
    after: int               # the moves played after it (by anyone) that go with it
    lines: tuple[str, ...]   # "Turn 23, action 2 of 2: Ann placed a cube in Paris", one per line of the log

    def words(self, whose: str = "their") -> str:
        """``their last move (turn 23, action 2 of 2) and the 2 moves played after it``; ``whose`` as the reader
        reads it: ``their``, ``your``, ``Ann's``."""
        more = f" and the {self.after} move{'s' if self.after != 1 else ''} played after it" if self.after else ""
        return f"{whose} last move ({self.where}){more}"

    def to_json(self) -> dict[str, Any]:
        return {"where": self.where, "after": self.after, "lines": list(self.lines), "words": self.words()}


def told(service: Archive, state: GameState[Any], request: Request, seat: int | None) -> TakeBack:
    """What ``request`` takes back, as the reader at ``seat`` (None: a spectator, or the organiser) may read it."""
    rules = service.kernel.rules(state)
    names = [s.name for s in state.config.seats]
    line = timeline(service.store, service.kernel.replayer, state.game_id)
    events = effective(line.events[request.from_seq - 1:request.to_seq])
    moves = [c for c in group_commands(events) if "action" in c[0].cause]  # a player's, or one played for them

    def where(seq: int) -> str:
        words = line.where(rules, seq)
        return words[:1].upper() + words[1:]

    lines = tuple(f"{where(e.seq)}: {describe_event(rules, e, seat, state.ended, names)}" for e in events
                  if (not e.type.startswith("pbem.") or e.type == ACTIONS_UNDONE)
                  and not left_out(rules, e, seat, state.ended))
    return TakeBack(line.where(rules, request.from_seq), max(0, len(moves) - 1), lines)


def count_of(service: Archive, state: GameState[Any], seq: int) -> str:
    """Where the game stood when the move holding event ``seq`` began, as players count (``turn 23, action 2 of 2``)."""
    return timeline(service.store, service.kernel.replayer, state.game_id).where(service.kernel.rules(state), seq)
