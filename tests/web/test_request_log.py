"""No log line hands out a link: request lines and the app's warnings name a link, never its whole token.

A play link's token lets its bearer read the player's private view and act for them, and request lines carry it in
their path; ``pbem.instance.links.redact`` keeps what names the link and drops what opens it, on every server pbem runs.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from delivery import free_port
from pbem.instance import config
from pbem.instance.links import ForgedLink, Links, redact
from pbem.service import Player, Service
from pbem.web.requestlog import PlainRequests
from tests.web.conftest import SECRET, Game

ROOT = Path(__file__).resolve().parents[2]


def test_every_kind_of_token_is_cut_after_its_link_id_and_no_longer_opens_anything() -> None:
    links = Links(["k" * 32], 3600)
    tokens = [links.play("3f9a1c22d0", 2, 118), links.make("home", "ab12cd34ef56ab78"), links.undo("g", "r1", 1),
              links.make("organiser", "3f9a1c22d0"), links.make("unsubscribe", "3f9a1c22d0.2.118"),
              links.make("invite", "m1.3.9"), links.make("muster", "m1"), links.make("newgame", "org@example.org")]
    tokens.append(links.csrf(tokens[0]))
    for token in tokens:
        line = redact(f'"POST /play/{token}?on=london HTTP/1.1" 200 -')
        kept = token.rsplit(".", 1)[0] + "." + token.rsplit(".", 1)[1][:12] + "..."
        assert token not in line and line == f'"POST /play/{kept}?on=london HTTP/1.1" 200 -'
        with pytest.raises(ForgedLink):
            links.read_play(kept)
    assert links.read_play(tokens[0]).claims.link_id == tokens[0].rsplit(".", 1)[1][:12]  # audits' id, kept
    for plain in ("/games/3f9a1c22d0/verify", "ann.smith@example.org", "GET /api/games HTTP/1.1", ""):
        assert redact(plain) == plain


def test_pbem_serve_logs_each_request_plainly_without_the_token(game: Game, app: Flask,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    server = make_server("127.0.0.1", port, app, threaded=True, request_handler=PlainRequests)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    token = game.token(0)
    forged = token[:-10] + ("A" if token[-10] != "A" else "B") + token[-9:]  # a character of the signature changed
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/play/{token}", timeout=10) as answer:
                assert answer.status == 200
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(f"http://127.0.0.1:{port}/play/{forged}", timeout=10)
    finally:
        server.shutdown()
        thread.join(5)
    lines = [r.getMessage().split("] ", 1)[1] for r in caplog.records if r.name == "werkzeug" and "/play/" in
             r.getMessage()]  # after werkzeug's "127.0.0.1 - - [date] "
    assert lines == [f'"GET /play/{redact(token)} HTTP/1.1" 200 -', f'"GET /play/{redact(forged)} HTTP/1.1" 403 -']
    assert token not in caplog.text and forged not in caplog.text
    assert "\x1b[" not in caplog.text  # no terminal colour codes


def test_an_unexpected_error_is_logged_with_the_path_redacted(client: FlaskClient, game: Game,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(token: str) -> None:
        raise RuntimeError("the page broke")

    monkeypatch.setattr("pbem.web.play.read_play", broken)
    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    web_log, keep = logging.getLogger("pbem.web"), Keep()
    web_log.addHandler(keep)
    web_log.propagate = False  # kept from the guard that fails a test on an ERROR log: this one is expected
    token = game.token(0)
    try:
        assert client.get(f"/play/{token}").status_code == 500
    finally:
        web_log.propagate = True
        web_log.removeHandler(keep)
    assert [r.getMessage() for r in seen] == [f"unexpected error on GET /play/{redact(token)}"]


def test_gunicorn_with_the_shipped_config_logs_requests_and_errors_without_the_token(tmp_path: Path) -> None:
    pytest.importorskip("gunicorn")
    from gunicorn.config import Config

    from pbem.web.gunicorn_log import RedactingLogger

    service = Service.open(_settings(tmp_path))
    game_id = service.create_game("emerald", [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben")],
                                  seed="request-log").after.game_id
    token = Links([SECRET], 3600).play(game_id, 0, service.store.last(game_id)[0])
    service.close()
    port, access = free_port(), tmp_path / "access.log"
    env = {**os.environ, "PBEM_INSTANCE": str(tmp_path / "inst"), "PBEM_SECRET_KEY": SECRET,
           "PBEM_BIND": f"127.0.0.1:{port}", "PBEM_WEB_WORKERS": "1", "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                              "--access-logfile", str(access), "pbem.web:create_app()"], env=env, cwd=tmp_path,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/play/{token}", timeout=5) as answer:
                    assert answer.status == 200
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise AssertionError("gunicorn did not answer")
    finally:
        child.terminate()
        child.wait(20)
    logged = access.read_text()
    assert f"/play/{redact(token)} HTTP/1.1\" 200" in logged and token not in logged

    errors = tmp_path / "error.log"  # gunicorn's own lines ("Error handling request /play/...") the same
    config = Config()
    config.set("errorlog", str(errors))
    logger = RedactingLogger(config)
    try:
        raise RuntimeError("broken")
    except RuntimeError:
        logger.exception("Error handling request %s", f"/play/{token}")
    logger.error("Error handling request %s %s", "GET", f"/play/{token}")
    written = errors.read_text()
    assert written.count(f"/play/{redact(token)}") == 2 and token not in written


def _settings(tmp_path: Path) -> config.Settings:
    """The instance gunicorn will serve (SQLite, as its environment says), with the links' key it is given."""
    config.init_instance(tmp_path / "inst")
    found = config.load(tmp_path / "inst", environ={})
    return config.Settings(found.instance, {**found.values, "secret_key": SECRET})
