"""A revealed Loyalist is topped up to three agents whenever a reveal's condition is met again (ruling 8 of
docs/emerald-rulings.md; rules revision 2).

The Loyalist identity card: "REVEAL if you lose all of your agents or Sanity tokens. IF REVEALED: If you have less
than three agents on the board, place agents until you have three agents on the board." Yog-Sothoth: "Note that if
you remove all of your agents then you must reveal your Secret Identity card. You would then follow the standard
rules for doing this, i.e. if you are a Loyalist then you would place three Agent pieces on the board."
*Your Secret Identity*: "If you reveal your identity to be that of a Loyalist: You immediately add Agent pieces to
the board to bring your total up to three." A game recorded before (revision 1) left such a player with none.
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald import RULES
from tests.emerald.harness import Game, give, put, set_player, set_state, slot, start_card, started

YOG, TERRORS, CTHULHU, HIRED_ASSASSIN, INFERNAL_MACHINE = 58, 63, 31, 39, 46
SPINNER = 169   # The Spinner in the Darkness, Paris's Royalty card: defence 5, 4 VP


def lines(events: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type.split(".", 1)[1], dict(e.payload)) for e in events]


def _bob_revealed_by_terrors_with_three_agents() -> Game:
    """Ann plays Terrors of the Night on Bob (a Loyalist, one Sanity token left, three agents: two in Paris, one
    in Rome) and the die shows insanity: Bob reveals, with three agents already on the board. Ann discards; it is
    Bob's turn, Yog-Sothoth in his hand."""
    g = started(die="insane")
    set_player(g, 1, identity="loyalist", sanity=1)
    put(g, "paris", 1, agents=2)
    put(g, "rome", 1, agents=1)
    give(g, 0, TERRORS, start_card(0, "S001"))
    give(g, 1, YOG)
    give(g, 1, start_card(1, "S001"), start_card(1, "S004"), start_card(1, "S005"), where="deck")
    events = g.do("play Terrors of the Night: bob")
    assert lines(events)[2:] == [
        ("SanityChanged", {"seat": 1, "to": 0}),
        ("IdentityRevealed", {"seat": 1, "identity": "loyalist", "side": "loyalist", "why": "sanity"}),
        ("ActionCompleted", {"seat": 0, "number": 1})]                     # three agents: none owed
    g.do("discard 201")
    assert list(RULES.prompts(g.state)) == [1] and g.state.active == 1
    return g


def test_yog_sothoth_taking_a_revealed_loyalists_last_three_agents_tops_him_up_to_three() -> None:
    g = _bob_revealed_by_terrors_with_three_agents()
    g.do("play Yog-Sothoth")
    g.do("take agent from Paris")
    g.do("take agent from Paris")
    events = g.do("take agent from Rome")
    assert lines(events) == [
        ("AgentRemoved", {"seat": 1, "city": "rome", "to": "yog", "by": 1}),
        ("VPScored", {"seat": 1, "amount": 1, "type": "loyal", "reason": "Yog-Sothoth"}),
        ("AgentsOwed", {"seat": 1, "count": 3}),
        ("StepSet", {"seat": 1, "step": None}),
        ("ActionCompleted", {"seat": 1, "number": 1})]
    prompt = RULES.prompts(g.state)[1]
    assert (prompt.kind, prompt.text) == ("turn", "Your identity is revealed: place 3 more agents.")
    for city in ("Paris", "Paris", "Vienna"):
        g.do(f"place agent in {city}")
    assert RULES.prompts(g.state)[1].text == "Your turn: action 2 of 2."
    seen = RULES.view(g.state, None)
    bob = seen["players"][1]
    assert (bob["vp"], bob["yog_sothoth_agents"], bob["agents_in_stock"], bob["revealed"], bob["side"]) == \
        (3, 3, 4, True, "loyalist")
    assert [(c["id"], c["agents"]) for c in seen["cities"] if any(c["agents"])] == \
        [("paris", [0, 2, 0]), ("vienna", [0, 1, 0])]
    assert RULES.view(g.state, 1)["you"]["vp_by_type"] == {"neutral": 0, "restorationist": 0, "loyalist": 3}


def test_a_game_recorded_before_the_fix_leaves_him_without_agents() -> None:
    g = _bob_revealed_by_terrors_with_three_agents()
    set_state(g, revision=1)
    g.do("play Yog-Sothoth")
    g.do("take agent from Paris")
    g.do("take agent from Paris")
    events = g.do("take agent from Rome")
    assert [t for t, _ in lines(events)] == ["AgentRemoved", "VPScored", "StepSet", "ActionCompleted"]
    assert g.state.agents_on_board(1) == 0 and g.state.owed == ()
    assert RULES.prompts(g.state)[1].text == "Your turn: action 2 of 2."


