"""The engine's reading where the rulebook can be read two ways: one scenario per ruling of docs/emerald-rulings.md."""

from __future__ import annotations

from typing import Any

from pbem.games.emerald import RULES
from tests.emerald.harness import Game, give, put, set_state, slot, start_card, started

SHERLOCK, VAMPIRES, CTHULHU, IRENE, HIRED_ASSASSIN = 23, 62, 31, 8, 39
LEOPOLD, TERRORS, OKHRANA, YOG, ZOMBIES = 56, 63, 52, 58, 61
SPINNER = 169   # The Spinner in the Darkness, the Royalty card of Paris


def _played_to(events: list, card: int) -> str:  # type: ignore[type-arg]
    return next(e.payload["to"] for e in events if e.type == "emerald.CardsPlayed" and card in e.payload["cards"])


def lines(events: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type.split(".", 1)[1], dict(e.payload)) for e in events]


IDENTITY = {"action_card_with_points": "identity"}   # ruling 1, the other reading


def _zombies_in_rome(options: dict[str, Any] | None = None) -> Game:
    """Turn 1: Ann (Zombies and a starting card in hand, nothing else left in her deck) plays Zombies with no zombie
    on the board, places both in Rome, where Bob has an agent, and discards; she draws back what her discard pile
    gives. Bob and Cat pass their turns."""
    g = started(die="blank", options=options)
    put(g, "rome", 1, agents=1)
    put(g, "paris", 1, agents=1)
    give(g, 0, ZOMBIES, start_card(0, "S001"))
    events = g.do("play Zombies")
    assert lines(events)[:2] == [("CardsPlayed", {"seat": 0, "cards": [ZOMBIES], "to": _zombies_go(options),
                                                  "use": "text"}),
                                 ("StepSet", {"seat": 0, "step": {"step": "zombie_place", "left": 2}})]
    g.do("place zombie in Rome")
    g.do("place zombie in Rome")
    g.do("discard 201")
    for _ in range(4):
        g.do("pass")
    assert g.state.active == 0 and g.state.turn == 4
    return g


def _zombies_go(options: dict[str, Any] | None) -> str:
    return "kept" if options == IDENTITY else "discard"


def test_1_an_action_card_with_points_goes_back_to_the_discard_pile_so_zombies_can_remove_agents() -> None:
    """*Action: Card Action*: "If the card is just marked 'Action' then you place it on your discard pile after use."
    Zombies: "You first MAY remove ONE agent of your choice from each City space that you have one or more zombies
    in." Played again, the card's first half applies."""
    g = _zombies_in_rome()
    assert g.state.players[0].hand == (ZOMBIES, 201)
    events = g.do("play Zombies")
    assert lines(events) == [
        ("CardsPlayed", {"seat": 0, "cards": [ZOMBIES], "to": "discard", "use": "text"}),
        ("StepSet", {"seat": 0, "step": {"step": "zombie_remove", "cities": ["rome"]}})]
    assert lines(g.do("kill agent of bob in Rome with zombies")) == [
        ("InterruptOffered", {"seat": 1, "effect": {"type": "zombie", "seat": 0, "city": "rome", "victim": 1},
                              "cont": {"then": "zombies", "cities": []}})]
    events = g.do("decline", seat=1)
    assert lines(events)[2:] == [
        ("AgentRemoved", {"seat": 1, "city": "rome", "to": "stock", "by": 0}),
        ("StepSet", {"seat": 0, "step": {"step": "zombie_place", "left": 2}})]
    seen = RULES.view(g.state, None)
    assert [(c["id"], c["agents"], c["zombies"]) for c in seen["cities"] if any(c["agents"] + c["zombies"])] == \
        [("paris", [0, 1, 0], [0, 0, 0]), ("rome", [0, 0, 0], [2, 0, 0])]
    assert seen["zombie_supply"] == 4 and seen["players"][0]["vp"] == 0     # its points count when claimed


def test_1_zombies_places_again_the_zombies_cthulhu_removed() -> None:
    """Cthulhu: "If a player has the Zombie card he can still use it to place Zombie pieces that have been removed
    from the board." Ann's zombies go back to the supply; her Zombie card, back in her hand, places them again."""
    g = started(die="blank")
    put(g, "rome", 0, zombies=2)
    put(g, "rome", 1, agents=1)
    put(g, "paris", 1, agents=1)
    give(g, 2, CTHULHU)
    give(g, 0, ZOMBIES, where="discard")
    set_state(g, active=2)
    g.do("play Cthulhu: Rome")
    g.do("decline", seat=1)
    assert g.state.city("rome").zombies == (0, 0, 0) and g.state.zombie_supply == 6
    give(g, 0, ZOMBIES)
    set_state(g, active=0, actions_done=0)
    events = g.do("play Zombies")
    assert lines(events)[1] == ("StepSet", {"seat": 0, "step": {"step": "zombie_place", "left": 2}})


