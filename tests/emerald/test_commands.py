"""The text command syntax: parse, format, round trip and messages."""

from __future__ import annotations

import pytest

from events.rules import AmbiguousAction, IllegalAction, InvalidAction
from pbem.games.emerald import RULES
from tests.emerald.checks import round_trip
from tests.emerald.harness import Game, give, put, started


def test_the_examples_parse() -> None:
    s = Game.new(3).state
    assert RULES.parse(s, "place 3 cubes in Paris using 12 14") == \
        {"kind": "place", "city": "paris", "count": 3, "cards": [12, 14]}
    assert RULES.parse(s, "claim London using 7") == {"kind": "claim", "cities": ["london"], "cards": [7]}
    assert RULES.parse(s, "assassinate royalty in Paris with 39 using 4 18 22") == \
        {"kind": "assassinate", "city": "paris", "target": "royalty", "card": 39, "bombs": [4, 18, 22]}
    assert RULES.parse(s, "play Okhrana: cubes of bob in Rome") == \
        {"kind": "play", "card": 52, "cubes": [[1, "rome"], [1, "rome"]]}
    assert RULES.parse(s, "Pass") == {"kind": "pass"}
    assert RULES.parse(s, "move agent from st petersburg to ST. PETERSBURG")["to"] == "st_petersburg"
    assert RULES.parse(s, "play Inspector Lestrade: cubes of seat 2 in Vienna") == \
        {"kind": "play", "card": 28, "player": 2, "city": "vienna"}


def test_errors_say_what_is_wrong() -> None:
    s = Game.new(3).state
    with pytest.raises(InvalidAction, match="Unknown city 'atlantis'. Cities: Berlin"):
        RULES.parse(s, "place 1 cube in Atlantis using 201")
    with pytest.raises(InvalidAction, match="Unknown player 'zed'. Players: ann, bob, cat"):
        RULES.parse(s, "assassinate agent of zed in Paris with 39")
    with pytest.raises(InvalidAction, match="I do not understand"):
        RULES.parse(s, "dance a jig")
    with pytest.raises(InvalidAction, match="no text"):
        RULES.parse(s, "play Bismarck")
    with pytest.raises(InvalidAction, match="Say which player"):
        RULES.parse(s, "play Terrors of the Night")


def test_a_card_with_copies_must_be_named_by_number() -> None:
    g = Game.new(3, override={"game_cards": [{"number": "052", "copies": 2}, {"number": "001", "copies": 0}]})
    with pytest.raises(AmbiguousAction, match="52, 1052"):
        RULES.parse(g.state, "play Okhrana: cube of bob in Rome")
    assert RULES.parse(g.state, "play Okhrana (1052): cube of bob in Rome")["card"] == 1052


def test_illegal_actions_say_what_is_legal_instead() -> None:
    g = started()
    with pytest.raises(IllegalAction, match="Legal now: .*pass"):
        g.do("claim Paris using 205")
    with pytest.raises(IllegalAction, match="not your turn: waiting for ann"):
        g.act(1, {"kind": "pass"})
    with pytest.raises(InvalidAction):
        g.act(0, {"kind": 3})
    with pytest.raises(InvalidAction):
        g.act(0, {"kind": "pass", "x": {"y": 1}})


def test_format_round_trips_every_legal_action_of_a_busy_position() -> None:
    g = started()
    give(g, 0, 201, 202, 203, 204, 205, 206, 52, 48, 35)
    put(g, "paris", 0, cubes=2, agents=3)
    put(g, "paris", 1, cubes=1, agents=1)
    put(g, "st_petersburg", 2, cubes=2, agents=1)
    legal = RULES.legal_actions(g.state, 0)
    assert len(legal) > 100
    round_trip(g.state, legal)


def test_player_names_that_cannot_be_parsed_are_written_as_seats() -> None:
    from events.rules import GameConfig, Seat
    data = RULES.load_data(None)
    config = GameConfig(seats=(Seat(0, "Anna and Bob"), Seat(1, "x"), Seat(2, "x")), data=data)
    s = RULES.initial_state(config)
    a = {"kind": "assassinate", "city": "paris", "target": 2, "card": 39, "bombs": []}
    assert RULES.format(s, a) == "assassinate agent of seat 2 in Paris with 39"
    assert RULES.parse(s, RULES.format(s, a)) == a


def test_decide_accepts_only_the_listed_dicts() -> None:
    g = started()
    give(g, 0, 201, 204)
    with pytest.raises(IllegalAction, match="increasing order.*place 3 cubes in Paris using 201 204"):
        g.act(0, {"kind": "place", "city": "paris", "count": 3, "cards": [204, 201]})
    with pytest.raises(IllegalAction):
        g.act(0, {"kind": "place", "city": "paris", "count": 3, "cards": [201, 204], "note": "hi"})
    g.act(0, {"kind": "place", "city": "paris", "count": 3, "cards": [201, 204]})
    assert g.state.city("paris").cubes[0] == 3


def test_the_help_in_an_error_names_no_card_of_anyone() -> None:
    """The parser does not know who asks, so its examples use N for "a card of your hand"."""
    import re
    s = Game.new(3).state
    with pytest.raises(InvalidAction) as refused:
        RULES.parse(s, "dance a jig")
    assert "using N" in str(refused.value) and not re.search(r"(using|with|discard) \d", str(refused.value))


def test_a_prompt_in_the_middle_of_an_action_says_what_to_do_in_words() -> None:
    from pbem.games.emerald.engine import STEP_WORDS
    from tests.emerald.harness import random_playout
    seen: set[str] = set()

    def check(game: Game, seat: int, legal: list[dict[str, object]]) -> None:
        for prompt in RULES.prompts(game.state).values():
            assert "_" not in prompt.text and "(" + "zombie place" not in prompt.text, prompt.text
            step = game.state.pend()
            if prompt.kind == "turn" and step and step["step"] in STEP_WORDS:
                assert STEP_WORDS[step["step"]] in prompt.text
                seen.add(step["step"])

    random_playout(3, seed=5, check=check)
    assert seen  # some steps were met
