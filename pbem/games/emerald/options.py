"""The options of A Study in Emerald (2nd edition), in words (``pbem.games.options``); the first choice is the default.

Each reading of a contested rule is an option (``docs/emerald-rulings.md`` quotes both sides under the number its
``ruling`` names); ``before`` is how a game recorded before the option existed is played. Plain rule fixes are not
offered: a new game records the rules revision it is played under (``REVISION``), an older game lacks it and is
revision 1.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.games.options import Choice, Option

REVISION = 2
"""1: the rules as first recorded. 2: a revealed Loyalist who again loses every agent (or the last Sanity token)
places agents up to three again (docs/emerald-rulings.md, 8)."""

RULINGS = "docs/emerald-rulings.md"

OPTIONS = (
    Option("free_actions_after_last_action", "Free card actions after a turn's last action", (
        Choice("yes", "Allowed: after your last action you may still use your cards' free actions", True),
        Choice("no", "Not allowed: a turn ends with its last action", False)), before=True),
    Option("action_card_with_points", "An Action card with victory points, once its text is used", (
        Choice("discard", "Goes to the discard pile and can be played again; only one-use cards with points "
                          "go beside the Secret Identity card", "discard"),
        Choice("identity", "Goes beside the Secret Identity card and is never played again", "identity")),
        before="identity", ruling=f"{RULINGS}#1"),
    Option("cthulhu_takes_royalty", "Cthulhu and the Royalty card of its city", (
        Choice("no", "The Royalty card stays in its Royalty slot", False),
        Choice("yes", "Cthulhu removes the Royalty card with the other cards", True)),
        before=False, ruling=f"{RULINGS}#2"),
    Option("sherlock_stops_replacement", "Sherlock Holmes against Irene Adler (and the action of Vampires)", (
        Choice("yes", "Sherlock Holmes can stop one of your agents being replaced", True),
        Choice("no", "Sherlock Holmes cannot: a replaced agent is not eliminated", False)),
        before=True, ruling=f"{RULINGS}#3"),
    Option("agent_assassination_clears_cubes", "The cubes of a city where an agent is assassinated", (
        Choice("yes", "Leave it, as after assassinating royalty: yours to Limbo, the others' to their stock", True),
        Choice("no", "Stay: only assassinating royalty clears the city's cubes", False)),
        before=True, ruling=f"{RULINGS}#4"),
    Option("cthulhu_shows_cards", "The face-down cards Cthulhu removes", (
        Choice("yes", "Are shown to everyone as they leave the game", True),
        Choice("no", "Leave the game unseen, and are shown with the boxed cards when the game ends", False)),
        before=True, ruling=f"{RULINGS}#5"),
)

BY_KEY = {o.key: o for o in OPTIONS}


def reading(options: Mapping[str, Any], key: str) -> Any:
    """The value of one option in a game's recorded options (a game recorded before it: its ``before``)."""
    return BY_KEY[key].read(options)


def revision(options: Mapping[str, Any]) -> int:
    """The rules revision a game is played under (1 for a game recorded before revisions were recorded)."""
    found = options.get("revision", 1)
    return found if isinstance(found, int) and not isinstance(found, bool) else 1