def test_1_the_other_reading_keeps_an_action_card_with_points_beside_the_identity_card_for_good() -> None:
    """*Action: Card Action*, read the other way: "If the card gained you victory points in any manner, either when you
    claimed it or because you have just played it, then you place it near your Secret Identity card." (option
    ``action_card_with_points = "identity"``, and every game recorded before the option)."""
    g = _zombies_in_rome(IDENTITY)
    assert g.state.players[0].hand == (201,) and g.state.players[0].kept == (ZOMBIES,)
    assert not [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "play"]
    give(g, 0, LEOPOLD, TERRORS)
    put(g, "rome", 2, cubes=1)
    assert _played_to(g.do("play Society of Leopold"), LEOPOLD) == "kept"          # Action, scored VP
    assert _played_to(g.do("play Terrors of the Night: bob"), TERRORS) == "kept"   # Action, scored VP


def test_1_one_use_cards_with_points_go_beside_the_identity_card_under_both_readings() -> None:
    """*A Short Interlude About Cards*: "Any one-use card that scores you victory points in any manner should be placed
    close to your Secret Identity card after playing"."""
    for options in (None, IDENTITY):
        g = started(options=options)
        put(g, "paris", 0, agents=1)
        put(g, "paris", 1, agents=1)
        put(g, "madrid", 1, agents=1)
        give(g, 0, VAMPIRES, CTHULHU)
        g.do("play Vampires: agent of bob in Paris")
        g.do("decline", seat=1)
        assert g.state.players[0].kept == (VAMPIRES,)
        assert _played_to(g.do("play Cthulhu: Rome"), CTHULHU) == "kept"


def test_1_vampires_as_an_interrupt_goes_to_the_discard_pile_and_under_the_other_reading_beside_the_identity_card(
) -> None:
    """Vampires: "You can use it as a one-use action ... The second use is to play the card as an interrupt": the
    interrupt is not the one-use action, so the card goes back to the discard pile, like Sherlock Holmes."""
    for options, to in ((None, "discard"), (IDENTITY, "kept")):
        g = _assassination((VAMPIRES,), options)
        events = g.do("use Vampires", seat=1)
        assert ("CardsPlayed", {"seat": 1, "cards": [VAMPIRES], "to": to, "use": "interrupt"}) in lines(events)
        assert g.state.city("paris").agents[1] == 1


def test_1_a_scoring_card_played_for_its_symbols_and_an_action_card_without_points_go_to_the_discard_pile() -> None:
    for options in (None, IDENTITY):
        g = started(options=options)
        give(g, 0, OKHRANA, LEOPOLD)
        put(g, "rome", 1, cubes=1)
        put(g, "paris", 0, cubes=1, agents=1)
        assert _played_to(g.do("claim Paris using 56"), LEOPOLD) == "discard"        # its claim symbol, not its text
        assert _played_to(g.do("play Okhrana: cube of bob in Rome"), OKHRANA) == "discard"


def _cthulhu_on_paris(options: dict[str, Any] | None = None) -> tuple[Game, list[Any], tuple[int, ...]]:
    """Ann plays Cthulhu on Paris, where only she has an agent and The Spinner in the Darkness lies in the Royalty
    slot beside a Game Card space of three cards."""
    g = started(options=options)
    slot(g, "paris", SPINNER)
    put(g, "paris", 0, agents=1)
    put(g, "rome", 0, agents=1)
    give(g, 0, CTHULHU)
    stack = g.state.city("paris").stack
    return g, g.do("play Cthulhu: Paris"), stack


