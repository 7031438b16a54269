"""A player's home page: every game they play, with its deadline and the current link; their time zone and mails."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from events.handling import Cause
from pbem.table import away, reliability
from pbem.table.autopilot import status
from pbem.table.seat_events import left_words, span
from pbem.post import new_address, undelivered, webhooks
from pbem.errors import NotFound
from pbem.post.people import MailSettingError, chosen_zone, mail_settings_of, set_mail, set_zone
from pbem.instance.times import ZoneError
from pbem.web import zones
from pbem.web.common import PageError, check_csrf, links, read_token, service, settings

bp = Blueprint("home", __name__, url_prefix="/home")

HOME_PAGE = 30  # games on a page of the home page: those waiting for the player come first


def render(token: str, player_id: str, *, status: int = 200, done: str = "", refusal: str = "",
           refused: str = "Unknown time zone", secret: str | None = None) -> Any:
    svc = service()
    total, waiting = svc.count_games_of(player_id)
    pages = max(1, -(-total // HOME_PAGE))
    try:
        number = min(max(1, int(request.args.get("page", 1))), pages)
    except (TypeError, ValueError):
        number = 1
    games = []
    for row in svc.games_of(player_id, HOME_PAGE, (number - 1) * HOME_PAGE):
        play = links().play(row["game_id"], row["seat"], int(row["last_seq"]))
        games.append({**row, "play_url": url_for("play.page", token=play),
                      "replay_url": url_for("proof.player_replay", token=play),
                      "public_url": url_for("games.page", game_id=row["game_id"])})
    name = games[0]["name"] if games else ""
    emails = svc.store.query("SELECT email FROM players WHERE player_id = ?", (player_id,))
    record = reliability.of_player(svc.store, str(emails[0]["email"])).words() if emails else None
    paging = {"number": number, "pages": pages, "total": total, "waiting": waiting,
              "first": (number - 1) * HOME_PAGE + 1, "last": (number - 1) * HOME_PAGE + len(games),
              "older": url_for("home.page", token=token, page=number + 1) if number < pages else None,
              "newer": url_for("home.page", token=token, page=number - 1) if number > 1 else None}
    email = str(emails[0]["email"]) if emails else ""
    trouble = undelivered.trouble_of(svc.store, email) if email else None
    chosen = chosen_zone(svc.store, player_id)
    default = str(settings()["timezone"])
    shown = render_template("web/home.html", games=games, paging=paging, name=name, record=record, token=token, csrf=links().csrf(token),
                            tz=chosen or default, chosen=chosen, default_zone=default,
                            zones=zones.choices(chosen or default), zone_script=zones.BROWSER_ZONE_SCRIPT,
                            mail=mail_settings_of(svc.store, player_id), done=done, refusal=refusal, refused=refused,
                            seats=panel(player_id), mail_trouble={**trouble, "here": True} if trouble else None,
                            address={"email": email, "waiting": new_address.waiting(svc.store, player_id)},
                            hooks=webhooks.owned(svc.store, "player", str(emails[0]["email"])) if emails else [],
                            hook_for="player", hook_secret=secret, hook_add=url_for("home.add_webhook", token=token),
                            hook_remove=url_for("home.remove_webhook", token=token))
    return shown, status


@bp.get("/<token>")
def page(token: str) -> Any:
    claims = read_token("home", token)
    return render(token, claims.subject)


@bp.post("/<token>/timezone")
def timezone(token: str) -> Any:
    """Set the player's time zone: every page and later mail they read shows times in it (and in UTC)."""
    claims = read_token("home", token)
    check_csrf(token, request.form.get("csrf"))
    try:  # the browser's zone when its button was pressed (the page offers it when scripts run), else the list's
        zone = set_zone(service().store, claims.subject, request.form.get("browser_zone") or request.form.get("timezone"))
    except ZoneError as err:
        return render(token, claims.subject, status=400, refusal=f"{err}.")
    except LookupError:
        raise PageError(404, "No such player", "This server has no games of yours, so there is no time zone to "
                        "set. Nothing was changed.", "unknown_player") from None
    return render(token, claims.subject, done=f"Your time zone is now {zone}.")


