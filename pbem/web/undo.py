"""The page behind an undo request's link: the request, the moves it would take back, Approve and Refuse.

GET only shows (mail scanners open links); answering is a POST with the page's CSRF token.
The link names one seat's answer to one request of one game, so it answers for nobody else
and for no other request; a request answered or closed shows so and takes no second answer.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from events.handling import Cause, StaleCommand
from events.rules import ActionError
from events.store import ConcurrencyError
from pbem.table.delivery import UNDO_ANSWERS, UNDO_REQUEST_CLOSED
from pbem.instance.links import UndoClaims
from pbem.service import ServiceError
from pbem.proof.takeback import told
from pbem.table.undo_requests import AlreadyAnswered, NotAsked, Request, RequestClosed
from pbem.table.replacing import undo_refusal
from pbem.web.common import (PageError, action_refused, check_csrf, check_game, home_token, links, moved_on_meanwhile,
                             posted_seq, read_token, reader_zone, recorded_since, sentence, service)

bp = Blueprint("undo", __name__, url_prefix="/undo")

RESULTS = {"approved": "Approved: the moves were taken back", "refused": "Refused: nothing was taken back",
           "expired": "Not answered in time: nothing was taken back",
           "lapsed": "Overtaken by play: nothing was taken back"}


def read_link(token: str) -> tuple[UndoClaims, Request]:
    """The link's seat and request, checked against the database."""
    claims: UndoClaims = read_token("undo", token)
    check_game(claims.game_id)
    found = service().undo_request(claims.game_id, claims.request)
    if found is None:
        raise PageError(404, "No such request", f"Game {claims.game_id} has no such request to take back moves.",
                        "unknown_request")
    if claims.seat not in found.approvers:
        raise PageError(403, "Not asked", "This request does not ask this player.", "not_asked")
    refused = undo_refusal(service().store, claims.game_id, claims.request, claims.seat)
    if refused:
        raise PageError(403, "Link no longer yours", sentence(refused), "seat_replaced")
    return claims, found


def page(token: str, claims: UndoClaims, found: Request, *, chosen: str = "", done: str = "",
         refusal: PageError | None = None) -> Any:
    svc = service()
    state = svc.load(claims.game_id)
    names = [s.name for s in state.config.seats]
    shown = found.to_json(names)
    taken = told(svc, state, found, claims.seat)
    play_token = links().play(claims.game_id, claims.seat, state.seq)
    email = next(str(p["email"]) for p in svc.players(claims.game_id) if p["seat"] == claims.seat)
    shown = render_template(
        "web/undo.html", token=token, csrf=links().csrf(token), game_id=claims.game_id, seq=state.seq, refusal=refusal,
        title=svc.kernel.rules(state).title, name=names[claims.seat], req=shown,
        moves=taken.lines, told=taken, your_answer=found.answers.get(claims.seat), chosen=chosen,
        waiting=[names[s] for s in found.waiting_for()], result=RESULTS.get(found.status, ""), done=done,
        play_url=url_for("play.page", token=play_token),
        audit_url=url_for("proof.player_audit", token=play_token, seq=found.from_seq),
        home_url=url_for("home.page", token=home_token(email)), tz=reader_zone(email))
    return (shown, refusal.status) if refusal is not None else shown


@bp.get("/<token>")
def show(token: str) -> Any:
    claims, found = read_link(token)
    chosen = request.args.get("answer", "")
    return page(token, claims, found, chosen=chosen if chosen in UNDO_ANSWERS else "")


@bp.post("/<token>")
def answer(token: str) -> Any:
    claims, _ = read_link(token)
    check_csrf(token, request.form.get("csrf"))
    seq = posted_seq()
    choice = request.form.get("answer", "")
    if choice not in UNDO_ANSWERS:
        raise PageError(400, "No answer chosen", "Choose Approve or Refuse.", "bad_field")
    svc = service()
    try:
        result = svc.answer_undo(claims.game_id, claims.request, claims.seat, choice,
                                 cause=Cause("link", claims.cause()), expected_seq=seq)
    except (StaleCommand, ConcurrencyError):
        found = svc.undo_request(claims.game_id, claims.request)
        assert found is not None
        return page(token, claims, found, refusal=moved_on_meanwhile())
    except RequestClosed as err:
        raise PageError(409, "Request closed", sentence(str(err)), "request_closed") from None
    except AlreadyAnswered as err:
        raise PageError(409, "Already answered", sentence(str(err)), "already_answered") from None
    except NotAsked as err:
        raise PageError(403, "Not asked", sentence(str(err)), "not_asked") from None
    except (ActionError, ServiceError) as err:
        if recorded_since(claims.game_id, seq):  # refused for what came in after the page: a lost race
            found = svc.undo_request(claims.game_id, claims.request)
            assert found is not None
            return page(token, claims, found, refusal=moved_on_meanwhile())
        raise action_refused(err) from None
    closed = next((e.payload for e in result.events if e.type == UNDO_REQUEST_CLOSED), None)
    found = svc.undo_request(claims.game_id, claims.request)
    assert found is not None
    names = [str(p["name"]) for p in svc.players(claims.game_id)]
    if closed is None:
        done = f"You approved. Still waiting for {' and '.join(names[s] for s in found.waiting_for())}."
    elif closed["result"] == "approved":
        done = "You approved, and so has everyone asked: the moves were taken back."
    elif closed["result"] == "refused":
        done = "You refused: the request is closed and nothing was taken back."
    else:
        done = f"The request lapsed, so nothing was taken back: {closed['reason']}."
    return page(token, claims, found, done=done)
