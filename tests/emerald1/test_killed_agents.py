"""What becomes of a killed agent's card: it stays with its player, or leaves the game (the option
``killed_agent_card``; docs/emerald1-rulings.md, 15 and 51).

Rulebook, Assassinate Agent: "The player carrying out the assassination should keep the Agent counter and the
Control disc on it as it may score points at the end of the game." Nothing is said of the card. Elsewhere a dead
agent's card goes: Assassinate Royalty, "If you draw a 'Mad' counter ... Place the card for that agent to one
side and remove the Agent counter from the board"; Cthulhu, "the corresponding cards need to be found and removed
from the game". Playing the game: "If at any time during the game you are forced to lose a card from your hand,
draw a replacement card immediately."
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1 import RULES
from tests.emerald1.harness import Game
from tests.emerald1.position import agent, arrange, hand, started

MORIARTY, RECLUS = 14, 2
ATTACK = {"kind": "card", "card": MORIARTY, "city": "paris", "target": str(RECLUS), "bombs": [206, 207, 208]}


def moriarty_kills_reclus(**options: Any) -> Game:
    """Seat 1 plays Moriarty on Reclus in Paris (three bomb cards); Reclus's card is in seat 0's hand; seat 0 is
    known; nobody reveals a double agent."""
    game = started(cities=["cairo", "cairo", "cairo"], **options)
    s = arrange(game)
    agent(s, MORIARTY, 1, "paris")
    agent(s, RECLUS, 0, "paris")
    hand(s, 1, [MORIARTY, 206, 207, 208, 201])
    hand(s, 0, [RECLUS, 101, 102, 103, 104])
    s.players[0].known = True
    s.active = 1
    for seat in (1, 2, 0):
        s.players[seat].double_agents = []
    game.act(1, ATTACK)
    return game


def answer(game: Game) -> list[Any]:
    events = []
    while game.state.window:
        events += game.act(game.who(), {"kind": "allow"})
    return events


def test_the_card_of_a_killed_agent_stays_with_its_player_for_its_symbols() -> None:
    game = moriarty_kills_reclus()
    events = answer(game)
    assert [e.type.split(".")[1] for e in events] == ["WindowSet", "WindowSet", "AgentKilled", "ActionDone",
                                                      "KnownToAuthorities"]   # a kill makes the killer known
    assert RECLUS in game.state.players[0].hand and game.state.agents[str(RECLUS)]["where"] == "killed"
    assert not [a for a in game.legal(0) if a.get("card") == RECLUS and a["kind"] == "card"]  # no counter: no action


def test_the_table_may_put_the_killed_agents_card_out_of_the_game() -> None:
    game = moriarty_kills_reclus(options={"killed_agent_card": "removed"})
    deck = list(game.state.players[0].deck)
    events = answer(game)
    assert [(e.type.split(".")[1], e.payload) for e in events][2:6] == [
        ("AgentKilled", {"seat": 1, "agent": str(RECLUS), "owner": 0, "city": "paris", "how": "assassinate"}),
        ("CardGone", {"card": RECLUS, "from_seat": 0, "why": "killed"}),
        ("CardsDrawn", {"seat": 0, "cards": deck[:1]}),             # a card lost from the hand is replaced
        ("CardsDrawnCount", {"seat": 0, "count": 1}),
    ]
    st = game.state
    assert RECLUS in st.removed and st.players[0].hand == [101, 102, 103, 104, deck[0]]
    assert st.players[1].kills == [[str(RECLUS), 0]]           # the killer still keeps the counter
    assert [c["number"] for c in RULES.view(st, None)["removed"]] == [RECLUS]


def test_a_game_recorded_before_the_option_keeps_the_card() -> None:
    game = moriarty_kills_reclus(recorded={})
    answer(game)
    assert RECLUS in game.state.players[0].hand
