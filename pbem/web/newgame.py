"""Creating a game from the web: asking for a new-game link (open sign-up), and the new-game page behind one.

The new-game page is behind a signed link (purpose ``newgame``) naming the organiser by id; under
``organisers = "invited"`` only links the operator sent (``pbem organiser invite``) open it. Its form
is checked whole (``pbem.organising.organisers.check``, and ``pbem.organising.organisers.seat_policy`` for what happens when a
player is away or silent): a bad address, too many players, a policy out of range, a data file or a position (a
TOML file to begin from, ``pbem.organising.positions``) that does not fit gives the form back with one clear error
and writes nothing. A good one opens a muster (``pbem.organising.muster``) and goes on to its page.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for

from events.handling import Cause
from pbem.table import autopilot, away, botseats
from pbem.organising import muster, organisers, positions
from pbem.errors import ServiceError
from pbem.web.common import PageError, check_csrf, decimal, links, read_token, reader_zone, service, settings

bp = Blueprint("newgame", __name__, url_prefix="/new")

FORM_ID = re.compile(r"[0-9a-f]{16}")  # a new-game form's random id: the same form sent twice opens one muster
MAX_ROWS = 5  # player rows on the form: the most any game seats; the page shows as many as the chosen game allows
BOT_ROWS = 4  # seats the computer may play: a practice game of the largest table still needs one human
FIRST = "emerald"  # the game offered first, and chosen unless the organiser chooses another: the flagship


def games() -> list[dict[str, Any]]:
    """The games offered, the flagship first and the others by title, with their player counts and their options in
    words."""
    found = service().kernel.games
    return [{"key": key, "title": rules.title, "min": rules.min_seats, "max": min(rules.max_seats, MAX_ROWS),
             "options": organisers.options_of(key), "positions": positions.takes_positions(rules)}
            for key, rules in sorted(found.items(), key=lambda kv: (kv[0] != FIRST, kv[1].title))]


# ---- asking for a link ------------------------------------------------------------------------

def signup_page(*, done: str = "", refusal: PageError | None = None, email: str = "") -> Any:
    nonce = secrets.token_hex(8)
    shown = render_template("web/signup.html", open=settings()["organisers"] == "open", done=done, refusal=refusal,
                            nonce=nonce, csrf=links().csrf(f"signup.{nonce}"), email=email)
    return (shown, refusal.status) if refusal is not None else shown


@bp.get("")
def signup() -> Any:
    return signup_page()


@bp.post("")
def ask() -> Any:
    if settings()["organisers"] != "open":
        raise PageError(403, "By invitation", "Games on this server are created by invitation of its operator; "
                        "ask them for a link. Nothing was sent.", "closed")
    check_csrf(f"signup.{request.form.get('nonce', '')}", request.form.get("csrf"))
    email = (request.form.get("email") or "").strip()[:254]
    svc = service()
    try:
        if svc.notifier is None:
            raise ServiceError("this server sends no mail")
        organisers.signup(svc.store, svc.notifier, email)
    except ServiceError as err:
        return signup_page(refusal=PageError(400, "Not an address", str(err).capitalize() + ". Nothing was sent.",
                                             "bad_field"), email=email)
    return signup_page(done="If this address may create games here, a link to the new-game page is on its way to "
                            "it. Mails go out within minutes; one address gets at most one link an hour.")


# ---- the new-game page ------------------------------------------------------------------------

def organiser(token: str) -> str:
    """The address of the organiser whose new-game link this is (refused if they may not create games)."""
    claims = read_token("newgame", token)
    email = organisers.organiser_of(service().store, claims.subject, str(settings()["organisers"]))
    if email is None:
        raise PageError(403, "Link not valid", "This new-game link no longer opens the page: games on this server "
                        "are created by invitation of its operator.", "not_invited")
    return email


def form_page(token: str, email: str, *, form: dict[str, Any] | None = None,
              refusal: PageError | None = None) -> Any:
    s = settings()
    values = form or {"game": "", "name": "", "title": "", "turn_hours": f"{float(s['turn_hours']):g}",
                      "interrupt_hours": f"{float(s['interrupt_hours']):g}", "players": [("", "")] * MAX_ROWS,
                      "options": {}, "vacation": "allowance", "vacation_days": str(away.DEFAULT_DAYS), "random_seats": "",
                      "autopilot_after": str(autopilot.DEFAULT_AFTER), "autopilot_bot": botseats.DEFAULT_LEVEL,
                      "bots": [""] * BOT_ROWS, "form": secrets.token_hex(8)}
    shown = render_template("web/newgame.html", token=token, csrf=links().csrf(token), games=games(), form=values,
                            refusal=refusal, vacations=organisers.VACATIONS, levels=botseats.LEVELS, days=float(s["invitation_days"]), musters=[
                                {**m, "url": url_for("muster.organiser_page",
                                                     token=links().make("muster", m["muster_id"]))}
                                for m in muster.listing(service().store, email)[:20]], tz=reader_zone(email),
                            seats_max=max(g["max"] for g in games()))
    return (shown, refusal.status) if refusal is not None else shown


def open_asked(token: str, email: str, asked: organisers.Request, policy: dict[str, Any], name: str,
               form: str) -> muster.Muster:
    """Open the muster of a checked request (the page's or the API's); ``form``, the request's random id, makes the
    same request sent twice (a double click, a reload, a client's retry) open one muster, which it gives back."""
    try:
        return muster.open_muster(service(), organiser=email, organiser_name=name or email.split("@")[0],
                                  game_type=asked.game_type, title=asked.title, players=asked.players,
                                  options={**asked.options, **policy}, data_override=asked.data_override,
                                  days=float(settings()["invitation_days"]), position=asked.position,
                                  cause=Cause("link", read_token("newgame", token).cause()),
                                  muster_id=muster.muster_id_for(email, form) if form else None, name=asked.name)
    except muster.AlreadyOpened as err:
        return err.found


def uploaded(field: str, limit: int) -> bytes | None:
    """The file sent in a form's field (one byte over ``limit``, to be refused as too long), or None."""
    upload = request.files.get(field)
    return upload.read(limit + 1) if upload is not None and upload.filename else None


@bp.get("/<token>")
def new(token: str) -> Any:
    return form_page(token, organiser(token))


@bp.post("/<token>")
def create(token: str) -> Any:
    email = organiser(token)
    check_csrf(token, request.form.get("csrf"))
    f = request.form
    game = f.get("game", "")
    names, addresses = f.getlist("player_name")[:MAX_ROWS], f.getlist("player_email")[:MAX_ROWS]
    rows = [(n[:100], a[:300]) for n, a in zip(names, addresses)]
    bots = [b[:20] for b in f.getlist("bot")[:BOT_ROWS]]
    form = {"game": game, "name": (f.get("name") or "").strip()[:organisers.MAX_NAME],
            "title": (f.get("title") or "")[:200],
            "turn_hours": f.get("turn_hours", ""), "interrupt_hours": f.get("interrupt_hours", ""),
            "players": rows + [("", "")] * (MAX_ROWS - len(rows)),
            "options": {k: v for k, v in f.items() if k.startswith("opt.")},
            **{k: f.get(k, "")[:20] for k in ("vacation", "vacation_days", "autopilot_after", "autopilot_bot",
                                              "random_seats")},
            "bots": bots + [""] * (BOT_ROWS - len(bots)),
            "form": f.get("form", "") if FORM_ID.fullmatch(f.get("form", "")) else ""}
    try:
        policy = organisers.seat_policy(f.get("vacation"), f.get("vacation_days"), f.get("autopilot_after"),
                                        f.get("autopilot_bot"))
        hours = {key: decimal(f.get(key), words, "a number of hours, like 48 or 1.5")
                 for key, words in (("turn_hours", "The time for a turn"),
                                    ("interrupt_hours", "The time for an out-of-turn decision"))}
        raw = uploaded("data", organisers.MAX_OVERRIDE)
        begin = uploaded("position", positions.MAX_POSITION)
        chosen = {k.split(".", 2)[2]: v for k, v in f.items() if k.startswith(f"opt.{game}.")}
        asked = organisers.check(service().kernel.games, game, [r for r in rows if r[0].strip() or r[1].strip()],
                                 chosen, hours, raw, begin, name=form["title"], bots=[b for b in bots if b])
        if f.get("random_seats") == "on":  # the organiser asked for seats drawn at random: the first seat plays first
            secrets.SystemRandom().shuffle(asked.players)
        found = open_asked(token, email, asked, policy, form["name"], form["form"])
    except PageError as err:
        err.message = err.message.replace(" Nothing was changed.", "")
        return form_page(token, email, form=form, refusal=err)
    except ServiceError as err:
        return form_page(token, email, form=form, refusal=PageError(400, "Please correct this",
                                                                     str(err)[:1].upper() + str(err)[1:] + ".",
                                                                     "bad_field"))
    return redirect(url_for("muster.organiser_page", token=links().make("muster", found.muster_id), created=1),
                    303)
