"""Personality goals (checked at the start of their owner's turn), the game's ends, and scoring."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.rules import Outcome
from pbem.games.nanty.state import Spot, State


def occupied(s: State, seat: int) -> int:
    """Areas with one of the seat's agents and no Grenadier."""
    return sum(1 for sp in s.spots if sp.agents[seat] > 0 and sp.grenadiers == 0)


def controls(s: State, seat: int, i: int) -> bool:
    """More pieces (agents and a building) than any other player and than the New Citizens; no Grenadier
    (GUIDE C2-15)."""
    sp = s.spots[i]
    if sp.grenadiers:
        return False

    def pieces(v: int) -> int:
        return sp.agents[v] + (1 if sp.building == v else 0)

    mine = pieces(seat)
    return mine > 0 and mine > sp.citizens and all(pieces(v) < mine for v in range(s.n) if v != seat)


def controlled(s: State, seat: int) -> int:
    return sum(1 for i in range(len(s.spots)) if controls(s, seat, i))


def building_value(s: State, seat: int) -> int:
    """Costs of the seat's buildings; a building in an area with a Grenadier counts £0."""
    return sum(s.cat.areas[a].cost for a in s.buildings_of(seat) if s.spot(a).grenadiers == 0)


def loans_owed(s: State, seat: int) -> int:
    return len(s.players[seat].loans) * int(s.cat.game["loan_net_worth"])


def counts(s: State, sp: Spot) -> bool:
    """Whether pieces in this area count for Bellinger's, Scrooge's and Lloyd's goals (``grenadier_counts``)."""
    return s.readings.grenadier_counts == "counted" or sp.grenadiers == 0


def measure(s: State, seat: int, name: str) -> int:
    if name == "occupied":
        return occupied(s, seat)
    if name == "controlled":
        return controlled(s, seat)
    if name == "own_buildings":
        return sum(1 for a in s.buildings_of(seat) if counts(s, s.spot(a)))
    if name == "building_value":
        return building_value(s, seat) - loans_owed(s, seat)
    if name == "net_worth":
        return s.players[seat].money + building_value(s, seat) - loans_owed(s, seat)
    if name == "pieces":
        return sum(sp.agents[seat] + (1 if sp.building == seat else 0) for sp in s.spots if counts(s, sp))
    if name == "all_buildings":
        return sum(1 for sp in s.spots if sp.building >= 0 and counts(s, sp))
    if name == "trouble":
        return s.trouble_count()
    raise ValueError(name)


def personality(s: State, seat: int) -> Mapping[str, Any]:
    return s.cat.personality(s.variant, s.players[seat].personality)


def wins_now(s: State, seat: int) -> bool:
    """Whether the seat's personality meets any of its goals (checked silently at its turn's start)."""
    n = str(s.n)
    return any(measure(s, seat, g["measure"]) >= g["target"][n] for g in personality(s, seat)["goals"])


def deck_out_winners(s: State) -> list[int]:
    """Who wins when a player cannot refill their hand (before scoring)."""
    trouble = s.trouble_count()
    out = []
    for seat in range(s.n):
        rule = personality(s, seat)["deck_out"]
        others = [s.agents_on_board(v) for v in range(s.n) if v != seat]
        if rule == "fagin" and trouble > max(others, default=0):
            out.append(seat)
        elif rule == "holmes" and s.agents_on_board(seat) > trouble:
            out.append(seat)
        elif rule == "holmes_classic":
            out.append(seat)
    return out


def points(s: State, seat: int) -> dict[str, int]:
    """Agents 5 each and buildings their cost (0 with a Grenadier), money; each loan repaid with £12 if the
    player can, else -15 (GUIDE C2-14)."""
    g = s.cat.game
    agents = sum(g["agent_points"] * sp.agents[seat] for sp in s.spots if sp.grenadiers == 0)
    money = s.players[seat].money
    repaid = penalty = 0
    for _ in s.players[seat].loans:
        if money >= g["loan_repay"]:
            money -= g["loan_repay"]
            repaid += g["loan_repay"]
        else:
            penalty += g["loan_penalty"]
    out = {"agents": agents, "buildings": building_value(s, seat), "money": money,
           "loans_repaid": repaid, "loan_penalty": -penalty}
    out["total"] = agents + out["buildings"] + money - penalty
    return out


def scored_winners(s: State, exclude: set[int]) -> list[int]:
    """The most points win; a tie is shared, or (``ties = money``) goes to the most money left after loans."""
    scored = {seat: points(s, seat) for seat in range(s.n) if seat not in exclude}
    if not scored:
        return []
    best = max(p["total"] for p in scored.values())
    tied = sorted(seat for seat, p in scored.items() if p["total"] == best)
    if s.readings.ties == "money":
        most = max(scored[seat]["money"] for seat in tied)
        tied = [seat for seat in tied if scored[seat]["money"] == most]
    return tied


def riots_losers(s: State) -> set[int]:
    return {seat for seat in range(s.n) if personality(s, seat).get("riots_lose")}


REASONS = {"personality": "a personality's goal was met at the start of its owner's turn",
           "deck_out": "a player could not refill their hand",
           "riots": "Riots: eight or more trouble markers on the board",
           "scoring": "the game was scored"}


def final(s: State) -> Outcome:
    breakdown: dict[int, dict[str, Any]] = {}
    scores: dict[int, int] = {}
    for seat in range(s.n):
        pts = points(s, seat)
        scores[seat] = pts["total"]
        breakdown[seat] = {**pts, "personality": personality(s, seat)["name"]}
    reason = REASONS.get(s.end_reason, s.end_reason)
    if s.readings.revision >= 2:
        # one clause, which the log's end line goes on from ("...; seed revealed")
        names = " and ".join(s.names[w] for w in s.winners) or "Nobody"
        summary = f"{names} win{'' if len(s.winners) > 1 else 's'} ({reason})"
    else:
        names = ", ".join(s.names[w] for w in s.winners) or "nobody"
        summary = f"{names} win{'s' if len(s.winners) == 1 else ''}: {reason}."
    return Outcome(scores=scores, breakdown=breakdown, winners=tuple(s.winners), summary=summary)
