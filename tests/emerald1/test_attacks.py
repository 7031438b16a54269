"""Assassinations, Hide Royalty, double agents and the window in which others may stop an attack."""

from __future__ import annotations

from pbem.games.emerald1 import RULES
from pbem.games.emerald1.scoring import public_score
from tests.emerald1.position import L, R, agent, arrange, hand, kinds, payloads, sanity, side, started

HIRED, IM, KRAV, MORIARTY, RECLUS, HOLMES, HIDE, FENIANS = 35, 43, 16, 14, 2, 18, 32, 28


def answer_all(game, answer=None):  # type: ignore[no-untyped-def]
    """Every asked player lets it happen (or gives ``answer``)."""
    out = []
    while game.state.window:
        seat = game.who()
        out += game.act(seat, answer or {"kind": "allow"})
    return out


def test_example_kravchinsky_assassinates_washington_with_two_more_bombs_and_is_lost_to_a_mad_counter() -> None:
    game = started(cities=["washington", "cairo", "cairo"])
    s = arrange(game)
    agent(s, KRAV, 0, "washington")
    hand(s, 0, [KRAV, 106, 108, 110, 101])
    sanity(s, "mad")
    attacks = [a for a in game.legal(0) if a.get("card") == KRAV and a.get("target") == "royal"]
    # counters give 2 (Kravchinsky, the Main Agent); Kravchinsky's own card bombs do not count; 3 more needed
    assert sorted(a["bombs"] for a in attacks) == [[106, 110], [108, 110]]
    events = game.act(0, {"kind": "card", "card": KRAV, "city": "washington", "target": "royal", "bombs": [106, 110]})
    assert game.state.window and game.who() == 1 and "WindowSet" in kinds(events)
    events = answer_all(game)
    st = game.state
    assert st.royal["washington"] == [0, "assassinated"] and public_score(st, 0) == 4
    assert payloads(events, "SanityDrawn") == [{"seat": 0, "result": "mad", "why": "royal person assassinated"}]
    assert st.agents[str(KRAV)]["where"] == "gone" and KRAV in st.removed and st.players[0].mad == 1


def test_a_hired_assassin_acts_where_you_have_an_agent_and_loses_nobody_to_madness() -> None:
    game = started(cities=["zurich", "cairo", "cairo"])
    s = arrange(game)
    hand(s, 0, [HIRED, IM, 101, 102, 103])
    sanity(s, "mad")
    attacks = [a for a in game.legal(0) if a.get("card") == HIRED]
    assert {a["city"] for a in attacks} == {"zurich"}
    game.act(0, {"kind": "card", "card": HIRED, "city": "zurich", "target": "royal", "bombs": [IM]})
    answer_all(game)
    st = game.state
    assert st.royal["zurich"] == [0, "assassinated"] and st.agents["m0"]["where"] == "board"
    assert IM in st.removed and HIRED in st.players[0].discard      # Infernal Machine leaves the game


def test_example_moriarty_may_only_target_reclus_whose_owner_is_known_with_three_more_bombs() -> None:
    game = started(cities=["cairo", "cairo", "cairo"])
    s = arrange(game)
    agent(s, MORIARTY, 1, "paris")
    agent(s, RECLUS, 0, "paris")
    agent(s, "m0", 0, "paris")
    hand(s, 1, [MORIARTY, 206, 207, 208, 201])
    s.active = 1
    assert not [a for a in game.legal(1) if a.get("target") == str(RECLUS)]   # Monday is not yet known
    s = arrange(game)
    s.players[0].known = True
    targets = {a["target"] for a in game.legal(1) if a.get("card") == MORIARTY and "target" in a}
    assert targets == {str(RECLUS)}                   # not the Main Agent while Reclus is there; no royalty (AA)
    bombs = {tuple(a["bombs"]) for a in game.legal(1) if a.get("target") == str(RECLUS)}
    assert bombs == {(206, 207, 208)}                 # Paris defence 4: Moriarty's 1 and three more
    game.act(1, {"kind": "card", "card": MORIARTY, "city": "paris", "target": str(RECLUS), "bombs": [206, 207, 208]})
    events = answer_all(game)
    st = game.state
    assert payloads(events, "AgentKilled") == [{"seat": 1, "agent": "2", "owner": 0, "city": "paris",
                                                "how": "assassinate"}]
    assert st.players[1].kills == [["2", 0]] and not payloads(events, "SanityDrawn")


def test_every_other_player_is_asked_in_turn_with_the_same_words_whatever_they_hold() -> None:
    game = started(players=4, cities=["zurich", "cairo", "cairo", "cairo"])
    s = arrange(game)
    hand(s, 0, [HIRED, IM, 101, 102, 103])
    s.players[2].double_agents = []
    game.act(0, {"kind": "card", "card": HIRED, "city": "zurich", "target": "royal", "bombs": [IM]})
    asked, texts = [], set()
    while game.state.window:
        seat = game.who()
        asked.append(seat)
        prompt = RULES.prompts(game.state)[seat]
        texts.add(prompt.text)
        assert prompt.kind == "interrupt" and prompt.topic == "emerald1.interrupt"
        game.act(seat, {"kind": "allow"})
    assert asked == [1, 2, 3] and len(texts) == 1


def test_a_double_agent_revealed_in_the_window_foils_the_assassination_and_takes_the_agent() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    agent(s, 7, 0, "rome")                            # Johann Most
    hand(s, 0, [7, 106, 107, 108, 101])
    s.players[2].double_agents = [7, 9]
    game.act(0, {"kind": "card", "card": 7, "city": "rome", "target": "royal", "bombs": [106, 107, 108]})
    game.act(1, {"kind": "allow"})
    assert {"kind": "double_agent", "agent": 7} in game.legal(2)
    events = game.act(2, {"kind": "double_agent", "agent": 7})
    st = game.state
    assert "rome" not in st.royal and st.agents["7"]["owner"] == 2 and 7 in st.players[2].discard
    assert payloads(events, "AttackFoiled") == [{"seat": 0, "by": 2, "how": "double agent"}]
    assert st.actions_done == 1 and 106 in st.players[0].discard       # the action and its cards are spent


