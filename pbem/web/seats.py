"""A seat's life on the web: absences, coming back, resigning (the player's home page), replacing a player
(the organiser's page), and the same in the JSON API.

* ``POST /home/<token>/away``: ``game`` (one game's id, or ``all``: every running game of the player),
  ``from`` and ``until`` (days, ``2026-12-01``, in the player's time zone), ``reason``, ``share`` (``on``: the
  table reads the reason too). All of them are checked before any is written.
* ``POST /home/<token>/seat``: ``game`` and ``what``: ``back`` (ends an absence, and autopilot), ``take-back``
  (off autopilot), ``resign`` (with ``confirm=yes``: the box the player ticks).
* ``POST /organise/<token>/replace``: ``seat``, ``email``, ``name``, and the page's ``seq``.
* ``GET /api/play/<token>/seats``; ``POST /api/play/<token>/away`` ``{"from", "until", "reason", "share"}``;
  ``POST /api/play/<token>/seat`` ``{"what"}``; ``POST /api/organise/<token>/replace``
  ``{"seat", "email", "name", "seq"}``.

Every form carries the page's CSRF token; every refusal says why and writes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, jsonify, request

from events.handling import Cause, StaleCommand
from events.rules import ActionError
from events.store import ConcurrencyError
from pbem.table import away, seatlife
from pbem.table.seat_events import held_words
from pbem.service import Player, ServiceError
from pbem.web.common import (PageError, check_csrf, check_game, moved_on_meanwhile, number, posted_seq, read_play,
                             read_token, recorded_since, service)
from pbem.web.home import render as home_page
from pbem.web.organise import page as organise_page

bp = Blueprint("seats", __name__)

DONE = {"back": "Welcome back: your seat is yours again.", "take-back": "Your seat is off autopilot: it is yours again.",
        "resign": "You resigned: your seat plays on by autopilot until the organiser gives it to another player."}



def _player_seats(player_id: str, chosen: str) -> list[tuple[str, int]]:
    rows = [r for r in service().games_of(player_id) if r["status"] == "running"]
    if chosen == "all":
        return [(str(r["game_id"]), int(r["seat"])) for r in rows]
    found = [(str(r["game_id"]), int(r["seat"])) for r in rows if r["game_id"] == chosen]
    if not found:
        raise ServiceError("choose one of your running games, or all of them")
    return found


@bp.post("/home/<token>/away")
def declare(token: str) -> Any:
    claims = read_token("home", token)
    check_csrf(token, request.form.get("csrf"))
    svc, form = service(), request.form
    try:
        seats = _player_seats(claims.subject, form.get("game", "all"))
        if not seats:
            raise ServiceError("you have no running game to be away from")
        now = away.clock_of(svc)
        for game_id, seat in seats:  # every game checked first: all or nothing
            email = next(str(p["email"]) for p in svc.players(game_id) if int(p["seat"]) == seat)
            zone = away.zone_of(svc.store, email, svc.notifier.timezone if svc.notifier else "UTC")
            away.reason_words(form.get("reason"))
            away.check(svc, game_id, seat, away.moment(form.get("from"), zone, "first day away"),
                       away.moment(form.get("until"), zone, "day you are back"), now)
        held = []
        for game_id, seat in seats:
            result = svc.declare_absence(game_id, seat, form.get("from"), form.get("until"), form.get("reason", ""),
                                         form.get("share") == "on", cause=Cause("link", claims.cause()), now=now)
            held.append(held_words(result.events[0].payload))
    except ServiceError as err:
        return home_page(token, claims.subject, status=400, refusal=f"{err}.", refused="Absence not recorded")
    games = "your game" if len(seats) == 1 else f"your {len(seats)} games"
    # one game: what it holds of the allowance, here; several: each game's line below says it
    told = f" In this game, {held[0]}." if len(seats) == 1 and held[0] else ""
    return home_page(token, claims.subject,
                     done=f"Your absence is recorded in {games}; the other players are told.{told}")


@bp.post("/home/<token>/seat")
def seat_command(token: str) -> Any:
    claims = read_token("home", token)
    check_csrf(token, request.form.get("csrf"))
    what = request.form.get("what", "")
    try:
        if what not in seatlife.SEAT_COMMANDS:
            raise ServiceError("choose back, take back your seat, or resign")
        if what == "resign" and request.form.get("confirm") != "yes":
            raise ServiceError("tick the box to confirm that you resign: it cannot be undone")
        [(game_id, seat)] = _player_seats(claims.subject, request.form.get("game", ""))
        service().seat_command(game_id, seat, what, cause=Cause("link", claims.cause()))
    except (ServiceError, ActionError) as err:
        return home_page(token, claims.subject, status=400, refusal=f"{err}.", refused="Not done")
    return home_page(token, claims.subject, done=DONE[what])


@bp.post("/organise/<token>/replace")
def replace(token: str) -> Any:
    claims = read_token("organiser", token)
    game_id = claims.subject
    check_game(game_id)
    check_csrf(token, request.form.get("csrf"))
    seq = posted_seq()
    seat = number(request.form.get("seat"), "seat", "the seat's number")
    try:
        raw = (request.form.get("email") or "").strip()
        name = (request.form.get("name") or "").strip()
        player = Player.parse(f"{name} <{raw}>" if name else raw)
        service().replace(game_id, seat, player, cause=Cause("link", claims.cause()), expected_seq=seq)
    except (StaleCommand, ConcurrencyError):
        return organise_page(token, game_id, refusal=moved_on_meanwhile())
    except ServiceError as err:
        if recorded_since(game_id, seq):  # refused for what came in after the page: a lost race
            return organise_page(token, game_id, refusal=moved_on_meanwhile())
        return organise_page(token, game_id, refusal=PageError(400, "Not replaced", f"{err}.", "refused"))
    return organise_page(token, game_id, f"The seat is now {player.name}'s: they were mailed the seat's view and "
                                         "history, the old player was told, and the old links no longer work.")


# ---- the JSON API -------------------------------------------------------------------------------

def _body(fields: set[str]) -> dict[str, Any]:
    data = request.get_data(cache=False)
    params = {k.lower(): v.lower() for k, v in request.mimetype_params.items()}
    if request.mimetype != "application/json" or params not in ({}, {"charset": "utf-8"}):
        raise PageError(415, "Bad request", "send JSON with Content-Type: application/json", "unsupported_media_type")
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):
        raise PageError(400, "Bad request", "the body is not valid JSON", "bad_request") from None
    if not isinstance(body, dict) or set(body) - fields:
        raise PageError(400, "Bad request", f"the body must be a JSON object with {', '.join(sorted(fields))}",
                        "bad_request")
    return body


def _receipt(result: Any) -> Any:
    return jsonify({"receipt": [{"seq": e.seq, "type": e.type, "hash": e.hash} for e in result.events]})


def _refused(err: Exception) -> PageError:
    return PageError(400, "Refused", str(err), "refused")


@bp.get("/api/play/<token>/seats")
def api_seats(token: str) -> Any:
    seat = read_play(token)
    found = seatlife.seats_of(service(), seat.claims.game_id)
    mine = away.absences_of(service().store, seat.claims.game_id, seat.claims.seat)
    found["yours"] = [{"from": a["starts_at"], "until": a["until"], "reason": a["reason"], "shared": bool(a["shared"]),
                       "running": a["status"] == "active"} for a in mine]
    return jsonify(found)


@bp.post("/api/play/<token>/away")
def api_away(token: str) -> Any:
    seat = read_play(token)
    body = _body({"from", "until", "reason", "share"})
    texts = [body.get("from"), body.get("until"), body.get("reason", "")]
    if not all(isinstance(t, str) for t in texts) or not isinstance(body.get("share", False), bool):
        raise PageError(400, "Bad request", '"from" and "until" are days like "2026-12-01", "reason" a string, '
                        '"share" true or false', "bad_request")
    try:
        result = service().declare_absence(seat.claims.game_id, seat.claims.seat, texts[0], texts[1], texts[2],
                                           bool(body.get("share", False)), cause=Cause("api", seat.claims.cause()))
    except ServiceError as err:
        raise _refused(err) from None
    return _receipt(result)


@bp.post("/api/play/<token>/seat")
def api_seat(token: str) -> Any:
    seat = read_play(token)
    what = _body({"what"}).get("what")
    if what not in seatlife.SEAT_COMMANDS:
        raise PageError(400, "Bad request", '"what" is back, take-back or resign', "bad_request")
    try:
        result = service().seat_command(seat.claims.game_id, seat.claims.seat, what,
                                        cause=Cause("api", seat.claims.cause()))
    except (ServiceError, ActionError) as err:
        raise _refused(err) from None
    return _receipt(result)


@bp.post("/api/organise/<token>/replace")
def api_replace(token: str) -> Any:
    claims = read_token("organiser", token)
    check_game(claims.subject)
    body = _body({"seat", "email", "name", "seq"})
    seat, email, name, seq = body.get("seat"), body.get("email"), body.get("name") or "", body.get("seq")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(email, str) or not isinstance(name, str) \
            or not (seq is None or (isinstance(seq, int) and not isinstance(seq, bool))):
        raise PageError(400, "Bad request", '"seat" is a number, "email" and "name" strings, "seq" the move the '
                        "organiser saw (optional)", "bad_request")
    try:
        player = Player.parse(f"{name} <{email}>" if name.strip() else email)
        result = service().replace(claims.subject, seat, player, cause=Cause("api", claims.cause()),
                                   expected_seq=seq)
    except (StaleCommand, ConcurrencyError):
        raise moved_on_meanwhile() from None
    except ServiceError as err:
        if recorded_since(claims.subject, seq):
            raise moved_on_meanwhile() from None
        raise _refused(err) from None
    return _receipt(result)
