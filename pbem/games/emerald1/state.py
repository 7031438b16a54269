"""The game state of the 1st edition: plain containers, shared between states until an event writes them.

Places for cubes are named ``city:<id>`` (a City box), ``card:<n>`` (a face-up Game card or a
Permanent Effect on display), ``limbo``, ``available`` and ``pool``. Agents are keyed by their
card number (``"14"``) or ``"m<seat>"`` for a Main Agent.

A state is never changed once made. ``evolve`` makes the next one with :meth:`State.successor` and copies, one
level deep, only the containers the event's handler writes (:meth:`State.own`); the handlers replace what is inside
a container (an agent's record, a stack, a row of cubes or zombies, a player's hand) instead of changing it, so the
new state shares everything else with the old. Attributes named with a leading ``_`` are caches, not the game:
never pickled, compared or cloned.
"""

from __future__ import annotations

import pickle
from typing import Any

from pbem.games.emerald1.data import Catalog
from pbem.games.emerald1.options import Readings

LOYALIST = "loyalist"
RESTORATIONIST = "restorationist"


def other_side(side: str) -> str:
    return RESTORATIONIST if side == LOYALIST else LOYALIST


class Player:
    def __init__(self, cubes_available: int, cubes_pool: int) -> None:
        self.hand: list[int] = []
        self.deck: list[int] = []          # top first; secret from everyone
        self.discard: list[int] = []
        self.identity = ""
        self.flipped = False               # Change of Heart
        self.revealed = False
        self.known = False                 # Known to the Authorities
        self.available = cubes_available
        self.pool = cubes_pool
        self.limbo = 0
        self.mad = 0
        self.sanity_forced = False         # drew from an empty pool: as if mad enough
        self.double_agents: list[int] = [] # unrevealed counters (agent numbers)
        self.pes: list[int] = []           # Permanent Effects in front of the player
        self.kills: list[list[Any]] = []   # [agent key, owner seat] of agents killed
        self.yog: list[str] = []           # agents sacrificed to Yog-Sothoth
        self.yog_vp = 0
        self.hidden_necronomicons = 0      # removed face down: on the VP track until the end (revision 2)
        self.seen: dict[int, str] = {}     # Vladimir Burtsev: seat -> side
        self.main_dead = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Player) and self.__dict__ == other.__dict__

    def copy(self) -> Player:
        """A new Player sharing this one's lists and dict: the handlers replace them, never change them."""
        new = object.__new__(Player)
        new.__dict__ = self.__dict__.copy()  # whole: see ``State.successor``
        return new

    def clone(self) -> Player:
        new = object.__new__(Player)
        d = new.__dict__
        for k, v in self.__dict__.items():
            if isinstance(v, list):
                d[k] = [list(x) if isinstance(x, list) else x for x in v]
            elif isinstance(v, dict):
                d[k] = dict(v)
            else:
                d[k] = v
        return new

    @property
    def side(self) -> str:
        if not self.identity:
            return ""
        return other_side(self.identity) if self.flipped else self.identity


