"""Turning a seat's mails off: GET asks, POST does it (a button, or a mail client's RFC 8058 one-click POST)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from pbem.table.replacing import link_refusal
from pbem.web.common import PageError, check_csrf, check_game, links, read_token, sentence, service

bp = Blueprint("unsubscribe", __name__, url_prefix="/unsubscribe")


def subscription(token: str) -> tuple[str, int, dict[str, Any]]:
    claims = read_token("unsubscribe", token)
    parts = claims.subject.split(".")  # game.seat.seq; links made before the seq was added: game.seat
    game_id, seat, issued = parts[0], parts[1] if len(parts) > 1 else "", parts[2] if len(parts) > 2 else "0"
    check_game(game_id)
    found = [p for p in service().players(game_id) if str(p["seat"]) == seat]
    if not found:
        raise PageError(404, "No such seat", f"Game {game_id} has no seat {seat}.", "unknown_seat")
    refused = link_refusal(service().store, game_id, int(seat), int(issued) if issued.isdigit() else 0)
    if refused:
        raise PageError(403, "Link no longer yours", sentence(refused), "seat_replaced")
    return game_id, int(seat), found[0]


@bp.get("/<token>")
def ask(token: str) -> Any:
    game_id, _, player = subscription(token)
    return render_template("web/unsubscribe.html", token=token, csrf=links().csrf(token), game_id=game_id,
                           player=player, done=False)


@bp.post("/<token>")
def confirm(token: str) -> Any:
    game_id, seat, player = subscription(token)
    if request.form.get("List-Unsubscribe") != "One-Click":  # RFC 8058: the token in the URL is the proof
        check_csrf(token, request.form.get("csrf"))
    with service().store.transaction() as conn:
        conn.execute("UPDATE seats SET mail = 0 WHERE game_id = ? AND seat = ?", (game_id, seat))
    return render_template("web/unsubscribe.html", token=token, csrf="", game_id=game_id, player=player, done=True)
