"""The service's refusal, in a module of its own so that every part of the delivery layer can raise it."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses; the message is for the person who made it."""


class NotFound(ServiceError):
    """What was asked for is not there: no such game, move or event."""