def test_2_cthulhu_leaves_the_royalty_card_in_the_royalty_slot() -> None:
    """Cthulhu, in *Detailed Card Descriptions*: "You then remove all cards from that city's Game Card space."
    (option ``cthulhu_takes_royalty = false``, the default, and every game recorded before the option)."""
    g, events, stack = _cthulhu_on_paris()
    assert lines(events) == [("CardsPlayed", {"seat": 0, "cards": [CTHULHU], "to": "kept", "use": "text"})] + [
        ("CardRemoved", {"card": card, "from": "stack", "city": "paris", "why": "cthulhu"}) for card in stack] + [
        ("AgentRemoved", {"seat": 0, "city": "paris", "to": "stock", "count": 1, "by": 0}),
        ("ActionCompleted", {"seat": 0, "number": 1})]
    paris = RULES.view(g.state, None)["cities"][5]
    assert (paris["id"], paris["cards_left"], paris["top"], paris["royalty"]["id"]) == ("paris", 0, None, SPINNER)
    assert SPINNER not in g.state.removed
    put(g, "paris", 2, cubes=1, agents=5)          # still a target: Cat may assassinate it next
    give(g, 2, HIRED_ASSASSIN)
    set_state(g, active=2, actions_done=0)
    assert {"kind": "assassinate", "city": "paris", "target": "royalty", "card": HIRED_ASSASSIN, "bombs": []} in \
        RULES.legal_actions(g.state, 2)


def test_2_the_other_reading_cthulhu_removes_the_royalty_card_too() -> None:
    """Cthulhu's card: "Remove all cards, agents and zombies from one city." (option ``cthulhu_takes_royalty =
    true``): the Royalty card leaves the game with the others, and nobody scores it."""
    g, events, stack = _cthulhu_on_paris({"cthulhu_takes_royalty": True})
    assert lines(events)[1:len(stack) + 2] == [
        ("CardRemoved", {"card": card, "from": "stack", "city": "paris", "why": "cthulhu"}) for card in stack] + [
        ("CardRemoved", {"card": SPINNER, "from": "royalty", "city": "paris", "why": "cthulhu"})]
    assert "The Spinner in the Darkness" in RULES.describe(events[len(stack) + 1], None)
    seen = RULES.view(g.state, None)
    assert seen["cities"][5]["royalty"] is None and seen["removed"][-1]["id"] == SPINNER
    assert [p["vp"] for p in seen["players"]] == [0, 0, 0]


def test_3_sherlock_holmes_may_answer_irene_adler_and_vampires_may_not() -> None:
    """Sherlock Holmes' card: "INTERRUPT: Negate any action that would eliminate one of your agents." (option
    ``sherlock_stops_replacement = true``, the default, and every game recorded before the option)."""
    g = started()
    put(g, "paris", 1, agents=1)
    give(g, 1, SHERLOCK, VAMPIRES)
    give(g, 0, IRENE)
    g.do("play Irene Adler: agent of bob in Paris")
    assert RULES.legal_actions(g.state, 1) == [{"kind": "interrupt", "card": SHERLOCK}, {"kind": "decline"}]
    g.do("use Sherlock Holmes", seat=1)
    assert g.state.city("paris").agents == (0, 1, 0) and IRENE in g.state.removed


def test_3_the_other_reading_nobody_is_asked_and_the_agent_is_replaced() -> None:
    """Sherlock Holmes: "This card is effective against assassinations, Shoggoth, vampires, zombies, and Cthulhu."
    (option ``sherlock_stops_replacement = false``): a replaced agent is not eliminated, so no card can stop Irene
    Adler, and nobody is asked, whatever they hold; Sherlock Holmes still stops an assassination."""
    options = {"sherlock_stops_replacement": False}
    g = started(options=options)
    put(g, "paris", 1, agents=1)
    put(g, "rome", 1, agents=1)
    give(g, 1, SHERLOCK)
    give(g, 0, IRENE)
    events = g.do("play Irene Adler: agent of bob in Paris")
    assert lines(events) == [
        ("CardsPlayed", {"seat": 0, "cards": [IRENE], "to": "removed", "use": "text"}),
        ("AgentRemoved", {"seat": 1, "city": "paris", "to": "stock", "by": 0}),
        ("AgentPlaced", {"seat": 0, "city": "paris", "why": "replace"}),
        ("ActionCompleted", {"seat": 0, "number": 1})]
    assert list(RULES.prompts(g.state)) == [0] and g.state.players[1].hand == (SHERLOCK,)
    assert [c["agents"] for c in RULES.view(g.state, None)["cities"] if c["id"] == "paris"] == [[1, 0, 0]]
    g = _assassination((SHERLOCK,), options)
    assert RULES.legal_actions(g.state, 1) == [{"kind": "interrupt", "card": SHERLOCK}, {"kind": "decline"}]


def _assassination(victim_hand: tuple[int, ...], options: dict[str, Any] | None = None) -> Game:
    g = started(die="blank", options=options)
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


