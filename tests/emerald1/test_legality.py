"""The direct test of one action's legality answers exactly as the list of legal actions does."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.games.emerald1 import RULES, moves
from pbem.games.emerald1.engine import acting, legal_actions, normalize
from pbem.games.emerald1.legality import legal
from tests.emerald1.golden_play import _mutants
from tests.emerald1.harness import Game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_direct_test_agrees_with_the_list_over_whole_games(players: int) -> None:
    game = Game.new(players, seed=f"legality-{players}")
    pick = random.Random(players)
    other = random.Random(50 + players)
    seen: list[dict[str, Any]] = []
    told = 0
    while game.state.phase != "over":
        s = game.state
        seat = game.who()
        listed = RULES.legal_actions(s, seat)
        candidates = other.sample(listed, min(60, len(listed))) + other.sample(seen, min(20, len(seen)))
        candidates += [m for a in other.sample(listed, min(5, len(listed))) for m in _mutants(a, other)]
        candidates += [{"kind": "pass", "extra": 1}, {"kind": "place", "cards": [101.0], "to": "city:paris"},
                       {"kind": "markers", "plays": [[101, -1]]}, {"kind": "discard", "cards": [], "shown": 1}]
        for a in other.sample(listed, min(5, len(listed))):
            if a["kind"] == "place":  # the same cards to every place there is, and to a few there are not
                top = a["to"][5:]
                candidates += [{**a, "to": p} for p in ["city:atlantis", "card:0" + top, "card:+" + top,
                                                        "card:" + top + "0", "pool", *moves.placeable(s, seat),
                                                        *(f"card:{c}" for c in s.pe_display),
                                                        *(f"card:{st[0]}" for st in s.stacks.values() if st),
                                                        *(f"city:{c}" for c in s.cat.city_ids)]]
        if s.step.get("step") == "retrieve":  # a cube back from every place there is, and from a few there are not
            candidates += [{"kind": "take", "from": p} for p in [*s.cubes, "limbo", "available", "city:atlantis"]]
            candidates += [{"kind": "take"}, {"kind": "take", "from": 1}, {"kind": "done"}]
            assert moves.first_take(s, seat) == (moves.take_options(s, seat) or [None])[0]  # the prompt's default
        for a in map(normalize, candidates):
            for who in (seat, (seat + 1) % players):
                quick = legal(s, who, a, acting(s))
                if quick is not None:
                    told += 1
                    assert quick == (a in legal_actions(s, who, a)), (a, who)
        seen = (seen + other.sample(listed, min(4, len(listed))))[-40:]
        doing = [a for a in listed if a["kind"] not in ("pass", "discard")] or listed
        game.act(seat, pick.choice(doing))
    assert told > 1000


def test_what_a_hand_can_pay_is_what_the_payments_listed_say() -> None:
    from pbem.games.emerald1.moves import payable, payments
    game = Game.new(3, seed="pay")
    s = game.state
    rnd = random.Random(5)
    golds = [c for c, card in s.cat.cards.items() if card.gold]
    others = [c for c, card in s.cat.cards.items() if not card.gold][:10]
    for _ in range(300):
        hand = rnd.sample(golds, rnd.randint(0, 6)) + rnd.sample(others, rnd.randint(0, 3))
        sums = payable(s, hand)
        for cost in range(0, 16):
            assert (cost in sums) == bool(payments(s, hand, cost)), (hand, cost)