def test_assassinating_a_revealed_loyalists_last_agent_tops_him_up_again() -> None:
    g = started(die="blank")
    set_player(g, 1, identity="loyalist", revealed=True, sanity=0)
    put(g, "paris", 0, cubes=1, agents=4)
    put(g, "paris", 1, agents=1)
    give(g, 0, start_card(0, "S002"))
    g.do("assassinate agent of bob in Paris with 202")
    events = g.do("decline", seat=1)
    assert lines(events)[:3] == [
        ("InterruptAnswered", {"seat": 1, "used": False, "card": None, "effect": "assassinate"}),
        ("InterruptClosed", {"seat": 1}),
        ("AgentRemoved", {"seat": 1, "city": "paris", "to": "trophy", "by": 0})]
    assert lines(events)[3:] == [
        ("CardsPlayed", {"seat": 0, "cards": [202], "to": "kept", "use": "assassinate"}),
        ("KillScored", {"seat": 0, "victim": 1, "card": 202, "amount": 3, "type": "neutral"}),
        ("CubesCleared", {"city": "paris", "seat": 0}),
        ("AgentsOwed", {"seat": 1, "count": 3}),
        ("ActionCompleted", {"seat": 0, "number": 1})]
    assert "IdentityRevealed" not in [t for t, _ in lines(events)]       # nothing left to turn over
    prompt = RULES.prompts(g.state)[1]
    assert (prompt.kind, prompt.topic) == ("interrupt", "emerald.loyalist_agents")
    for _ in range(3):
        g.do("place agent in Rome", seat=1)
    assert g.state.city("rome").agents == (0, 3, 0) and g.state.players[1].stock_agents == 6
    assert list(RULES.prompts(g.state)) == [0] and RULES.view(g.state, None)["players"][0]["vp"] == 3


def test_cthulhu_sweeping_a_revealed_loyalists_agents_tops_him_up_again() -> None:
    g = started(die="blank")
    set_player(g, 1, identity="loyalist", revealed=True, sanity=0)
    put(g, "madrid", 1, agents=3)
    give(g, 0, CTHULHU)
    g.do("play Cthulhu: Madrid")
    events = g.do("decline", seat=1)
    assert lines(events)[-3:] == [
        ("AgentRemoved", {"seat": 1, "city": "madrid", "to": "stock", "count": 3, "by": 0}),
        ("AgentsOwed", {"seat": 1, "count": 3}),
        ("ActionCompleted", {"seat": 0, "number": 1})]
    for city in ("London", "London", "Madrid"):
        g.do(f"place agent in {city}", seat=1)
    assert g.state.agents_on_board(1) == 3 and g.state.city("madrid").agents == (0, 1, 0)


def test_losing_the_last_sanity_token_again_tops_up_to_three() -> None:
    """Revealed earlier by losing his agents, Bob regained his sanity (Sigmund Freud) and kept one agent of the
    three he placed; Terrors of the Night takes his last token again."""
    g = started(die="insane")
    set_player(g, 1, identity="loyalist", revealed=True, sanity=1)
    put(g, "rome", 1, agents=1)
    give(g, 0, TERRORS)
    events = g.do("play Terrors of the Night: bob")
    assert lines(events)[1:] == [
        ("SanityRolled", {"seat": 1, "face": "insane", "reason": "Terrors of the Night"}),
        ("SanityChanged", {"seat": 1, "to": 0}),
        ("AgentsOwed", {"seat": 1, "count": 2}),
        ("ActionCompleted", {"seat": 0, "number": 1})]


def test_a_second_trigger_in_the_same_action_owes_only_the_difference() -> None:
    """Ann, a Loyalist with one Sanity token and one agent (in Paris), assassinates The Spinner in the Darkness and
    the die shows insanity: she loses her last token and reveals (two agents owed, as she has one), then loses the
    agent in Paris, her last: one more is owed, and she ends with three."""
    g = started(die="insane")
    set_player(g, 0, identity="loyalist", sanity=1)
    slot(g, "paris", SPINNER)
    put(g, "paris", 0, cubes=1, agents=1)
    give(g, 0, HIRED_ASSASSIN, INFERNAL_MACHINE, start_card(0, "S003"))
    events = g.do("assassinate royalty in Paris with 39 using 46 203")
    assert lines(events)[5:] == [
        ("SanityRolled", {"seat": 0, "face": "insane", "reason": "assassinated The Spinner in the Darkness"}),
        ("SanityChanged", {"seat": 0, "to": 0}),
        ("IdentityRevealed", {"seat": 0, "identity": "loyalist", "side": "loyalist", "why": "sanity"}),
        ("AgentsOwed", {"seat": 0, "count": 2}),
        ("AgentRemoved", {"seat": 0, "city": "paris", "to": "stock", "by": 0, "why": "insanity"}),
        ("AgentsOwed", {"seat": 0, "count": 1}),
        ("CubesCleared", {"city": "paris", "seat": 0}),
        ("ActionCompleted", {"seat": 0, "number": 1})]
    for _ in range(3):
        g.do("place agent in Cairo")
    assert g.state.agents_on_board(0) == 3 and g.state.owed == ()
    assert RULES.prompts(g.state)[0].text == "Your turn: action 2 of 2."


def test_the_top_up_takes_only_what_the_stock_holds() -> None:
    g = started(die="blank")
    put(g, "paris", 0, cubes=1, agents=4)
    put(g, "paris", 1, agents=1)
    set_player(g, 1, identity="loyalist", revealed=True, sanity=0, stock_agents=1)  # the rest lie on others' cards
    give(g, 0, start_card(0, "S002"))
    g.do("assassinate agent of bob in Paris with 202")
    events = g.do("decline", seat=1)
    assert ("AgentsOwed", {"seat": 1, "count": 1}) in lines(events)
    g.do("place agent in Rome", seat=1)
    assert g.state.agents_on_board(1) == 1 and g.state.players[1].stock_agents == 0
    assert list(RULES.prompts(g.state)) == [0]
