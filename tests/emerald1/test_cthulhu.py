"""Cthulhu, revision 2: the cards it takes are replaced, and a player it drives mad still plays it
(docs/emerald1-rulings.md, 43 and 44).

Rulebook (Cthulhu): "All agents in the city are permanently removed from the game, which means the counters are
removed from the board and the corresponding cards need to be found and removed from the game. ... Any Control
disc in the city is returned to the owning player, who then reduces his victory point total. The City card must
be found and removed from the game. ... All of the other players must draw one Sanity counter. Note that you still
play the card even if you go mad and die as a result of the Sanity counter you drew when you claimed it."
Playing the game: "If at any time during the game you are forced to lose a card from your hand, draw a
replacement card immediately." Claim one card: "If the player had to retrieve the card from his draw deck then he
shuffles his deck."
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1 import RULES
from tests.emerald1.harness import Game
from tests.emerald1.position import R, agent, arrange, cubes, display, hand, kinds, payloads, sanity, side, started

ROME_CARD = 69


def rome_with_blue_and_green_agents(**options: Any) -> Game:
    """Seat 1 (Blue) has Johann Most's and Prince Kropotkin's counters in Rome and their cards in hand; seat 2
    (Green) has Ravachol's counter there and his card in hand, and controls Rome, whose City card is in Green's
    deck. Seat 0 has a cube on Cthulhu, on display."""
    game = started(cities=["cairo", "cairo", "cairo"], **options)
    s = arrange(game)
    for card, seat in ((7, 1), (13, 1), (15, 2)):
        agent(s, card, seat, "rome")
    hand(s, 1, [7, 13, 201, 202, 203])
    hand(s, 2, [15, 301, 302, 303, 304])
    s.players[2].deck.append(ROME_CARD)
    s.owner["rome"] = 2
    sanity(s, "sane", "sane", "sane")
    cthulhu = display(s, "cthulhu")
    cubes(s, f"card:{cthulhu}", 0, 1)
    game.act(0, {"kind": "claim", "target": f"card:{cthulhu}"})
    return game


def test_the_cards_cthulhu_takes_from_a_hand_are_replaced_at_once() -> None:
    game = rome_with_blue_and_green_agents()
    blue_deck, green_deck = list(game.state.players[1].deck), list(game.state.players[2].deck)
    events = game.act(0, {"kind": "destroy", "city": "rome"})
    lost = [(e.type.split(".")[1], dict(e.payload)) for e in events
            if e.type.split(".")[1] in ("CardGone", "CardsDrawn", "CardsDrawnCount", "DeckShuffled")
            and e.payload.get("seat", e.payload.get("from_seat")) in (1, 2)]
    green_order = next(e.payload["order"] for e in events if e.type == "emerald1.DeckShuffled")
    assert lost == [                                      # the agents in the order of their keys: 13, 15, 7
        ("CardGone", {"card": 13, "from_seat": 1, "why": "Cthulhu"}),
        ("CardsDrawn", {"seat": 1, "cards": blue_deck[:1]}),
        ("CardsDrawnCount", {"seat": 1, "count": 1}),
        ("CardGone", {"card": 15, "from_seat": 2, "why": "Cthulhu"}),
        ("CardsDrawn", {"seat": 2, "cards": green_deck[:1]}),
        ("CardsDrawnCount", {"seat": 2, "count": 1}),
        ("CardGone", {"card": 7, "from_seat": 1, "why": "Cthulhu"}),
        ("CardsDrawn", {"seat": 1, "cards": blue_deck[1:2]}),
        ("CardsDrawnCount", {"seat": 1, "count": 1}),
        ("CardGone", {"card": ROME_CARD, "from_seat": 2, "why": "Cthulhu"}),   # found in the deck: shuffled
        ("DeckShuffled", {"seat": 2, "order": green_order}),
    ]
    assert sorted(green_order) == sorted(c for c in green_deck[1:] if c != ROME_CARD)
    drawn = [e for e in events if e.type == "emerald1.CardsDrawn"]
    assert [e.visibility.seats for e in drawn] == [(1,), (2,), (1,)]
    st = game.state
    assert [len(p.hand) for p in st.players] == [5, 5, 5]
    assert [p["hand_size"] for p in RULES.view(st, None)["players"]] == [5, 5, 5]
    assert [c["number"] for c in RULES.view(st, 1)["you"]["hand"]] == [201, 202, 203, *blue_deck[:2]]
    assert all(c in st.removed for c in (7, 13, 15, ROME_CARD))


def test_a_game_recorded_before_revision_two_leaves_the_hands_short() -> None:
    game = rome_with_blue_and_green_agents(recorded={})
    events = game.act(0, {"kind": "destroy", "city": "rome"})
    assert not payloads(events, "CardsDrawn") and not payloads(events, "DeckShuffled")
    assert [len(p.hand) for p in game.state.players] == [5, 3, 4]


def restorationist_with_two_mad_counters(**options: Any) -> tuple[Game, int]:
    """Seat 0, a Restorationist with two Mad counters, has a cube on Cthulhu; the next Sanity counter is Mad. Seat
    1's Main Agent is in Rome, seat 2's in Cairo."""
    game = started(cities=["cairo", "rome", "cairo"], **options)
    s = arrange(game)
    side(s, 0, R)
    s.players[0].mad = 2
    sanity(s, "mad", "sane", "sane")
    cthulhu = display(s, "cthulhu")
    cubes(s, f"card:{cthulhu}", 0, 1)
    return game, cthulhu


def test_a_restorationist_cthulhu_drives_mad_still_destroys_a_city_and_then_the_game_ends() -> None:
    game, cthulhu = restorationist_with_two_mad_counters()
    events = game.act(0, {"kind": "claim", "target": f"card:{cthulhu}"})
    assert [(e.type.split(".")[1], e.payload) for e in events] == [
        ("CardClaimed", {"seat": 0, "card": cthulhu}),
        ("CubesCleared", {"place": f"card:{cthulhu}", "claimer": 0}),
        ("SanityDrawn", {"seat": 0, "result": "mad", "why": "Cthulhu"}),
        ("IdentityRevealed", {"seat": 0, "identity": R, "side": R, "why": "sanity"}),
        ("AgentLost", {"agent": "m0", "why": "sanity", "to": "gone"}),   # the claimer dies ...
        ("StepSet", {"step": {"step": "cthulhu", "then_end": "restorationist_mad"}}),  # ... and plays the card
    ]
    assert game.state.phase == "play" and RULES.prompts(game.state)[0].text == "Cthulhu: choose the city to destroy."
    assert RULES.view(game.state, None)["players"][0]["main_agent_dead"] is True
    events = game.act(0, {"kind": "destroy", "city": "rome"})
    assert kinds(events)[0] == "CityDestroyed" and "GameEnded" not in kinds(events)
    assert [p["seat"] for p in payloads(events, "SanityDrawn")] == [1, 2]
    window = payloads(events, "WindowSet")[-1]["window"]
    assert window["effect"]["then_end"] == "restorationist_mad" and window["asking"] == [1]
    events = game.act(1, {"kind": "relocate", "agent": "m1", "to": "madrid"})
    assert kinds(events) == ["WindowSet", "AgentMoved", "GameEnded"]
    st = game.state
    assert st.phase == "over" and st.end_reason == "restorationist_mad" and "rome" in st.destroyed
    assert st.agents["m1"]["city"] == "madrid"
    assert RULES.view(st, None)["end_reason"] == "restorationist_mad"


def test_a_game_recorded_before_revision_two_ends_before_any_city_is_destroyed() -> None:
    game, cthulhu = restorationist_with_two_mad_counters(recorded={})
    events = game.act(0, {"kind": "claim", "target": f"card:{cthulhu}"})
    assert kinds(events)[-2:] == ["AgentLost", "GameEnded"] and not game.state.destroyed
    assert game.state.end_reason == "restorationist_mad"
