"""gunicorn's logs without the links' secrets: ``logger_class`` in ``deploy/gunicorn.conf.py``.

Imported by gunicorn only (the ``deploy`` extra); ``pbem.web.requestlog`` says why.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from pbem.links import redact


def _redacted(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(redact(arg) if isinstance(arg, str) else arg for arg in args)


class RedactingLogger(Logger):
    """gunicorn's logger, with every text it could put in an access line (the request line, the path, the query, the
    headers and the environment it offers as ``{name}i`` and ``{name}e``) redacted, and the arguments of its error
    lines too ("Error handling request /play/...")."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        found: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) if isinstance(value, str) else value for key, value in found.items()}

    def critical(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().critical(msg, *_redacted(args), **kwargs)

    def error(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().error(msg, *_redacted(args), **kwargs)

    def warning(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().warning(msg, *_redacted(args), **kwargs)

    def info(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().info(msg, *_redacted(args), **kwargs)

    def debug(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().debug(msg, *_redacted(args), **kwargs)

    def exception(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().exception(msg, *_redacted(args), **kwargs)

    def log(self, lvl: Any, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().log(lvl, msg, *_redacted(args), **kwargs)
