"""A game's name: what its mails' subjects, its pages and the command line call it.

The organiser may name a game (the new-game page, ``pbem game new --title``); without a name it is called after
the game and its players ("Emerald with Alice, Bob and Carol"). The name is recorded with the game's options in its
first event (``pbem.GameCreated``: option ``name``, public, like the time limits), so it travels with the record,
and kept in the ``games`` read model. Two games of one instance never share a name: a second "Friday game" is
called "Friday game (2)", so that a player of both can tell their mails apart. A game recorded before games had
names is called after its game and players.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from events.replay import GameState
from events.store import SQLiteEventStore
from pbem.errors import ServiceError
from pbem.games.presentation import short_name

MAX_NAME = 80
OPTION = "name"  # the game option that holds the name


def listed(names: Sequence[str]) -> str:
    """``Alice, Bob and Carol``."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def check_name(text: Any) -> str | None:
    """An organiser's name for a game: one line of plain words, spaces collapsed; None for a blank one.

    :raises ServiceError: longer than ``MAX_NAME`` characters, or holding characters that are not plain text.
    """
    found = " ".join(str(text or "").split())
    if not found:
        return None
    if len(found) > MAX_NAME:
        raise ServiceError(f"a game's name has at most {MAX_NAME} characters, this one {len(found)}")
    if not found.isprintable():
        raise ServiceError("a game's name is plain text: letters, digits, spaces and punctuation")
    return found


def default_name(game_type: str, title: str, names: Sequence[str]) -> str:
    """``Emerald with Alice, Bob and Carol``: the game's short name and its players, cut to ``MAX_NAME``."""
    found = f"{short_name(game_type, title)} with {listed(names)}"
    return found if len(found) <= MAX_NAME else found[:MAX_NAME - 1].rstrip() + "…"


def unique_name(store: SQLiteEventStore, name: str) -> str:
    """``name``, or ``name (2)``, ``name (3)``...: the first that no game of this instance has."""
    taken = {str(r["name"]) for r in store.query("SELECT name FROM games WHERE name = ? OR name LIKE ?",
                                                  (name, f"{name} (%)"))}
    if name not in taken:
        return name
    number = 2
    while f"{name} ({number})" in taken:
        number += 1
    suffix = f" ({number})"
    return name if len(name) + len(suffix) > MAX_NAME else name + suffix


def named(store: SQLiteEventStore, game_type: str, title: str | None, rules_title: str | None,
          players: Sequence[str], options: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """A new game's options with its name (``title``, checked, or the game and its players; numbered when another
    game of the instance has it); unchanged when the game type is unknown (the kernel says so).

    :raises ServiceError: a name that is not one line of plain words.
    """
    name = check_name(title) or (default_name(game_type, rules_title, players) if rules_title is not None else None)
    return options if name is None else {**(options or {}), OPTION: unique_name(store, name)}


def name_of(state: GameState[Any], title: str) -> str:
    """The game's name: the one recorded with its options, else the game and its players (``title``: the rules')."""
    found = state.config.options.get(OPTION)
    return str(found) if found else default_name(state.game_type, title, [s.name for s in state.config.seats])
