"""A player's address on the web: a new one asked for on the games page and confirmed by the link mailed to it;
one given by the organiser, at once, for a seat whose mail is not arriving.

* ``POST /home/<token>/address``: ``email``; mails the link (``pbem.post.new_address``).
* ``GET /address/<token>`` shows the change; ``POST /address/<token>`` (the page's CSRF token) makes it. A GET only
  shows: mail scanners open links before the player does.
* ``POST /organise/<token>/address``: ``seat``, ``email`` and the page's ``seq`` (``pbem.post.undelivered``).

Every refusal says why and writes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from events.handling import Cause, StaleCommand
from events.store import ConcurrencyError
from pbem.errors import ServiceError
from pbem.instance.links import LinkError
from pbem.post import new_address, undelivered
from pbem.web.common import (PageError, check_csrf, check_game, home_token, link_refused, links, moved_on_meanwhile,
                             number, posted_seq, read_token, service)
from pbem.web.home import render as home_page
from pbem.web.organise import page as organise_page

bp = Blueprint("address", __name__)


@bp.post("/home/<token>/address")
def ask(token: str) -> Any:
    claims = read_token("home", token)
    check_csrf(token, request.form.get("csrf"))
    try:
        change = new_address.ask(service(), claims.subject, request.form.get("email"))
    except ServiceError as err:
        return home_page(token, claims.subject, status=400, refusal=f"{err}.", refused="Address not changed")
    except LookupError:
        raise PageError(404, "No such player", "This server has no games of yours, so there is no address to "
                        "change. Nothing was changed.", "unknown_player") from None
    return home_page(token, claims.subject,
                     done=f"A link was mailed to {change.new_email}: open it there and confirm, and the change is "
                          f"made. Until then your mail goes where it went. The link works for "
                          f"{new_address.CONFIRM_DAYS} days.")


def _change(token: str) -> new_address.Change:
    try:
        claims = links().read(new_address.PURPOSE, token, max_age=new_address.CONFIRM_DAYS * 86_400)
    except LinkError as err:
        raise link_refused(err) from None
    change = new_address.find(service().store, claims.subject)
    if change is None:
        raise PageError(404, "No such change", "This change of address is not known here. Nothing was changed.",
                        "unknown_change")
    return change


def _done(token: str, change: new_address.Change, words: str) -> Any:
    return render_template("web/address.html", token=token, csrf="", change=change, done=words,
                           home_url=url_for("home.page", token=home_token(change.new_email)))


@bp.get("/address/<token>")
def show(token: str) -> Any:
    change = _change(token)
    if change.done_at:
        return _done(token, change, f"The change was made on {change.done_at[:10]}.")
    return render_template("web/address.html", token=token, csrf=links().csrf(token), change=change, done="",
                           home_url="")


@bp.post("/address/<token>")
def confirm(token: str) -> Any:
    change = _change(token)
    check_csrf(token, request.form.get("csrf"))
    try:
        made = new_address.confirm(service(), change.id)
    except new_address.AlreadyDone:
        return _done(token, change, "The change was made already.")
    except ServiceError as err:
        raise PageError(409, "Not changed", f"{err}.", "refused") from None
    return _done(token, made, "Every seat of yours now has this address; the tables that were told that your mail "
                              "was not arriving are told that it arrives again.")


@bp.post("/organise/<token>/address")
def organiser(token: str) -> Any:
    claims = read_token("organiser", token)
    game_id = claims.subject
    check_game(game_id)
    check_csrf(token, request.form.get("csrf"))
    seq = posted_seq()
    seat = number(request.form.get("seat"), "seat", "the seat's number")
    try:
        undelivered.give_address(service(), game_id, seat, request.form.get("email"),
                                 cause=Cause("link", claims.cause()), expected_seq=seq)
    except (StaleCommand, ConcurrencyError):
        return organise_page(token, game_id, refusal=moved_on_meanwhile())
    except ServiceError as err:
        return organise_page(token, game_id, refusal=PageError(400, "Address not given", f"{err}.", "refused"))
    name = next((str(p["name"]) for p in service().players(game_id) if int(p["seat"]) == seat), "The player")
    return organise_page(token, game_id, f"{name}'s mail goes to the address you gave from now on; the table is "
                                         "told that it arrives again.")
