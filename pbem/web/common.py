"""What every blueprint shares: the service on ``g``, the links, reading tokens, and refusals as pages or JSON."""

from __future__ import annotations

import queue
import re
from dataclasses import dataclass, field
from typing import Any

import jinja2
from flask import current_app, g, jsonify, render_template, request

from events.handling import StaleCommand
from events.rules import ActionError, AmbiguousAction, IllegalAction, InvalidAction
from pbem.instance import config
from pbem.organising.muster import is_muster
from pbem.instance.links import ExpiredLink, LinkError, Links, PlayClaims
from pbem.instance.times import zone_of
from pbem.errors import LinkRefused, NoSuchSeat, NotFound
from pbem.service import Service, ServiceError
from pbem.web.damage import Chains

GAME_ID = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")
MAX_COMMAND = 1000
NUMBER = re.compile(r"[0-9]{1,9}")               # ASCII only: str.isdigit() also takes "²" and "⑦"
DECIMAL = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,6})?")


@dataclass
class PageError(Exception):
    """A refusal shown to the reader: as a page, or as JSON under ``/api/``."""

    status: int
    title: str
    message: str
    code: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    template: str = "web/error.html"


def error_response(err: PageError) -> Any:
    if request.path.startswith("/api/"):
        body = {"error": err.code or err.title.lower().replace(" ", "_"), "message": err.message}
        body.update({k: v for k, v in err.extra.items() if k in ("current_seq", "current_token", "current_url",
                                                                 "legal", "issued_seq")})
        return jsonify(body), err.status
    return render_template(err.template, status=err.status, title=err.title, message=err.message,
                           **err.extra), err.status


# ---- numbers from a request -------------------------------------------------------------------

def number(value: Any, name: str, what: str = "a whole number, like 12") -> int:
    """A number from a request (query, form, path or JSON): one to nine ASCII digits, else a 400.

    Every number a request carries is read here, so no odd digit reaches ``int()``.
    """
    if not isinstance(value, str) or not NUMBER.fullmatch(value):
        raise PageError(400, "Not a number", f"{name} must be {what}. Nothing was changed.", "bad_field")
    return int(value)


def optional_number(value: Any, name: str, what: str = "a whole number, like 12") -> int | None:
    """``number``, or None when the value is absent or empty (``" 7 "`` is neither: it is refused as ``number``
    refuses it)."""
    if value is None or value == "":
        return None
    return number(value, name, what)


def decimal(value: Any, name: str, what: str) -> float:
    """A decimal from a request (``24``, ``1.5``): ASCII digits and one point, nothing around them, else a 400."""
    if not isinstance(value, str) or not DECIMAL.fullmatch(value):
        raise PageError(400, "Not a number", f"{name} must be {what}. Nothing was changed.", "bad_field")
    return float(value)


def posted_seq(required: bool = True) -> int | None:
    """The hidden ``seq`` field of a form: the move the page showed, which the write is bound to."""
    value = request.form.get("seq")
    if value is None and not required:
        return None
    if value is None:
        raise PageError(400, "Form out of date", "This form does not say which move of the game it was made at; "
                        "open the page again and repeat what you did. Nothing was changed.", "bad_field")
    return number(value, "seq", "the move number the page showed")


def recorded_since(game_id: str, seq: int | None) -> bool:
    """Whether anything was recorded in the game after event ``seq``, the move the page of a refused write showed.

    A write is refused on the game as it stands when it is decided; if another write came in after the page, the
    refusal may be that write's doing (a second undo through one link, an answer after the request closed, an
    action no longer legal), so it is answered as the lost race it is: 409 and the game as it is now. A refusal of
    a write made from the current page is the write's own: 400 or 422.
    """
    return seq is not None and service().store.last(game_id)[0] > seq


def moved_on_meanwhile(current_seq: int | None = None) -> PageError:
    """A write that lost to another: the game moved on between the page and the POST."""
    return PageError(409, "The game moved on", "The game moved on while you were deciding: something was recorded "
                     "after the page you acted on. Nothing was changed; open your link again to see the game as it "
                     "is now.", "stale", {} if current_seq is None else {"current_seq": current_seq})


