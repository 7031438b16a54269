"""The web pages and the JSON API: a Flask app factory over ``pbem.service``.

Every page behind a link only shows on GET; acting is a POST with a CSRF token. Every
response is ``no-store`` and sends no referrer, so a token in a URL stays between the
player and this server.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Mapping

import jinja2
from flask import Flask, Response, g, render_template, request
from werkzeug.exceptions import HTTPException

from pbem.instance import config
from pbem.instance.times import utc
from pbem.instance.times import reader_time
from pbem.instance.links import Links, redact
from pbem.games.presentation import board_svg, present
from pbem.instance.statecache import SHARED_KEPT, StateCache
from events.handling import StaleCommand
from events.replay import CorruptLog
from events.store import ConcurrencyError, StoreUnavailable
from pbem.errors import GameDamaged
from pbem.web import zones
from pbem.web.common import PageError, close_service, error_response, moved_on_meanwhile, service
from pbem.web.damage import Chains, diagnose

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"
MAX_BODY = 64 * 1024

log = logging.getLogger(__name__)

# The pages load nothing from elsewhere and run one script of their own: the home page's offer of the browser's
# time zone (``pbem.web.zones``), allowed by its hash; every page works without it.
CSP = ("default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; "
       f"script-src '{zones.SCRIPT_HASH}'; base-uri 'none'; frame-ancestors 'none'")


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The app for an instance folder (``instance`` in ``test_config``, else ``$PBEM_INSTANCE``).

    Other keys of ``test_config`` that name a setting (``docs/configuration.md``) override it;
    the rest are Flask config (``TESTING``, ...).

    :raises config.ConfigError: a broken config file, or no secret key to sign links with.
    """
    extra = dict(test_config or {})
    instance = config.instance_path(extra.pop("instance", None))
    settings = config.load(instance)
    overrides = {k: extra.pop(k) for k in list(extra) if k in config.SETTINGS}
    if overrides:
        settings = config.Settings(settings.instance, {**settings.values, **overrides})

    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder=None)
    app.jinja_options = {**app.jinja_options, "trim_blocks": True, "lstrip_blocks": True,
                         "undefined": jinja2.StrictUndefined, "bytecode_cache": COMPILED}
    app.config.from_mapping(MAX_CONTENT_LENGTH=MAX_BODY, PBEM_SETTINGS=settings)
    app.config.update(extra)
    app.extensions["pbem.states"] = StateCache(SHARED_KEPT)  # one per process, shared by the pool's services
    app.extensions["pbem.links"] = Links(settings.secret_keys, int(float(settings["link_days"]) * 86_400))
    app.extensions["pbem.chains"] = Chains()  # the games whose record this process checked (pbem.web.damage)

    env = app.jinja_env
    env.filters["label"] = lambda key: str(key).replace("_", " ")
    env.filters["utc"] = reader_time  # the reader's zone (``tz``) and UTC
    env.filters["utc_only"] = utc     # the record: the proof pages' lines
    env.filters["local"] = zones.local_time  # a time in a few words in the reader's zone (the footer names it)
    env.filters["columns"] = columns
    env.globals["present"] = present
    env.globals["board_svg"] = board_svg
    env.tests["mapping"] = lambda value: isinstance(value, Mapping)
    env.tests["sequence"] = lambda value: isinstance(value, (list, tuple))

    from pbem.web import (address, api, dev, games, home, muster, newgame, organise, play, proof, say, seats, undo,
                          unsubscribe)
    for module in (play, say, home, games, api, dev, unsubscribe, organise, proof, undo, newgame, muster, seats,
                   address):
        app.register_blueprint(module.bp)

    app.teardown_appcontext(close_service)
    app.after_request(secure_headers)
    app.register_error_handler(PageError, error_response)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(ConcurrencyError, lost_race)
    app.register_error_handler(StaleCommand, lost_race)
    app.register_error_handler(GameDamaged, damaged)
    app.register_error_handler(StoreUnavailable, unavailable)
    app.register_error_handler(CorruptLog, lambda err: damaged(GameDamaged.of(err)))
    app.register_error_handler(Exception, unexpected_error)
    return app


class CompiledTemplates(jinja2.BytecodeCache):
    """The pages' templates compiled once per process, for every app it makes (a test run makes hundreds).

    Every app's environment is made alike (``create_app``), so one compiled template serves them all; Jinja keys each
    by the template's name and checks it against a checksum of its source, so an edited template is compiled anew.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()


def columns(rows: list[Mapping[str, Any]]) -> list[str]:
    """The keys of a list of objects, in order of first appearance (a table's columns)."""
    found: dict[str, None] = {}
    for row in rows:
        found.update(dict.fromkeys(row))
    return list(found)


def secure_headers(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers.setdefault("Content-Security-Policy", CSP)
    return response


MESSAGES = {
    404: "There is no such page here. If you followed a link from a mail, use the latest one.",
    405: "This page cannot be used that way (wrong HTTP method). Links in mails only show; "
         "acting is done with the buttons on the page.",
    413: f"What was sent is too large (at most {MAX_BODY // 1024} KiB).",
    415: "Send the body as JSON with the header Content-Type: application/json.",
}


def http_error(err: HTTPException) -> Any:
    status = err.code or 500
    message = MESSAGES.get(status) or err.description or "The request cannot be handled."
    return error_response(PageError(status, err.name, message))


def lost_race(err: ConcurrencyError | StaleCommand) -> Any:
    """A write another one overtook, wherever a page did not say more: 409, nothing written."""
    current = err.actual_seq if isinstance(err, ConcurrencyError) else err.current_seq
    return error_response(moved_on_meanwhile(current))


def damaged(err: GameDamaged) -> Any:
    """A game whose record no longer replays: said plainly, with where to look (its verify page still works)."""
    return error_response(PageError(503, "This game cannot be shown", f"{err}. Its verification page says where "
                                    f"the record breaks: /games/{err.game_id}/verify.", "game_damaged"))


def unavailable(err: StoreUnavailable) -> Any:
    """The database cannot be reached (restarting): 503, nothing written; the next request may work."""
    log.warning("database unavailable on %s %s: %s", request.method, redact(request.path), err)
    response = error_response(PageError(503, "Try again in a moment", "The game's database cannot be reached just "
                                        "now; nothing was changed. Try again in a minute.", "database_unavailable"))
    return response


def unexpected_error(err: Exception) -> Any:
    damage = _diagnosed()
    if damage is not None:
        log.warning("%s %s failed on a damaged game: %s", request.method, redact(request.path), damage)
        return damaged(damage)
    log.exception("unexpected error on %s %s", request.method, redact(request.path))
    if request.path.startswith("/api/"):
        from flask import jsonify
        return jsonify({"error": "internal", "message": "Something went wrong on the server; it was logged."}), 500
    return render_template("web/error.html", status=500, title="Server error",
                           message="Something went wrong on the server; it was logged. Nothing you did caused "
                                   "this; try again later."), 500


def _diagnosed() -> GameDamaged | None:
    """The damage of the game the failed request was about, if its record or its rows are damaged."""
    game_id = g.get("pbem_game")
    if not game_id:
        return None
    try:
        return diagnose(service(), game_id)
    except Exception:  # the diagnosis failed too: the error stands as it is, and is logged as one
        log.warning("the game %s of a failed request could not be checked", game_id, exc_info=True)
        return None
