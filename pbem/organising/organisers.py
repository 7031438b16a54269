"""Who may create games from the web, the new-game links they hold, and the request a new-game form makes.

The operator's setting ``organisers`` decides: ``invited`` (only whoever holds a new-game link the operator
sent with ``pbem organiser invite EMAIL``) or ``open`` (anyone may ask for one by mail; one mail an hour per
address, and the answer never says whether an address was known). A new-game link names the organiser by an
id, not their address (links end up in logs); the ``organisers`` table holds the address and how the link
came (``operator`` or ``signup``).

A request (``check``) is a game type, the options its rules read, the time limits, an optional data
override and the players: checked whole, with one clear error, before anything is written. The seat
policies (``seat_policy``: what an absence does, and after how many missed deadlines a seat goes on
autopilot) are parsed and checked by ``pbem.table.away`` and ``pbem.table.autopilot``, as ``pbem game new``'s are.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from events.rng import Rng, new_seed
from events.rules import ActionError, GameConfig, Rules, Seat
from events.store import Row, SQLiteEventStore, write_row
from pbem.table.naming import check_name
from pbem.table import autopilot, away, botseats, seatlife
from pbem.errors import ServiceError
from pbem.instance.players import Player
from pbem.games import all_games
from pbem.games.options import Choice, Option
from pbem.games.options import described as readings_described
from pbem.organising import positions
from pbem.instance.addresses import check_address
from pbem.post.mail.outbox import mail_rows
from pbem.post.mail.render import address, new_message_id

if TYPE_CHECKING:
    from pbem.post.notify import Notifier

SIGNUP_MINUTES = 60        # an address is sent at most one new-game link per hour through the open form
MAX_OVERRIDE = 32 * 1024   # bytes of a data override file
MAX_NAME = 40
HOURS = (0.25, 24 * 30)    # a time limit, in hours: a quarter of an hour to thirty days


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table("organisers", {"organiser_id": str, "email": str, "via": str, "invited_at": str,
                                      "last_link_at": str}, pk="organiser_id", indexes=[("email",)])


def organiser_id(email: str) -> str:
    """An organiser's id in their new-game link: the same for one address, never the address itself."""
    return hashlib.sha256(f"pbem-organiser:{email.strip().lower()}".encode()).hexdigest()[:16]


def options_of(game_type: str) -> tuple[Option, ...]:
    """The options a game offers, in words (``pbem.games.options``): the game's own ``option_choices``."""
    rules = all_games().get(game_type)
    return tuple(getattr(rules, "option_choices", ())) if rules is not None else ()


