"""The options of A Study in Emerald (1st edition), in words (``pbem.games.options``), and the readings the rules
play by.

Each option is a ruling with two defensible readings (``docs/emerald1-rulings.md`` quotes both); the first choice
is a new game's default. ``revision`` is not offered: a new game records the rules' current revision, and a game
recorded before revisions existed reads as revision 1, so that it replays and plays on under the rules it began
with. Revision 2 replaces the cards Cthulhu takes from a hand, lets a player Cthulhu drives mad still destroy a
city, keeps a Necronomicon removed face down on the Victory Point track until the game ends, and lets only a card
that may assassinate kill a zombie.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.games.options import Choice, Option, complete

REVISION = 2  # the revision new games are played under

ZOMBIE_KILL_CARD = Option("zombie_kill_card", "The card played to kill a zombie", (
    Choice("kept", "Kept: it goes back to your hand (\"you retain the card played\")", "kept"),
    Choice("discarded", "Discarded: it goes to your discard pile (\"the only cost is the use of an action and a "
                        "card\")", "discarded")),
    before="discarded", ruling="docs/emerald1-rulings.md#47-the-card-that-kills-a-zombie")

CLAIM_FULL_TIE = Option("claim_full_tie", "A claim tied on influence and on agents", (
    Choice("either", "Either tied player may claim (\"if no other player has more points of influence\")", "either"),
    Choice("nobody", "Nobody may claim (\"he would not have more points of influence\")", "nobody")),
    before="either", ruling="docs/emerald1-rulings.md#48-a-claim-tied-on-influence-and-on-agents")

ZOMBIES_END = Option("zombies_end", "The Zombies card with all eight zombies on the board", (
    Choice("first_action", "Ends the game only when played as the first action (\"as their first action\")",
           "first_action"),
    Choice("any_action", "Ends the game whenever it is played (\"If you play the Zombie card and all eight Zombie "
                         "pieces are on the board\")", "any_action")),
    before="first_action", ruling="docs/emerald1-rulings.md#49-when-the-zombies-card-ends-the-game")

DEVILS_ISLAND = Option("devils_island", "Devil's Island sends a player's cubes to Limbo", (
    Choice("city_box", "From the City box only (the rules tell \"the city\" from \"its associated Game card\")",
           "city_box"),
    Choice("city_and_card", "From the City box and the city's face-up Game card (\"from that city\")",
           "city_and_card")),
    before="city_box", ruling="docs/emerald1-rulings.md#50-devils-islands-reach")

KILLED_AGENT_CARD = Option("killed_agent_card", "The card of an agent killed (assassinated, destroyed, by zombies)", (
    Choice("kept", "Stays with its player, for its symbols only (the rules say nothing of it)", "kept"),
    Choice("removed", "Leaves the game, as with Cthulhu or a Mad counter (replaced if it was in the hand)",
           "removed")),
    before="kept", ruling="docs/emerald1-rulings.md#51-the-card-of-a-killed-agent")

FREE_AFTER = Option("free_actions_after_last_action", "Free card actions after a turn's second action", (
    Choice("no", "Not allowed: a turn ends with its second action (\"After performing two actions you draw your "
                 "hand back up\")", False),
    Choice("yes", "Allowed: after your second action you may still take free actions (they \"do not count "
                  "towards your two action limit\")", True)),
    before=False, ruling="docs/emerald1-rulings.md#52-free-actions-after-the-second-action")

OPTIONS: tuple[Option, ...] = (ZOMBIE_KILL_CARD, CLAIM_FULL_TIE, ZOMBIES_END, DEVILS_ISLAND, KILLED_AGENT_CARD,
                               FREE_AFTER)


@dataclass(frozen=True)
class Readings:
    """What the rules read of a game's recorded options (each field an option's key); the defaults are those of a
    game recorded before any option."""

    revision: int = 1
    zombie_kill_card: str = "discarded"
    claim_full_tie: str = "either"
    zombies_end: str = "first_action"
    devils_island: str = "city_box"
    killed_agent_card: str = "kept"
    free_actions_after_last_action: bool = False


def recorded(chosen: Mapping[str, Any]) -> dict[str, Any]:
    """The options a new game records: the chosen ones checked, every default, and the current revision."""
    return complete(OPTIONS, chosen, fixed={"revision": REVISION})


def readings(options: Mapping[str, Any]) -> Readings:
    """The readings a game's recorded options give (an option a game lacks is read as its ``before``)."""
    revision = options.get("revision", 1)
    return Readings(revision=revision if isinstance(revision, int) and not isinstance(revision, bool) else 1,
                    **{option.key: option.read(options) for option in OPTIONS})
