"""The options of Nanty Narking, in words (``pbem.games.options``); the first choice is the default.

Each contested ruling of ``docs/nanty-rulings.md`` that has two defensible readings is an option here, named on the
ruling. ``before`` is what a game recorded before the option existed is read as: the engine's reading then.
"""

from __future__ import annotations

from pbem.games.options import Choice, Option

RULINGS = "docs/nanty-rulings.md"

PERSONALITIES = Option("personalities", "Personalities", (
    Choice("standard", "Standard: the ten personalities of the current rules", "standard"),
    Choice("classic", "Classic: the older table of personalities", "classic")), before="standard",
    ruling=f"{RULINGS}#1")

# Not filled in when not chosen: a game created without it follows its data's `game.grenadiers_disable_powers`.
GRENADIERS = Option("grenadiers_disable_powers", "A Grenadier in an area", (
    Choice("yes", "Disables that area's power", True),
    Choice("no", "Leaves that area's power working", False)), ruling=f"{RULINGS}#3")

FIRE_SPREAD = Option("fire_spread", "A Fire that rolls a building not next to the last area on fire", (
    Choice("ends", "The fire ends there", "ends"),
    Choice("rolls_on", "That building is spared and the die is rolled again", "rolls_on")), before="ends",
    ruling=f"{RULINGS}#4")

POWER_RELOCATION = Option("power_relocation", "Chelsea's or Bermondsey's power when all your agents are on the board", (
    Choice("lift", "Lifts one of your agents to place it, as Place an Agent does", "lift"),
    Choice("none", "Cannot be used: you have no agent to place", "none")), before="lift", ruling=f"{RULINGS}#10")

TIES = Option("ties", "A tie on points", (
    Choice("shared", "The tied players share the win", "shared"),
    Choice("money", "The tied player with the most money wins; a tie on money too is shared", "money")),
    before="shared", ruling=f"{RULINGS}#14")

GRENADIER_COUNTS = Option("grenadier_counts",
                          "Pieces in an area with a Grenadier, for Lord Bellinger, Ebenezer Scrooge and Lenore Lloyd", (
    Choice("counted", "Are counted", "counted"),
    Choice("not_counted", "Are not counted", "not_counted")), before="counted", ruling=f"{RULINGS}#16")

RELOCATION = Option("relocation_adjacency", "An agent lifted to be placed again goes", (
    Choice("after_lifting", "Next to your other agents: the lifted one no longer counts", "after_lifting"),
    Choice("before_lifting", "Next to any of your agents, the lifted one included", "before_lifting")),
    before="after_lifting", ruling=f"{RULINGS}#17")

INTERRUPTS = Option("interrupts", "When a card would remove or move an agent, who may stop it with an interrupt card", (
    Choice("targeted", "Only the agent's owner, who is always asked", "targeted"),
    Choice("any_time", "Any other player holding a card: each is asked in turn, the owner first", "any_time")),
    before="targeted", ruling=f"{RULINGS}#26")

FIRE_SAVED = Option("fire_saved_building", "A building Holborn keeps from a Fire", (
    Choice("goes_on", "Still stands, so the fire goes on: the die is rolled again", "goes_on"),
    Choice("stops", "Stops the fire", "stops")), before="stops", ruling=f"{RULINGS}#28")

OPTIONS = (PERSONALITIES, GRENADIERS, INTERRUPTS, FIRE_SAVED, FIRE_SPREAD, POWER_RELOCATION, RELOCATION,
           GRENADIER_COUNTS, TIES)

# The rules' revision a new game records (``complete(..., fixed=...)``); a game recorded without one is revision 1.
# 2: a symbol stays open while the player's powers could make it possible (ruling 25); the end's summary reads
# as one clause.
REVISION = 2
