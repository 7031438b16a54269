"""The JSON API for bots and other clients, over the same service and the same signed links.

POSTs must be ``Content-Type: application/json`` (a ``charset=utf-8`` parameter at most): a
page on another site cannot send that without the browser asking first, so the API needs no
CSRF token. Other JSON-ish types (``application/json-patch+json``, ``text/json``) are refused:
they are not what the API reads, and some of them a page elsewhere may send.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, jsonify, request, url_for

from events.handling import Cause, StaleCommand
from events.rules import ActionError
from events.store import ConcurrencyError
from pbem.table import autopilot, away, botseats, talk
from pbem.organising import organisers
from pbem.post import webhooks
from pbem.errors import NotFound
from pbem.service import ServiceError
from pbem.web.common import (PageError, action_refused, check_game, command_text, links, read_play, read_token, service,
                             settings)
from pbem.web.newgame import FORM_ID, games, open_asked, organiser
from pbem.web.play import stale_page

bp = Blueprint("api", __name__, url_prefix="/api")


def bad(message: str, status: int = 400, code: str = "bad_request") -> PageError:
    return PageError(status, "Bad request", message, code)


@bp.get("/games/<game_id>")
def game(game_id: str) -> Any:
    check_game(game_id)
    return jsonify({"game": service().show(game_id), "log": service().log(game_id)})


@bp.get("/play/<token>")
def play(token: str) -> Any:
    seat = read_play(token)
    if seat.stale:
        raise stale_page(seat, api=True)
    return jsonify(service().seat_view(seat.claims.game_id, seat.claims.seat))


def plain_json() -> bool:
    """Whether the body is declared ``application/json``, with no parameter but ``charset=utf-8``."""
    params = {k.lower(): v.lower() for k, v in request.mimetype_params.items()}
    return request.mimetype == "application/json" and params in ({}, {"charset": "utf-8"})


def posted_command() -> str | dict[str, Any]:
    """``{"text": "..."}`` or ``{"action": {...}}``, checked for shape and types."""
    data = request.get_data(cache=False)  # refuses a body over MAX_CONTENT_LENGTH with a 413 first
    if not plain_json():
        raise bad("send the command as JSON with Content-Type: application/json", 415, "unsupported_media_type")
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):
        raise bad("the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise bad('the body must be a JSON object: {"text": "..."} or {"action": {...}}')
    unknown = sorted(set(body) - {"text", "action"})
    if unknown:
        raise bad(f"unknown field(s): {', '.join(unknown)}")
    if ("text" in body) == ("action" in body):
        raise bad('give exactly one of "text" (a text command) or "action" (an action object)')
    if "text" in body:
        if not isinstance(body["text"], str) or not body["text"].strip():
            raise bad('"text" must be a non-empty string')
        return command_text(body["text"])
    action = body["action"]
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise bad('"action" must be an object with a string "kind", as listed in legal_actions')
    return action


@bp.post("/play/<token>")
def act(token: str) -> Any:
    seat = read_play(token)
    command = posted_command()
    if seat.stale:
        raise stale_page(seat, api=True)
    svc = service()
    game_id, index = seat.claims.game_id, seat.claims.seat
    if isinstance(command, dict):
        # decide accepts exactly the legal actions; handing it only those keeps odd JSON away from the rules
        legal = svc.legal(game_id, seat.email)
        match = next((entry for entry in legal if entry["action"] == command
                      and json.dumps(entry["action"], sort_keys=True) == json.dumps(command, sort_keys=True)), None)
        if match is None:
            if svc.kernel.moved_on(game_id, seat.claims.seq):  # legal at the link's move, maybe: a lost race
                raise stale_page(seat, api=True, meanwhile=True)
            raise PageError(422, "Not allowed now", "that action is not legal now; legal_actions lists what is",
                            "illegal_command", {"legal": [entry["text"] for entry in legal]})
        command = match["action"]
    try:
        result = svc.act_as(game_id, index, command, cause=Cause("api", seat.claims.cause()),
                            expected_seq=seat.claims.seq)
    except (StaleCommand, ConcurrencyError):
        raise stale_page(seat, api=True, meanwhile=True) from None
    except (ActionError, ServiceError) as err:
        if svc.kernel.moved_on(game_id, seat.claims.seq):  # refused on a move that came first: a lost race
            raise stale_page(seat, api=True, meanwhile=True) from None
        refusal = action_refused(err)
        if refusal.status == 422:
            refusal.extra["legal"] = [entry["text"] for entry in svc.legal(game_id, seat.email)]
        raise refusal from None
    shown = svc.show(game_id, seat.email)
    token = links().play(game_id, index, shown["seq"])
    return jsonify({"receipt": [{"seq": e.seq, "type": e.type, "hash": e.hash} for e in result.events],
                    "seq": shown["seq"], "status": shown["status"], "prompt": shown["your_prompt"],
                    "next_token": token, "next_url": url_for("api.play", token=token)})


@bp.post("/play/<token>/say")
def say(token: str) -> Any:
    """Table talk (``pbem.table.talk``): ``{"text": "...", "to": ["Ben"] | null, "kind": "say" | "note" | "seal"}``."""
    seat = read_play(token)
    data = request.get_data(cache=False)
    if not plain_json():
        raise bad("send the message as JSON with Content-Type: application/json", 415, "unsupported_media_type")
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):
        raise bad("the body is not valid JSON") from None
    if not isinstance(body, dict) or sorted(set(body) - {"text", "to", "kind"}):
        raise bad('the body must be a JSON object with "text", and optionally "to" (a list of names) and "kind"')
    kind = body.get("kind", "say")
    chosen = body.get("to") or []
    if kind not in talk.KINDS or not isinstance(chosen, list) or not all(isinstance(x, (str, int)) for x in chosen):
        raise bad('"kind" is say, note or seal; "to" a list of player names (or null: everyone)')
    game_id, index = seat.claims.game_id, seat.claims.seat
    names = [s["name"] for s in service().show(game_id)["seats"]]
    try:
        words = talk.words(body.get("text") if isinstance(body.get("text"), str) else "")
        to = talk.recipients([str(x) for x in chosen], names, index) if kind == "say" and chosen else None
        result = service().say(game_id, index, talk.Talk(kind, words, to), cause=Cause("api", seat.claims.cause()))
    except (ActionError, ServiceError) as err:
        raise bad(str(err)) from None
    return jsonify({"receipt": [{"seq": e.seq, "type": e.type, "hash": e.hash} for e in result.events]})


@bp.get("/muster/<token>")
def muster_of(token: str) -> Any:
    """The organiser's muster: every place with its address and answer."""
    from pbem.web.muster import read_muster
    return jsonify(read_muster(token)[1].to_json(with_emails=True))


