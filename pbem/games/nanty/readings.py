"""The readings of the rules a game is played under, read once from its recorded options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from events.rules import InvalidAction
from pbem.games.nanty.options import (FIRE_SAVED, FIRE_SPREAD, GRENADIER_COUNTS, GRENADIERS, INTERRUPTS, OPTIONS,
                                      POWER_RELOCATION, RELOCATION, REVISION, TIES)
from pbem.games.options import Option, complete


@dataclass(frozen=True)
class Readings:
    """Each field's default is the reading of a game recorded before its option existed."""

    revision: int = 1
    interrupts: str = "targeted"
    fire_saved_building: str = "stops"
    fire_spread: str = "ends"
    power_relocation: str = "lift"
    relocation_adjacency: str = "after_lifting"
    grenadier_counts: str = "counted"
    ties: str = "shared"


CONTESTED: tuple[Option, ...] = (INTERRUPTS, FIRE_SAVED, FIRE_SPREAD, POWER_RELOCATION, RELOCATION,
                                 GRENADIER_COUNTS, TIES)


def new_game_options(chosen: Mapping[str, Any]) -> dict[str, Any]:
    """What a new game records: every option chosen or its default, and this revision of the rules.

    ``grenadiers_disable_powers`` is checked when chosen and otherwise left out, so that the game follows its data's
    value; keys of other layers pass through unchanged.

    :raises InvalidAction: a value that is none of an option's choices.
    """
    options = complete([o for o in OPTIONS if o is not GRENADIERS], chosen, fixed={"revision": REVISION})
    if GRENADIERS.key in chosen:
        options.update(complete([GRENADIERS], {GRENADIERS.key: chosen[GRENADIERS.key]}))
    return options


def readings(options: Mapping[str, Any]) -> Readings:
    """The readings of a game's recorded options (an option it lacks: the reading it began with).

    :raises InvalidAction: a recorded value that is none of an option's choices.
    """
    values: dict[str, Any] = {}
    for option in CONTESTED:
        value = option.read(options)
        if value not in [c.json for c in option.choices]:
            raise InvalidAction(f"Nanty Narking: the option {option.key} is one of "
                                f"{', '.join(str(c.json) for c in option.choices)}, not {value!r}.")
        values[option.key] = value
    revision = options.get("revision", 1)
    if isinstance(revision, bool) or revision not in range(1, REVISION + 1):
        raise InvalidAction(f"Nanty Narking: the rules' revision is a number from 1 to {REVISION}, not {revision!r}.")
    return Readings(revision=revision, **values)
