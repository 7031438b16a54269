"""A game's options in words: what its rules read from ``config.options``, each a choice between readings.

Each game lists its options beside its rules (``OPTIONS`` in the game's folder, offered as the rules' attribute
``option_choices``); the new-game page offers them in words, and the rules' ``options(chosen)`` records them whole
in ``pbem.GameCreated`` (``events.rules.RecordsOptions``) with ``complete``. An option added later says what a game
recorded before it existed is read as (``before``), so that an old game goes on under the rules it began with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from events.rules import InvalidAction

UNSET: Any = object()


@dataclass(frozen=True)
class Choice:
    value: str     # what a form sends
    words: str     # what the organiser and the players read
    json: Any      # what the rules read in ``config.options``


@dataclass(frozen=True)
class Option:
    """One option, offered as a choice in words; the first choice is a new game's default."""

    key: str
    label: str
    choices: tuple[Choice, ...]
    before: Any = UNSET  # what a game recorded before the option existed is read as (UNSET: the default)
    ruling: str = ""     # where the rulings page quotes both readings (e.g. "docs/emerald-rulings.md#1")

    def default(self) -> Choice:
        return self.choices[0]

    def read(self, options: Mapping[str, Any]) -> Any:
        """The value a game's recorded options give this option."""
        if self.key in options:
            return options[self.key]
        return self.default().json if self.before is UNSET else self.before

    def words_for(self, value: Any) -> str:
        found = next((c for c in self.choices if c.json == value), None)
        return found.words if found is not None else str(value)


def complete(offered: Sequence[Option], chosen: Mapping[str, Any], fixed: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options a new game records: every offered option (a chosen value, given as its ``json`` or its form
    ``value``, or the default), ``fixed`` ones (a rules revision), and any others unchanged (the delivery layer's).

    :raises InvalidAction: a chosen value that is none of an option's choices.
    """
    options = dict(chosen)
    for option in offered:
        if option.key not in chosen:
            options[option.key] = option.default().json
            continue
        given = chosen[option.key]
        choice = next((c for c in option.choices if c.json == given and type(c.json) is type(given)), None)
        choice = choice or next((c for c in option.choices if c.value == given), None)
        if choice is None:
            raise InvalidAction(f"option {option.key} ({option.label}) is one of "
                                f"{', '.join(repr(c.value) for c in option.choices)}, not {given!r}")
        options[option.key] = choice.json
    options.update(fixed or {})
    return options


def described(offered: Sequence[Option], options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each option's label and the reading a game is played under, in words (for pages and the first mail)."""
    return [(o.label, o.words_for(o.read(options))) for o in offered]