@bp.route("/invitation/<token>", methods=["GET", "POST"])
def invitation(token: str) -> Any:
    """An invitation (the others by name only); POST ``{"answer": "accept" | "decline"}`` answers it."""
    from pbem.organising import muster
    from pbem.web.muster import REFUSALS, read_invitation
    claims, muster_id, place, sent, found = read_invitation(token)
    if request.method == "POST":
        data = request.get_data(cache=False)
        if not plain_json():
            raise bad("send the answer as JSON with Content-Type: application/json", 415, "unsupported_media_type")
        try:
            body = json.loads(data)
        except (ValueError, RecursionError):
            raise bad("the body is not valid JSON") from None
        if not isinstance(body, dict) or set(body) != {"answer"} or body["answer"] not in muster.ANSWERS:
            raise bad('the body must be {"answer": "accept"} or {"answer": "decline"}')
        try:
            found = muster.answer(service(), muster_id, place, sent, body["answer"], cause=Cause("api", claims.cause()))
        except muster.InvitationRefused as err:
            raise PageError(REFUSALS.get(err.code, (409, ""))[0], "Refused", str(err), err.code) from None
    shown = found.to_json(with_emails=False)
    mine = found.invitations[place]  # the place's current invitee: the link's holder only if not replaced since
    you = {**shown["invitations"][place], "email": mine.email} if mine.invitation == sent else None
    return jsonify({**shown, "invitations": [i for i in shown["invitations"] if i["slot"] != place], "you": you})