def test_revealing_a_double_agent_as_an_action_takes_control_and_the_card() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    agent(s, 9, 1, "rome")
    hand(s, 1, [9, 201, 202, 203, 204])
    s.players[0].double_agents = [9]
    events = game.act(0, {"kind": "double_agent", "agent": 9})
    st = game.state
    assert st.agents["9"]["owner"] == 0 and 9 in st.players[0].discard and len(st.players[1].hand) == 5
    assert kinds(events)[:3] == ["DoubleAgentRevealed", "AgentOwnerChanged", "CardTransferred"]


def test_sherlock_holmes_revealed_stays_with_a_restorationist_who_reveals() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    agent(s, HOLMES, 1, "rome")
    side(s, 1, R)
    s.players[0].double_agents = [HOLMES]
    game.act(0, {"kind": "double_agent", "agent": HOLMES})
    assert game.who() == 1 and {"kind": "reveal"} in game.legal(1)
    game.act(1, {"kind": "reveal"})
    st = game.state
    assert st.agents[str(HOLMES)]["owner"] == 1 and st.players[1].revealed and HOLMES in st.da_revealed


def test_professor_moriarty_revealed_goes_over_when_the_owner_lets_it_happen() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    agent(s, MORIARTY, 1, "rome")
    side(s, 1, L)
    s.players[0].double_agents = [MORIARTY]
    game.act(0, {"kind": "double_agent", "agent": MORIARTY})
    game.act(1, {"kind": "allow"})
    assert game.state.agents[str(MORIARTY)]["owner"] == 0 and not game.state.players[1].revealed


def test_a_loyalist_main_agent_assassinated_reveals_and_stays_a_restorationist_one_ends_the_game() -> None:
    for identity, ends in ((L, False), (R, True)):
        game = started(cities=["rome", "rome", "cairo"])
        s = arrange(game)
        hand(s, 0, [HIRED, 106, 107, 108, 101])
        side(s, 1, identity)
        s.players[1].known = True
        game.act(0, {"kind": "card", "card": HIRED, "city": "rome", "target": "m1", "bombs": [106, 107]})
        events = answer_all(game)
        assert payloads(events, "IdentityRevealed")[0]["side"] == identity
        assert (game.state.phase == "over") == ends
        if ends:
            assert game.state.players[0].kills == [["m1", 1]]
            assert payloads(events, "GameEnded")[0]["reason"] == "restorationist_main_agent_killed"
        else:
            assert game.state.agents["m1"]["where"] == "board"


def test_vampires_cannot_be_assassinated_and_agents_of_unknown_players_are_safe() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    hand(s, 0, [HIRED, IM, 106, 107, 108])
    agent(s, 9, 1, "rome", vampire=True)
    agent(s, 10, 2, "rome")
    s.players[1].known = True
    targets = {a.get("target") for a in game.legal(0) if a.get("card") == HIRED}
    assert targets == {"royal"}


def test_hide_royalty_places_a_safe_counter_scores_and_draws_sanity() -> None:
    game = started(cities=["zurich", "cairo", "cairo"])
    s = arrange(game)
    hand(s, 0, [HIDE, 106, 107, 108, 101])
    sanity(s, "sane")
    game.act(0, {"kind": "card", "card": HIDE, "city": "zurich", "target": "royal", "bombs": [106, 107, 108]})
    events = answer_all(game)
    st = game.state
    assert st.royal["zurich"] == [0, "hidden"] and st.safe_used == 1 and HIDE in st.removed
    assert public_score(st, 0) == 3 and payloads(events, "SanityDrawn")[0]["result"] == "sane"
    assert not [a for a in game.legal(0) if a.get("city") == "zurich" and a.get("target") == "royal"]


def test_no_bomb_card_may_be_surplus() -> None:
    game = started(cities=["zurich", "cairo", "cairo"])
    s = arrange(game)
    hand(s, 0, [HIRED, IM, 106, 107, 108])
    sets = sorted(a["bombs"] for a in game.legal(0) if a.get("card") == HIRED and a.get("target") == "royal")
    assert sets == [[IM], [106, 107, 108]]              # Zurich's royal: 4, the Main Agent gives 1


def test_fenians_make_each_of_your_counters_count_two_bombs_and_leave_the_game() -> None:
    game = started(cities=["zurich", "cairo", "cairo"])
    s = arrange(game)
    agent(s, 22, 0, "zurich")                            # William Morris, 0 bombs
    hand(s, 0, [HIRED, FENIANS, 106, 101, 102])
    assert {"kind": "card", "card": HIRED, "city": "zurich", "target": "royal", "bombs": [FENIANS]} in game.legal(0)
    game.act(0, {"kind": "card", "card": HIRED, "city": "zurich", "target": "royal", "bombs": [FENIANS]})
    assert FENIANS in game.state.removed


def test_any_assassin_may_kill_a_zombie_keeping_the_card_with_no_sanity_draw() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    hand(s, 0, [HIRED, 101, 102, 103, 104])
    s.zombies["rome"][1] = 2
    events = game.act(0, {"kind": "card", "card": HIRED, "city": "rome", "zombie": 1})
    assert game.state.zombies["rome"][1] == 1 and HIRED in game.state.players[0].hand
    assert not payloads(events, "SanityDrawn")
