"""Every game's sampler: a sampled world is a state the rules made, shows the seat exactly its view, and leaves no
placeholder behind, at seeded positions of every game (shuffles, other players' draws, reveals, face-down discards)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.bots.games import game_bot
from pbem.bots.hidden import is_token
from pbem.bots.knowledge import knowledge_of
from pbem.bots.play import by_kind
from pbem.bots.skeleton import Worlds
from pbem.bots.table import Table, config_for
from pbem.games import all_games
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


def test_a_card_another_player_removed_face_down_is_any_of_their_hand_and_a_necronomicon_keeps_its_points() -> None:
    # 1st edition, revision 2: The Third Section played at move 191 of this seeded game removes a card of the
    # player's hand face down; a Necronomicon removed so keeps its points on the track until the end.
    rules = all_games()["emerald1"]
    table = Table(rules, config_for(rules, 3), "bots-remove-15")
    pick = random.Random(15)
    remover = -1
    while remover < 0:
        seat = table.prompted()
        assert seat is not None
        legal = rules.legal_actions(table.state, seat)
        removing = [a for a in legal if isinstance(a, dict) and "remove" in a]
        table.act(seat, removing[0] if removing else by_kind(pick, legal))
        remover = seat if removing else -1
    state = table.state
    assert state.readings.revision >= 2 and len(state.removed_secret) == 1
    seat = (remover + 1) % 3
    known = knowledge_of(rules, rules.version, table.config, table.events, state, seat)
    assert [e.payload for e in known.events if e.type == "emerald1.CardRemovedFace"] == [None]
    skeleton = Worlds(game_bot("emerald1").SKELETON).skeleton(known)
    rnd = random.Random(3)
    removed: set[str] = set()
    for _ in range(60):
        world = skeleton.world(rnd)
        assert plain(rules.view(world, seat)) == plain(known.view)
        assert not placeholders(world)
        card = world.removed_secret[0]
        assert card not in world.players[remover].hand
        removed.add(world.cat.cards[card].name)
        necronomicon = world.cat.cards[card].name == "Necronomicon"
        assert world.players[remover].hidden_necronomicons == state.players[remover].hidden_necronomicons - (
            state.cat.cards[state.removed_secret[0]].name == "Necronomicon") + necronomicon
    assert len(removed) > 1  # which card it was is drawn again among the hand's
