"""The options of Nanty Narking, in words (``pbem.games.options``); the first choice is the default."""

from __future__ import annotations

from pbem.games.options import Choice, Option

OPTIONS = (
    Option("personalities", "Personalities", (
        Choice("standard", "Standard: the ten personalities of the current rules", "standard"),
        Choice("classic", "Classic: the older table of personalities", "classic"))),
    Option("grenadiers_disable_powers", "A Grenadier in an area", (
        Choice("yes", "Disables that area's power", True),
        Choice("no", "Leaves that area's power working", False))),
)
