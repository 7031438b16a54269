"""The log says what was shuffled or dealt face down, and whose, to a reader who may not see it."""

from __future__ import annotations

from pbem.games.emerald1 import RULES
from pbem.proof.logbook import describe_event
from tests.emerald1.harness import Game
from tests.emerald1.position import arrange

NAMES = ["Ann", "Bob", "Cat"]


def test_every_secret_of_the_setup_is_named_for_those_who_may_not_see_it() -> None:
    game = Game.new(3, seed="words")
    secret = [e for e in game.events if e.visibility.kind == "server"]
    lines = [describe_event(RULES, e, 2, False, NAMES) for e in secret]
    assert lines == [
        "The Game cards are dealt face down, a stack to each city.",
        "The other Game cards are put aside unseen.",
        "The Permanent Effect cards are shuffled face down.",
        "The Double-agent counters are shuffled face down.",
        "The Sanity counters are shuffled face down.",
        "Ann's deck is shuffled face down.",
        "Bob's deck is shuffled face down.",
        "Cat's deck is shuffled face down.",
    ]


def test_a_discard_pile_shuffled_into_a_new_deck_is_named_with_its_player() -> None:
    game = Game.new(3, seed="words")
    game.start(["paris", "paris", "paris"])
    s = arrange(game)
    seat = s.active
    p = s.players[seat]
    p.hand, p.deck, p.discard = p.hand[:3], [], p.hand[3:] + p.deck   # three in hand, an empty deck, seven below
    game.do("pass", seat)
    events = game.do("pass", seat)                        # the refill shuffles the discard pile, then draws two
    shuffle = [e for e in events if e.type in ("emerald1.DiscardReshuffled", "emerald1.DeckShuffled")]
    name = NAMES[seat]
    assert [describe_event(RULES, e, (seat + 1) % 3, False, NAMES) for e in shuffle] == [
        f"{name} shuffles their discard pile (7 cards) into a new deck.",
        f"{name}'s deck is shuffled face down.",
    ]


def test_a_city_box_is_named_once_with_its_article() -> None:
    from pbem.games.emerald1.describe import city_box
    assert city_box("Berlin") == "the Berlin City box"
    assert city_box("The Hague") == "The Hague City box"        # never "the The Hague City box"
