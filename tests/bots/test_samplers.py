"""Every game's sampler: a sampled world is a state the rules made, shows the seat exactly its view, and leaves no
placeholder behind, at seeded positions of every game (shuffles, other players' draws, reveals, face-down discards)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.bots.games import game_bot
from pbem.bots.hidden import is_token
from pbem.bots.skeleton import Worlds
from tests.bots.positions import plain, positions

CASES = [("nanty", 2, 1), ("nanty", 3, 2), ("nanty", 4, 3),
         ("emerald", 2, 1), ("emerald", 3, 2), ("emerald", 5, 3),
         ("emerald1", 2, 1), ("emerald1", 3, 2), ("emerald1", 4, 3)]


def placeholders(value: Any, depth: int = 0) -> list[Any]:
    """Every placeholder left anywhere in a state (its fields, players, piles and records)."""
    if is_token(value):
        return [value]
    if depth > 6:
        return []
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in placeholders(k, depth + 1) + placeholders(v, depth + 1)]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [t for v in value for t in placeholders(v, depth + 1)]
    if hasattr(value, "__dict__") and type(value).__name__ != "Catalog":
        return [t for k, v in vars(value).items() if not k.startswith("_") and k != "cat"
                for t in placeholders(v, depth + 1)]
    return []


@pytest.mark.parametrize("game,players,seed", CASES)
def test_every_sampled_world_shows_the_seat_exactly_its_view(game: str, players: int, seed: int) -> None:
    bot = game_bot(game)
    worlds = {seat: Worlds(bot.SKELETON) for seat in range(players)}  # carried from one position to the next
    rnd = random.Random(seed)
    checked = differing = 0
    for position in positions(game, players, seed, every=7, until=280):
        for seat in range(players):
            known = position.knowledge(seat)
            skeleton = worlds[seat].skeleton(known)
            drawn = [skeleton.world(rnd) for _ in range(2)]
            for world in drawn:
                assert plain(position.rules.view(world, seat)) == plain(known.view), (game, seat, position.events[-1])
                assert not placeholders(world)
                if seat == position.seat:
                    assert position.rules.legal_actions(world, seat) == list(known.legal)
                checked += 1
            other = (seat + 1) % players
            differing += plain(position.rules.view(drawn[0], other)) != plain(position.rules.view(drawn[1], other))
    assert checked > 40
    assert differing > 0  # the hidden parts are drawn again: another seat's view differs between worlds


@pytest.mark.parametrize("game", ["nanty", "emerald", "emerald1"])
def test_a_fresh_fold_and_a_carried_one_give_the_same_world_for_the_same_draws(game: str) -> None:
    bot = game_bot(game)
    carried = Worlds(bot.SKELETON)
    for position in positions(game, 3, 5, every=20, until=200):
        known = position.knowledge()
        fresh = bot.SKELETON(known)
        fresh.extend(known.events)
        one = carried.skeleton(known).world(random.Random(7))
        other = fresh.world(random.Random(7))
        assert plain(position.rules.view(one, None)) == plain(position.rules.view(other, None))
        for seat in range(3):
            assert plain(position.rules.view(one, seat)) == plain(position.rules.view(other, seat))
