"""Public pages: the front page and a game's spectator page (public view and public log)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from pbem.web.common import board_template, check_game, service

bp = Blueprint("games", __name__)


@bp.get("/")
def index() -> Any:
    return render_template("web/index.html")


@bp.get("/games/<game_id>")
def page(game_id: str) -> Any:
    check_game(game_id)
    shown = service().show(game_id)
    return render_template("web/game.html", game=shown, log=service().log(game_id),
                           board=board_template(shown["game_type"]))
