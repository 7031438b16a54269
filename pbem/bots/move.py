"""A bot's move for one seat, from what the service holds for a game: its events and the rules' state.

The bot itself is given only the seat's ``Knowledge``; the state is read here, by ``knowledge_of``, for the seat's
view and legal actions, as every page and mail reads it.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from events.envelope import Event
from events.rules import GameConfig, Rules
from pbem.bots.knowledge import Knowledge, knowledge_of
from pbem.bots.play import Bot, Choice


def choose(bot: Bot, known: Knowledge, seed: str) -> Choice:
    """``bot``'s move from a seat's ``known``, its randomness seeded by ``seed`` alone."""
    return bot.choose(known, random.Random(seed))


def bot_move(bot: Bot, rules: Rules[Any], rules_version: str, config: GameConfig, events: Sequence[Event],
             game: Any, seat: int, seed: str) -> Choice:
    """``bot``'s move for ``seat``: one of its legal actions, with the reason in words and the bot's name and
    version. The same knowledge and the same ``seed`` give the same move (a search bounded by iterations, not by
    time)."""
    return choose(bot, knowledge_of(rules, rules_version, config, events, game, seat), seed)
