"""What each reader's view holds, exactly: the public board and purses for all, a hand and a personality for
their owner only, everything once the game is over."""

from __future__ import annotations

from typing import Any

from events.envelope import Event, Visibility
from pbem.games.nanty import RULES
from tests.nanty.harness import card, position, run

AGENT_MONEY = card(["agent", "money:2"])
BUILDER = card(["building", "again"])


def test_the_views_after_a_building_goes_up() -> None:
    g = position(2, hands={0: [BUILDER], 1: [AGENT_MONEY]}, money={0: 12, 1: 3},
                 spots={"west_end": {"agents": {0: 1, 1: 1}}}, personalities={0: "holdhurst", 1: "fagin"})
    run(g, f"play {BUILDER}")
    run(g, "build West End")
    spectator = RULES.view(g.state, None)
    west_end = next(a for a in spectator["areas"] if a["id"] == "west_end")
    assert {k: west_end[k] for k in ("agents", "building", "trouble", "grenadiers", "citizens", "cost", "die",
                                     "card", "river", "disabled", "power_works")} == {
        "agents": [1, 1], "building": 0, "trouble": False, "grenadiers": 0, "citizens": 0, "cost": 12, "die": 3,
        "card": 116, "river": False, "disabled": False, "power_works": True}
    assert spectator["players"][0] == {"seat": 0, "name": "ann", "money": 0, "hand_size": 0, "agents_on_board": 1,
                                       "agents_in_stock": 11, "buildings_in_stock": 5, "area_cards": ["west_end"],
                                       "loans": []}
    assert spectator["bank"] == 120 - 3 and "you" not in spectator and "prompt" not in spectator
    ann = RULES.view(g.state, 0)
    assert ann["you"]["hand"] == [] and ann["prompt"]["text"] == "Play another card, or end your turn."
    assert ann["you"]["personality"] == {
        "id": "holdhurst", "name": "Lord Holdhurst", "deck_out": "", "riots_lose": False,
        "goals": [{"measure": "building_value", "target": 54, "now": 12},
                  {"measure": "controlled", "target": 6, "now": 1}]}
    ben = RULES.view(g.state, 1)
    assert [c["number"] for c in ben["you"]["hand"]] == ["001"] and ben["you"]["personality"]["name"] == "Fagin"
    assert "prompt" not in ben and "personality" not in ben["players"][0]


def test_everything_is_shown_once_the_game_is_over() -> None:
    g = position(2, active=1, hands={1: []}, deck=[2, 3], personalities={0: "holdhurst", 1: "fagin"})
    run(g, "end")
    view = RULES.view(g.state, None)
    assert view["phase"] == "over" and view["end_reason"] == "deck_out"
    assert [p["personality"]["name"] for p in view["players"]] == ["Lord Holdhurst", "Fagin"]
    assert [c["number"] for c in view["players"][1]["hand"]] == ["002", "003"]
    assert view["outcome"]["winners"] == [0, 1] and view["outcome"]["scores"] == {"0": 10, "1": 10}
    assert len(view["set_aside"]) == 8


def _told(type_: str, payload: dict[str, Any], visibility: Visibility) -> Event:
    return Event("g", 1, type_, 1, payload, "seat:0", visibility, False, "", {}, "", "")


def test_a_draw_is_read_once_by_each_reader() -> None:
    """The drawer reads the cards and not the count again; everyone else reads the count and not "draws cards"."""
    private = _told("nanty.CardsDrawn", {"seat": 0, "cards": [12, 40]}, Visibility.to(0))
    public = _told("nanty.CardsDrawnCount", {"seat": 0, "count": 2}, Visibility.public())
    assert [RULES.repeats(e, 0) for e in (private, public)] == [False, True]
    assert [RULES.repeats(e, 1) for e in (private, public)] == [True, False]
    assert [RULES.repeats(e, None) for e in (private, public)] == [True, False]
    assert not RULES.repeats(_told("nanty.CardPlayed", {"seat": 0, "card": 12}, Visibility.public()), 1)