@bp.post("/<token>/mail")
def mail(token: str) -> Any:
    """Choose the mails: one for every decision or a daily digest, receipts for moves that end your part, and when
    table talk comes."""
    claims = read_token("home", token)
    check_csrf(token, request.form.get("csrf"))
    try:
        chosen = set_mail(service().store, claims.subject, request.form.get("mail_mode"),
                          request.form.get("receipts", "off"), request.form.get("talk_mail"))
    except MailSettingError as err:
        return render(token, claims.subject, status=400, refusal=f"{err}.", refused="Unknown mail setting")
    except LookupError:
        raise PageError(404, "No such player", "This server has no games of yours, so there are no mails to "
                        "set. Nothing was changed.", "unknown_player") from None
    return render(token, claims.subject, done=f"You now get {chosen.words()}.")


def _player(token: str) -> tuple[str, str]:
    """The player of a home link, and their address (a POST: the CSRF token checked)."""
    claims = read_token("home", token)
    check_csrf(token, request.form.get("csrf"))
    emails = service().store.query("SELECT email FROM players WHERE player_id = ?", (claims.subject,))
    if not emails:
        raise PageError(404, "No such player", "This server has no games of yours, so there is nothing to post. "
                        "Nothing was changed.", "unknown_player")
    return claims.subject, str(emails[0]["email"])


@bp.post("/<token>/webhooks")
def add_webhook(token: str) -> Any:
    """Add a webhook: the player's news is posted there too (``pbem.post.webhooks``)."""
    player_id, email = _player(token)
    try:
        added = service().add_webhook(("player", email), request.form.get("url", ""), request.form.get("kind") or None,
                                      webhooks.Policy.of(settings()), cause=Cause("link"))
    except webhooks.WebhookError as err:
        return render(token, player_id, status=400, refusal=f"{err}.", refused="Webhook not added")
    hook = added.webhook
    return render(token, player_id, secret=added.secret,
                  done=f"Your news is now posted to the {webhooks.KIND_NAMES[hook['kind']]} webhook at {hook['host']} "
                       "too; a first post says so.")


@bp.post("/<token>/webhooks/remove")
def remove_webhook(token: str) -> Any:
    player_id, email = _player(token)
    try:
        service().remove_webhook(("player", email), request.form.get("webhook", ""), cause=Cause("link"))
    except NotFound as err:
        return render(token, player_id, status=404, refusal=f"{err}.", refused="No such webhook")
    return render(token, player_id, done="The webhook is removed: nothing more is posted to it.")


def panel(player_id: str) -> dict[str, Any]:
    """The home page's part on absences and seats: each running game of the player, with their absences
    (their own reasons included: the page is theirs) and whether their seat is on autopilot."""
    svc = service()
    games = []
    for row in svc.games_of(player_id):
        if row["status"] != "running":
            continue
        game_id, seat = str(row["game_id"]), int(row["seat"])
        held = status(svc.store, game_id, seat)
        mine = away.absences_of(svc.store, game_id, seat)
        left = away.allowance_left(svc, game_id, seat) if mine else None
        games.append({"game_id": game_id, "title": row["title"], "seat": seat, "autopilot": bool(held["autopilot"]),
                      "resigned": bool(held["resigned"]),
                      "away": [{"from": a["starts_at"], "until": a["until"], "reason": a["reason"],
                                "shared": bool(a["shared"]), "running": a["status"] == "active",
                                "holds": _holds(away.held_seconds(a))} for a in mine],
                      "left": None if left is None else left_words(left, " of your allowance in this game")})
    return {"games": games}


def _holds(seconds: int | None) -> str | None:
    if seconds is None:
        return None
    return f"holding {span(seconds)} of your allowance" if seconds else "holding none of your allowance: it is used up"
