"""Everything the rules say over 48 seeded random games is byte for byte what it was (see ``golden_play``).

The digests were recorded before the rules were made faster; a change of behaviour, even in a refusal's words or
the order of a view's keys, changes them. If a rule is changed on purpose, record the new digests with
``python -m tests.emerald1.golden_play`` and say why in the commit.
"""

from __future__ import annotations

import pytest

from tests.emerald1.golden_play import digest

GOLDEN = {
    2: ("467187823873c2b9d2e1d9451bc8f03b11f48ab8826197744ef9551505767b93", 5754),
    3: ("89e2d8f7784a6b920b9e11d0ed3c232d6ce311e00bb13e55863270f085c16c23", 5836),
    4: ("17ccdf564bdd8a29cef2b0dcc7b57c44afa942140f511264366eced380f1ac58", 7494),
    5: ("7c336c2a622de7cbdb84f87ba0ab329ab82e1045c7b82c5d0053793ca094a75f", 9536),
}


@pytest.mark.slow
@pytest.mark.parametrize("players", sorted(GOLDEN))
def test_seeded_games_say_exactly_what_they_said(players: int) -> None:
    assert digest(players) == GOLDEN[players]
