"""Autopilot with a computer player: a seat on autopilot is played by its game's bot, not by the prompt's default.

The scheduler's autopilot (``pbem.table.autopilot``) asks ``autopilot_move`` for the seat's move (the service
composes the two). The bot is given only what the seat may know (``pbem.bots.move.bot_move``: the seat's view, the
log as it reads it, its legal actions); its randomness is seeded by the game and the position, never by the game's
secret seed. A game without a computer player, or a bot that fails, gets the prompt's default, as before.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any, Mapping

from events.replay import GameState
from events.rules import Rules
from events.store import EventStore
from pbem.bots.duel import level_bot
from pbem.bots.games import NoBot, game_bot
from pbem.bots.move import bot_move
from pbem.bots.play import Bot

LEVEL = "greedy"  # the best position right after the move: quick, and no worse a player than the default
KEPT = 64  # the bots kept, one per game and seat: each carries its fold of the log to the seat's next decision
log = logging.getLogger(__name__)
_bots: OrderedDict[tuple[str, int], Bot] = OrderedDict()
_lock = threading.Lock()


def _bot(game_id: str, seat: int) -> Bot:
    """The seat's bot, kept from its last decision: its sampler folds only the events since (it folds the log
    afresh when the log does not go on from what it folded: ``pbem.bots.skeleton.Worlds``)."""
    key = (game_id, seat)
    found = _bots.pop(key, None) or level_bot(LEVEL)
    _bots[key] = found
    while len(_bots) > KEPT:
        _bots.popitem(last=False)
    return found


def autopilot_move(store: EventStore, rules: Rules[Any], state: GameState[Any], seat: int,
                   default: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The move for a seat on autopilot in ``state``, and the bot that chose it ("greedy 1"; None: the default)."""
    try:
        game_bot(state.game_type)
    except NoBot:
        return dict(default), None
    try:
        with _lock:
            choice = bot_move(_bot(state.game_id, seat), rules, state.rules_version, state.config,
                              store.read(state.game_id, 0, state.seq), state.game, seat,
                              f"autopilot.{state.game_id}.{state.seq}")
    except Exception:  # a sampler's slip must not stop the game: the default, as before there were bots
        log.warning("the %s bot failed for seat %s of game %s at event %s: the default is played", LEVEL, seat,
                    state.game_id, state.seq, exc_info=True)
        with _lock:
            _bots.pop((state.game_id, seat), None)
        return dict(default), None
    return dict(choice.action), f"{choice.bot} {choice.version}"