def played_under(game_type: str, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The options a game is played under, in words, as its recorded options give them (``Option.read``: a game
    recorded before an option existed is shown with the reading it is played by)."""
    return readings_described(options_of(game_type), options)


# The options of the table rather than the rules (``docs/configuration.md``), which every game takes.
TABLE_OPTIONS = ("turn_hours", "interrupt_hours", "undo_request_hours", "vacation", "vacation_days",
                 "autopilot_after", "autopilot_bot", "bots")


def choice_of(option: Option, given: Any) -> Choice | None:
    """The choice ``given`` names: its form value (as the new-game page sends it) or its JSON (types and all), or
    that JSON written as text (as ``--option KEY=VALUE`` gives it)."""
    if isinstance(given, str):
        found = next((c for c in option.choices if c.value == given), None)
        if found is not None:
            return found
    found = next((c for c in option.choices if c.json == given and type(c.json) is type(given)), None)
    if found is None and isinstance(given, str):
        try:
            read = json.loads(given)
        except ValueError:
            return None
        found = next((c for c in option.choices if c.json == read and type(c.json) is type(read)), None)
    return found


def refused_choice(option: Option, given: Any) -> ServiceError:
    choices = "; ".join(f"{c.value} ({c.words})" for c in option.choices)
    return ServiceError(f"the option {option.key} ({option.label}) is one of: {choices}; not {given!r}")


def chosen_options(game_type: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """Options given by key (``pbem game new --option``, the JSON API): each of the game's options as its choice's
    JSON, the table's options as given (text that reads as JSON read so).

    :raises ServiceError: a value that is none of an option's choices, naming the option and its choices; a key
        that is neither one of the game's options nor the table's, where the game lists its options.
    """
    offered = {o.key: o for o in options_of(game_type)}
    chosen: dict[str, Any] = {}
    for key, value in given.items():
        option = offered.get(key)
        if option is not None:
            choice = choice_of(option, value)
            if choice is None:
                raise refused_choice(option, value)
            chosen[key] = choice.json
            continue
        if offered and key not in TABLE_OPTIONS:
            raise ServiceError(f"there is no option {key!r}; the game's options are {', '.join(offered)}, and the "
                               f"table's {', '.join(TABLE_OPTIONS)}")
        chosen[key] = _json_or_text(value)
    return chosen


def _json_or_text(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


# The vacation policies as the new-game page offers them (``pbem.table.away``), in words; ``allowance`` takes its days.
VACATIONS = (("pause", "The game's clocks stop while anyone is away"),
             ("run", "Deadlines run, and the default is played for the away player when one passes"),
             ("allowance", "Only the away player's clock stops, up to a number of days per game"))


def seat_policy(vacation: str | None, days: str | None, after: str | None,
                autopilot_bot: str | None = None) -> dict[str, Any]:
    """The game options of the new-game page's seat policies (a field not sent: the game's default).

    :raises ServiceError: a policy not offered, days or a count that is not a whole number in range, or a computer
      player's level that is not one.
    """
    policy = None
    if vacation is not None:
        if vacation not in dict(VACATIONS):
            raise ServiceError("when a player is away: choose one of the policies offered")
        policy = f"allowance:{(days or '')[:10]}" if vacation == "allowance" else vacation
    count: Any = None
    if after is not None:  # digits only, as every number a request carries: " 3 " is refused as "x" is
        count = after[:10]
        count = int(count) if count.isascii() and count.isdigit() else count
    return seatlife.options(policy, count, autopilot_bot or None)


def policy_described(options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A game's seat policies in words, as its muster and invitations show them (the defaults if not chosen)."""
    after = autopilot.after_misses(options)
    level = botseats.autopilot_level(options)
    silent = (f"After {after} missed deadline{'s' if after != 1 else ''} in a row, their seat goes on autopilot "
              f"(the computer, at level {level}, plays for it) and the organiser is asked to find a substitute"
              if after else "Their seat never goes on autopilot: the default is played at each deadline missed")
    words = away.policy_words(options)
    found = [("When a player is away", words[:1].upper() + words[1:]), ("When a player is silent", silent)]
    bots = botseats.bots_of(options)
    if bots:
        levels = [bots[s] for s in sorted(bots)]
        found.append(("Played by the computer", ", ".join(botseats.names(levels))
                      + f", in the last seat{'s' if len(bots) > 1 else ''}"))
    return found


def described(game_type: str, options: Mapping[str, Any], data_override: Any = None) -> list[tuple[str, str]]:
    """The game's options, time limits and seat policies in words (never the rules' keys), as the invitation (its
    mail and its page) and the muster page give them."""
    words: list[tuple[str, str]] = []
    for option in options_of(game_type):
        value = options.get(option.key, option.default().json)
        choice = next((c for c in option.choices if c.json == value), option.default())
        words.append((option.label, choice.words))
    for key, label in (("turn_hours", "Time for a turn"), ("interrupt_hours", "Time for an out-of-turn decision")):
        if key in options:
            words.append((label, f"{float(options[key]):g} hours"))
    words += policy_described(options)
    if data_override:
        words.append(("Game data", "corrected by the organiser (a data override file)"))
    return words


# ---- who may create games ---------------------------------------------------------------------

def new_game_url(notifier: Notifier, oid: str) -> str:
    return f"{notifier.base_url}/new/{notifier.links.make('newgame', oid)}"


def invite(store: SQLiteEventStore, notifier: Notifier, email: str, now: datetime | None = None) -> str:
    """The operator lets ``email`` create games: records it, mails the new-game link, and returns the link."""
    email = check_email(email)
    oid = organiser_id(email)
    url = new_game_url(notifier, oid)
    stamp = _now(now)
    with store.transaction() as conn:
        conn.execute("INSERT INTO organisers (organiser_id, email, via, invited_at, last_link_at) "
                     "VALUES (?, ?, 'operator', ?, ?) ON CONFLICT (organiser_id) DO UPDATE SET "
                     "via = 'operator', invited_at = excluded.invited_at, last_link_at = excluded.last_link_at",
                     (oid, email, stamp, stamp))
        for row in link_mail(notifier, email, url, stamp, invited=True):
            write_row(conn, row)
    return url


