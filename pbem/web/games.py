"""Public pages: the front page and a game's spectator page (public view and public log)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from pbem.games.presentation import lookup, turn_label
from pbem.organising import organisers
from pbem.web.common import board_template, check_game, log_window, service

bp = Blueprint("games", __name__)


@bp.get("/")
def index() -> Any:
    return render_template("web/index.html")


@bp.get("/games/<game_id>")
def page(game_id: str) -> Any:
    check_game(game_id)
    shown = service().show(game_id)
    window = log_window(game_id, None, int(shown["seq"]), request.args.get("before"))
    options = service().load(game_id).config.options  # the state ``show`` just read, kept
    return render_template("web/game.html", game=shown, log=window["lines"], window=window,
                           board=board_template(shown["game_type"]),
                           where=turn_label(shown["game_type"], shown["view"]),  # the game's count, not event numbers
                           played_under=organisers.played_under(shown["game_type"], options))


@bp.get("/games/<game_id>/assumed")
def assumed(game_id: str) -> Any:
    """The game data this game assumes (not printed in the rulebook), grouped by what it belongs to."""
    check_game(game_id)
    shown = service().show(game_id)
    presentation = lookup(shown["game_type"])
    keys = list(shown["view"].get("assumed") or []) if isinstance(shown["view"], dict) else []
    groups = (presentation.assumed(shown["view"]) if presentation is not None
              else [{"title": "Values", "items": [{"what": str(k), "fields": []} for k in keys]}] if keys else [])
    return render_template("web/assumed.html", game=shown, groups=groups)
