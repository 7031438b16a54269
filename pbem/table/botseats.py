"""Computer players at the table: the level the autopilot plays at, and seats given to a bot from the start.

* ``autopilot_bot`` (a game option: ``random``, ``greedy`` or ``search``; ``greedy`` if not chosen) is the level
  of the computer player that plays for a seat on autopilot.
* ``bots`` (a game option, e.g. ``{"1": "search", "2": "random"}``) names the seats a bot plays from the start and
  their levels: the seats after the human players, in order. Both are in the game's first event, public and
  hash-chained with the rest.

A bot seat is a seat on autopilot from the game's creation (its ``pbem.AutopilotOn`` is recorded in the creation
command), so the scheduler plays it at once with the seat's own level (``pbem.bots.pilot``) and verification
accepts its moves by the autopilot's rule. Its row in ``seats`` holds an address on the reserved
``.invalid`` top-level domain (``bot-1@bots.invalid``, RFC 2606: it can never be delivered) and ``mail = 0``; the
outbox refuses every ``.invalid`` address (``pbem.post.mail.outbox.mail_rows``), so no mail is ever queued for it.
The organiser may give a bot seat to a human (``pbem.table.replacing``): it is then the human's like any other.

The levels are named here, not taken from ``pbem.bots`` (which sits above this floor); a test checks that the two
lists agree.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from events.envelope import SYSTEM, Event, NewEvent
from events.replay import GameState
from events.schema import GAME_CREATED
from events.store import SQLiteEventStore
from pbem.errors import ServiceError
from pbem.instance.players import Player
from pbem.table.autopilot import status
from pbem.table.seat_events import AUTOPILOT_ON, BOT_SEAT_REASON as REASON

LEVELS = ("random", "greedy", "search")
DEFAULT_LEVEL = "greedy"
DOMAIN = "bots.invalid"  # reserved: no mail can reach it (RFC 2606, RFC 6761)


def check_level(value: Any, what: str = "the autopilot's computer player") -> str:
    """A level of computer player.

    :raises ServiceError: not one of ``LEVELS``.
    """
    if not isinstance(value, str) or value not in LEVELS:
        raise ServiceError(f"{what} must be one of {', '.join(LEVELS)}, not {value!r}")
    return value


def autopilot_level(options: Mapping[str, Any] | None) -> str:
    """The level that plays for a seat on autopilot (the game's ``autopilot_bot``)."""
    value = (options or {}).get("autopilot_bot", DEFAULT_LEVEL)
    return value if value in LEVELS else DEFAULT_LEVEL


def bots_of(options: Mapping[str, Any] | None) -> dict[int, str]:
    """The seats given to a bot from the start, and their levels."""
    found = (options or {}).get("bots") or {}
    return {int(seat): str(level) for seat, level in found.items()} if isinstance(found, Mapping) else {}


def is_bot_address(email: str) -> bool:
    return email.strip().lower().endswith("@" + DOMAIN)


def address(seat: int) -> str:
    """The address a bot seat is recorded with: on the reserved domain, so no mail is ever queued to it."""
    return f"bot-{seat}@{DOMAIN}"


def names(levels: Sequence[str]) -> list[str]:
    """The bot seats' names at the table: "Computer (search)", and "Computer 2 (random)" for a level's second."""
    names_: list[str] = []
    for i, level in enumerate(levels):
        before = levels[:i].count(level)
        numbered = levels.count(level) > 1 and before > 0
        names_.append(f"Computer {before + 1} ({level})" if numbered else f"Computer ({level})")
    return names_


def chosen(humans: int, levels: Sequence[str]) -> dict[str, str]:
    """The ``bots`` option for ``levels`` given after ``humans`` players: ``{"1": "search", ...}``.

    :raises ServiceError: no human player, or a level that is not one.
    """
    if levels and humans < 1:
        raise ServiceError("a game with computer players needs at least one human player")
    return {str(humans + i): check_level(level, f"computer player {i + 1}") for i, level in enumerate(levels)}


def options(autopilot_bot: str | None, bots: Sequence[str] = (), humans: int = 0) -> dict[str, Any]:
    """The game options of ``--autopilot-bot`` and ``--bot`` (none given: none).

    :raises ServiceError: an unknown level, or bots without a human player.
    """
    found: dict[str, Any] = {}
    if autopilot_bot is not None:
        found["autopilot_bot"] = check_level(autopilot_bot)
    if bots:
        found["bots"] = chosen(humans, bots)
    return found


def seated(players: Sequence[Player], options: Mapping[str, Any] | None) -> list[Player]:
    """The game's players with its bot seats after them (each with its address on the reserved domain and its name).

    :raises ServiceError: the ``bots`` option is not the seats right after the human players with known levels, a
      human has a bot's address, or the autopilot's level is not one.
    """
    if options and "autopilot_bot" in options:
        check_level(options["autopilot_bot"])
    humans = [p for p in players if not is_bot_address(p.email)]
    if len(humans) != len(players):
        raise ServiceError(f"a player's address may not be on {DOMAIN}: it is kept for computer players")
    raw = (options or {}).get("bots")
    if raw is None:
        return list(players)
    if not isinstance(raw, Mapping) or not all(isinstance(k, str) and k.isdigit() for k in raw):
        raise ServiceError('the bots option names seats by number: {"1": "search", "2": "random"}')
    if raw and not humans:
        raise ServiceError("a game with computer players needs at least one human player")
    bots = bots_of(raw and {"bots": raw})
    if sorted(bots) != list(range(len(humans), len(humans) + len(bots))):
        raise ServiceError("the computer players' seats come right after the human players' seats")
    levels = [check_level(bots[s], f"computer player {i + 1}") for i, s in enumerate(sorted(bots))]
    taken = {p.name.lower() for p in humans} & {n.lower() for n in names(levels)}
    if taken:
        raise ServiceError(f"{sorted(taken)[0]} is the name of a computer player here; give the player another")
    return list(humans) + [Player(address(seat), name) for seat, name in zip(sorted(bots), names(levels))]


def follow(after: GameState[Any], events: Sequence[Event]) -> list[NewEvent]:
    """The game's creation puts its bot seats on autopilot: the scheduler plays them at once."""
    if not events or events[0].type != GAME_CREATED:
        return []
    return [NewEvent(AUTOPILOT_ON, {"seat": seat, "reason": f"{REASON}, at level {level}"}, actor=SYSTEM)
            for seat, level in sorted(bots_of(after.config.options).items())]


def level_for(store: SQLiteEventStore, state: GameState[Any], seat: int) -> str:
    """The level that plays ``seat`` now: a bot seat's own (while nobody was given it), else the autopilot's."""
    own = bots_of(state.config.options).get(seat)
    if own is not None and not status(store, state.game_id, seat)["since_seq"]:
        return own
    return autopilot_level(state.config.options)


def is_bot_seat(store: SQLiteEventStore, state: GameState[Any], seat: int) -> bool:
    """Whether a bot plays ``seat`` as its own (not given to a human since)."""
    return seat in bots_of(state.config.options) and not status(store, state.game_id, seat)["since_seq"]
