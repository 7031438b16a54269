"""What every command module shares: the instance's settings and service, JSON output, logging."""

from __future__ import annotations

import json
import logging
import signal
from contextlib import contextmanager
from typing import Any, Iterator

import click

from events.replay import CorruptLog
from events.rules import ActionError
from events.store import ConcurrencyError, StoreUnavailable
from pbem.instance import config
from pbem.errors import GameDamaged
from pbem.service import Service, ServiceError


def print_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False))


def load_settings(ctx: click.Context) -> config.Settings:
    """The instance's settings, with what this command's options override (``ctx.obj["overrides"]``).

    Only ``init``, ``serve`` and ``demo`` create an instance (before they get here): any other command on a
    folder that holds none stops, so a mistyped ``--instance`` cannot start an empty one.
    """
    try:
        settings = config.load(ctx.obj["instance"])
    except config.ConfigError as err:
        raise click.ClickException(str(err)) from None
    if not config.is_instance(settings):
        raise click.ClickException(f"no pbem instance at {settings.instance}: run `pbem init` (or `pbem serve`) "
                                   "first, or choose one with --instance DIR or PBEM_INSTANCE")
    overrides = ctx.obj.get("overrides") or {}
    return config.Settings(settings.instance, {**settings.values, **overrides}) if overrides else settings


@contextmanager
def open_service(ctx: click.Context) -> Iterator[Service]:
    """The service for the chosen instance; library errors become one clear line and exit 1."""
    try:
        service = Service.open(load_settings(ctx))
    except StoreUnavailable as err:
        raise click.ClickException(str(err)) from None
    try:
        yield service
    except CorruptLog as err:
        raise click.ClickException(str(GameDamaged.of(err))) from None
    except (ServiceError, ActionError, ConcurrencyError, LookupError, StoreUnavailable) as err:
        raise click.ClickException(str(err)) from None
    finally:
        service.close()


def setup_logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # its every run is noise; pbem logs what it did


def stop_on_sigterm() -> None:
    """Stop a long-running command on SIGTERM as on Ctrl-C: ``systemctl stop``, ``kill`` and container
    runtimes send SIGTERM, whose default ends the process at once, in the middle of a job. Raised as
    ``KeyboardInterrupt`` in the main thread, it lets the running jobs finish and the scheduler lock go.
    """
    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
