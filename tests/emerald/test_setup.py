"""Starting the game, by player count."""

from __future__ import annotations

import pytest

from events.envelope import Visibility
from pbem.games.emerald import RULES
from tests.emerald.harness import Game


@pytest.mark.parametrize("players,per_space", [(2, 3), (3, 3), (4, 4), (5, 5)])
def test_game_card_spaces_by_player_count(players: int, per_space: int) -> None:
    game = Game.new(players, seed="setup")
    s = game.state
    for city in s.cat.city_ids:
        c = s.city(city)
        in_space = len(c.stack) + (1 if c.royalty else 0)
        assert in_space == per_space + 2   # the city card, the royalty card and the game cards
        assert s.cat.cards[c.stack[0]].kind != "royalty"
        if c.royalty:
            assert s.cat.cards[c.royalty].city == city
    assert len(s.boxed) == 66 - 9 * per_space


def test_royalty_card_on_top_slides_and_the_next_is_turned() -> None:
    for seed in range(40):
        game = Game.new(2, seed=f"slide-{seed}")
        slid = [e for e in game.events if e.type == "emerald.RoyaltySlid"]
        if slid:
            ev = slid[0]
            i = game.events.index(ev)
            assert game.events[i - 1].type == "emerald.CardRevealed"
            assert game.events[i - 1].payload["card"] == ev.payload["card"]
            assert game.events[i + 1].type == "emerald.CardRevealed"
            assert game.events[i + 1].payload["city"] == ev.payload["city"]
            return
    raise AssertionError("no seed turned a royalty card up")


def test_each_player_starts_with_pieces_cards_identity_and_sanity() -> None:
    game = Game.new(4, seed="pieces")
    for seat, p in enumerate(game.state.players):
        assert (p.stock_agents, p.stock_cubes, p.limbo, p.sanity) == (10, 5, 5, 3)
        assert len(p.hand) == 5 and len(p.deck) == 5
        assert set(p.hand + p.deck) == set(game.state.cat.starting_ids(seat))
        assert p.identity in ("loyalist", "restorationist")
        assert game.state.total_vp(seat) == 0
    dealt = [e for e in game.events if e.type == "emerald.IdentityDealt"]
    assert [e.visibility for e in dealt] == [Visibility.to(i) for i in range(4)]
    assert all(e.reveals for e in dealt)
    draws = [e for e in game.events if e.type == "emerald.CardsDrawn"]
    assert all(e.visibility == Visibility.to(e.payload["seat"]) and e.reveals for e in draws)
    assert all(e.visibility == Visibility.server()
               for e in game.events if e.type in ("emerald.StacksDealt", "emerald.DeckShuffled"))


def test_agents_are_placed_twice_in_player_order_from_a_random_first_player() -> None:
    game = Game.new(3, seed="order")
    first = game.state.first
    order = []
    while game.state.phase == "setup":
        prompts = RULES.prompts(game.state)
        (seat, prompt), = prompts.items()
        assert prompt.kind == "turn" and prompt.default is not None
        order.append(seat)
        game.act(seat, {"kind": "place_agent", "city": "rome" if seat == 1 else "paris"})
    assert order == [first, (first + 1) % 3, (first + 2) % 3] * 2
    assert game.state.city("paris").agents[0] == 2 and game.state.city("rome").agents[1] == 2
    assert game.state.active == first and game.state.phase == "play"
    firsts = {Game.new(3, seed=f"f{i}").state.first for i in range(20)}
    assert firsts == {0, 1, 2}


def test_setup_and_replay_are_deterministic() -> None:
    a, b = Game.new(5, seed="same"), Game.new(5, seed="same")
    assert [e.payload for e in a.events] == [e.payload for e in b.events]
    assert a.replay() == a.state
