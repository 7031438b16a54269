"""What the post's modules use of the service (which passes itself): they never import it."""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from events.replay import GameState
from events.store import Row
from pbem.instance.links import Links
from pbem.table import undo_requests
from pbem.table.hooks import TableMail


class Composer(TableMail, Protocol):
    """The service's notifier as the post's modules use it: its links and addresses, one mail composed, and the
    mails of a seat's life."""

    links: Links
    base_url: str
    reply_address: str
    sender: str
    timezone: str

    def organiser_url(self, game_id: str) -> str: ...

    def play_url(self, game_id: str, seat: int, seq: int) -> str: ...

    def home_url(self, player_id: str) -> str: ...

    def unsubscribe_url(self, game_id: str, seat: int, seq: int = 0) -> str: ...

    def thread_root(self, game_id: str, seat: int) -> str: ...

    def compose(self, service: Any, state: GameState[Any], player: Mapping[str, Any], kind: str, prompt: Any, *,
                deadline: str | None = None, extra: Mapping[str, Any] | None = None, tz: str | None = None,
                told: int | None = None, holder_since: int | None = None) -> list[Row]: ...


class Desk(undo_requests.Table, Protocol):
    """What the mails read of the service: besides what undo requests use, its notifier, a seat's deadline, a
    seat's legal commands, a player's games and the id of their home page."""

    @property
    def notifier(self) -> Composer | None: ...

    def deadline_of(self, game_id: str, seat: int) -> str | None: ...

    def legal_texts(self, state: GameState[Any], seat: int, limit: int | None = None) -> list[str]: ...

    def games_of(self, pid: str, limit: int = -1, offset: int = 0) -> list[dict[str, Any]]: ...

    def player_id(self, email: str) -> str: ...