def signup(store: SQLiteEventStore, notifier: Notifier, email: str, now: datetime | None = None) -> bool:
    """Someone asks for a new-game link by mail (``organisers = "open"``); False if the address had one within
    the hour (nothing is sent; the page says the same either way).

    :raises ServiceError: not an email address.
    """
    email = check_email(email)
    oid = organiser_id(email)
    stamp = _now(now)
    since = _now((now or datetime.now(timezone.utc)) - timedelta(minutes=SIGNUP_MINUTES))
    with store.transaction() as conn:
        found = conn.execute("SELECT last_link_at FROM organisers WHERE organiser_id = ?", (oid,)).fetchone()
        if found is not None and found[0] and found[0] > since:
            return False
        conn.execute("INSERT INTO organisers (organiser_id, email, via, invited_at, last_link_at) "
                     "VALUES (?, ?, 'signup', ?, ?) ON CONFLICT (organiser_id) DO UPDATE SET "
                     "last_link_at = excluded.last_link_at", (oid, email, stamp, stamp))
        for row in link_mail(notifier, email, new_game_url(notifier, oid), stamp, invited=False):
            write_row(conn, row)
    return True


def organiser_of(store: SQLiteEventStore, oid: str, policy: str) -> str | None:
    """The address of the organiser a new-game link names, if they may create games under the ``policy``."""
    rows = store.query("SELECT email, via FROM organisers WHERE organiser_id = ?", (oid,))
    if not rows or (policy != "open" and rows[0]["via"] != "operator"):
        return None
    return str(rows[0]["email"])


def link_mail(notifier: Notifier, email: str, url: str, stamp: str, *, invited: bool) -> list[Row]:
    why = ("The operator of this pbem server invites you to organise games on it." if invited else
           "You (or someone giving your address) asked this pbem server for a link to organise a game.")
    context = {"heading": "Organise a game", "name": email.split("@")[0], "footer": "",
               "paragraphs": [why, "The link below opens a page where you choose the game, its options and time "
                              "limits, and the players to invite. Keep it to yourself: whoever holds it can create "
                              "games in your name. It works for several games.",
                              "" if invited else "If you did not ask for it, ignore this mail."],
               "actions": [{"label": "Create a game", "url": url}]}
    context["paragraphs"] = [p for p in context["paragraphs"] if p]
    message_id = new_message_id(notifier.sender)
    subject = "[pbem] Your link to organise a game"
    draft = {"template": "notice", "context": context, "sender": notifier.sender, "subject": subject,
             "to": address("", email), "message_id": message_id, "thread_root": message_id, "reply_to": None,
             "date": stamp, "unsubscribe_url": None, "list": ("Game invitations", "muster")}
    return mail_rows(game_id=None, seat=None, to_addr=email, kind="organiser", subject=subject,
                     message_id=message_id, draft=draft, now=stamp)