# ---- a new game (pbem.organising): the new-game page's form as JSON, behind the same new-game link ----

NEW_GAME_FIELDS = {"game", "players", "options", "turn_hours", "interrupt_hours", "vacation", "vacation_days",
                   "autopilot_after", "autopilot_bot", "bots", "data", "position", "name", "request"}


@bp.get("/new/<token>")
def new_game_offer(token: str) -> Any:
    """What the new-game page offers: each game with its player counts, its options in words, whether it begins
    from a position; the policies for an away player; the defaults."""
    organiser(token)
    s = settings()
    return jsonify({"games": [{
        "game": g["key"], "title": g["title"], "min_players": g["min"], "max_players": g["max"],
        "positions": g["positions"], "options": [{
            "key": o.key, "label": o.label, "default": o.default().value,
            "choices": [{"value": c.value, "words": c.words, "json": c.json} for c in o.choices]}
            for o in g["options"]]} for g in games()],
        "vacations": [{"value": value, "words": words} for value, words in organisers.VACATIONS],
        "levels": list(botseats.LEVELS),
        "defaults": {"turn_hours": float(s["turn_hours"]), "interrupt_hours": float(s["interrupt_hours"]),
                     "vacation": "allowance", "vacation_days": away.DEFAULT_DAYS,
                     "autopilot_after": autopilot.DEFAULT_AFTER, "autopilot_bot": botseats.DEFAULT_LEVEL,
                     "bots": []}})


@bp.post("/new/<token>")
def new_game(token: str) -> Any:
    """Ask for a game as the new-game page does: checked whole (the position by its game), then a muster opens."""
    email = organiser(token)
    body = json_object(NEW_GAME_FIELDS)
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) and set(p) <= {"name", "email"}
                                                and all(isinstance(v, str) for v in p.values()) for p in players):
        raise bad('"players" must be a list of {"name": "...", "email": "..."}, in seat order')
    if not isinstance(body.get("options", {}), dict):
        raise bad('"options" must be an object: each option\'s key and a choice (its "value" or its "json")')
    texts = {k: body.get(k) for k in ("game", "name", "vacation", "autopilot_bot", "request")}
    if not all(v is None or isinstance(v, str) for v in texts.values()):
        raise bad('"game", "name", "vacation", "autopilot_bot" and "request" are text')
    bots = body.get("bots", [])
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots) or len(bots) > MAX_PLAYERS:
        raise bad('"bots" must be a list of levels ("random", "greedy" or "search"), one per seat the computer plays')
    counts = {k: body.get(k) for k in ("turn_hours", "interrupt_hours", "vacation_days", "autopilot_after")}
    if not all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in counts.values()):
        raise bad('"turn_hours", "interrupt_hours", "vacation_days" and "autopilot_after" are numbers')
    request_id = texts["request"] or ""
    if request_id and not FORM_ID.fullmatch(request_id):
        raise bad('"request" is 16 lowercase hex digits: the same request sent again opens no second game')
    s = settings()
    try:
        policy = organisers.seat_policy(texts["vacation"], _whole(counts["vacation_days"]),
                                        _whole(counts["autopilot_after"]), texts["autopilot_bot"])
        hours = {k: float(counts[k] if counts[k] is not None else s[k]) for k in ("turn_hours", "interrupt_hours")}
        asked = organisers.check(service().kernel.games, texts["game"] or "",
                                 [(p.get("name", ""), p.get("email", "")) for p in players][:MAX_PLAYERS],
                                 body.get("options", {}), hours, body.get("data"), body.get("position"), bots=bots)
        found = open_asked(token, email, asked, policy, " ".join((texts["name"] or "").split())[:organisers.MAX_NAME],
                           request_id)
    except ServiceError as err:
        raise PageError(400, "Please correct this", str(err), "bad_field") from None
    muster_token = links().make("muster", found.muster_id)
    return jsonify({"muster": found.to_json(with_emails=True), "token": muster_token,
                    "url": url_for("api.muster_of", token=muster_token),
                    "page": url_for("muster.organiser_page", token=muster_token)}), 201


