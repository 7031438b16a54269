"""Draws follow from the seed and the counter alone, so anyone with the seed can recompute them."""

from __future__ import annotations

import hashlib

import pytest

from events.rng import Rng, compute, new_seed, seed_commitment


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    assert seed_commitment("abc") == hashlib.sha256(b"abc").hexdigest()


def test_draws_are_fixed_by_seed_and_counter() -> None:
    # Golden values: if these change, every recorded game fails verification.
    assert [compute("golden", n, "randint", [1, 6]) for n in range(8)] == GOLDEN_DIE
    assert compute("golden", 0, "shuffle", list(range(10))) == GOLDEN_SHUFFLE


def test_a_die_roll_is_hmac_sha256_of_seed_and_counter_modulo_six() -> None:
    """The documented formula (docs/randomness.md), recomputed here without pbem's code."""
    import hmac
    for n in range(20):
        word = int.from_bytes(hmac.new(b"golden", f"{n}.0".encode(), hashlib.sha256).digest(), "big")
        assert compute("golden", n, "randint", [1, 6]) == 1 + word % 6


def test_an_rng_records_each_draw_and_counts_on() -> None:
    rng = Rng("s", counter=5)
    face = rng.randint(1, 6)
    order = rng.shuffle(["a", "b", "c"])
    picked = rng.choice(["x", "y"])
    assert rng.counter == 8
    assert [(d.n, d.op) for d in rng.draws] == [(5, "randint"), (6, "shuffle"), (7, "randint")]
    assert rng.draws[0].result == face and rng.draws[1].result == order
    assert picked == ["x", "y"][rng.draws[2].result]
    assert sorted(order) == ["a", "b", "c"]


def test_a_die_is_fair_enough_over_many_draws() -> None:
    counts = [0] * 6
    for n in range(6000):
        counts[compute("fair", n, "randint", [1, 6]) - 1] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_bad_draws_are_refused() -> None:
    with pytest.raises(ValueError):
        compute("s", 0, "randint", [6, 1])
    with pytest.raises(ValueError):
        compute("s", 0, "coin", [])
    with pytest.raises(ValueError):
        Rng("s").choice([])


def test_new_seeds_are_long_and_different() -> None:
    seeds = {new_seed() for _ in range(10)}
    assert len(seeds) == 10 and all(len(s) == 64 for s in seeds)


GOLDEN_DIE = [4, 1, 3, 3, 2, 3, 4, 4]
GOLDEN_SHUFFLE = [3, 6, 0, 8, 5, 4, 1, 7, 9, 2]
