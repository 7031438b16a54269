"""Per seat tallies of what the seats share (agents, Mi-go, zombies, cities, royal persons), for points and discs.

Points, discs and the views' player entries read, for every seat, the same few sums over the agents, the cities
owned and the royal persons taken. ``Board`` makes them in one pass per container, and takes the last board's
sums for every container that is the same object as then: a state shares with the one before it every container
the event did not write, so usually only one of them (or none) is worked out again.
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1.memo import memo_of
from pbem.games.emerald1.state import State


class Board:
    """The tallies of one state, per seat; made from ``last`` where a container is the same object."""

    __slots__ = ("agents", "migo", "zombies", "owner", "royal", "discs", "rvp", "vampires", "in_migo",
                 "zombies_on", "zombies_out", "cities", "city_vp", "royals", "assassinated", "hidden",
                 "n_assassinated")

    def __init__(self, s: State, last: Board | None) -> None:
        n = s.n
        cat = s.cat
        self.agents, self.migo, self.zombies, self.owner, self.royal = s.agents, s.migo, s.zombies, s.owner, s.royal
        if last is not None and last.agents is s.agents and last.migo is s.migo:
            self.discs, self.rvp, self.vampires, self.in_migo = last.discs, last.rvp, last.vampires, last.in_migo
        else:
            # agents with a disc of the seat (on the board, in Mi-go, or killed and kept), the Restorationist VP of
            # the seat's human agents on the board or in Mi-go, its vampires on the board, its agents in Mi-go
            self.discs, self.rvp, self.vampires = [0] * n, [0] * n, [0] * n
            values = cat.agent_rvp
            for key, a in s.agents.items():
                o = a["owner"]
                if o is None:
                    continue
                where = a["where"]
                main = a.get("main")
                if not main and where in ("board", "migo", "killed"):
                    self.discs[o] += 1
                if a["vampire"]:
                    if where == "board":
                        self.vampires[o] += 1
                elif not main and where in ("board", "migo"):
                    self.rvp[o] += values.get(int(key), 0)
            in_migo: list[list[tuple[str, Any]]] = [[] for _ in range(n)]
            for k in sorted(s.migo):
                a = s.agents[k]
                if a["owner"] in range(n):
                    in_migo[a["owner"]].append((k, a))
            self.in_migo = [tuple(x) for x in in_migo]
        if last is not None and last.zombies is s.zombies:
            self.zombies_on, self.zombies_out = last.zombies_on, last.zombies_out
        else:
            self.zombies_on = sum(sum(row) for row in s.zombies.values())
            self.zombies_out = self.zombies_on >= cat.game["zombies"]
        if last is not None and last.owner is s.owner:
            self.cities, self.city_vp = last.cities, last.city_vp
        else:
            self.cities, self.city_vp = [0] * n, [0] * n
            for c, o in s.owner.items():
                self.cities[o] += 1
                self.city_vp[o] += cat.city[c]["vp"]
        if last is not None and last.royal is s.royal:
            self.royals, self.assassinated, self.hidden = last.royals, last.assassinated, last.hidden
            self.n_assassinated = last.n_assassinated
        else:
            self.royals, self.assassinated, self.hidden, self.n_assassinated = [0] * n, [0] * n, [0] * n, [0] * n
            for c, r in s.royal.items():
                self.royals[r[0]] += 1
                if r[1] == "assassinated":
                    self.assassinated[r[0]] += cat.city[c]["royal"]["vp"]
                    self.n_assassinated[r[0]] += 1
                elif r[1] == "hidden":
                    self.hidden[r[0]] += cat.city[c]["royal"]["vp"]

    def same(self, s: State) -> bool:
        return (self.agents is s.agents and self.migo is s.migo and self.zombies is s.zombies
                and self.owner is s.owner and self.royal is s.royal)


def board_of(s: State) -> Board:
    """The ``Board`` of a made state (kept on it), from the last one its lineage made."""
    if s.__dict__.get("_working"):  # ``decide``'s state changes in place: nothing is kept for it
        return Board(s, None)
    own = s.__dict__.setdefault("_cache", {})
    found: Board | None = own.get("board")
    if found is None:
        memo = memo_of(s)
        last = memo.get("board") if memo is not None else None
        if last is not None and last.same(s):
            found = last
        else:
            found = Board(s, last)
            if memo is not None:
                memo["board"] = found
        own["board"] = found
    return found