MAX_PLAYERS = 12  # more than any game seats: a longer list is refused by the game's count, not read whole


def _whole(value: Any) -> str | None:
    """A count as the page's field gives it (a whole number's digits), for ``organisers.seat_policy``."""
    if value is None:
        return None
    return str(int(value)) if float(value).is_integer() else str(value)


# ---- webhooks (pbem.post.webhooks): a player's, through their play link; a game's, through the organiser's link ----


def json_object(allowed: set[str]) -> dict[str, Any]:
    data = request.get_data(cache=False)
    if not plain_json():
        raise bad("send JSON with Content-Type: application/json", 415, "unsupported_media_type")
    try:
        body = json.loads(data or b"{}")
    except (ValueError, RecursionError):
        raise bad("the body is not valid JSON") from None
    if not isinstance(body, dict) or set(body) - allowed:
        raise bad(f"the body must be a JSON object with only {', '.join(sorted(allowed))}")
    return body


def hook_owner(kind: str, token: str) -> tuple[tuple[str, str], dict[str, Any]]:
    """The webhooks' owner a link names: ``("player", email)`` for a play link, ``("game", id)`` for the organiser's."""
    if kind == "play":
        seat = read_play(token)
        return ("player", seat.email), seat.claims.cause()
    claims = read_token("organiser", token)
    check_game(claims.subject)
    return ("game", claims.subject), claims.cause()


@bp.get("/<any(play, organise):kind>/<token>/webhooks")
def list_webhooks(kind: str, token: str) -> Any:
    """The webhooks in use: id, kind, host (never the address), posts waiting and failed."""
    owner, _ = hook_owner(kind, token)
    return jsonify({"webhooks": webhooks.owned(service().store, *owner)})


@bp.post("/<any(play, organise):kind>/<token>/webhooks")
def add_webhook(kind: str, token: str) -> Any:
    """``{"url": "https://...", "kind": "discord" | "slack" | "json" | null, "seq": N}``: 201 with the webhook and,
    for a json webhook, its signing secret (this once)."""
    owner, detail = hook_owner(kind, token)
    body = json_object({"url", "kind", "seq"})
    chosen, seq = body.get("kind"), body.get("seq")
    if not isinstance(body.get("url"), str) or (chosen is not None and not isinstance(chosen, str)):
        raise bad('"url" must be a string, and "kind" discord, slack, json or null')
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        raise bad('"seq" must be a whole number: the event the organiser saw last')
    try:
        added = service().add_webhook(owner, body["url"], chosen, webhooks.Policy.of(settings()),
                                      cause=Cause("api", detail), expected_seq=seq)
    except (StaleCommand, ConcurrencyError):
        raise PageError(409, "Moved on", "the game moved on since that seq; read it again", "stale") from None
    except ServiceError as err:
        raise bad(str(err), 404 if isinstance(err, NotFound) else 400, "bad_webhook") from None
    return jsonify({"webhook": added.webhook, "secret": added.secret}), 201


@bp.delete("/<any(play, organise):kind>/<token>/webhooks/<webhook_id>")
def remove_webhook(kind: str, token: str, webhook_id: str) -> Any:
    owner, detail = hook_owner(kind, token)
    try:
        service().remove_webhook(owner, webhook_id, cause=Cause("api", detail))
    except ServiceError as err:
        raise bad(str(err), 404 if isinstance(err, NotFound) else 400, "not_found") from None
    return jsonify({"removed": webhook_id})