def _now(now: datetime | None) -> str:
    return (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")


# ---- the request of a new-game form -----------------------------------------------------------

def check_email(text: str) -> str:
    return check_address(text)


@dataclass
class Request:
    """A new game asked for, checked: ``check`` builds it or raises one ``ServiceError`` saying what to fix."""

    game_type: str
    title: str
    players: list[Player]
    options: dict[str, Any] = field(default_factory=dict)
    data_override: dict[str, Any] | None = None
    position: dict[str, Any] | None = None
    name: str | None = None  # the game's, as the organiser gave it (None: named after the game and its players)


def check(games: Mapping[str, Rules[Any]], game_type: str, players: Sequence[tuple[str, str]],
          chosen: Mapping[str, Any], hours: Mapping[str, float], override: bytes | Mapping[str, Any] | None,
          position: bytes | Mapping[str, Any] | None = None, name: str | None = None,
          bots: Sequence[str] = ()) -> Request:
    """Check a new game's request whole: nothing is written until all of it is right.

    ``players`` are (name, address) pairs in seat order (blank rows already left out); ``chosen`` the
    options by key (a choice's form value or its JSON); ``hours`` the turn and interrupt limits; ``override``
    a TOML file or its object; ``position`` the one to begin from (``pbem.organising.positions``), a file or its
    object, checked by the game as it would be when the game is created; ``name`` the game's name (blank: named
    after the game and its players); ``bots`` the levels of the seats the computer plays, after the players.
    """
    rules = games.get(game_type)
    if rules is None:
        raise ServiceError("choose one of the games offered")
    called = check_name(name)
    found: list[Player] = []
    for number, (name, email) in enumerate(players, start=1):
        if not email.strip():
            raise ServiceError(f"player {number} ({name.strip()}) has no email address")
        address_ = check_email(email)
        name = " ".join(name.split()) or address_.split("@")[0]
        if len(name) > MAX_NAME or any(c in name for c in "<>@\"") or not name.isprintable():
            raise ServiceError(f"player {number}'s name must be at most {MAX_NAME} plain characters (no < > @ \")")
        if any(p.email == address_ for p in found):
            raise ServiceError(f"{address_} is given twice; each player needs an address of their own")
        if any(p.name.lower() == name.lower() for p in found):
            raise ServiceError(f"two players are called {name}; give each a name of their own (it is how the "
                               "others see them)")
        found.append(Player(address_, name))
    options: dict[str, Any] = {"bots": botseats.chosen(len(found), bots)} if bots else {}
    seated = botseats.seated(found, options)
    if not rules.min_seats <= len(seated) <= rules.max_seats:
        raise ServiceError(f"{rules.title} is for {rules.min_seats} to {rules.max_seats} players, "
                           f"not {len(seated)}" + (f" ({len(found)} and {len(seated) - len(found)} played by the "
                                                   "computer)" if bots else ""))
    unknown = sorted(set(chosen) - {o.key for o in options_of(game_type)})
    if unknown:
        raise ServiceError(f"{rules.title} has no option {unknown[0]!r}"
                           + (f"; its options are {', '.join(o.key for o in options_of(game_type))}"
                              if options_of(game_type) else ""))
    for option in options_of(game_type):
        value = chosen.get(option.key, option.default().value)
        choice = choice_of(option, value)
        if choice is None:
            values = " or ".join(c.value for c in option.choices)
            raise ServiceError(f"{option.label}: choose one of the choices offered ({values}), not {value!r}")
        options[option.key] = choice.json
    for kind, value in hours.items():
        if not HOURS[0] <= value <= HOURS[1]:
            raise ServiceError(f"the time for {'a turn' if kind == 'turn_hours' else 'an out-of-turn decision'} "
                               f"is between a quarter of an hour and {HOURS[1]:g} hours (30 days), not {value:g}")
        options[kind] = value
    data = (parse_override(override) if isinstance(override, bytes) else plain_override(override)) if override \
        else None
    try:
        loaded = rules.load_data(data)
        config = GameConfig(tuple(Seat(i, p.name) for i, p in enumerate(seated)), options, loaded)
        rules.initial_state(config)
    except (ActionError, ValueError, TypeError, KeyError) as err:
        raise ServiceError(f"the data override file does not fit {rules.title}: {err}") from None
    begun = None
    if position is not None:
        begun = positions.parse(position) if isinstance(position, bytes) else positions.plain(position)
        check_position(rules, config, begun)
    return Request(game_type, rules.title, found, options, data, begun, called)


def check_position(rules: Rules[Any], config: GameConfig, position: Mapping[str, Any]) -> None:
    """Whether the game begins from ``position`` with these players and options, as the kernel will ask it when
    the game is created (nothing is kept of the trial).

    :raises ServiceError: the game takes no positions, or its own words for the field it refuses.
    """
    if not positions.takes_positions(rules):
        raise ServiceError(f"{rules.title} cannot begin from a position")
    complete = getattr(rules, "options", None)
    checked = GameConfig(config.seats, dict(complete(config.options)) if complete is not None else config.options,
                         config.data)
    try:
        getattr(rules, "setup_from")(checked, position, Rng(new_seed()))
    except ActionError as err:
        raise ServiceError(str(err).rstrip(".")) from None
    except (ValueError, TypeError, KeyError, IndexError) as err:  # a game's check that missed a shape
        raise ServiceError(f"the position does not fit {rules.title}: {err!r}") from None


def plain_override(data: Any) -> dict[str, Any]:
    """A data override given as an object (the JSON API's): plain values, at most ``MAX_OVERRIDE`` bytes as JSON,
    not empty."""
    if not isinstance(data, dict):
        raise ServiceError("the data override must be an object, as the game's data document describes")
    try:
        size = len(json.dumps(data, allow_nan=False).encode())
    except (TypeError, ValueError, RecursionError):
        raise ServiceError("the data override holds a value JSON cannot carry; give plain numbers and text") from None
    if size > MAX_OVERRIDE:
        raise ServiceError(f"the data override is {size} bytes; at most {MAX_OVERRIDE} are allowed")
    if not data:
        raise ServiceError("the data override is empty; leave it out to play with the game's own data")
    return data


def parse_override(raw: bytes) -> dict[str, Any]:
    """A data override file: TOML, at most ``MAX_OVERRIDE`` bytes, of plain values (no dates)."""
    if len(raw) > MAX_OVERRIDE:
        raise ServiceError(f"the data override file is {len(raw)} bytes; at most {MAX_OVERRIDE} are allowed")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ServiceError("the data override file is not text (UTF-8); it must be a TOML file") from None
    except tomllib.TOMLDecodeError as err:
        raise ServiceError(f"the data override file is not valid TOML: {err}") from None
    try:
        json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):
        raise ServiceError("the data override file holds a date, a time or a number JSON cannot carry; "
                           "give plain numbers and text") from None
    if not data:
        raise ServiceError("the data override file is empty; leave the field blank to play with the game's own data")
    return data