def test_4_the_other_reading_an_agent_assassination_leaves_the_cubes() -> None:
    """*Perform Assassination*, read with its last paragraph as the royalty case's alone (option
    ``agent_assassination_clears_cubes = false``): the agent goes, the cubes stay; royalty still clears them."""
    options = {"agent_assassination_clears_cubes": False}
    g = _assassination((), options)
    events = g.do("decline", seat=1)
    assert lines(events) == [
        ("InterruptAnswered", {"seat": 1, "used": False, "card": None, "effect": "assassinate"}),
        ("InterruptClosed", {"seat": 1}),
        ("AgentRemoved", {"seat": 1, "city": "paris", "to": "trophy", "by": 0}),
        ("CardsPlayed", {"seat": 0, "cards": [HIRED_ASSASSIN], "to": "kept", "use": "assassinate"}),
        ("KillScored", {"seat": 0, "victim": 1, "card": HIRED_ASSASSIN, "amount": 3, "type": "neutral"}),
        ("ActionCompleted", {"seat": 0, "number": 1})]
    assert g.state.city("paris").cubes == (2, 1, 1) and g.state.players[0].limbo == 5
    assert [c["cubes"] for c in RULES.view(g.state, None)["cities"] if c["id"] == "paris"] == [[2, 1, 1]]
    royal = started(die="blank", options=options)
    slot(royal, "paris", SPINNER)
    put(royal, "paris", 0, cubes=1, agents=5)
    put(royal, "paris", 1, cubes=1)
    give(royal, 0, HIRED_ASSASSIN)
    events = royal.do("assassinate royalty in Paris with 39")
    assert ("CubesCleared", {"city": "paris", "seat": 0}) in lines(events)
    assert royal.state.city("paris").cubes == (0, 0, 0)


def test_4_a_stopped_assassination_leaves_the_cubes() -> None:
    g = _assassination((SHERLOCK,))
    events = g.do("use Sherlock Holmes", seat=1)
    assert "CubesCleared" not in g.types(events)
    assert g.state.city("paris").cubes == (2, 1, 1) and HIRED_ASSASSIN in g.state.removed


def test_5_cthulhu_shows_the_face_down_cards_it_removes() -> None:
    """Cthulhu: "You then remove all cards from that city's Game Card space." (option ``cthulhu_shows_cards =
    true``, the default, and every game recorded before the option)."""
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


def test_5_the_other_reading_the_face_down_cards_leave_unseen_into_the_box() -> None:
    """Setting up: "These cards should be placed face-down." (option ``cthulhu_shows_cards = false``): only the
    face-up card is shown; the others leave the game unseen, kept with the boxed cards, which every reader sees when
    the game ends; the public log says how many."""
    g = started(options={"cthulhu_shows_cards": False})
    put(g, "paris", 0, agents=1)
    put(g, "rome", 0, agents=1)
    give(g, 0, CTHULHU)
    stack = g.state.city("paris").stack
    boxed = g.state.boxed
    events = g.do("play Cthulhu: Paris")
    assert lines(events) == [
        ("CardsPlayed", {"seat": 0, "cards": [CTHULHU], "to": "kept", "use": "text"}),
        ("CardRemoved", {"card": stack[0], "from": "stack", "city": "paris", "why": "cthulhu"}),
        ("CardsRemovedUnseen", {"city": "paris", "cards": list(stack[1:])}),
        ("CardsRemovedUnseenCount", {"city": "paris", "count": len(stack) - 1, "why": "cthulhu"}),
        ("AgentRemoved", {"seat": 0, "city": "paris", "to": "stock", "count": 1, "by": 0}),
        ("ActionCompleted", {"seat": 0, "number": 1})]
    assert [e.visibility.kind for e in events[1:4]] == ["public", "server", "public"]
    assert [e.reveals for e in events[1:4]] == [False, False, False]
    assert RULES.describe(events[3], None) == f"{len(stack) - 1} face-down cards of Paris leave the game unseen."
    assert RULES.repeats(events[2], None) and not RULES.repeats(events[3], None)
    for seat in (None, 0, 1, 2):
        seen = RULES.view(g.state, seat)
        assert [c["id"] for c in seen["removed"]] == [stack[0]] and "boxed" not in seen
    assert g.state.city("paris").stack == () and g.state.boxed == boxed + stack[1:]
    set_state(g, phase="over")
    assert [c["id"] for c in RULES.view(g.state, None)["boxed"]][-len(stack) + 1:] == list(stack[1:])


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
