"""The organiser's page behind a signed link: pause, resume, extend, decide an undo request; each on record with a reason.

Every form carries the move the page showed (``seq``). A pause, a resume or an extension is
refused if anything at all was recorded since (they are made of the deadlines the page listed);
a decision on an undo request only if a move or an undo was (answers meanwhile do not change
what is decided).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from events.handling import Cause, StaleCommand
from events.store import ConcurrencyError
from pbem.proof import takeback
from pbem.table import seatlife
from pbem.post import undelivered, webhooks
from pbem.table.autopilot import organiser_of
from pbem.table.delivery import UNDO_REQUEST_CLOSED
from pbem.service import ServiceError
from pbem.web.common import (PageError, check_csrf, check_game, decimal, links, moved_on_meanwhile, posted_seq,
                             read_token, reader_zone, recorded_since, service, settings)

bp = Blueprint("organise", __name__, url_prefix="/organise")


def game_of(token: str) -> tuple[str, dict[str, Any]]:
    claims = read_token("organiser", token)
    check_game(claims.subject)
    return claims.subject, claims.cause()


def page(token: str, game_id: str, done: str = "", refusal: PageError | None = None, secret: str | None = None) -> Any:
    svc = service()
    row = svc.store.query("SELECT status, paused_at, last_seq FROM games WHERE game_id = ?", (game_id,))[0]
    deadlines = svc.store.query("SELECT d.seat, s.name, d.kind, d.due_at, d.reminders_sent FROM deadlines d "
                                "JOIN seats s ON s.game_id = d.game_id AND s.seat = d.seat "
                                "WHERE d.game_id = ? ORDER BY d.due_at", (game_id,))
    state = svc.load(game_id)
    names = [s.name for s in state.config.seats]
    found = svc.undo_request(game_id)
    organiser = organiser_of(svc.store, game_id)
    shown = render_template("web/organise.html", token=token, csrf=links().csrf(token), game_id=game_id,
                            title=svc.kernel.rules(state).title, status=row["status"], paused_at=row["paused_at"],
                            deadlines=deadlines, done=done, last_seq=state.seq, seq=state.seq,
                            refusal=refusal, asked=found.to_json(names) if found else None,
                            told=takeback.told(svc, state, found, None) if found else None,
                            seats=seatlife.seats_of(svc, game_id), organiser=organiser,
                            not_arriving=undelivered.seats_of(svc.store, game_id),
                            tz=reader_zone(organiser) if organiser else str(settings()["timezone"]),
                            board_url=url_for("games.page", game_id=game_id),
                            hooks=webhooks.owned(svc.store, "game", game_id), hook_for="game", hook_secret=secret,
                            hook_add=url_for("organise.add_webhook", token=token),
                            hook_remove=url_for("organise.remove_webhook", token=token))
    return (shown, refusal.status) if refusal is not None else shown


@bp.get("/<token>")
def show(token: str) -> Any:
    game_id, _ = game_of(token)
    return page(token, game_id)


@bp.post("/<token>")
def act(token: str) -> Any:
    game_id, detail = game_of(token)
    check_csrf(token, request.form.get("csrf"))
    seq = posted_seq()
    what = request.form.get("what", "")
    reason = (request.form.get("reason") or "").strip()[:300]
    cause = Cause("link", detail)
    svc = service()
    try:
        if what == "pause":
            svc.pause(game_id, reason or "paused by the organiser", cause=cause, expected_seq=seq)
            done = "The game is paused: no reminders and no time-outs until you resume it."
        elif what == "resume":
            svc.resume(game_id, reason or "resumed by the organiser", cause=cause, expected_seq=seq)
            done = "The game is running again; the deadlines moved on by the length of the pause."
        elif what == "extend":
            hours = decimal(request.form.get("hours"), "hours", "the extension in hours, e.g. 24 or 1.5")
            if not 0 < hours <= 24 * 60:
                raise PageError(400, "Out of range", "An extension is between a minute and 60 days.", "bad_hours")
            svc.extend(game_id, hours, reason, cause=cause, expected_seq=seq)
            done = f"Every running deadline moved {hours:g} hours later."
        elif what in ("undo-approve", "undo-refuse"):
            choice = what.split("-")[1]
            result = svc.decide_undo(game_id, request.form.get("request", ""), choice, reason, cause=cause,
                                     expected_seq=seq)
            closed = [e.payload for e in result.events if e.type == UNDO_REQUEST_CLOSED]
            if closed and closed[0]["result"] == "approved":
                done = "Approved: the moves were taken back, and the players were told."
            elif closed and closed[0]["result"] == "lapsed":
                done = f"The request lapsed, so nothing was taken back: {closed[0]['reason']}."
            else:
                done = "Refused: nothing was taken back, and the players were told."
        else:
            raise PageError(400, "Unknown request", "Choose pause, resume, extend, or approve or refuse the undo "
                            "request.", "bad_request")
    except (StaleCommand, ConcurrencyError):
        return page(token, game_id, refusal=moved_on_meanwhile())
    except ServiceError as err:
        raise PageError(409, "Not possible now", str(err), "refused") from None
    return page(token, game_id, done)


@bp.post("/<token>/webhooks")
def add_webhook(token: str) -> Any:
    """Add a webhook to the game: its public news is posted there too (``pbem.post.webhooks``); an event of the game."""
    game_id, detail = game_of(token)
    check_csrf(token, request.form.get("csrf"))
    seq = posted_seq()
    try:
        added = service().add_webhook(("game", game_id), request.form.get("url", ""), request.form.get("kind") or None,
                                      webhooks.Policy.of(settings()), cause=Cause("link", detail), expected_seq=seq)
    except (StaleCommand, ConcurrencyError):
        return page(token, game_id, refusal=moved_on_meanwhile())
    except ServiceError as err:
        if recorded_since(game_id, seq):  # refused for what came in after the page (the game ended): a lost race
            return page(token, game_id, refusal=moved_on_meanwhile())
        return page(token, game_id, refusal=PageError(400, "Webhook not added", f"{err}. Nothing was changed."))
    hook = added.webhook
    return page(token, game_id, f"The game's public news is now posted to the {webhooks.KIND_NAMES[hook['kind']]} "
                f"webhook at {hook['host']} too; a first post says so.", secret=added.secret)


@bp.post("/<token>/webhooks/remove")
def remove_webhook(token: str) -> Any:
    game_id, detail = game_of(token)
    check_csrf(token, request.form.get("csrf"))
    seq = posted_seq()
    try:
        service().remove_webhook(("game", game_id), request.form.get("webhook", ""), cause=Cause("link", detail),
                                 expected_seq=seq)
    except (StaleCommand, ConcurrencyError):
        return page(token, game_id, refusal=moved_on_meanwhile())
    except ServiceError as err:
        if recorded_since(game_id, seq):  # removed meanwhile by another page: a lost race
            return page(token, game_id, refusal=moved_on_meanwhile())
        return page(token, game_id, refusal=PageError(404, "No such webhook", f"{err}. Nothing was changed."))
    return page(token, game_id, "The webhook is removed: nothing more is posted to it.")
