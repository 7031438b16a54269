"""Autopilot with a computer player: a seat on autopilot is played by its game's bot, not by the prompt's default.

The scheduler's autopilot (``pbem.table.autopilot``) asks ``autopilot_move`` for the seat's move (the service
composes the two). The bot is given only what the seat may know (``pbem.bots.knowledge.knowledge_of``: the seat's
view, the log as it reads it, its legal actions); its randomness is seeded by the game and the position, never by
the game's secret seed. A game without a computer player, or a bot that fails, gets the prompt's default, as before.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Mapping

from events.replay import GameState
from events.rules import Rules
from events.schema import ACTIONS_UNDONE
from events.store import EventStore
from pbem.bots.duel import level_bot
from pbem.bots.games import NoBot, game_bot
from pbem.bots.knowledge import Knowledge, knowledge_of
from pbem.bots.move import choose
from pbem.bots.play import Bot
from pbem.table.autopilot import PilotMove
from pbem.table.botseats import level_for

BUDGET = 1.0  # seconds per move of a ``search`` bot at the table
KEPT = 64  # the seats kept, one per game and seat: each carries its reading of the log to the seat's next decision
log = logging.getLogger(__name__)


@dataclass
class _Seat:
    """A seat's bot and what it knew at its last decision, as of the event ``seq`` whose hash is ``hash``."""

    bot: Bot
    level: str
    known: Knowledge | None = None
    seq: int = 0
    hash: str = ""


_seats: OrderedDict[tuple[str, int], _Seat] = OrderedDict()
_lock = threading.Lock()


def _seat(game_id: str, seat: int, level: str) -> _Seat:
    """The seat's bot and knowledge, kept from its last decision: only the events since are read and folded (the
    bot's sampler, ``pbem.bots.skeleton.Worlds``, likewise); a new one when the seat's level changed."""
    key = (game_id, seat)
    found = _seats.pop(key, None)
    if found is None or found.level != level:
        found = _Seat(level_bot(level, BUDGET), level)
    _seats[key] = found
    while len(_seats) > KEPT:
        _seats.popitem(last=False)
    return found


def _knowledge(kept: _Seat, store: EventStore, rules: Rules[Any], state: GameState[Any], seat: int) -> Knowledge:
    """What ``seat`` knows in ``state``: the kept knowledge and the events after it when the log goes on from it
    (the same chain, nothing undone since), else the whole log read again."""
    fresh = store.read(state.game_id, kept.seq, state.seq) if kept.known and kept.seq <= state.seq else []
    goes_on = kept.known is not None and kept.seq <= state.seq and bool(kept.known.events) and (
        not fresh or fresh[0].prev_hash == kept.hash) and not any(e.type == ACTIONS_UNDONE for e in fresh)
    if goes_on:
        known = knowledge_of(rules, state.rules_version, state.config, fresh, state.game, seat, before=kept.known)
    else:
        fresh = store.read(state.game_id, 0, state.seq)
        known = knowledge_of(rules, state.rules_version, state.config, fresh, state.game, seat)
    if fresh:
        kept.seq, kept.hash = fresh[-1].seq, fresh[-1].hash
    kept.known = known
    return known


def autopilot_move(store: EventStore, rules: Rules[Any], state: GameState[Any], seat: int,
                   default: Mapping[str, Any]) -> PilotMove:
    """The move for a seat on autopilot in ``state``: the action, the bot that chose it ("greedy 1"; None: the
    default) and its reason. The level is the seat's own if a bot has played it from the start, else the game's
    ``autopilot_bot`` (``pbem.table.botseats.level_for``)."""
    try:
        game_bot(state.game_type)
    except NoBot:
        return PilotMove(dict(default))
    level = level_for(store, state, seat)  # type: ignore[arg-type]
    try:
        with _lock:
            kept = _seat(state.game_id, seat, level)
            choice = choose(kept.bot, _knowledge(kept, store, rules, state, seat),
                            f"autopilot.{state.game_id}.{state.seq}")
    except Exception:  # a sampler's slip must not stop the game: the default, as before there were bots
        log.warning("the %s bot failed for seat %s of game %s at event %s: the default is played", level, seat,
                    state.game_id, state.seq, exc_info=True)
        with _lock:
            _seats.pop((state.game_id, seat), None)
        return PilotMove(dict(default))
    return PilotMove(dict(choice.action), f"{choice.bot} {choice.version}", choice.reason)
