"""The text commands: parse/format round trip for every legal action met in play, and clear errors."""

from __future__ import annotations

import pytest

from events.rules import InvalidAction
from pbem.games.nanty import RULES
from tests.nanty.harness import Game, position, random_playout


def test_every_legal_action_round_trips_through_its_text() -> None:
    seen: set[str] = set()

    def check(game: Game, seat: int, legal: list[dict]) -> None:  # type: ignore[type-arg]
        for action in legal:
            text = RULES.format(game.state, action)
            assert RULES.parse(game.state, text) == action, text
            seen.add(action["kind"])
    for players in (2, 3, 4):
        random_playout(players, 100 + players, check=check)
    assert {"play", "end", "skip", "agent", "build", "assassinate", "take", "remove_trouble", "scroll", "power",
            "decline"} <= seen


@pytest.mark.parametrize("text,action", [
    ("play 7", {"kind": "play", "card": 7}),
    ("PLAY 007", {"kind": "play", "card": 7}),
    ("play Mr Micawber", {"kind": "play", "card": 1}),
    ("agent the East End", {"kind": "agent", "area": "east_end"}),
    ("agent west end from city", {"kind": "agent", "area": "west_end", "from": "city"}),
    ("assassinate Bob in Lambeth", {"kind": "assassinate", "area": "lambeth", "target": 1}),
    ("assassinate seat 2 in Lambeth", {"kind": "assassinate", "area": "lambeth", "target": 2}),
    ("assassinate new citizen in Strand", {"kind": "assassinate", "area": "strand", "target": "citizen"}),
    ("remove trouble from Holborn", {"kind": "remove_trouble", "area": "holborn"}),
    ("power Chelsea to Battersea from East End", {"kind": "power", "area": "chelsea", "to": "battersea", "from": "east_end"}),
    ("power City discard 12", {"kind": "power", "area": "city", "card": 12}),
    ("protect 2 agents and the building", {"kind": "protect", "agents": 2, "building": 1}),
    ("protect nothing", {"kind": "protect", "agents": 0, "building": 0}),
    ("scroll ann from City to Strand", {"kind": "scroll", "player": 0, "from": "city", "to": "strand"}),
    ("flood to Westminster", {"kind": "flood", "to": "westminster"}),
])
def test_commands_people_type(text: str, action: dict) -> None:  # type: ignore[type-arg]
    assert RULES.parse(position(3).state, text) == action


@pytest.mark.parametrize("text,words", [
    ("", "empty command"),
    ("dance", "Unknown command 'dance'"),
    ("agent Paris", "Unknown area 'paris'. The areas of London: Chelsea, Westminster"),
    ("assassinate Zed in City", "Unknown player 'zed'. Players: ann, bob, cat."),
    ("play 999", "give the number printed on the card"),
    ("assassinate Bob", "assassinate <player|grenadier|citizen> in <area>"),
    ("protect everything", "protect 2 agents"),
])
def test_errors_say_what_to_type(text: str, words: str) -> None:
    with pytest.raises(InvalidAction, match=words.replace("(", r"\(").replace("|", r"\|").replace(".", r"\.")):
        RULES.parse(position(3).state, text)


def test_an_illegal_command_names_what_is_possible() -> None:
    g = position(3, hands={0: [1]})
    with pytest.raises(Exception, match=r"You cannot end now\. You can: play 001\."):
        RULES.decide(g.state, 0, {"kind": "end"}, g.rng)
