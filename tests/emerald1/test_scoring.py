"""Known to the Authorities, the tracks' points, the end conditions and the winner."""

from __future__ import annotations

from pbem.games.emerald1 import RULES
from pbem.games.emerald1.scoring import breakdown, final_scores, public_score
from tests.emerald1.position import L, R, agent, arrange, hand, payloads, side, started


def test_a_player_becomes_known_with_potential_points_and_stays_known() -> None:
    game = started()
    s = arrange(game)
    agent(s, 2, 0, "paris")                              # Reclus could give a Restorationist 2 VP
    events = game.act(0, {"kind": "pass"})
    assert payloads(events, "KnownToAuthorities") == [{"seat": 0}]
    s = arrange(game)
    del s.agents["2"]
    game.act(0, {"kind": "pass"})
    assert game.state.players[0].known and not game.state.players[1].known


def test_tracks_reaching_a_vp_space_make_everyone_known_and_score_the_highest_space_reached() -> None:
    game = started()
    s = arrange(game, war=3)
    hand(s, 0, [21, 101, 102, 103, 104])                   # Stieber: War +1
    events = game.act(0, {"kind": "markers", "plays": [[21, 0]]})
    assert len(payloads(events, "KnownToAuthorities")) == 3
    s = arrange(game, war=2)
    assert breakdown(game.state, 1, L)["war track"] == 1   # the highest space reached counts


def test_the_public_score_hides_side_points_until_the_reveal() -> None:
    game = started()
    s = arrange(game, revolution_max=7, revolution=7)
    side(s, 0, R)
    s.owner["paris"] = 0
    assert public_score(game.state, 0) == 5
    s = arrange(game)
    s.players[0].revealed = True
    assert public_score(game.state, 0) == 5 + 2


def test_the_game_ends_when_a_track_marker_reaches_the_top() -> None:
    game = started()
    s = arrange(game, revolution=11)
    hand(s, 0, [13, 101, 102, 103, 104])
    events = game.act(0, {"kind": "markers", "plays": [[13, 0]]})
    assert game.state.phase == "over" and game.state.revolution == 12
    assert payloads(events, "GameEnded")[0]["reason"] == "revolution_track"


def test_the_game_ends_when_a_public_score_reaches_the_target() -> None:
    game = started(players=5)
    s = arrange(game)
    for city in ("berlin", "london", "paris"):
        s.owner[city] = 0
    s.royal["vienna"] = [0, "hidden"]
    events = game.act(0, {"kind": "pass"})                # 6 + 6 + 5 + 5 = 22 >= 20
    assert payloads(events, "GameEnded")[0]["reason"] == "victory_points"


def test_example_the_side_of_the_lowest_score_is_eliminated_and_the_best_of_the_other_side_wins() -> None:
    game = started(players=4)
    s = arrange(game, phase="over")
    for seat, ident in enumerate((L, L, R, R)):          # green and yellow Loyalists, blue and red not
        side(s, seat, ident)
    s.owner.update({"cairo": 0, "berlin": 1, "london": 2, "the_hague": 2, "paris": 3})
    out = final_scores(game.state)
    assert out.scores == {0: 3, 1: 6, 2: 9, 3: 5} and out.winners == (2,)
    assert "Loyalists are eliminated" in out.summary


def test_a_tie_for_lowest_across_sides_eliminates_the_loyalists() -> None:
    game = started(players=2)
    s = arrange(game, phase="over")
    side(s, 0, L)
    side(s, 1, R)
    s.owner.update({"paris": 0, "vienna": 1})
    out = final_scores(game.state)
    assert out.scores == {0: 5, 1: 5} and out.winners == (1,)
    assert "Loyalists are eliminated" in out.summary


def test_same_side_ties_go_to_the_most_discs_on_the_board_then_are_shared() -> None:
    game = started()
    s = arrange(game, phase="over")
    for seat in range(3):
        side(s, seat, R)
    s.owner.update({"paris": 0, "vienna": 1})
    assert final_scores(game.state).winners == (0, 1)
    agent(s, 9, 1, "rome")
    s.agents["9"]["vampire"] = True                      # a vampire gives no VP but its disc is on the board
    assert final_scores(game.state).winners == (1,)


def test_a_loyalist_scores_one_per_restorationist_agent_killed_only_at_the_end() -> None:
    game = started()
    s = arrange(game)
    side(s, 0, L)
    side(s, 1, R)
    s.players[0].kills = [["9", 1], ["m1", 1]]
    assert "Restorationist agents assassinated" not in breakdown(game.state, 0, L)
    assert breakdown(game.state, 0, L, final=True)["Restorationist agents assassinated"] == 2


def test_the_outcome_reveals_every_side_and_the_breakdown() -> None:
    game = started()
    arrange(game, phase="over")
    view = RULES.view(game.state, None)
    assert all("side" in p and "hand" in p for p in view["players"]) and view["outcome"]["winners"]


def test_the_quick_known_test_agrees_with_the_scores_of_either_side_in_whole_games() -> None:
    from pbem.games.emerald1.scoring import potential, score
    from tests.emerald1.harness import random_playout
    for players, seed in ((3, 1), (5, 3)):
        game = random_playout(players, seed)
        state = RULES.initial_state(game.config)
        for ev in game.events:
            state = RULES.evolve(state, ev)
            for seat in range(players):
                slow = any(score(state, seat, side) > 0 for side in ("", R, L)) or bool(state.players[seat].kills)
                assert potential(state, seat) == slow, (ev.seq, seat)


def test_the_quick_total_is_the_sum_of_the_breakdown_for_every_side_in_whole_games() -> None:
    from pbem.games.emerald1.scoring import total
    from tests.emerald1.harness import random_playout
    for players, seed in ((2, 4), (4, 2), (5, 3)):
        game = random_playout(players, seed)
        state = RULES.initial_state(game.config)
        for ev in game.events:
            state = RULES.evolve(state, ev)
            for seat in range(players):
                for who in ("", R, L):
                    for final in (False, True):
                        assert total(state, seat, who, final) == sum(breakdown(state, seat, who, final).values())


def test_the_checks_after_each_step_agree_with_the_scores_seat_by_seat_in_whole_games() -> None:
    from pbem.games.emerald1.scoring import after_step, potential
    from tests.emerald1.harness import random_playout
    for players, seed in ((2, 4), (3, 1), (4, 7), (5, 3)):
        game = random_playout(players, seed)
        state = RULES.initial_state(game.config)
        for ev in game.events:
            before, state = state, RULES.evolve(state, ev)
            known = [i for i in range(players) if not state.players[i].known and potential(state, i)]
            scores = [public_score(state, i) for i in range(players)]
            for target in {1, 4, 8, max(scores), max(scores) + 1}:
                expected = (known, any(x >= target for x in scores))
                assert after_step(state, target) == expected, (ev.seq, target)
                # from the tallies of the state before (the containers the event did not write are its own)
                assert after_step(state, target, before) == expected, (ev.seq, target)
