"""gunicorn's logs without the links' secrets: ``logger_class`` in ``deploy/gunicorn.conf.py``.

Imported by gunicorn only (the ``deploy`` extra); ``pbem.web.requestlog`` says why.
"""

from __future__ import annotations

import logging
from typing import Any

from gunicorn.glogging import Logger

from pbem.instance.links import redact


class Redacted(logging.Filter):
    """A record's message and its text arguments redacted ("Error handling request /play/...")."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True


class RedactingLogger(Logger):
    """gunicorn's logger, with every text it could put in an access line (the request line, the path, the query, the
    headers and the environment it offers as ``{name}i`` and ``{name}e``) redacted, and its error log's lines too."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        if not any(isinstance(f, Redacted) for f in self.error_log.filters):
            self.error_log.addFilter(Redacted())

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        found: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) if isinstance(value, str) else value for key, value in found.items()}