# ---- the service and the links --------------------------------------------------------------

def settings() -> config.Settings:
    found: config.Settings = current_app.config["PBEM_SETTINGS"]
    return found


POOL = 8  # services (each with its connection) kept between requests, per app


def service() -> Service:
    """The request's service: taken from the app's pool of open ones (or opened), given back at its end.

    Opening a service opens a connection and checks every table, which cost more than many a page; so
    the services are kept between requests, each used by one request at a time (whichever thread serves
    it: a SQLite connection here may change threads, never be shared at once). Nothing of a request
    outlives it but caches checked against the store before each use (``pbem.instance.statecache``); every
    transaction is committed or rolled back before its request ends.
    """
    if "pbem_service" not in g:
        pool: queue.LifoQueue[Service] = current_app.extensions.setdefault("pbem.services", queue.LifoQueue())
        try:
            g.pbem_service = pool.get_nowait()
        except queue.Empty:
            g.pbem_service = Service.open(settings())
            g.pbem_service.states = current_app.extensions["pbem.states"]
            g.pbem_service.defer_mail = True  # the worker composes a move's mails: the page answers at once
    found: Service = g.pbem_service
    return found


def close_service(_: BaseException | None = None) -> None:
    """At a request's end: its service goes back to the pool (closed if the pool is full)."""
    used = g.pop("pbem_service", None)
    if used is None:
        return
    pool: queue.LifoQueue[Service] = current_app.extensions.setdefault("pbem.services", queue.LifoQueue())
    if used.store.in_transaction:  # never: every transaction ends in its request; if one did not, drop it
        used.close()
    elif pool.qsize() < POOL:
        pool.put(used)
    else:
        used.close()


def links() -> Links:
    found: Links = current_app.extensions["pbem.links"]
    return found


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def link_refused(err: LinkError) -> PageError:
    if isinstance(err, ExpiredLink):
        return PageError(410, "Link expired", sentence(str(err)), "expired_link")
    return PageError(403, "Link not valid", sentence(str(err)), "forged_link")


def read_token(purpose: str, token: str) -> Any:
    try:
        if purpose == "play":
            return links().read_play(token)
        if purpose == "undo":
            return links().read_undo(token)
        return links().read(purpose, token)
    except LinkError as err:
        raise link_refused(err) from None


def check_game(game_id: str, whole: bool = True) -> int:
    """Refuse an unknown game with a 404 (a well-formed id that names no game, or a malformed one); its last seq.

    With ``whole`` (every page but the game's verification) a game whose record is damaged is refused too
    (``pbem.web.damage``: ``GameDamaged``, a 503).
    """
    last = (0, "") if not GAME_ID.match(game_id or "") or is_muster(game_id) else service().store.last(game_id)
    if last[0] == 0:
        raise PageError(404, "No such game", f"There is no game {game_id!r} on this server.", "unknown_game")
    g.pbem_game = game_id  # a page that fails on it is diagnosed before it is called a server error
    if whole:
        chains().check(service(), game_id, last)
    return last[0]


def chains() -> Chains:
    found: Chains = current_app.extensions["pbem.chains"]
    return found


@dataclass(frozen=True)
class Seat:
    """A play link's game and seat, checked against the database."""

    claims: PlayClaims
    email: str
    name: str
    seq: int              # the game's current seq
    stale: bool           # the game has moved on since the link was issued (delivery records aside)


def read_play(token: str) -> Seat:
    claims: PlayClaims = read_token("play", token)
    if not GAME_ID.match(claims.game_id or "") or is_muster(claims.game_id):
        raise PageError(404, "No such game", f"There is no game {claims.game_id!r} on this server.", "unknown_game")
    g.pbem_game = claims.game_id
    chains().check(service(), claims.game_id)
    try:
        found = service().link_seat(claims.game_id, claims.seat, claims.seq)
    except NoSuchSeat as err:
        raise PageError(404, "No such seat", str(err), "unknown_seat") from None
    except NotFound as err:
        raise PageError(404, "No such game", str(err), "unknown_game") from None
    except LinkRefused as err:
        raise PageError(403, "Link no longer yours", sentence(str(err)), err.code) from None
    return Seat(claims, found["email"], found["name"], found["seq"], found["moved_on"])


