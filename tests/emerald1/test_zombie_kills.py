"""Killing a zombie: which cards may, and what becomes of the card (docs/emerald1-rulings.md, 42 and 47).

Rulebook (Zombies): "Any player can kill a zombie by playing an agent Game card with the Assassinate Royalty or
Assassinate Agent action on it, or a Hired Assassin card, or a card for an agent who is a vampire (given that they
can all carry out assassinations). In the first case the agent in question must be in the same city. In the second
case you must have at least one agent in the same city. Note that in both cases you retain the card played and you
do not check Sanity. You do not need to match the Bomb defence of the city to kill a zombie, the only cost is the
use of an action and a card."
"""

from __future__ import annotations

import pytest

from events.rules import IllegalAction
from pbem.games.emerald1 import RULES
from tests.emerald1.harness import Game
from tests.emerald1.position import agent, arrange, hand, kinds, payloads, started

GOLDMAN, IRENE, BURTSEV, HIRED = 3, 6, 20, 35
KILL = {"kind": "card", "card": GOLDMAN, "city": "zurich", "zombie": 1}


def goldman_and_a_blue_zombie_in_zurich(**options: object) -> Game:
    """Seat 0 (Ann) has Emma Goldman's, Irene Adler's and Vladimir Burtsev's counters in Zurich and their cards in
    hand; seat 1 (Bob) has one zombie there."""
    game = started(cities=["cairo", "cairo", "cairo"], **options)  # type: ignore[arg-type]
    s = arrange(game)
    for card in (GOLDMAN, IRENE, BURTSEV):
        agent(s, card, 0, "zurich")
    hand(s, 0, [GOLDMAN, IRENE, BURTSEV, 101, 102])
    s.zombies["zurich"][1] = 1
    return game


def test_a_zombie_killed_with_an_agents_card_leaves_the_card_in_the_hand() -> None:
    """"you retain the card played": ``play 3 in zurich zombie bob`` shows Emma Goldman's card and keeps it."""
    game = goldman_and_a_blue_zombie_in_zurich()
    before = RULES.view(game.state, None)["players"][0]
    events = game.do("play 3 in zurich zombie bob", 0)
    assert [(e.type, e.payload) for e in events] == [
        ("emerald1.CardShown", {"seat": 0, "card": GOLDMAN, "use": "kill a zombie"}),
        ("emerald1.ZombiesRemoved", {"seat": 1, "city": "zurich", "count": 1, "by": 0}),
        ("emerald1.ActionDone", {"seat": 0, "free": False}),
        ("emerald1.KnownToAuthorities", {"seat": 0}),   # Goldman's counter may score for a Restorationist
    ]
    assert all(e.visibility.kind == "public" for e in events)
    st = game.state
    assert st.players[0].hand == [GOLDMAN, IRENE, BURTSEV, 101, 102] and st.zombies["zurich"] == [0, 0, 0]
    assert [c["number"] for c in RULES.view(st, 0)["you"]["hand"]] == [GOLDMAN, IRENE, BURTSEV, 101, 102]
    after = RULES.view(st, None)["players"][0]
    assert (after["hand_size"], after["discard_size"], after["discard_top"]) == (
        5, before["discard_size"], before["discard_top"])
    assert RULES.view(st, None)["zombies_left"] == st.cat.game["zombies"]
    assert RULES.describe(events[0], 1) == "seat 0 shows Emma Goldman (3) to kill a zombie and keeps it."
    assert not payloads(events, "SanityDrawn")


def test_only_a_card_that_may_assassinate_kills_a_zombie() -> None:
    """Irene Adler and Vladimir Burtsev have neither Assassinate action: their cards kill no zombie."""
    game = goldman_and_a_blue_zombie_in_zurich()
    killers = {a["card"] for a in game.legal(0) if "zombie" in a}
    assert killers == {GOLDMAN}
    for card in (IRENE, BURTSEV):
        with pytest.raises(IllegalAction):
            game.act(0, {**KILL, "card": card})
    s = arrange(game)
    hand(s, 0, [GOLDMAN, IRENE, BURTSEV, HIRED, 101])   # a Hired Assassin where you have an agent may
    assert {a["card"] for a in game.legal(0) if "zombie" in a} == {GOLDMAN, HIRED}


def test_with_sebastian_moran_every_agent_of_yours_may_kill_a_zombie() -> None:
    """Sebastian Moran: "assume that the Assassinate Agent action appears on all cards for agents under your
    control"."""
    game = goldman_and_a_blue_zombie_in_zurich()
    s = arrange(game)
    s.players[0].pes.append(s.cat.pe_by_effect["moran"])
    assert {a["card"] for a in game.legal(0) if "zombie" in a} == {GOLDMAN, IRENE, BURTSEV}


def test_the_table_may_read_the_card_as_spent() -> None:
    """The option ``zombie_kill_card = discarded``: "the only cost is the use of an action and a card"."""
    game = goldman_and_a_blue_zombie_in_zurich(options={"zombie_kill_card": "discarded"})
    events = game.act(0, KILL)
    assert payloads(events, "CardsPlayed") == [{"seat": 0, "cards": [GOLDMAN], "use": "kill a zombie",
                                                "to": "discard"}]
    assert kinds(events)[:2] == ["CardsPlayed", "ZombiesRemoved"]
    assert GOLDMAN in game.state.players[0].discard and GOLDMAN not in game.state.players[0].hand
    assert {a["card"] for a in game.legal(0) if "zombie" in a} == set()   # the other two may not, whatever


def test_a_game_recorded_before_revision_two_plays_on_as_it_began() -> None:
    """Recorded before the fix: any agent's card kills a zombie, and goes to the discard pile."""
    game = goldman_and_a_blue_zombie_in_zurich(recorded={})
    assert {a["card"] for a in game.legal(0) if "zombie" in a} == {GOLDMAN, IRENE, BURTSEV}
    events = game.act(0, {**KILL, "card": IRENE})
    assert kinds(events)[:2] == ["CardsPlayed", "ZombiesRemoved"] and IRENE in game.state.players[0].discard
