"""A game's position as a file: written at one event for the organiser, and read back to begin a new game from it.

The position is the game's own (``events.rules.FromPosition``: hands and decks in order, identities, board, money,
tracks, whose turn and step), in the game's words (``docs/emerald-positions.md``, ``docs/emerald1-positions.md``,
``docs/nanty-positions.md``). Written at an event (``at``) it is the game as the organiser's audit sees it then,
every secret included; read (``parse``) it is TOML, or the same structure as JSON, and the game checks it when a
game begins from it (``pbem.organising.organisers.check`` before a muster, the kernel when the game is created).
"""

from __future__ import annotations

import json
import tomllib
from typing import Any, Mapping, Protocol

import tomli_w

from events.envelope import Event
from events.handling import Kernel
from events.replay import GameState
from events.schema import ACTIONS_UNDONE, GAME_CREATED, POSITION_GIVEN, RANDOM_DRAWN
from events.store import EventStore
from pbem.errors import NotFound, ServiceError
from pbem.games.options import UNSET, Option

MAX_POSITION = 32 * 1024  # bytes of a position file: a five-player game's is under 8 KiB
_CHUNK = 100              # events read at a time to find where a command ends


class Host(Protocol):
    """What a position is read with: the store, the kernel, and the game at an event."""

    store: EventStore
    kernel: Kernel

    def load(self, game_id: str, upto_seq: int | None = None) -> GameState[Any]: ...


def takes_positions(rules: Any) -> bool:
    """Whether a game writes its positions and begins from one (``events.rules.FromPosition``)."""
    return callable(getattr(rules, "position", None)) and callable(getattr(rules, "setup_from", None))


def at(host: Host, game_id: str, seq: int | None = None) -> tuple[GameState[Any], dict[str, Any]]:
    """The game just after event ``seq`` (default: the last) and its whole position then, every secret in it.

    :raises NotFound: no such game, or no such event in it.
    :raises ServiceError: an event in the middle of a command (the game is whole only after it), or a game that has
        no position format.
    """
    host.load(game_id)  # refuses a game that is not there (or a muster) in the service's words
    last = host.store.last(game_id)[0]
    seq = last if seq is None else seq
    if not 1 <= seq <= last:
        raise NotFound(f"game {game_id} has events 1 to {last}; there is no event {seq}")
    inside = _command_around(host.store, game_id, seq)
    if inside is not None:
        first, end = inside
        before = f", or at event {first - 1} before it" if first > 1 else ""
        raise ServiceError(f"event {seq} is in the middle of a command (events {first} to {end}), where the game is "
                           f"not whole; take the position at event {end}, after it{before}")
    state = host.load(game_id, upto_seq=seq)
    rules = host.kernel.rules(state)
    if not takes_positions(rules):
        raise ServiceError(f"{rules.title} has no position format: its positions cannot be written")
    return state, dict(getattr(rules, "position")(state.game))


def _command_around(store: EventStore, game_id: str, seq: int) -> tuple[int, int] | None:
    """The first and last event of the command holding event ``seq`` if the rules' part of it goes on after ``seq``
    (None: the game is whole at ``seq``, only the delivery layer's records or the end's marker follow in it)."""
    event = store.read(game_id, seq - 1, seq)[0]
    command = event.command_id
    if command is None:
        return None
    following: list[Event] = []
    after = seq
    while True:
        chunk = store.read(game_id, after, after + _CHUNK)
        same = [e for e in chunk if e.command_id == command]
        following += same
        if len(same) < len(chunk) or len(chunk) < _CHUNK:
            break
        after += _CHUNK
    if not any(_the_rules(e.type) for e in following):
        return None
    first = seq
    while first > 1:
        earlier = store.read(game_id, max(0, first - 1 - _CHUNK), first - 1)
        before = [e for e in earlier if e.command_id == command]
        first -= len(before)
        if len(before) < len(earlier) or not earlier:
            break
    return first, following[-1].seq


def _the_rules(event_type: str) -> bool:
    """An event the game's state is made of: the rules' own, and the kernel's setup and undo."""
    return not event_type.startswith("pbem.") or event_type in (GAME_CREATED, POSITION_GIVEN, RANDOM_DRAWN,
                                                                ACTIONS_UNDONE)


def written(host: Host, game_id: str, seq: int | None = None) -> str:
    """The position just after event ``seq`` (default: the last) as a TOML file (``at``), headed by comments that
    say what it is and how to begin a game from it with the options the game was played under."""
    state, position = at(host, game_id, seq)
    rules = host.kernel.rules(state)
    offered: tuple[Option, ...] = tuple(getattr(rules, "option_choices", ()))
    names = ", ".join(s.name for s in state.config.seats)
    lines = [f"# {rules.title}: the position of game {game_id} just after event {state.seq} ({names}).",
             "# It holds every secret of the game at that moment (hands, decks, identities): keep it to the",
             "# organiser and the referee.",
             f"# Begin a game from it: pbem game new {state.game_type} --position FILE --player ... (one per seat)"]
    # an option the game did not record and gives no reading for (``before``) is read from the game's data: the new
    # game, left without it too, reads it the same
    given = [o for o in offered if o.key in state.config.options or o.before is not UNSET]
    if given:
        lines.append("# with the options it was played under:")
        lines += [f"#   --option {o.key}={_form_value(o, o.read(state.config.options))}" for o in given]
    if host.store.read(game_id, 0, 1)[0].payload.get("data_override"):
        lines.append("# Its data was corrected by a data override: begin the new game with the same --data file.")
    return "\n".join(lines) + "\n\n" + tomli_w.dumps(position)


def _form_value(option: Option, value: Any) -> str:
    found = next((c for c in option.choices if c.json == value and type(c.json) is type(value)), None)
    return found.value if found is not None else json.dumps(value)


def parse(raw: bytes) -> dict[str, Any]:
    """A position file: TOML (or the same structure as JSON), at most ``MAX_POSITION`` bytes, of plain values.

    :raises ServiceError: too long, not text, neither TOML nor a JSON object, a date in it, or empty.
    """
    if len(raw) > MAX_POSITION:
        raise ServiceError(f"the position file is {len(raw)} bytes; at most {MAX_POSITION} are allowed")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ServiceError("the position file is not text (UTF-8); it must be a TOML file") from None
    try:
        found: Any = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        try:
            found = json.loads(text)
        except (ValueError, RecursionError):
            raise ServiceError(f"the position file is not valid TOML: {err}") from None
        if not isinstance(found, dict):
            raise ServiceError("the position file holds JSON that is not an object; it must be a TOML file") from None
    return plain(found)


def plain(position: Any) -> dict[str, Any]:
    """A position given as an object (the JSON API's, or a file's), checked to be plain values and not empty.

    :raises ServiceError: not an object, a date or a number JSON cannot carry in it, or empty.
    """
    if not isinstance(position, dict):
        raise ServiceError("the position must be an object (a table), as the game's positions document shows")
    try:
        json.dumps(position, allow_nan=False)
    except (TypeError, ValueError):
        raise ServiceError("the position holds a date, a time or a number JSON cannot carry; give plain numbers "
                           "and text") from None
    except RecursionError:
        raise ServiceError("the position is nested too deeply to be a game's position") from None
    if not position:
        raise ServiceError("the position is empty; leave it out to begin with the game's own setup")
    return position
