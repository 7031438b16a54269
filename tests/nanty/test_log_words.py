"""The log's words for a draw and for the end, as every reader reads them.

A draw is recorded twice: for the drawer with its cards, for everyone with its count. A reader who may not see the
cards reads, beside "Ann draws 5 cards.", that the cards are Ann's to see, never a second draw ("Ann draws cards.").
The end's summary is one clause, which the log's last line goes on from ("...; seed revealed").
"""

from __future__ import annotations

from events.envelope import Event, Visibility
from pbem.proof import logbook
from pbem.games.nanty import RULES
from tests.nanty.harness import card, position, run

NAMES = ["Ann", "Ben", "Cid"]
MICAWBER = card(["agent", "money:2"])


def line(type_: str, payload: dict[str, object], visibility: Visibility, reader: int | None, ended: bool = False) -> str:
    event = Event("g", 1, type_, 1, payload, "system", visibility, False, "", {}, "", "")
    return logbook.describe_event(RULES, event, reader, ended, NAMES)


def test_a_draw_reads_as_one_draw_to_everyone_who_may_not_see_its_cards() -> None:
    cards = {"seat": 0, "cards": [12, 40]}
    assert line("nanty.CardsDrawn", cards, Visibility.to(0), 0) == "Ann draws Miss Havisham (012), Alfred Jingle (040)."
    for reader in (1, None):
        assert line("nanty.CardsDrawn", cards, Visibility.to(0), reader) == "The cards Ann draws are seen by Ann only."
        assert line("nanty.CardsDrawnCount", {"seat": 0, "count": 2}, Visibility.public(), reader) == \
            "Ann draws 2 cards."
    assert line("nanty.PersonalityDealt", {"seat": 2, "personality": "fagin"}, Visibility.to(2), 1) == \
        "The personality dealt to Cid is seen by Cid only."
    assert line("nanty.PersonalityDealt", {"seat": 2, "personality": "fagin"}, Visibility.to(2), 2) == \
        "Cid is dealt Fagin."


def deck_out(recorded: dict[str, object] | None = None) -> str:
    """A game that ends when ann cannot refill her hand; the log's last line (the summary names the seats as the
    game was created with them)."""
    g = position(hands={0: [MICAWBER]}, deck=[], personalities={0: "scrooge", 1: "lloyd", 2: "fagin"},
                 money={0: 30, 1: 10, 2: 10}, recorded=recorded)
    run(g, "play 001")
    run(g, "agent City")
    run(g, "take")
    run(g, "end")
    assert g.state.phase == "over" and g.state.winners == (0,)
    outcome = RULES.outcome(g.state)
    assert outcome is not None
    return line("pbem.GameEnded", {"seed": "s", "outcome": outcome.to_json()}, Visibility.public(), None, True)


def test_the_end_of_a_game_reads_as_one_sentence() -> None:
    assert deck_out() == "game over: ann wins (a player could not refill their hand); seed revealed"


def test_a_game_of_revision_1_keeps_the_summary_it_recorded() -> None:
    """The summary is part of the recorded outcome, which verification computes again: an old game keeps it."""
    assert deck_out({"personalities": "standard"}) == \
        "game over: ann wins: a player could not refill their hand.; seed revealed"