class State:
    def __init__(self, cat: Catalog, names: tuple[str, ...], readings: Readings = Readings()) -> None:
        g = cat.game
        n = len(names)
        self.cat = cat
        self.names = names
        self.readings = readings           # the game's options and rules revision, as the rules read them
        self.players = [Player(g["cubes_available"], g["cubes"] - g["cubes_available"]) for _ in range(n)]
        self.phase = "setup"
        self.setup_queue: list[int] = []
        self.active = 0
        self.first = 0
        self.turn = 0
        self.actions_done = 0
        self.free_used = False
        self.hudson_used = False
        self.step: dict[str, Any] = {}     # the current action's next step ({} between actions)
        self.window: dict[str, Any] = {}   # an out-of-turn question being asked
        self.cubes: dict[str, list[int]] = {}
        self.stacks: dict[str, list[int]] = {c: [] for c in cat.city_ids}
        self.boxed: list[int] = []
        self.pe_deck: list[int] = []
        self.pe_display: list[int] = []
        self.agents: dict[str, dict[str, Any]] = {}
        self.owner: dict[str, int] = {}    # city -> controlling seat
        self.bismarck: dict[str, int] = {}
        self.destroyed: list[str] = []
        self.blocking: list[str] = []      # places with a Blocking disc
        self.royal: dict[str, list[Any]] = {}   # city -> [seat, "assassinated" | "hidden"]
        self.war = 0
        self.revolution = 0
        self.war_max = 0
        self.revolution_max = 0
        self.sanity_pool: list[str] = []   # face down, top first
        self.sanity_out: list[str] = []    # Sane counters removed from the game
        self.da_pool: list[int] = []       # face down
        self.da_revealed: list[int] = []
        self.zombies: dict[str, list[int]] = {c: [0] * n for c in cat.city_ids}
        self.removed: list[int] = []       # cards out of the game, face up
        self.removed_hidden = 0            # cards removed face down (The Third Section)
        self.removed_secret: list[int] = []  # which cards those are (secret until the end)
        self.migo: dict[str, int] = {}     # agent key -> turn it went to Mi-go
        self.leopold = False
        self.safe_used = 0
        self.end_reason = ""

    @property
    def n(self) -> int:
        return len(self.players)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its caches; the kernel's snapshots name the catalog by its data's digest
        (``Emerald1Rules.made_from_data``), where an ordinary pickle keeps the whole catalog."""
        return {k: v for k, v in self.__dict__.items() if k[0] != "_"}

    def _plain(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "cat" and k[0] != "_"}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.cat.data == other.cat.data and self._plain() == other._plain()

    def clone(self, fields: frozenset[str] | None = None, seat: int | None = None) -> State:
        """A copy whose containers are new (two levels deep), or only those named in ``fields``: the
        others are shared with this state, which nothing mutates once made. ``"player"`` in ``fields``
        copies only the player at ``seat``."""
        new = object.__new__(State)
        d = new.__dict__
        one = fields is not None and "player" in fields and seat is not None
        for k, v in self.__dict__.items():
            if k[0] == "_":
                continue
            if k == "players" and one:
                players = list(v)
                players[seat] = v[seat].clone()  # type: ignore[index]
                d[k] = players
            elif fields is not None and k not in fields and not (k == "players" and "player" in fields):
                d[k] = v
            elif k == "players":
                d[k] = [p.clone() for p in v]
            elif k in ("step", "window"):
                d[k] = pickle.loads(pickle.dumps(v)) if v else {}
            elif isinstance(v, list):
                d[k] = list(v)
            elif isinstance(v, dict):
                d[k] = {x: (dict(y) if isinstance(y, dict) else list(y) if isinstance(y, list) else y)
                        for x, y in v.items()}
            else:
                d[k] = v
        return new

    def successor(self, memo: bool = True) -> State:
        """A new state sharing every container with this one, for :meth:`own` to copy what an event writes.

        It keeps this state's lineage memo (``_memo``: parts of views that check what they were made from) unless
        ``memo`` is false, and none of its own caches."""
        new = object.__new__(State)
        # A plain copy of the attributes' dict, given to the new state whole: copying into the (key-sharing)
        # dict a new instance starts with costs several times more, at every event.
        d = self.__dict__.copy()
        d.pop("_cache", None)
        d.pop("_working", None)
        if not memo:
            d.pop("_memo", None)
        new.__dict__ = d
        return new

    def next_owning(self, fields: tuple[str, ...], players: int, seat: Any) -> State:
        """``successor()`` with its own copy (one level) of each container in ``fields`` and of the players
        (``players``: 0 none, 1 the one at ``seat`` if it is an int, else every one, 2 every one): what
        ``successor`` and then ``own`` do, in one call, for ``evolve``, which runs once per event."""
        new = object.__new__(State)
        d = self.__dict__.copy()  # a plain dict given whole, as in ``successor``
        d.pop("_cache", None)
        d.pop("_working", None)
        for f in fields:
            d[f] = d[f].copy()
        if players:
            ps = d["players"] = list(d["players"])
            if players == 1 and isinstance(seat, int):
                ps[seat] = ps[seat].copy()
            else:
                for i in range(len(ps)):
                    ps[i] = ps[i].copy()
        new.__dict__ = d
        return new

    def own(self, fields: frozenset[str] | None, seat: int | None, owned: set[Any]) -> None:
        """Copy, one level deep, the containers named in ``fields`` (None: all) that are not in ``owned`` yet, and
        add them to it. ``"player"`` is the player at ``seat`` (every player if ``seat`` is None), ``"players"``
        every player (in ``owned``, a player is its seat number). Once owned, a container is this state's alone
        and its handlers may write it in place."""
        d = self.__dict__
        if fields is None:
            fields = frozenset(k for k, v in d.items() if k[0] != "_" and isinstance(v, (list, dict)))
        for f in fields:
            if f == "player" or f == "players":  # a player's seat number stands for the player in ``owned``
                if "players" not in owned:
                    d["players"] = list(d["players"])
                    owned.add("players")
                players = d["players"]
                if f == "player" and seat is not None:
                    if seat not in owned:
                        players[seat] = players[seat].copy()
                        owned.add(seat)
                    continue
                for i in range(len(players)):
                    if i not in owned:
                        players[i] = players[i].copy()
                        owned.add(i)
            elif f not in owned:
                d[f] = d[f].copy()  # a list or a dict: one level
                owned.add(f)

    # --- readers ------------------------------------------------------------------------

    def cube_list(self, place: str) -> list[int]:
        return self.cubes.get(place) or [0] * self.n

    def agents_in(self, city: str, seat: int | None = None) -> list[str]:
        return [k for k, a in self.agents.items() if a["where"] == "board" and a["city"] == city
                and (seat is None or a["owner"] == seat)]

    def controlled(self, seat: int, where: str = "board") -> list[str]:
        return [k for k, a in self.agents.items() if a["owner"] == seat and a["where"] == where]

    def agent_city(self, key: str) -> str | None:
        a = self.agents.get(key)
        return a["city"] if a and a["where"] == "board" else None

    def top(self, city: str) -> int | None:
        s = self.stacks[city]
        return s[0] if s else None

    def has_pe(self, seat: int, effect: str) -> bool:
        return self.cat.pe_by_effect[effect] in self.players[seat].pes

    def own_cards(self, seat: int) -> list[int]:
        p = self.players[seat]
        return p.hand + p.deck + p.discard

    def hand_limit(self, seat: int) -> int:
        g = self.cat.game
        return g["watson_hand_size"] if self.has_pe(seat, "watson") else g["hand_size"]

    def discs_used(self, seat: int) -> int:
        used = 1 + (1 if self.players[seat].known else 0)
        used += sum(1 for o in self.owner.values() if o == seat)
        # a disc on each agent controlled (a killed agent's counter keeps its owner's disc, with the killer)
        used += sum(1 for a in self.agents.values() if a["owner"] == seat and not a.get("main")
                    and a["where"] in ("board", "migo", "killed"))
        used += sum(1 for r in self.royal.values() if r[0] == seat)
        return used

    def discs_free(self, seat: int) -> int:
        return self.cat.game["discs"] - self.discs_used(seat)

    def locked_against(self, city: str, seat: int) -> bool:
        """A destroyed city, or another player's Bismarck city: no agent of ``seat`` may enter."""
        return city in self.destroyed or (city in self.bismarck and self.bismarck[city] != seat)

    def seat_order_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.n for i in range(self.n)]
