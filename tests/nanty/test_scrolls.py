"""One scenario per scroll text of the deck, and the two loan cards at the end of the game."""

from __future__ import annotations

from pbem.games.nanty import RULES
from pbem.games.nanty.data import catalog, load_data
from pbem.games.nanty.scoring import points
from tests.nanty.harness import Game, position, run, said

CAT = catalog(load_data(None))


def scroll_card(effect: str, amount: int | None = None) -> int:
    return next(c.id for c in CAT.cards.values() if c.scroll == effect and (amount is None or c.amount == amount))


def to_scroll(g: Game, card: int) -> None:
    """Play the card and skip its symbols up to the scroll."""
    run(g, f"play {card}")
    while g.state.pend()["card"] is not None and CAT.cards[card].symbols[g.state.pend()["i"]] != "scroll":
        run(g, "skip")


def test_the_loan_cards_lend_10_and_stay_in_front_of_their_player() -> None:
    loans = sorted(c.name for c in CAT.cards.values() if c.scroll == "loan")
    assert loans == ["City & Suburban Bank", "Mr Merryweather"]
    merry = next(c.id for c in CAT.cards.values() if c.name == "Mr Merryweather")
    g = position(hands={0: [merry]})
    to_scroll(g, merry)
    assert said(run(g, "scroll")) == [f"seat 0 takes out a loan with Mr Merryweather ({merry:03d}).",
                                      "The bank pays seat 0 £10 (a loan)."]
    assert g.state.players[0].loans == (merry,) and merry not in g.state.discard
    assert RULES.view(g.state, 1)["players"][0]["loans"][0]["name"] == "Mr Merryweather"
    assert points(g.state, 0)["loans_repaid"] == 12 and points(g.state, 0)["money"] == 8
    poor = g.state.with_player(0, money=11)
    assert points(poor, 0)["loan_penalty"] == -15 and points(poor, 0)["total"] == 11 - 15


def test_draw_levy_and_income_scrolls() -> None:
    draw2 = scroll_card("draw", 2)
    g = position(hands={0: [draw2]})
    to_scroll(g, draw2)
    run(g, "scroll")
    assert len(g.state.players[0].hand) == 2
    levy = scroll_card("levy_all", 2)
    g = position(hands={0: [levy]}, money={0: 0, 1: 5, 2: 1})
    to_scroll(g, levy)
    assert said(run(g, "scroll"))[:2] == ["seat 1 pays seat 0 £2 (a scroll).", "seat 2 pays seat 0 £1 (a scroll)."]
    one = scroll_card("levy_one")
    g = position(hands={0: [one]}, money={1: 0, 2: 7})
    to_scroll(g, one)
    assert [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "scroll"] == [{"kind": "scroll", "player": 2}]
    run(g, "scroll cat")
    assert g.state.players[2].money == 4 and g.state.players[0].money == 13
    for effect, spots, gained in (("per_trouble", {"city": {"trouble": True, "agents": {1: 2}}, "strand": {"trouble": True}}, 2),
                                  ("per_building", {"city": {"building": 0}, "strand": {"building": 0}}, 4),
                                  ("per_area", {"city": {"agents": {0: 2}}, "strand": {"agents": {0: 1}}}, 2)):
        c = scroll_card(effect)
        g = position(hands={0: [c]}, spots=spots)
        to_scroll(g, c)
        before = g.state.players[0].money
        run(g, "scroll")
        assert g.state.players[0].money - before == gained, effect


def test_moving_and_removing_agents_of_others_opens_the_interrupt_window() -> None:
    move = scroll_card("move_other")
    g = position(hands={0: [move]}, spots={"city": {"agents": {1: 1}}})
    to_scroll(g, move)
    run(g, "scroll bob from City to Holborn")
    assert RULES.prompts(g.state)[1].topic == "nanty.interrupt"
    assert said(run(g, "decline"))[:2] == ["seat 1 lets it happen.", "An agent of seat 1 moves from City to Holborn."]
    remove = scroll_card("remove_agent")
    g = position(hands={0: [remove]}, spots={"city": {"agents": {0: 1, 1: 1}, "trouble": True}})
    to_scroll(g, remove)
    run(g, "scroll bob in City")
    assert said(run(g, "decline"))[1:3] == ["An agent of seat 1 in City is removed by a card.", "The trouble in City is over."]


def test_own_moves_and_trouble_scrolls() -> None:
    own = scroll_card("move_own")
    g = position(hands={0: [own]}, spots={"city": {"agents": {0: 1}}, "strand": {"agents": {2: 1}}})
    to_scroll(g, own)
    assert said(run(g, "scroll from City to Strand")) == ["An agent of seat 0 moves from City to Strand.",
                                                          "Trouble breaks out in Strand."]
    put = scroll_card("place_trouble")
    g = position(hands={0: [put]}, spots={"lambeth": {"citizens": 1}})
    to_scroll(g, put)
    assert [a["area"] for a in RULES.legal_actions(g.state, 0) if a["kind"] == "scroll"] == ["lambeth"]
    run(g, "scroll in Lambeth")
    assert g.state.spot("lambeth").trouble
    calm = scroll_card("calm")
    g = position(hands={0: [calm]}, spots={"city": {"agents": {0: 1, 1: 1}, "trouble": True},
                                           "strand": {"agents": {1: 2}, "trouble": True}})
    to_scroll(g, calm)
    run(g, "scroll")
    assert not g.state.spot("city").trouble and g.state.spot("strand").trouble
