"""Text commands: every legal action formats to a line that parses back; errors say what is legal."""

from __future__ import annotations

import pytest

from events.rules import IllegalAction, InvalidAction
from pbem.games.emerald1 import RULES
from tests.emerald1.harness import random_playout
from tests.emerald1.position import arrange, hand, started


@pytest.mark.parametrize("text,action", [
    ("start paris", {"kind": "start", "city": "paris"}),
    ("claim 17", {"kind": "claim", "target": "card:17"}),
    ("claim berlin", {"kind": "claim", "target": "city:berlin"}),
    ("place 101 103 on st_petersburg", {"kind": "place", "cards": [101, 103], "to": "city:st_petersburg"}),
    ("place 101 on 17", {"kind": "place", "cards": [101], "to": "card:17"}),
    ("move main:ann to the_hague", {"kind": "move", "agent": "m0", "to": "the_hague"}),
    ("pay 102 104", {"kind": "pay", "cards": [102, 104]}),
    ("markers 66:war 2", {"kind": "markers", "plays": [[66, 1], [2, 0]]}),
    ("discard 101 102 showing 102", {"kind": "discard", "cards": [101, 102], "shown": 102}),
    ("play 35 at royal in paris bombs 106 107", {"kind": "card", "card": 35, "target": "royal", "city": "paris",
                                                 "bombs": [106, 107]}),
    ("play 35 at 14 in paris bombs", {"kind": "card", "card": 35, "target": "14", "city": "paris", "bombs": []}),
    ("play 53 cubes bob@berlin cat@17", {"kind": "card", "card": 53, "cubes": [["city:berlin", 1], ["card:17", 2]]}),
    ("double 14", {"kind": "double_agent", "agent": 14}),
    ("allow", {"kind": "allow"}),
])
def test_commands_parse_to_actions_and_format_back(text: str, action: dict) -> None:  # type: ignore[type-arg]
    s = started().state
    assert RULES.parse(s, text) == action
    assert RULES.parse(s, RULES.format(s, action)) == action


@pytest.mark.parametrize("text,action", [
    ("place 206 on St. Petersburg", {"kind": "place", "cards": [206], "to": "city:st_petersburg"}),
    ("Place 206 on st petersburg", {"kind": "place", "cards": [206], "to": "city:st_petersburg"}),
    ("place 206 on St Petersburg", {"kind": "place", "cards": [206], "to": "city:st_petersburg"}),
    ("place 206 and 207 on Saint Petersburg", {"kind": "place", "cards": [206, 207], "to": "city:st_petersburg"}),
    ("place 206 on the The Hague City box", {"kind": "place", "cards": [206], "to": "city:the_hague"}),
    ("place 206 on the Berlin city box", {"kind": "place", "cards": [206], "to": "city:berlin"}),
    ("place 206 on Limbo", {"kind": "place", "cards": [206], "to": "limbo"}),
    ("move Ann's Main Agent to The Hague", {"kind": "move", "agent": "m0", "to": "the_hague"}),
    ("move main agent of Bob to the hague", {"kind": "move", "agent": "m1", "to": "the_hague"}),
    ("MOVE 14 TO ROME", {"kind": "move", "agent": "14", "to": "rome"}),
    ("play 47 agent Cat's Main Agent in Cairo", {"kind": "card", "card": 47, "agent": "m2", "city": "cairo"}),
    ("play 14 at Bob's main agent in Paris bombs 206, 207",
     {"kind": "card", "card": 14, "target": "m1", "city": "paris", "bombs": [206, 207]}),
    ("play 53 cubes Bob@St. Petersburg, Cat@17",
     {"kind": "card", "card": 53, "cubes": [["city:st_petersburg", 1], ["card:17", 2]]}),
    ("play 6 player Bob", {"kind": "card", "card": 6, "player": 1}),
])
def test_names_are_read_as_players_say_them(text: str, action: dict) -> None:  # type: ignore[type-arg]
    s = started().state
    assert RULES.parse(s, text) == action
    assert RULES.parse(s, RULES.format(s, action)) == action


def test_commands_are_written_with_the_names_players_read() -> None:
    s = started().state
    said = {RULES.format(s, a) for a in (
        {"kind": "place", "cards": [206], "to": "city:st_petersburg"}, {"kind": "move", "agent": "m0", "to": "the_hague"},
        {"kind": "card", "card": 53, "cubes": [["city:berlin", 1], ["card:17", 2]]},
        {"kind": "card", "card": 6, "player": 1})}
    assert said == {"place 206 on St. Petersburg", "move ann's Main Agent to The Hague",
                    "play 53 cubes bob@Berlin, cat@17", "play 6 player bob"}


def test_every_legal_action_of_a_whole_game_round_trips() -> None:
    seen = 0

    def check(game, seat, legal):  # type: ignore[no-untyped-def]
        nonlocal seen
        for a in legal[:40]:
            assert RULES.parse(game.state, RULES.format(game.state, a)) == a
            seen += 1
    random_playout(3, seed=7, check=check)
    assert seen > 1000


@pytest.mark.parametrize("text,words", [
    ("", "Empty command"), ("fly paris", "Unknown command 'fly'"), ("start atlantis", "No city is called"),
    ("start atlantis", "Cities: Berlin, Cairo, Constantinople, The Hague"), ("place 206 on 17 18", "No city or face-up"),
    ("move main agent of zed to paris", "No player is called 'zed'"), ("move to paris", "the agent is missing"),
    ("play x", "Expected a card or counter number"), ("play 53 cubes bob", "player@place"),
    ("play 6 player zed", "No player is called 'zed'"), ("markers 101", "has no single arrow"),
])
def test_malformed_commands_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(InvalidAction, match=words):
        RULES.parse(started().state, text)


def test_an_illegal_command_lists_what_is_legal_in_the_games_words() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [101, 102, 103, 104, 105])
    with pytest.raises(IllegalAction) as err:
        game.act(0, {"kind": "claim", "target": "city:rome"})
    assert "Legal now:" in str(err.value) and "place 101 on" in str(err.value)
    with pytest.raises(IllegalAction, match="not your turn: waiting for ann"):
        game.act(1, {"kind": "pass"})


def test_every_example_in_the_commands_doc_parses_and_formats_back() -> None:
    import re
    from pathlib import Path

    from events.rules import GameConfig, Seat
    doc = (Path(__file__).parents[2] / "docs" / "emerald1-commands.md").read_text(encoding="utf-8")
    config = GameConfig(seats=tuple(Seat(i, n) for i, n in enumerate(("alice", "bob", "carol"))),
                        data=RULES.load_data(None))
    state = RULES.initial_state(config)
    examples = [m for row in re.findall(r"^\| (.+?) \|", doc, re.M) for m in re.findall(r"`([^`]+)`", row)]
    examples = [e for e in examples if e.split()[0] not in ("emerald1.interrupt",) and "<" not in e and "…" not in e]
    assert len(examples) > 40
    for text in examples:
        action = RULES.parse(state, text)
        assert RULES.parse(state, RULES.format(state, action)) == action, text