def fresh_play_token(game_id: str, seat: int) -> str:
    return links().play(game_id, seat, service().store.last(game_id)[0])


def reader_zone(email: str) -> str:
    """The time zone a player reads a page in (the ``tz`` of its template): theirs, else the instance's."""
    return zone_of(service().store, email, str(settings()["timezone"]))


def home_token(email: str) -> str:
    return links().make("home", service().player_id(email))


def check_csrf(token: str, form_value: Any) -> None:
    try:
        links().check_csrf(token, form_value if isinstance(form_value, str) else "")
    except LinkError:
        raise PageError(403, "Form expired", "This form has expired or was not made by this page; "
                        "open your link again and repeat what you did. Nothing was changed.", "bad_csrf") from None


def action_refused(err: ActionError | ServiceError) -> PageError:
    """The status and words for a command the rules or the service refused."""
    if isinstance(err, StaleCommand):
        return PageError(409, "The game has moved on", sentence(str(err)), "stale",
                         {"current_seq": err.current_seq, "issued_seq": err.issued_seq})
    if isinstance(err, (InvalidAction, AmbiguousAction)):
        return PageError(400, "Command not understood" if isinstance(err, InvalidAction) else "Command ambiguous",
                         sentence(str(err)), "invalid_command" if isinstance(err, InvalidAction) else "ambiguous_command")
    if isinstance(err, IllegalAction):
        return PageError(422, "Not allowed now", sentence(str(err)), "illegal_command")
    return PageError(400, "Refused", sentence(str(err)), "refused")


def command_text(value: Any) -> str:
    """A typed or chosen command, checked for type and size (the rules' ``parse`` does the rest)."""
    if not isinstance(value, str):
        raise PageError(400, "Bad request", "The command must be text.", "bad_field")
    if len(value) > MAX_COMMAND:
        raise PageError(400, "Command too long", f"A command has at most {MAX_COMMAND} characters.", "bad_field")
    if any(ord(c) < 32 and c not in "\t" for c in value):
        raise PageError(400, "Bad request", "A command is one line of text.", "bad_field")
    return value.strip()


def board_template(game_type: str) -> str | None:
    """The game's own board partial, ``templates/web/games/<game_type>.html``, if there is one."""
    if not re.fullmatch(r"[a-z0-9_]+", game_type):
        return None
    name = f"web/games/{game_type}.html"
    try:
        current_app.jinja_env.get_template(name)
    except jinja2.TemplateNotFound:
        return None
    return name


LOG_PAGE = 50  # log lines on a page: the newest, and older ones a page at a time


def log_window(game_id: str, email: str | None, last: int, before: Any = None,
               size: int = LOG_PAGE) -> dict[str, Any]:
    """A page of the game's log for a reader: the ``size`` events before event ``before`` (default: the newest),
    read from the store by range, so a page costs the same in a game of 40 events or 4,000.

    ``before`` comes from the query string: anything that is not a whole number shows the newest page.
    Gives ``lines``, the range shown (``first``, ``upto``), ``older`` and ``newer`` (the ``before`` of the
    neighbouring pages, None at either end) and ``total``."""
    try:
        upto = min(int(before) - 1, last) if before not in (None, "") else last
    except (TypeError, ValueError):
        upto = last
    upto = max(upto, min(size, last))
    after = max(0, upto - size)
    lines = [line for line in service().log(game_id, email, after, None if upto >= last else upto)
             if not line["repeats"]]
    return {"lines": lines, "first": after + 1, "upto": upto, "total": last,
            "older": after + 1 if after > 0 else None,
            "newer": (upto + size + 1 if upto + size < last else 0) if upto < last else None}
