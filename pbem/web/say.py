"""Table talk from the play page: a message to the table or to chosen players, a private or a sealed note.

``POST /play/<token>/say`` with the page's CSRF token, ``what`` (say, note or seal), ``text`` and, for a
message to some players only, one ``to`` field per seat (``POST /api/play/<token>/say`` takes the same as JSON). Talk is no move: a link the game has moved on from
still carries it, and it outdates no page. The play page comes back with what was sent, or with the reason
nothing was.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from events.handling import Cause
from events.rules import ActionError
from pbem.table import talk
from pbem.service import ServiceError
from pbem.web.common import PageError, check_csrf, fresh_play_token, posted_seq, read_play, service
from pbem.web.play import page_context

bp = Blueprint("talk", __name__, url_prefix="/play")

SENT = {"say": "Your message is sent", "note": "Your private note is kept", "seal": "Your sealed note is kept"}


@bp.post("/<token>/say")
def say(token: str) -> Any:
    seat = read_play(token)
    check_csrf(token, request.form.get("csrf"))
    posted_seq(required=False)  # carried like every write's; talk is no move, so a later game takes it all the same
    game_id, index = seat.claims.game_id, seat.claims.seat
    kind = request.form.get("what", "say")
    if kind not in SENT:
        raise PageError(400, "Unknown kind of message", "Choose a message, a private note or a sealed note.",
                        "bad_field")
    names = [s["name"] for s in service().show(game_id)["seats"]]
    chosen = [v for v in request.form.getlist("to") if v != "all"]
    try:
        words = talk.words(request.form.get("text", ""))
        to = talk.recipients(chosen, names, index) if kind == "say" and chosen else None
        service().say(game_id, index, talk.Talk(kind, words, to), cause=Cause("link", seat.claims.cause()))
    except (ActionError, ServiceError) as err:
        context = page_context(fresh_play_token(game_id, index), seat)
        context.update(status=400, title="Not sent", message=str(err))
        return render_template("web/play.html", **context), 400
    context = page_context(fresh_play_token(game_id, index), seat)
    whom = "everyone" if to is None else " and ".join(names[s] for s in to)
    context["notice"] = SENT[kind] + (f" to {whom}." if kind == "say" else ".")
    return render_template("web/play.html", **context)

