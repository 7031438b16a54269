"""A player's home page: every game they play, with its deadline and the current link."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, url_for

from pbem.web.common import links, read_token, service

bp = Blueprint("home", __name__, url_prefix="/home")


@bp.get("/<token>")
def page(token: str) -> Any:
    claims = read_token("home", token)
    svc = service()
    games = []
    for row in svc.games_of(claims.subject):
        token = links().play(row["game_id"], row["seat"], svc.store.last(row["game_id"])[0])
        games.append({**row, "play_url": url_for("play.page", token=token),
                      "replay_url": url_for("proof.player_replay", token=token),
                      "public_url": url_for("games.page", game_id=row["game_id"])})
    name = games[0]["name"] if games else ""
    return render_template("web/home.html", games=games, name=name)
