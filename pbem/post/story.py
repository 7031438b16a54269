"""The story a mail tells: everything since the reader's last own turn, in words, grouped by turn and player.

A mail used to list what happened since the player's last mail, cut to its last twelve lines: a whole turn of
another player could be missing. It now tells everything since the end of the reader's last own turn (from the
start of the game if they have had none), as the log gives it to that reader (``pbem.proof.logbook``), and
groups the lines by turn and by whose turn it was ("Turn 5 · Carol"), counting turns as the game does.

Where each turn began is kept as a read model, ``mail_turns``, one row per turn (its first seq is the row's
``seq`` + 1), written with the command that began it: the turn in the game's words (``turn 5``, ``setup``), whose
turn it is, and whose turn it ended. A game recorded before it has no rows: its mails tell what happened since
the reader's last mail, without headings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from events.replay import GameState
from events.rules import Rules
from events.store import Row, SQLiteEventStore
from pbem.games.presentation import turn_label
from pbem.proof import logbook
from pbem.proof.logbook import Archive
from pbem.table.seat_events import TOLD_TYPES
from pbem.table.talk import TALK_TYPES

TABLE = "mail_turns"
MOST_LINES = 200  # lines a story tells at most (its latest); the replay has the rest
SHOWN_DELIVERY = ("pbem.ActionsUndone", "pbem.GameEnded", *TALK_TYPES, *TOLD_TYPES)  # the pbem.* lines a story tells


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table(TABLE, {"game_id": str, "seq": int, "turn": str, "holder": int, "ended": int},
                       pk=("game_id", "seq"), indexes=[("game_id", "ended")])


def turn_of(rules: Rules[Any], state: GameState[Any]) -> tuple[str, int] | None:
    """Which turn it is in the game's own words (``turn 5``, ``setup``; empty for a game that does not say) and whose,
    or None while nobody holds the turn (the game is over, or only answers out of turn are awaited)."""
    if state.ended:
        return None
    holder = next((p.seat for p in rules.prompts(state.game).values() if p.kind == "turn"), None)
    if holder is None:
        return None
    label = turn_label(state.game_type, rules.view(state.game, None)) or ""
    return label.split(",")[0].strip(), holder


def rows(store: SQLiteEventStore, rules: Rules[Any], after: GameState[Any]) -> list[Row]:
    """The row of the turn this command began, if it began one."""
    now = turn_of(rules, after)
    if now is None:
        return []
    last = store.query(f"SELECT turn, holder FROM {TABLE} WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                       (after.game_id,))
    if last and (str(last[0]["turn"] or ""), int(last[0]["holder"])) == now:
        return []
    return [Row(TABLE, {"game_id": after.game_id, "seq": after.seq, "turn": now[0], "holder": now[1],
                        "ended": int(last[0]["holder"]) if last else None}, pk=("game_id", "seq"))]


def start(store: SQLiteEventStore, game_id: str, seat: int, upto: int) -> int | None:
    """Where the reader's story begins: after the end of their last own turn before ``upto`` (0: the game's start);
    None for a game recorded before turns were kept."""
    if not store.query(f"SELECT seq FROM {TABLE} WHERE game_id = ? LIMIT 1", (game_id,)):
        return None
    found = store.query(f"SELECT max(seq) AS seq FROM {TABLE} WHERE game_id = ? AND ended = ? AND seq < ?",
                        (game_id, seat, upto))
    return int(found[0]["seq"] or 0)


@dataclass(frozen=True)
class Story:
    """What a mail tells: ``groups`` of lines (``heading`` None: no turn kept for them), ``cut`` earlier lines left
    out, and ``own``: the reader's own recorded events since ``since`` (``seq``, ``hash``), their receipt."""

    groups: list[dict[str, Any]]
    cut: int
    own: list[tuple[int, str]]

    @property
    def lines(self) -> list[str]:
        return [line for group in self.groups for line in group["lines"]]


def told(line: Mapping[str, Any]) -> bool:
    """Whether a story tells this log line: the game's events and the table's news, each once for its reader."""
    kind = str(line.get("type", ""))
    if line.get("repeats") or kind == "pbem.RandomDrawn":
        return False
    return not kind.startswith("pbem.") or kind in SHOWN_DELIVERY


def tell(service: Archive, state: GameState[Any], seat: int, since: int, holder_since: int | None = None) -> Story:
    """The reader's story at ``state``, and their own events recorded since ``since`` (their last mail).

    ``holder_since``: where the reader's hold of the seat began, if the log cannot know it yet (the welcome of a
    replacement, written with the command that gives them the seat).
    """
    begin = start(service.store, state.game_id, seat, state.seq)
    first = since if begin is None else min(begin, since)
    log = logbook.log(service, state.game_id, seat, first, state.seq, holder_since=holder_since)
    actor = f"seat:{seat}"
    own = [(int(line["seq"]), str(line["hash"])) for line in log if line.get("actor") == actor and line["seq"] > since]
    told_lines = [line for line in log if told(line) and line["seq"] > (since if begin is None else begin)]
    cut = max(0, len(told_lines) - MOST_LINES)
    told_lines = told_lines[cut:]
    names = [s.name for s in state.config.seats]
    turns = _turns(service.store, state.game_id, told_lines[0]["seq"], state.seq) if told_lines and begin is not None \
        else []
    groups: list[dict[str, Any]] = []
    for line in told_lines:
        found = next((t for t in reversed(turns) if t["seq"] < line["seq"]), None)
        heading = _heading(found, names, seat) if begin is not None else None
        text = str(line["text"]) + (" (taken back)" if line.get("undone") else "")
        if groups and groups[-1]["heading"] == heading and groups[-1]["turn"] is found:
            groups[-1]["lines"].append(text)
        else:
            groups.append({"heading": heading, "turn": found, "lines": [text]})
    return Story([{"heading": g["heading"], "lines": g["lines"]} for g in groups], cut, own)


def _turns(store: SQLiteEventStore, game_id: str, first: int, upto: int) -> list[dict[str, Any]]:
    """The turns that lines from ``first`` to ``upto`` fall in, in order."""
    before = store.query(f"SELECT max(seq) AS seq FROM {TABLE} WHERE game_id = ? AND seq < ?", (game_id, first))
    since = int(before[0]["seq"]) if before and before[0]["seq"] is not None else 0
    return store.query(f"SELECT seq, turn, holder FROM {TABLE} WHERE game_id = ? AND seq >= ? AND seq < ? "
                       "ORDER BY seq", (game_id, since, upto))


def _heading(turn: Mapping[str, Any] | None, names: Sequence[str], seat: int) -> str:
    if turn is None:
        return "Before the first turn"
    holder = int(turn["holder"])
    who = names[holder] if 0 <= holder < len(names) else "?"
    words = str(turn["turn"] or "")
    if not words:  # a game that does not count its turns in words
        return "Your turn" if holder == seat else f"{who}'s turn"
    return f"{words[:1].upper()}{words[1:]} · {who}" + (" (you)" if holder == seat else "")
