"""Everything the rules say over 48 seeded random games is byte for byte what it was (see ``golden_play``).

The digests were recorded before the rules were made faster; a change of behaviour, even in a refusal's words or
the order of a view's keys, changes them. If a rule is changed on purpose, record the new digests with
``python -m tests.emerald1.golden_play`` and say why in the commit.
"""

from __future__ import annotations

import pytest

from tests.emerald1.golden_play import digest

GOLDEN = {
    2: ("e949a3c4ebe9095978c860c0dff0862482a1a54cba84b3d4f92d575d8b075cc9", 5754),
    3: ("a22c8a27ed0b416915e9a87b5d7b5e7fc723e7a7e152937ddb3699a7a4fb3df8", 5836),
    4: ("409b4e57ecfae92fabe44f72c349bebbe662ef549e026b780ca83833c9bdded5", 7494),
    5: ("63416a8a7150fd5a46836669dc865ae0e1d7e90de05b045cc37cbc3bdce7a054", 9536),
}


@pytest.mark.slow
@pytest.mark.parametrize("players", sorted(GOLDEN))
def test_seeded_games_say_exactly_what_they_said(players: int) -> None:
    assert digest(players) == GOLDEN[players]
