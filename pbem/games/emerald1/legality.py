"""Whether one action is legal, tested directly: ``decide`` need not list every legal action of its kind.

``legal(s, seat, a, who)`` answers exactly ``a in legal_actions(s, seat)`` for the commonest kinds, or None when
it cannot tell cheaply (another kind, or an action not in the plain shape the listed ones have: an extra key, a
float for a number); then the list decides, as before. Each test below follows the function that lists the kind
(``moves``) condition by condition; a test compares the two answers over whole games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.games.emerald1 import moves, scoring
from pbem.games.emerald1.state import State

Action = dict[str, Any]


def legal(s: State, seat: int, a: Action, who: tuple[int, str] | None) -> bool | None:
    """``a in legal_actions(s, seat)``, or None if the list must decide; ``who`` is ``engine.acting(s)``."""
    if who is None or who[0] != seat:
        return False
    if who[1] != "turn":
        return None
    kind = a["kind"]
    step = s.step
    if step:
        if step["step"] == "retrieve":
            return _take(s, seat, a) if kind == "take" else False  # a retrieve step lists takes only
        if step["step"] != "move":
            return None
        if kind == "move":
            return _move(s, seat, a, step)
        if kind == "pay":
            return _pay(s, seat, a, step)
        return False  # a move step lists moves and payments only
    test = TURN.get(kind)
    return test(s, seat, a) if test is not None else None


def _keys(a: Action, *keys: str) -> bool:
    if len(a) != len(keys) + 1:
        return False
    for k in keys:  # loops, not ``all`` over a generator, here and below: these run for every action decided
        if k not in a:
            return False
    return True


def _ints(v: Any) -> bool:
    if type(v) is not list:
        return False
    for x in v:
        if type(x) is not int:
            return False
    return True


def _combo(s: State, hand: list[int], cards: list[int], symbol: str) -> bool | None:
    """Whether ``cards`` is one of ``moves.distinct(hand, s, symbol)`` (increasing, each in hand with the symbol);
    None if the hand holds a card twice (never in a game: the list decides)."""
    if len(set(hand)) != len(hand):
        return None
    if not cards:
        return False
    table = s.cat.cards
    last = None
    for c in cards:
        if (last is not None and last >= c) or c not in hand or getattr(table[c], symbol) <= 0:
            return False
        last = c
    return True


def total_of(s: State, cards: list[int], symbol: str) -> int:
    """The cubes or gold of ``cards`` (known to be in the catalog)."""
    table = s.cat.cards
    total = 0
    for c in cards:
        total += getattr(table[c], symbol)
    return total


def _place(s: State, seat: int, a: Action) -> bool | None:
    if not (_keys(a, "cards", "to") and _ints(a["cards"]) and type(a["to"]) is str):
        return None
    pl = s.players[seat]
    ok = _combo(s, pl.hand, a["cards"], "cube")
    if not ok:
        return ok
    avail = pl.available
    total = total_of(s, a["cards"], "cube")
    if total > avail and not (len(a["cards"]) == 1 and total == 2 and avail == 1):
        return False
    if avail < 1:
        return False
    return _placeable(s, seat, a["to"])


def _placeable(s: State, seat: int, to: str) -> bool:
    """``to in moves.placeable(s, seat)``, without listing every place."""
    if to.startswith("city:"):
        city = to[5:]
        return city in s.cat.city and city not in s.destroyed and city not in s.bismarck
    if not to.startswith("card:"):
        return False
    number = to[5:]
    if not (number.isascii() and number.isdigit()) or str(int(number)) != number:
        return False  # no place is named so (``card:07``, ``card:+7``)
    card = int(number)
    if card in s.pe_display:
        return True
    for city, stack in s.stacks.items():
        if stack and stack[0] == card and city not in s.destroyed and (city not in s.bismarck
                                                                       or s.bismarck[city] == seat):
            return True
    return False


def _retrieve(s: State, seat: int, a: Action) -> bool | None:
    if not (_keys(a, "cards") and _ints(a["cards"])):
        return None
    have = moves.cubes_out(s, seat)
    if have < 1:
        return False
    ok = _combo(s, s.players[seat].hand, a["cards"], "cube")
    if not ok:
        return ok
    total = total_of(s, a["cards"], "cube")
    return total <= have or (len(a["cards"]) == 1 and total == 2 and have == 1)


def _buy(s: State, seat: int, a: Action) -> bool | None:
    if not (_keys(a, "cards") and _ints(a["cards"])):
        return None
    ok = _combo(s, s.players[seat].hand, a["cards"], "gold")
    if not ok:
        return ok
    total = total_of(s, a["cards"], "gold")
    return total % 2 == 0 and 1 <= total // 2 <= s.players[seat].pool


def _move(s: State, seat: int, a: Action, step: dict[str, Any] | None = None) -> bool | None:
    if not (_keys(a, "agent", "to") and type(a["agent"]) is str and type(a["to"]) is str):
        return None
    rec = s.agents.get(a["agent"])
    if rec is None or rec["owner"] != seat or rec["where"] != "board":
        return False
    if step and a["agent"] in step["moved"]:
        return False
    costs = moves.route_costs(s, seat, rec["city"])
    if a["to"] not in costs:
        return False
    return moves.can_pay(s, s.players[seat].hand, (step["cost"] if step else 0) + costs[a["to"]])


def _pay(s: State, seat: int, a: Action, step: dict[str, Any]) -> bool | None:
    if not (_keys(a, "cards") and _ints(a["cards"])):
        return None
    ok = _combo(s, s.players[seat].hand, a["cards"], "gold")
    if not ok:
        return ok
    cost = step["cost"]
    total = total_of(s, a["cards"], "gold")
    return total == cost or (cost == 1 and len(a["cards"]) == 1 and total == 2)


def _take(s: State, seat: int, a: Action) -> bool | None:
    """``a in moves.take_options(s, seat)``: a cube of the seat's back from Limbo or from a place with one."""
    if not (_keys(a, "from") and type(a["from"]) is str):
        return None
    frm = a["from"]
    row = s.cubes.get(frm)
    return (frm == "limbo" and s.players[seat].limbo > 0) or (row is not None and row[seat] > 0)


