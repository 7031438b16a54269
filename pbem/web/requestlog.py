"""Request lines in the logs without the links' secrets, and without colour codes.

A link's token is its bearer's key to a player's private view and moves, and request lines name it in their path.
Every line pbem's servers write about a request goes through ``pbem.instance.links.redact``, which keeps what names the link
(its subject, when it was issued, its id as audits give it) and drops what opens it:

* ``pbem serve`` answers with werkzeug's server: ``PlainRequests`` writes its request lines, plain (werkzeug's own
  colours them with terminal escape codes, which a log file keeps as noise);
* gunicorn writes its access log through ``pbem.web.gunicorn_log.RedactingLogger`` (``deploy/gunicorn.conf.py``);
* the app's own warnings name the path redacted (``pbem.web``).
"""

from __future__ import annotations

from typing import Any

from werkzeug.serving import WSGIRequestHandler

from pbem.instance.links import redact


class PlainRequests(WSGIRequestHandler):
    """werkzeug's request handler, logging ``"GET /play/<subject>.<time>.<link id>... HTTP/1.1" 200 -``, and its
    other lines (a malformed request's) redacted alike."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        line = getattr(self, "requestline", "") or "-"
        self.log("info", '"%s" %s %s', line.translate(self._control_char_table), code, size)

    def log(self, type: str, message: str, *args: Any) -> None:
        super().log(type, message, *(redact(arg) if isinstance(arg, str) else arg for arg in args))
