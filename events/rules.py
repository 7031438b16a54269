"""The Rules protocol every game implements, the errors it raises, and the values it returns.

A game is a set of pure, deterministic functions over an immutable state (see
``docs/rules-protocol.md``). Actions are JSON objects with a ``"kind"`` key;
views, prompts and outcomes are JSON-able so templates, mails and ``--json``
output receive exactly what the rules allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Mapping, Protocol, Sequence, TypeVar

from events.envelope import Event, NewEvent
from events.rng import Rng

S = TypeVar("S")

Action = Mapping[str, Any]
"""A structured action: a JSON object with a ``kind`` key, e.g. ``{"kind": "roll"}``."""


class ActionError(ValueError):
    """Base of the three ways an action can be refused. The message is for the player."""


class InvalidAction(ActionError):
    """The command cannot be understood (syntax, unknown words, wrong types)."""


class IllegalAction(ActionError):
    """The command is understood but is not legal now; the message says why and what is."""


class AmbiguousAction(ActionError):
    """The command could mean more than one legal action; the message lists them."""


@dataclass(frozen=True)
class Seat:
    """A seat at the table as the rules see it: its number and the player's display name."""

    index: int
    name: str


@dataclass(frozen=True)
class GameConfig:
    """What a game is created with; recorded in ``pbem.GameCreated``."""

    seats: tuple[Seat, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    data: Mapping[str, Any] = field(default_factory=dict)  # the game's data with any override applied


@dataclass(frozen=True)
class Prompt:
    """Someone must decide something now.

    ``kind`` is ``"turn"`` for the player whose turn it is, or ``"interrupt"`` for an
    out-of-turn decision (a response window, a choice forced on another player).
    ``default`` is the action taken for the seat when its deadline passes.
    ``topic`` names the decision (e.g. ``"emerald.interrupt"``) so a player's standing
    order ("always", "never", "ask me") can answer it without a round trip; the
    rules list each topic's answers as ``answers`` (answer name -> action).
    """

    seat: int
    kind: str
    text: str
    default: Action | None = None
    topic: str = ""
    answers: Mapping[str, Action] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "text": self.text, "topic": self.topic,
                "default": dict(self.default) if self.default is not None else None,
                "answers": {k: dict(v) for k, v in self.answers.items()}}


@dataclass(frozen=True)
class Outcome:
    """Final result: each seat's score with its breakdown, and the winners (seat numbers)."""

    scores: Mapping[int, int]
    breakdown: Mapping[int, Mapping[str, Any]]
    winners: tuple[int, ...]
    summary: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": {str(k): v for k, v in self.scores.items()},
            "breakdown": {str(k): dict(v) for k, v in self.breakdown.items()},
            "winners": list(self.winners),
            "summary": self.summary,
        }


@dataclass(frozen=True)
class EventType:
    """A game event type: its stable name, current version, payload schema and upcasters.

    ``schema`` is a marshmallow schema class used to validate payloads before they
    are appended and when records are imported. ``upcasters[v]`` turns a version-v
    payload into a version-(v+1) payload.
    """

    name: str
    schema: type
    version: int = 1
    upcasters: Mapping[int, Any] = field(default_factory=dict)
    doc: str = ""


class Rules(Protocol, Generic[S]):
    """What a game provides to the kernel. Every function is pure and deterministic."""

    name: str          # the game type, e.g. "emerald"
    title: str         # e.g. "A Study in Emerald (2nd edition)"
    version: str       # rules version, recorded in each game; bump on a rule fix
    min_seats: int
    max_seats: int
    event_types: Sequence[EventType]

    def load_data(self, override: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """The game's data with the override applied; raises ``InvalidAction`` listing every problem."""
        ...

    def initial_state(self, config: GameConfig) -> S:
        """The state before any event of the game itself."""
        ...

    def setup(self, config: GameConfig, rng: Rng) -> list[NewEvent]:
        """Deal, shuffle, assign secret identities: every outcome is in the events."""
        ...

    def evolve(self, state: S, event: Event) -> S:
        """Apply one event. Never validates: old games must replay after a rule fix."""
        ...

    def prompts(self, state: S) -> Mapping[int, Prompt]:
        """Who may act now, and on what. Empty once the game is over."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every legal action for the seat; ``decide`` accepts exactly these."""
        ...

    def decide(self, state: S, seat: int, action: Action, rng: Rng) -> list[NewEvent]:
        """Validate and produce events.

        :raises InvalidAction: the action is malformed.
        :raises IllegalAction: not legal now; the message says what is.
        :raises AmbiguousAction: more than one legal action fits.
        """
        ...

    def view(self, state: S, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see (None: a spectator), built by adding allowed pieces only."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Final scores once the game has ended, else None."""
        ...

    def parse(self, state: S, text: str) -> Action:
        """Turn a text command into an action; raises ``InvalidAction`` saying what is wrong.

        The state is there to resolve names (players, cities, cards), not to check legality.
        """
        ...

    def format(self, state: S, action: Action) -> str:
        """The text command for an action: ``parse(state, format(state, a)) == a``."""
        ...

    def describe(self, event: Event, seat: int | None) -> str:
        """One line in plain words for the log, as ``seat`` may read it."""
        ...


class RecordsOptions(Protocol):
    """A game whose options are checked and completed before ``pbem.GameCreated`` records them (optional).

    ``options(chosen)`` returns the options a new game records: the chosen ones checked (``InvalidAction`` names a
    bad key or value) and every default filled in, so the record says which reading of a rule the game is played
    under. A rule fix or a new reading is then an option too: a game recorded before it existed lacks it, and its
    rules read it as the value the game began with, so an old game replays and plays on unchanged.
    """

    def options(self, chosen: Mapping[str, Any]) -> dict[str, Any]:
        ...


class FromPosition(Protocol):
    """A game that can start from a position written in its own words (optional).

    ``position(state)`` is the whole position at ``state`` (hands and decks in order, identities, board, tracks,
    whose turn and step) as a JSON-able mapping; ``setup_from(config, position, rng)`` checks one (``InvalidAction``
    naming the bad field) and returns the game's first events, hidden parts hidden as in a deal, so that
    ``position(fold(setup_from(config, position(s))))`` offers every seat what ``s`` offered. The kernel records the
    position itself in a server-only ``pbem.PositionGiven`` (revealed with the seed at the end), so verification
    can set the game up again from it.
    """

    def position(self, state: Any) -> Mapping[str, Any]:
        ...

    def setup_from(self, config: GameConfig, position: Mapping[str, Any], rng: Rng) -> list[NewEvent]:
        ...


def twin_repeats(event: Event, seat: int | None, twins: Mapping[str, str]) -> bool:
    """For a game's optional ``repeats(event, seat)``: a happening recorded twice, privately with what only some seats
    may see (``twins``' keys, by event name: the cards drawn, the counters taken) and publicly with less (its values:
    how many). Each reader reads one line of it: the private event's where its visibility lets them, else the public
    one's. The private event is for the seats the public one names (``seat``, and ``from_seat`` where there is one).
    """
    name = event.type.split(".", 1)[-1]
    if name in twins:
        return not event.visibility.allows(seat)
    if seat is not None and name in twins.values() and isinstance(event.payload, Mapping):
        return seat in (event.payload.get("seat"), event.payload.get("from_seat"))
    return False

