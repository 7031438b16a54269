"""Placeholders: pools, binding as the log shows values, and drawing the rest at random."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pbem.bots.hidden import Contradiction, Hidden, is_token


def test_a_shuffle_gives_one_placeholder_per_item_and_a_draw_gives_each_item_once() -> None:
    h = Hidden()
    tokens = h.shuffle([1, 2, 3, 4])
    assert len(tokens) == 4 and all(is_token(t) for t in tokens) and len(set(tokens)) == 4
    values = h.draw(random.Random(1))
    assert sorted(values[t] for t in tokens) == [1, 2, 3, 4]


def test_a_bound_placeholder_keeps_its_value_and_its_pool_no_longer_gives_it() -> None:
    h = Hidden()
    tokens = h.shuffle([1, 2, 3, 4])
    h.bind(tokens[0], 3)
    for seed in range(30):
        values = h.draw(random.Random(seed))
        assert tokens[0] not in values  # bound: replaced in the state at once, never drawn again
        assert sorted(values[t] for t in tokens[1:]) == [1, 2, 4]


def test_binding_a_value_the_pool_no_longer_holds_is_a_contradiction() -> None:
    h = Hidden()
    tokens = h.shuffle([1, 2])
    h.bind(tokens[0], 1)
    with pytest.raises(Contradiction):
        h.bind(tokens[1], 1)
    with pytest.raises(Contradiction):
        h.bind(tokens[1], 9)


def test_a_placeholder_of_an_older_pool_is_bound_through_the_newer_one() -> None:
    h = Hidden()
    old = h.shuffle([10, 11, 12])       # a deck: three cards nobody saw
    newer = h.shuffle([old[0], 20])     # the first of them and a known card, shuffled together
    assert h.choices(newer[0]) == {10, 11, 12, 20}
    h.bind(newer[1], 11)                # shown: it was the old unknown card, and that card was 11
    assert h.choices(old[1]) == {10, 12} and h.choices(old[2]) == {10, 12}
    assert h.choices(newer[0]) == {20}
    for seed in range(20):
        values = h.draw(random.Random(seed))
        assert values[newer[0]] == 20 and {values[old[1]], values[old[2]]} == {10, 12}


def test_pick_takes_the_placeholder_most_likely_to_be_the_value() -> None:
    h = Hidden()
    wide = h.shuffle([1, 2, 3, 4])[0]
    narrow = h.shuffle([1, 5])[0]
    assert h.pick([wide, narrow], 1) == narrow
    assert h.pick([wide, narrow], 3) == wide
    with pytest.raises(Contradiction):
        h.pick([wide, narrow], 7)


def test_placeholders_drawn_from_a_pool_share_it_without_repeats() -> None:
    h = Hidden()
    pool = h.pool(["a", "a", "b", "c"])
    dealt = h.tokens(pool, 2, str)
    h.bind(h.tokens(pool, 1, str)[0], "a")
    with pytest.raises(Contradiction):
        h.tokens(pool, 2, str)  # one item left for them: the pool cannot give two
    counts = Counter()
    for seed in range(400):
        values = h.draw(random.Random(seed))
        pair = sorted(values[t] for t in dealt)
        assert pair in (["a", "b"], ["a", "c"], ["b", "c"])
        counts[tuple(pair)] += 1
    assert all(100 <= n <= 170 for n in counts.values())  # each of the three as often as another


def test_int_and_str_placeholders_are_told_from_real_values() -> None:
    h = Hidden()
    assert is_token(h.shuffle([5])[0]) and is_token(h.shuffle(["x"], str)[0])
    assert not any(is_token(v) for v in (0, 5, -1, 101, "loyalist", "", True))
