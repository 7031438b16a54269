"""The pages of a muster: an invitation (accept or decline) and the organiser's muster page (replace, cancel).

GET only shows (mail scanners open links); answering is a POST with the page's CSRF token. An
invitation's link names one place of one muster and the invitation it was sent with: once answered it
is spent, and once the organiser invites someone else to the place it answers for nobody. Invitees see
the other players' names, never their addresses; the organiser's page shows the addresses it sent to.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from events.handling import Cause
from events.store import ConcurrencyError
from pbem.organising import muster, organisers
from pbem.errors import ServiceError
from pbem.instance.links import Claims
from pbem.service import Player
from pbem.web.common import PageError, check_csrf, links, read_token, reader_zone, sentence, service, settings

bp = Blueprint("muster", __name__)

REFUSALS = {"spent": (409, "Already answered"), "replaced": (410, "Invitation withdrawn"),
            "expired": (410, "Invitation expired"), "cancelled": (410, "Game cancelled"),
            "started": (409, "The game has started"), "unknown_muster": (404, "No such invitation")}


def described(found: muster.Muster) -> list[tuple[str, str]]:
    """The game's options and time limits in words (never the rules' keys)."""
    words: list[tuple[str, str]] = []
    for option in organisers.options_of(found.game_type):
        value = found.options.get(option.key, option.default().json)
        choice = next((c for c in option.choices if c.json == value), option.default())
        words.append((option.label, choice.words))
    for key, label in (("turn_hours", "Time for a turn"), ("interrupt_hours", "Time for an out-of-turn decision")):
        if key in found.options:
            words.append((label, f"{float(found.options[key]):g} hours"))
    words += organisers.policy_described(found.options)
    if found.data_override:
        words.append(("Game data", "corrected by the organiser (a data override file)"))
    if found.position is not None:
        words.append(("Start", "From a position the organiser set up, not from a new deal"))
    return words


# ---- an invitation ----------------------------------------------------------------------------

def read_invitation(token: str) -> tuple[Claims, str, int, int, muster.Muster]:
    claims: Claims = read_token("invite", token)
    try:
        muster_id, slot, invitation = claims.subject.split(".")
        place, sent = int(slot), int(invitation)
    except ValueError:
        raise PageError(403, "Link not valid", "This link is not valid.", "forged_link") from None
    found = muster.find(service().store, muster_id)
    if found is None or not 0 <= place < len(found.invitations):
        raise PageError(404, "No such invitation", "There is no such invitation on this server.", "unknown_muster")
    return claims, muster_id, place, sent, found


def invitation_page(token: str, found: muster.Muster, place: int, sent: int, *, chosen: str = "", done: str = "",
                    refusal: PageError | None = None) -> Any:
    mine = found.invitations[place]
    try:
        muster.usable(found, found.muster_id, place, sent)
        why_not = ""
    except muster.InvitationRefused as err:
        why_not = sentence(str(err))
    shown = render_template("web/invitation.html", token=token, csrf=links().csrf(token), m=found,
                            you=mine if mine.invitation == sent else None, others=[
                                {"name": i.name, "status": muster.STATUS_WORDS[i.status]}
                                for i in found.invitations if i.slot != place],
                            options=described(found), chosen=chosen, done=done, refusal=refusal, why_not=why_not,
                            tz=reader_zone(mine.email))
    return (shown, refusal.status) if refusal is not None else shown


@bp.get("/invitation/<token>")
def invitation(token: str) -> Any:
    _, _, place, sent, found = read_invitation(token)
    chosen = request.args.get("answer", "")
    return invitation_page(token, found, place, sent, chosen=chosen if chosen in muster.ANSWERS else "")


@bp.post("/invitation/<token>")
def answer(token: str) -> Any:
    claims, muster_id, place, sent, _ = read_invitation(token)
    check_csrf(token, request.form.get("csrf"))
    choice = request.form.get("answer", "")
    if choice not in muster.ANSWERS:
        raise PageError(400, "No answer chosen", "Choose Accept or Decline. Nothing was changed.", "bad_field")
    try:
        found = muster.answer(service(), muster_id, place, sent, choice, cause=Cause("link", claims.cause()))
    except muster.InvitationRefused as err:
        status, title = REFUSALS.get(err.code, (409, "Not possible now"))
        current = muster.get(service().store, muster_id)
        return invitation_page(token, current, place, sent,
                               refusal=PageError(status, title, sentence(str(err)) + " Nothing was changed.",
                                                 err.code))
    if found.status == "started":
        done = "You accepted, and so has everyone: the game has started. Your first mail from it is on its way."
    elif choice == "accept":
        done = "You accepted. The game starts when everyone has; you will get its first mail then."
    else:
        done = "You declined. The organiser was told. Thank you for answering."
    return invitation_page(token, found, place, sent, done=done)


# ---- the organiser's muster page --------------------------------------------------------------

def read_muster(token: str) -> tuple[Claims, muster.Muster]:
    claims: Claims = read_token("muster", token)
    found = muster.find(service().store, claims.subject) if muster.is_muster(claims.subject) else None
    if found is None:
        raise PageError(404, "No such game", "There is no such game being mustered on this server.",
                        "unknown_muster")
    return claims, found


def organiser_page_of(token: str, found: muster.Muster, *, done: str = "", refusal: PageError | None = None) -> Any:
    game_url = (f"/organise/{links().make('organiser', found.game_id)}" if found.game_id else None)
    shown = render_template("web/muster.html", token=token, csrf=links().csrf(token), m=found,
                            words=muster.STATUS_WORDS, options=described(found), done=done, refusal=refusal,
                            game_url=game_url, board_url=url_for("games.page", game_id=found.game_id)
                            if found.game_id else None, tz=reader_zone(found.organiser))
    return (shown, refusal.status) if refusal is not None else shown


@bp.get("/muster/<token>")
def organiser_page(token: str) -> Any:
    _, found = read_muster(token)
    done = ""
    if request.args.get("created") and found.status == "open":
        done = ("The invitations are on their way. This page shows who has answered; keep its link (it is in the "
                "mail you were sent too).")
    elif request.args.get("created") and found.status == "started":
        done = "Everyone has accepted already, so the game has started: the first mails are on their way."
    return organiser_page_of(token, found, done=done)


@bp.post("/muster/<token>")
def organiser_act(token: str) -> Any:
    claims, found = read_muster(token)
    check_csrf(token, request.form.get("csrf"))
    what = request.form.get("what", "")
    cause = Cause("link", claims.cause())
    try:
        if what == "replace":
            slot = request.form.get("slot", "")
            if not slot.isascii() or not slot.isdigit() or int(slot) >= len(found.invitations):
                raise ServiceError("choose the place to fill")
            email = organisers.check_email(request.form.get("email", "")[:300])
            name = " ".join((request.form.get("name") or "").split())[:organisers.MAX_NAME] or email.split("@")[0]
            organisers.check(service().kernel.games, found.game_type,
                             [(i.name, i.email) if i.slot != int(slot) else (name, email) for i in found.invitations],
                             {}, {}, None)  # the same checks as the form's: names, addresses
            found = muster.replace(service(), found.muster_id, int(slot), Player(email, name),
                                   days=float(settings()["invitation_days"]), cause=cause)
            done = f"{name} was invited to place {int(slot) + 1}; the earlier invitation's links no longer work."
        elif what == "cancel":
            reason = " ".join((request.form.get("reason") or "").split())[:300]
            found = muster.cancel(service(), found.muster_id, reason, cause=cause)
            done = "The game is cancelled; every invited player was told."
        else:
            raise PageError(400, "Unknown request", "Choose to invite someone in a place, or to cancel. Nothing was "
                            "changed.", "bad_request")
    except ConcurrencyError:
        refusal = PageError(409, "Answered meanwhile", "Someone answered while you were deciding. Nothing was "
                            "changed; the page shows the muster as it is now.", "stale")
        return organiser_page_of(token, muster.get(service().store, found.muster_id), refusal=refusal)
    except ServiceError as err:
        refusal = PageError(400, "Not possible", sentence(str(err)) + " Nothing was changed.", "refused")
        return organiser_page_of(token, muster.get(service().store, found.muster_id), refusal=refusal)
    return organiser_page_of(token, found, done=done)
