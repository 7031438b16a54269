"""The service's refusal, in a module of its own so that every part of the delivery layer can raise it."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses; the message is for the person who made it."""


class NotFound(ServiceError):
    """What was asked for is not there: no such game, move or event."""


class NoSuchSeat(NotFound):
    """A link names a seat the game does not have."""


class LinkRefused(ServiceError):
    """A link that no longer works for its holder (their seat was given to another player); ``code`` names why."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class GameDamaged(ServiceError):
    """The game's record cannot be replayed: someone changed the database by hand (or a bug wrote it).

    Nothing is served from it; ``pbem game verify`` names the first event that is wrong.
    """

    def __init__(self, game_id: str, problem: str) -> None:
        super().__init__(f"the record of game {game_id} cannot be replayed ({problem}); nothing of it can be shown "
                         f"until the organiser restores it. `pbem game verify {game_id}` names the first bad event")
        self.game_id = game_id

    @classmethod
    def of(cls, err: Exception) -> GameDamaged:
        """The refusal for a log the kernel could not replay (``events.replay.CorruptLog``)."""
        return cls(str(getattr(err, "game_id", "?")), str(err))
