"""No cheating, as properties over seeded positions of every game, each shown to catch a bot or sampler that is
given the true state (the measurement-only cheating search, or a sampler that returns the truth).

1. Two games that look the same to the bot's seat (the same view, the same log as it reads it) but differ in what
   it cannot see get the same move for the same bot seed.
2. Every sampled world shows the seat exactly its view (``test_samplers`` checks it at many more positions).
3. Over many samples, the sampled worlds' hidden parts equal the true ones no more often than chance allows.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Iterator

import pytest

from pbem.bots.games import game_bot
from pbem.bots.knowledge import Knowledge
from pbem.bots.levels import GreedyBot, RandomBot
from pbem.bots.move import bot_move
from pbem.bots.play import Bot
from pbem.bots.search import SearchBot
from tests.bots.positions import GAMES, Position, plain, positions

Sampler = Callable[[Knowledge, random.Random], Any]
PLAYERS = 3


def _positions(game: str, seed: int = 11) -> Iterator[Position]:
    return positions(game, PLAYERS, seed, every=9, until=160)


def _twin(position: Position, rnd: random.Random) -> Any:
    """A state the seat cannot tell from the true one, whose hidden parts differ (another player's view differs)."""
    known = position.knowledge()
    for _ in range(20):
        world = game_bot(position.rules.name).sample(known, rnd)
        if any(plain(position.rules.view(world, s)) != plain(position.rules.view(position.state, s))
               for s in range(PLAYERS) if s != position.seat):
            return world
    return None


def _move(bot: Callable[[Any], Bot], position: Position, state: Any, seed: str) -> Any:
    return bot_move(bot(state), position.rules, position.rules.version, position.config, position.events, state,
                    position.seat, seed).action


HONEST: dict[str, Callable[[Any], Bot]] = {
    "search": lambda state: SearchBot(iterations=30),
    "greedy": lambda state: GreedyBot(),
    "random": lambda state: RandomBot(),
}


def _cheat(state: Any) -> Bot:
    """The measurement-only cheating search: it searches the true state instead of sampled worlds."""
    return SearchBot(iterations=30, oracle=lambda known: state)


@pytest.mark.parametrize("game", GAMES)
def test_games_the_seat_cannot_tell_apart_get_the_same_move(game: str) -> None:
    rnd = random.Random(3)
    pairs = 0
    cheat_differs = 0
    for number, position in enumerate(_positions(game)):
        twin = _twin(position, rnd)
        if twin is None:
            continue
        assert position.knowledge(state=twin) == position.knowledge()  # the same to the seat: view, log, legal
        pairs += 1
        seed = f"move-{number}"
        for level, bot in HONEST.items():
            assert _move(bot, position, position.state, seed) == _move(bot, position, twin, seed), (level, number)
        cheat_differs += _move(_cheat, position, position.state, seed) != _move(_cheat, position, twin, seed)
    assert pairs >= 8
    assert cheat_differs > 0  # the property catches a bot given the state


def _naive(known: Knowledge, rnd: random.Random, truth: Any) -> Any:
    """A sampler given the state that deals what it cannot see again ignoring the log: every seat's hidden cards
    and identities shuffled among all seats, the bot's own included."""
    return game_bot(known.game_type).sample(_blind(known), rnd)


def _blind(known: Knowledge) -> Knowledge:
    """The knowledge of a seat that never saw its own secrets (its own draws and dealt identity withheld)."""
    from dataclasses import replace
    events = tuple(replace(e, payload=None) if e.visibility.kind == "seats" else e for e in known.events)
    return replace(known, events=events, memo={})


@pytest.mark.parametrize("game", GAMES)
def test_a_sampler_must_keep_what_the_seat_saw(game: str) -> None:
    rnd = random.Random(5)
    honest = game_bot(game).sample
    broken = 0
    for position in _positions(game):
        known = position.knowledge()
        assert plain(position.rules.view(honest(known, rnd), position.seat)) == plain(known.view)
        broken += plain(position.rules.view(_naive(known, rnd, position.state), position.seat)) != plain(known.view)
    # A sampler that returns the true state passes this property (the truth shows the seat its view): the third
    # property is what catches it. A sampler that ignores what the seat saw fails it.
    assert broken > 0


def _secrets(position: Position, state: Any) -> list[tuple[str, Any]]:
    """What the seat cannot see in ``state`` that chance alone would guess at a known rate: each other player's
    personality or secret identity, while nobody has revealed it."""
    seat = position.seat
    out: list[tuple[str, Any]] = []
    for other in range(PLAYERS):
        if other == seat:
            continue
        pl = state.players[other]
        if position.rules.name == "nanty":
            out.append((f"personality {other}", pl.personality))
        elif not pl.revealed and all(t != other for t, _ in _seen(position, seat)):
            out.append((f"identity {other}", pl.identity))
    return out


def _seen(position: Position, seat: int) -> list[tuple[int, Any]]:
    pl = position.state.players[seat]
    seen = pl.seen
    return list(seen.items()) if isinstance(seen, dict) else list(seen)


def _chance(position: Position, name: str, truth: Any) -> float:
    """How often a world dealt at random among those consistent with the log guesses ``truth``."""
    state = position.state
    seat = position.seat
    if name.startswith("personality"):
        return 1.0 / (len(state.cat.personalities[state.variant]) - 1)
    box = dict(state.cat.game["identities"])
    box[state.players[seat].identity] -= 1
    for other in range(PLAYERS):
        pl = state.players[other]
        if other != seat and (pl.revealed or any(t == other for t, _ in _seen(position, seat))):
            box[pl.identity] -= 1
    return box[truth] / sum(box.values())


def _matches(game: str, sampler: Callable[[Position, Knowledge, random.Random], Any]) -> tuple[int, float, float]:
    rnd = random.Random(9)
    hits, expected, variance = 0, 0.0, 0.0
    for position in _positions(game):
        known = position.knowledge()
        truth = dict(_secrets(position, position.state))
        for _ in range(25):
            world = sampler(position, known, rnd)
            for name, value in _secrets(position, world):
                p = _chance(position, name, truth[name])
                hits += value == truth[name]
                expected += p
                variance += p * (1 - p)
    return hits, expected, variance


@pytest.mark.parametrize("game", GAMES)
def test_sampled_secrets_match_the_true_ones_no_more_often_than_chance(game: str) -> None:
    honest = game_bot(game).sample
    hits, expected, variance = _matches(game, lambda position, known, rnd: honest(known, rnd))
    slack = 4 * math.sqrt(variance) + 2
    assert expected - slack <= hits <= expected + slack, (hits, expected)
    hits, expected, variance = _matches(game, lambda position, known, rnd: position.state)
    assert hits > expected + 4 * math.sqrt(variance) + 2  # a sampler given the state is caught
