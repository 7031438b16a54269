"""Each game's evaluation: a finished game gives its result, the shares add up to 1, and what brings a seat nearer
to winning raises its share."""

from __future__ import annotations

import pytest

from pbem.bots.games import game_bot
from pbem.games.emerald import state as emerald_state
from pbem.games.nanty import state as nanty_state
from tests.bots.positions import GAMES, positions


def _mid(game: str, players: int = 3):  # type: ignore[no-untyped-def]
    return list(positions(game, players, 21, every=40, until=80))[-1]


@pytest.mark.parametrize("game", GAMES)
def test_shares_are_chances_that_add_up_to_one(game: str) -> None:
    bot = game_bot(game)
    for position in positions(game, 3, 22, every=30, until=240):
        values = bot.values(position.state)
        assert len(values) == 3 and abs(sum(values) - 1) < 1e-9 and all(0 <= v <= 1 for v in values)
        assert [bot.evaluate(position.state, s) for s in range(3)] == list(values)


def test_nanty_a_finished_game_gives_its_result() -> None:
    state = nanty_state.replace(_mid("nanty").state, phase="over", winners=(1, 2))
    assert game_bot("nanty").values(state) == (0.0, 0.5, 0.5)


def test_nanty_a_personality_nearer_its_goal_is_more_likely_to_win() -> None:
    state = _mid("nanty").state
    moriarty = state.with_player(0, personality="moriarty")  # wins with agents in enough areas
    spots = tuple(nanty_state.replace(sp, agents=(1,) + sp.agents[1:]) for sp in moriarty.spots[:9]) \
        + moriarty.spots[9:]
    nearer = nanty_state.replace(moriarty, spots=spots)
    bot = game_bot("nanty")
    assert bot.evaluate(nearer, 0) > bot.evaluate(moriarty, 0) + 0.2


def test_emerald_points_of_the_seat_s_own_side_raise_its_share() -> None:
    state = _mid("emerald").state
    side = state.players[0].side
    field = "vp_loyal" if side == emerald_state.LOYALIST else "vp_resto"
    other = "vp_resto" if field == "vp_loyal" else "vp_loyal"
    bot = game_bot("emerald")
    richer = state.with_player(0, **{field: getattr(state.players[0], field) + 5})
    wrong = state.with_player(0, **{other: getattr(state.players[0], other) + 5})
    assert bot.evaluate(richer, 0) > bot.evaluate(state, 0) + 0.05
    assert bot.evaluate(wrong, 0) < bot.evaluate(richer, 0)  # the other side's points are lost at the end


def test_emerald_a_finished_game_gives_its_result() -> None:
    state = emerald_state.replace(_mid("emerald").state, phase="over")
    from pbem.games.emerald.scoring import final_scores
    won = final_scores(state).winners
    values = game_bot("emerald").values(state)
    assert all(values[s] == (1 / len(won) if s in won else 0.0) for s in range(3))


def test_emerald1_a_city_of_one_s_own_raises_one_s_share() -> None:
    state = _mid("emerald1").state
    city = state.cat.city_ids[0]
    bot = game_bot("emerald1")
    owned = state.successor(memo=False)
    owned.owner = {**state.owner, city: 0}
    assert bot.evaluate(owned, 0) > bot.evaluate(state, 0)


def test_emerald1_a_finished_game_gives_its_result() -> None:
    state = _mid("emerald1").state.successor(memo=False)
    state.phase = "over"
    from pbem.games.emerald1.scoring import final_scores
    won = final_scores(state).winners
    values = game_bot("emerald1").values(state)
    assert all(values[s] == (1 / len(won) if s in won else 0.0) for s in range(3))
