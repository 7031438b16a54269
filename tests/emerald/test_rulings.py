"""The engine's reading where the rulebook can be read two ways: one scenario per ruling of docs/emerald-rulings.md."""

from __future__ import annotations

from pbem.games.emerald import RULES
from tests.emerald.harness import give, put, slot, start_card, started

SHERLOCK, VAMPIRES, CTHULHU, IRENE, HIRED_ASSASSIN = 23, 62, 31, 8, 39
LEOPOLD, TERRORS, OKHRANA, YOG = 56, 63, 52, 58


def _played_to(events: list, card: int) -> str:  # type: ignore[type-arg]
    return next(e.payload["to"] for e in events if e.type == "emerald.CardsPlayed" and card in e.payload["cards"])


def test_1_an_action_card_that_scored_goes_beside_the_identity_card_when_its_text_is_used() -> None:
    g = started(die="blank")
    give(g, 0, LEOPOLD, TERRORS, OKHRANA)
    put(g, "rome", 1, cubes=1)
    assert _played_to(g.do("play Society of Leopold"), LEOPOLD) == "kept"          # Action, scored VP
    assert _played_to(g.do("play Terrors of the Night: bob"), TERRORS) == "kept"   # Action, scored VP
    p = g.state.players[0]
    assert {LEOPOLD, TERRORS} <= set(p.kept) and LEOPOLD not in p.discard


def test_1_an_action_card_without_points_and_a_scoring_card_played_for_its_symbols_go_to_the_discard_pile() -> None:
    g = started()
    give(g, 0, OKHRANA, LEOPOLD)
    put(g, "rome", 1, cubes=1)
    put(g, "paris", 0, cubes=1, agents=1)
    assert _played_to(g.do("claim Paris using 56"), LEOPOLD) == "discard"         # its claim symbol, not its text
    assert _played_to(g.do("play Okhrana: cube of bob in Rome"), OKHRANA) == "discard"


def test_2_cthulhu_leaves_the_royalty_card_in_the_royalty_slot() -> None:
    g = started()
    slot(g, "paris", 169)
    put(g, "paris", 0, agents=1)
    give(g, 0, CTHULHU)
    g.do("play Cthulhu: Paris")
    c = g.state.city("paris")
    assert c.stack == () and c.royalty == 169 and 169 not in g.state.removed


def test_3_sherlock_holmes_may_answer_irene_adler_and_vampires_may_not() -> None:
    g = started()
    put(g, "paris", 1, agents=1)
    give(g, 1, SHERLOCK, VAMPIRES)
    give(g, 0, IRENE)
    g.do("play Irene Adler: agent of bob in Paris")
    assert RULES.legal_actions(g.state, 1) == [{"kind": "interrupt", "card": SHERLOCK}, {"kind": "decline"}]
    g.do("use Sherlock Holmes", seat=1)
    assert g.state.city("paris").agents == (0, 1, 0) and IRENE in g.state.removed


def _assassination(victim_hand: tuple[int, ...]):  # type: ignore[no-untyped-def]
    g = started(die="blank")
    put(g, "paris", 0, cubes=2, agents=4)
    put(g, "paris", 1, cubes=1, agents=1)
    put(g, "paris", 2, cubes=1)
    put(g, "rome", 1, agents=1)
    give(g, 0, HIRED_ASSASSIN)
    give(g, 1, *victim_hand)
    give(g, 1, start_card(1, "S001"), where="deck")
    g.do("assassinate agent of bob in Paris with 39")
    return g


def test_4_an_agent_assassination_clears_the_cubes_of_the_city() -> None:
    g = _assassination(())
    events = g.do("decline", seat=1)
    assert "CubesCleared" in g.types(events)
    s = g.state
    assert s.city("paris").cubes == (0, 0, 0) and s.players[0].limbo == 7          # ann's two to Limbo
    assert s.players[1].stock_cubes == 5 and s.players[2].stock_cubes == 5         # the others' to their stock


def test_4_a_stopped_assassination_leaves_the_cubes() -> None:
    g = _assassination((SHERLOCK,))
    events = g.do("use Sherlock Holmes", seat=1)
    assert "CubesCleared" not in g.types(events)
    assert g.state.city("paris").cubes == (2, 1, 1) and HIRED_ASSASSIN in g.state.removed


def test_5_cthulhu_shows_the_face_down_cards_it_removes() -> None:
    g = started()
    put(g, "paris", 0, agents=1)
    give(g, 0, CTHULHU)
    stack = g.state.city("paris").stack
    assert len(stack) > 1
    events = g.do("play Cthulhu: Paris")
    removed = [e for e in events if e.type == "emerald.CardRemoved"]
    assert [e.payload["card"] for e in removed] == list(stack)
    assert all(e.visibility.kind == "public" for e in removed)
    assert [e.reveals for e in removed] == [False] + [True] * (len(stack) - 1)     # the top one was face up
    assert all(g.state.cat.cards[e.payload["card"]].name in RULES.describe(e, None) for e in removed)
    assert set(stack) <= {c["id"] for c in RULES.view(g.state, None)["removed"]}


def test_6_every_targeted_player_is_asked_and_the_outcome_is_the_rulebooks() -> None:
    plain = _assassination((start_card(1, "S004"),))
    holder = _assassination((SHERLOCK,))
    for g in (plain, holder):
        assert list(RULES.prompts(g.state)) == [1]
    assert RULES.prompts(plain.state)[1].text == RULES.prompts(holder.state)[1].text
    plain.do("decline", seat=1)
    holder.do("use Sherlock Holmes", seat=1)
    assert plain.state.city("paris").agents[1] == 0          # nothing could stop it
    assert holder.state.city("paris").agents[1] == 1         # Sherlock Holmes stopped it, as in the rulebook


def test_7_yog_sothoth_ends_with_the_reveal() -> None:
    g = started()
    put(g, "paris", 0, agents=1)
    g.state = g.state.with_player(0, identity="loyalist")
    give(g, 0, YOG)
    g.do("play Yog-Sothoth")
    g.do("take agent from Paris")
    for _ in range(3):
        g.do("place agent in Rome", seat=0)
    assert g.state.pend() == {} and g.state.players[0].yog == 1 and g.state.city("rome").agents[0] == 3
    assert not [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "yog_take"]