def _claim(s: State, seat: int, a: Action) -> bool | None:
    if not (_keys(a, "target") and type(a["target"]) is str):
        return None
    if s.actions_done != 0 or s.free_used:
        return False
    return a["target"] in moves.claim_targets(s) and moves.can_claim(s, seat, a["target"])


def _markers(s: State, seat: int, a: Action) -> bool | None:
    plays = a["plays"] if _keys(a, "plays") else None
    if type(plays) is not list or not all(type(p) is list and len(p) == 2 and _ints(p) for p in plays):
        return None
    hand = s.players[seat].hand
    if len(set(hand)) != len(hand):
        return None
    table = s.cat.cards
    if not plays or any(plays[i][0] >= plays[i + 1][0] for i in range(len(plays) - 1)):
        return False
    top = s.cat.game["track_top"]
    war, rev = s.war, s.revolution
    for card, j in plays:
        if card not in hand or not 0 <= j < len(table[card].arrows):
            return False
        track, steps = table[card].arrows[j]
        cur = war if track == "war" else rev
        to = max(0, min(top, cur + steps))
        if to == cur:
            return False
        if track == "war":
            war = to
        else:
            rev = to
    return True


def _discard(s: State, seat: int, a: Action) -> bool | None:
    if not (_keys(a, "cards", "shown") and _ints(a["cards"]) and type(a["shown"]) is int):
        return None
    hand = s.players[seat].hand
    if len(set(hand)) != len(hand):
        return None
    cards = a["cards"]
    if not cards or any(cards[i] >= cards[i + 1] for i in range(len(cards) - 1)):
        return False
    return all(c in hand for c in cards) and a["shown"] in cards


def _reveal(s: State, seat: int, a: Action) -> bool | None:
    if len(a) != 1:
        return None
    pl = s.players[seat]
    return not pl.revealed and scoring.score(s, seat, pl.side) >= s.cat.game["victory_target"][str(s.n)]


def _double_agent(s: State, seat: int, a: Action) -> bool | None:
    if not (_keys(a, "agent") and type(a["agent"]) is int):
        return None
    agent = a["agent"]
    rec = s.agents.get(str(agent), {})
    return (agent in s.players[seat].double_agents and rec.get("where") == "board"
            and rec["owner"] not in (None, seat) and s.discs_free(seat) > 0)


def _pass(s: State, seat: int, a: Action) -> bool | None:
    return True if len(a) == 1 else None


TURN: dict[str, Callable[[State, int, Action], bool | None]] = {
    "place": _place, "retrieve": _retrieve, "buy": _buy, "move": _move, "claim": _claim, "markers": _markers,
    "discard": _discard, "reveal": _reveal, "double_agent": _double_agent, "pass": _pass,
}
