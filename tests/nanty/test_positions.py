"""A game of Nanty Narking begun from a position written in the game's words (docs/nanty-positions.md): the page's
example starts the game it describes, the rarer questions survive the round trip, and a position that is not one is
refused with its field named, writing nothing."""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from events.envelope import Event
from events.handling import Kernel
from events.rng import Rng
from events.rules import GameConfig, InvalidAction, Seat
from events.store import SQLiteEventStore
from pbem.games.nanty import RULES
from pbem.games.nanty.evolve import apply
from pbem.games.nanty.state import State
from tests.nanty.harness import Dice, Game, card, position, run

PAGE = Path(__file__).parents[2] / "docs" / "nanty-positions.md"
NAMES = ("Ann", "Ben", "Cid")


def example() -> dict[str, Any]:
    found = re.search(r"```toml\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert found is not None
    return tomllib.loads(found.group(1))


def config(options: dict[str, Any] | None = None) -> GameConfig:
    return GameConfig(seats=tuple(Seat(i, n) for i, n in enumerate(NAMES)), options=RULES.options(options or {}),
                      data=RULES.load_data(None))


def begin(position: dict[str, Any], options: dict[str, Any] | None = None) -> tuple[State, list[Any]]:
    cfg = config(options)
    state = RULES.initial_state(cfg)
    events = RULES.setup_from(cfg, position, Rng("unused"))
    for event in events:
        state = apply(state, event.type, event.payload)
    return state, events


def test_the_example_of_the_positions_page_starts_the_game_it_describes() -> None:
    state, events = begin(example())
    assert RULES.prompts(state)[1].text == ("Cid is about to remove one of your agents from Strand. "
                                            "Will you stop it with an interrupt card?")
    assert RULES.legal_actions(state, 1) == [{"kind": "decline"}]   # Ben holds no interrupt card
    table = RULES.view(state, None)
    assert (table["turn"], table["active"], table["playing"]["number"], table["symbol"]) == (9, 2, "016", 2)
    assert (table["bank"], table["discard_size"], table["deck_size"], table["events_done"]) == (98, 9, 78,
                                                                                                ["new_citizens"])
    assert [p["money"] for p in table["players"]] == [16, 0, 6]
    strand = next(a for a in table["areas"] if a["name"] == "Strand")
    assert (strand["agents"], strand["trouble"]) == ([0, 1, 1], True)
    ben = RULES.view(state, 1)
    assert [c["number"] for c in ben["you"]["hand"]] == ["024", "044", "018", "017", "013"]
    assert ben["you"]["personality"]["name"] == "Mr Thomas Gradgrind"
    lines = [RULES.describe(Event("g", i, e.type, 1, e.payload, "system", e.visibility, e.reveals, "", {}, "", ""), 1)
             for i, e in enumerate(events, 1)]
    assert lines[-2:] == ["The cards seat 2 holds are seen by seat 2 only.",
                          "The game begins from a position, at turn 9: seat 2 to play; seat 0 holds 5 cards and £16; "
                          "seat 1 holds 5 cards and £0; seat 2 holds 4 cards and £6."]
    assert "seat 1 holds Harold Skimpole (024), Silas Wegg (044), Mr Fezziwig (018), Bob Cratchit (017), " \
           "Abel Magwitch (013)." in lines
    after = state
    for event in RULES.decide(state, 1, {"kind": "decline"}, Rng("x")):
        after = apply(after, event.type, event.payload)
    assert after.spot("strand").agents == (0, 0, 1) and not after.spot("strand").trouble
    assert RULES.legal_actions(after, 2) == [{"kind": "power", "area": "city", "card": c}
                                             for c in (9, 30, 32, 42)] + [{"kind": "end"}]


def test_a_position_of_just_a_turn_and_its_player_starts_that_turn() -> None:
    position = example()
    position["turn"] = {"number": 9, "player": 0}
    state, _ = begin(position)
    view = RULES.view(state, 0)
    assert view["prompt"]["text"] == "Your turn: play a card (area powers may be used at any time in your turn)."
    assert (view["plays_left"], view["played"], view["playing"]) == (1, 0, None)


EVENT = card(["agent", "event"])
WESTMINSTER_DRAW = {"westminster": {"building": 0}}


def holborn() -> Game:
    g = position(hands={0: [EVENT]}, events=["fire"], spots={"holborn": {"building": 1}, "strand": {"building": 1}})
    run(g, f"play {EVENT}")
    run(g, "skip", Dice(4))
    return g


def westminster() -> Game:
    g = position(hands={0: [EVENT, 1]}, spots=WESTMINSTER_DRAW)
    run(g, "power Westminster")
    return g


def subsidence() -> Game:
    g = position(hands={0: [EVENT]}, events=["subsidence"], money={0: 10, 1: 3},
                 spots={"city": {"building": 1}, "strand": {"building": 1}})
    run(g, f"play {EVENT}")
    run(g, "skip")
    return g


def murders_holborn() -> Game:
    g = position(hands={0: [EVENT]}, events=["murders"], spots={"holborn": {"building": 1},
                                                               "city": {"agents": {0: 1, 1: 1}}})
    run(g, f"play {EVENT}")
    run(g, "skip", Dice(6))
    run(g, "murder bob", Dice())
    return g


def flood() -> Game:
    g = position(hands={0: [EVENT]}, events=["flood"], spots={"chelsea": {"agents": {0: 2, 1: 1}}})
    run(g, f"play {EVENT}")
    run(g, "skip", Dice(1, 3))
    return g


def any_time() -> Game:
    sikes, watson = card(["assassinate", "again"]), card(["interrupt", "agent"])
    g = position(hands={0: [sikes], 1: [1], 2: [watson]}, spots={"city": {"agents": {0: 1, 1: 1}, "trouble": True}},
                 options={"interrupts": "any_time"})
    run(g, f"play {sikes:03d}")
    run(g, "assassinate bob in City")
    return g


@pytest.mark.parametrize(("make", "kind"), [(holborn, "holborn"), (westminster, "discard"), (subsidence, "subsidence"),
                                            (murders_holborn, "holborn"), (flood, "flood"), (any_time, "interrupt")])
def test_the_rarer_questions_survive_the_round_trip(make: Callable[[], Game], kind: str) -> None:
    g = make()
    assert g.state.pend()["ask"]["kind"] == kind
    written = tomllib.loads(tomli_w.dumps(dict(RULES.position(g.state))))
    copy_ = RULES.initial_state(g.config)
    for event in RULES.setup_from(g.config, written, Rng("unused")):
        copy_ = apply(copy_, event.type, event.payload)
    for seat in range(g.state.n):
        assert RULES.legal_actions(copy_, seat) == RULES.legal_actions(g.state, seat)
    for reader in (None, *range(g.state.n)):
        assert RULES.view(copy_, reader) == RULES.view(g.state, reader)


def test_the_turn_s_record_reads_in_the_game_s_words() -> None:
    assert RULES.position(murders_holborn().state)["turn"] == {
        "number": 1, "player": 0, "cards_to_play": 0, "cards_played": 1, "powers_used": [], "card": "006",
        "next_symbol": 3,
        "question": {"kind": "Holborn", "player": 1, "area": "City", "agents": 1, "building": 0,
                     "random_event": "Mysterious Murders"},
        "random_event": {"name": "Mysterious Murders", "stage": "kill", "area": "City", "queue": [0, 1, 2],
                         "target": 1}}
    assert RULES.position(any_time().state)["turn"]["question"] == {
        "kind": "interrupt", "player": 1, "effect": {"what": "assassinate", "by": 0, "victim": 1, "area": "City"},
        "still_to_ask": [2]}


def refused(change: Callable[[dict[str, Any]], None]) -> str:
    position = copy.deepcopy(example())
    change(position)
    with pytest.raises(InvalidAction) as err:
        begin(position)
    return str(err.value)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(position: dict[str, Any]) -> None:
        *keys, last = path.split(".")
        node: Any = position
        for key in keys:
            node = node[int(key)] if key.isdigit() else node[key]
        if value is DELETE:
            del node[int(last) if last.isdigit() else last]
        else:
            node[int(last) if last.isdigit() else last] = value
    return change


DELETE = object()


@pytest.mark.parametrize(("change", "words"), [
    (_set("fleet", 3), "The position's fleet: not a field of a position"),
    (_set("deck", DELETE), "The position's deck: missing."),
    (_set("players.1.hand.2", "152"), "players[1].hand[2]: '152' is not a card's printed number"),
    (_set("players.1.hand.2", "026"), "deck, discard, hands and loans: Mr Turveydrop (026) is given twice"),
    (_set("discard.0", "026"), "Mr Turveydrop (026) is given twice"),
    (_set("players.0.hand", []), "deck, discard, hands and loans: every character card once: Nancy (004) is missing"),
    (_set("players.0.loans", ["004"]), "players[0].loans[0]: Nancy (004) is not a loan card"),
    (_set("players.2.personality", "Professor Moriarty"), "Professor Moriarty is given twice"),
    (_set("players.2.personality", "Captain Nemo"), "'Captain Nemo' is not a personality of the standard game"),
    (_set("players.2", DELETE), "one table for each of the game's 3 players is expected, not 2"),
    (_set("players.1.seat", 2), "players[1].seat: the players are listed in seat order"),
    (_set("areas.Atlantis", {}), "areas.Atlantis: 'Atlantis' is not an area of London"),
    (_set("areas.Strand.agents", [0, 1]), "areas.Strand.agents: one count for each of the 3 players"),
    (_set("areas.Strand.agents", [0, 13, 1]), "player 1 has more than their 12 agents on the board"),
    (_set("areas.Strand.grenadiers", 6), "more grenadiers than the game's 4"),
    (_set("areas.Strand.building", 3), "areas.Strand.building: a whole number from 0 to 2 is expected, not 3"),
    (_set("bank", 97), "bank: the bank and the players' money make the game's £120"),
    (_set("random_events.0", "Fire"), "Fire is given twice"),
    (_set("random_events_done", []), "every Random Event once: New Citizens is missing"),
    (_set("turn.player", 5), "turn.player: a whole number from 0 to 2 is expected, not 5"),
    (_set("turn.card", "001"), "turn.card: the card being played lies on the discard pile"),
    (_set("turn.next_symbol", 4), "turn.next_symbol: a whole number from 1 to 3 is expected, not 4"),
    (_set("turn.question.kind", "riddle"), "turn.question.kind: one of interrupt, Holborn, murder"),
    (_set("turn.question.effect.what", "bribe"), "turn.question.effect.what: one of assassinate, remove, move"),
    (_set("turn.question.area", "City"), "turn.question.area: not a field of this question (interrupt)"),
    (_set("turn.question.effect", DELETE), "turn.question.effect: this question (interrupt) needs it"),
    (_set("turn.random_event", {"name": "Fire", "stage": "smoulder"}), "turn.random_event.stage: Fire is at one of"),
    (_set("turn.question", {"kind": "murder", "player": 1, "area": "Battersea"}), "nobody could act in it"),
])
def test_a_position_that_is_not_one_is_refused_with_its_field_named(change: Callable[[dict[str, Any]], None],
                                                                     words: str) -> None:
    assert words in refused(change)


def test_a_refused_position_writes_nothing(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "p.sqlite3")
    try:
        kernel = Kernel(store, {"nanty": RULES})
        bad = {**example(), "bank": 0}
        with pytest.raises(InvalidAction, match="bank"):
            kernel.create("nanty", list(NAMES), seed="p", game_id="refused", position=bad)
        assert store.last("refused")[0] == 0
        created = kernel.create("nanty", list(NAMES), seed="p", game_id="taken", position=example())
        assert [e.type for e in created.events[:2]] == ["pbem.GameCreated", "pbem.PositionGiven"]
        assert RULES.position(created.after.game) == RULES.position(begin(example())[0])
    finally:
        store.close()
