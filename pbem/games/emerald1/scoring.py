"""Victory points: the public score, the score by side, and the final result."""

from __future__ import annotations

from typing import Any

from events.rules import Outcome
from pbem.games.emerald1.board import Board, board_of
from pbem.games.emerald1.data import Catalog
from pbem.games.emerald1.memo import memo_of
from pbem.games.emerald1.state import LOYALIST, RESTORATIONIST, State

SCORING_CARDS = ("Necronomicon", "The Black Hand", "Vampire", "Zombies")


class _Tables:
    """What scoring looks up, indexed once per catalog (the catalog never changes)."""

    def __init__(self, cat: Catalog) -> None:
        self.track = sorted((int(space), vp) for space, vp in cat.game["track_vp"].items())
        self.track_at = [max((vp for space, vp in self.track if space <= reached), default=0)
                         for reached in range(cat.game["track_top"] + 1)]
        self.scoring = {cid: c.name for cid, c in cat.cards.items() if c.kind == "game" and c.name in SCORING_CARDS}
        self.ids = {name: tuple(cid for cid, n in self.scoring.items() if n == name) for name in SCORING_CARDS}
        self.id_sets = {name: frozenset(ids) for name, ids in self.ids.items()}
        self.all_ids = frozenset(self.scoring)
        self.city_vp = {c: info["vp"] for c, info in cat.city.items()}
        self.royal_vp = {c: info["royal"]["vp"] for c, info in cat.city.items()}
        self.rvp = {str(k): v for k, v in cat.agent_rvp.items()}


def tables(cat: Catalog) -> _Tables:
    found = cat.__dict__.get("_scoring")
    if found is None:  # pragma: no cover - once per catalog
        found = _Tables(cat)
        object.__setattr__(cat, "_scoring", found)
    return found  # type: ignore[no-any-return]


def track_vp(s: State, track: str) -> int:
    reached = s.war_max if track == "war" else s.revolution_max
    tab = tables(s.cat)
    if 0 <= reached < len(tab.track_at):
        return tab.track_at[reached]
    return max((vp for space, vp in tab.track if space <= reached), default=0)


def held(s: State, seat: int, name: str) -> int:
    """How many cards named ``name`` (one of ``SCORING_CARDS``) the player has among their cards."""
    p = s.players[seat]
    hand, deck, discard = p.hand, p.deck, p.discard
    tab = tables(s.cat)
    ids = tab.id_sets[name]
    if ids.isdisjoint(hand) and ids.isdisjoint(deck) and ids.isdisjoint(discard):
        return 0
    return sum(hand.count(c) + deck.count(c) + discard.count(c) for c in tab.ids[name])


def necronomicons(s: State, seat: int) -> int:
    """The Necronomicons that score for the player: those among their cards, and until the game ends those they
    removed face down (revision 2: "when the game ends you lose the points gained from it")."""
    hidden = s.players[seat].hidden_necronomicons
    return held(s, seat, "Necronomicon") + (hidden if s.phase != "over" else 0)


def _held(s: State, seat: int) -> dict[str, int]:
    """How many of each card that scores the player has among their cards (hand, deck, discard)."""
    names = tables(s.cat).scoring
    out = dict.fromkeys(SCORING_CARDS, 0)
    p = s.players[seat]
    for pile in (p.hand, p.deck, p.discard):
        for c in pile:
            name = names.get(c)
            if name is not None:
                out[name] += 1
    return out


def breakdown(s: State, seat: int, side: str, final: bool = False) -> dict[str, int]:
    """Each kind of points ``seat`` scores as a player of ``side`` (``""``: the public score)."""
    cat, p = s.cat, s.players[seat]
    held = _held(s, seat)

    def _count(s: State, seat: int, name: str) -> int:
        return held[name]

    out = {"cities": sum(cat.city[c]["vp"] for c, o in s.owner.items() if o == seat),
           "necronomicon": cat.game["necronomicon_vp"] * necronomicons(s, seat)}
    royals = {how: sum(cat.city[c]["royal"]["vp"] for c, r in s.royal.items() if r[0] == seat and r[1] == how)
              for how in ("assassinated", "hidden")}
    if side == "":
        out["royal persons"] = royals["assassinated"] + royals["hidden"]
    elif side == RESTORATIONIST:
        out["royal persons assassinated"] = royals["assassinated"]
        out["revolution track"] = track_vp(s, "revolution")
        out["agents"] = sum(cat.agent_rvp.get(int(k), 0) for k, a in s.agents.items()
                            if a["owner"] == seat and not a.get("main") and not a["vampire"]
                            and a["where"] in ("board", "migo"))
        n_assassinated = sum(1 for r in s.royal.values() if r[0] == seat and r[1] == "assassinated")
        out["the Black Hand"] = cat.game["black_hand_vp"] * n_assassinated if _count(s, seat, "The Black Hand") else 0
    else:
        out["royal persons hidden"] = royals["hidden"]
        out["war track"] = track_vp(s, "war")
        out["vampires"] = (sum(1 for a in s.agents.values() if a["owner"] == seat and a["vampire"]
                               and a["where"] == "board") if _count(s, seat, "Vampire") else 0)
        on_board = sum(sum(row) for row in s.zombies.values())
        out["zombies"] = (cat.game["zombie_bonus"] if _count(s, seat, "Zombies")
                          and on_board >= cat.game["zombies"] else 0)
        out["Yog-Sothoth"] = p.yog_vp
        if final:
            out["Restorationist agents assassinated"] = sum(1 for _, owner in p.kills
                                                             if s.players[owner].side == RESTORATIONIST)
    return out


def total(s: State, seat: int, side: str, final: bool = False) -> int:
    """``sum(breakdown(s, seat, side, final).values())`` without the breakdown: ``decide`` asks after every step.

    Kept in step with ``breakdown`` line by line (a test compares them over whole games, for every side)."""
    tab = tables(s.cat)
    g = s.cat.game
    p = s.players[seat]
    pts = 0
    for c, o in s.owner.items():
        if o == seat:
            pts += tab.city_vp[c]
    found = necronomicons(s, seat)
    if found:
        pts += g["necronomicon_vp"] * found
    if side == "":
        for c, r in s.royal.items():
            if r[0] == seat and r[1] in ("assassinated", "hidden"):
                pts += tab.royal_vp[c]
        return pts
    held_ = _held(s, seat)
    if side == RESTORATIONIST:
        assassinated = [c for c, r in s.royal.items() if r[0] == seat and r[1] == "assassinated"]
        pts += sum(tab.royal_vp[c] for c in assassinated) + track_vp(s, "revolution")
        rvp = tab.rvp
        pts += sum(rvp.get(k, 0) for k, a in s.agents.items()
                   if a["owner"] == seat and not a.get("main") and not a["vampire"] and a["where"] in ("board", "migo"))
        return pts + (g["black_hand_vp"] * len(assassinated) if held_["The Black Hand"] else 0)
    pts += sum(tab.royal_vp[c] for c, r in s.royal.items() if r[0] == seat and r[1] == "hidden")
    pts += track_vp(s, "war")
    if held_["Vampire"]:
        pts += sum(1 for a in s.agents.values() if a["owner"] == seat and a["vampire"] and a["where"] == "board")
    if held_["Zombies"] and sum(sum(row) for row in s.zombies.values()) >= g["zombies"]:
        pts += g["zombie_bonus"]
    pts += p.yog_vp
    if final:
        pts += sum(1 for _, owner in p.kills if s.players[owner].side == RESTORATIONIST)
    return pts


def score(s: State, seat: int, side: str | None = None, final: bool = False) -> int:
    if side is None:
        side = s.players[seat].side if s.players[seat].revealed else ""
    return total(s, seat, side, final)


def public_score(s: State, seat: int) -> int:
    """The score on the Victory Point track: the true score once revealed."""
    return score(s, seat)


def potential(s: State, seat: int) -> bool:
    """Actual or potential points, whichever side the player is on (Known to the Authorities).

    The same points as ``breakdown`` for the public score and for either side, tested cheaply: this
    runs for every unknown player after every step.
    """
    p = s.players[seat]
    if p.kills or p.yog_vp or seat in s.owner.values() or any(r[0] == seat for r in s.royal.values()):
        return True
    if track_vp(s, "war") or track_vp(s, "revolution"):
        return True
    rvp = tables(s.cat).rvp
    vampires = 0
    for key, a in s.agents.items():
        if a["owner"] != seat:
            continue
        if a.get("main"):
            if a["vampire"] and a["where"] == "board":
                vampires += 1
            continue
        if a["where"] in ("board", "migo") and not a["vampire"] and rvp.get(key, 0) > 0:
            return True
        if a["vampire"] and a["where"] == "board":
            vampires += 1
    if necronomicons(s, seat) or (vampires and held(s, seat, "Vampire")):
        return True
    return bool(held(s, seat, "Zombies")) and sum(sum(r) for r in s.zombies.values()) >= s.cat.game["zombies"]


def after_step(s: State, target: int, base: State | None = None) -> tuple[list[int], bool]:
    """What ``decide`` checks after every step, for every seat at once: the seats not yet Known to the
    Authorities that have ``potential`` points (in seat order), and whether any ``public_score`` reaches
    ``target``. Kept in step with ``potential`` and ``total`` (a test compares them over whole games).

    ``s`` may be ``decide``'s working state and ``base`` the (made, unchanging) state it started from: the
    tallies of every container still shared with ``base``, and the scoring cards of every player still shared
    with it, are taken from what was worked out for ``base`` and its lineage."""
    tab = tables(s.cat)
    g = s.cat.game
    if base is None:
        board = Board(s, None)
        shared: list[Any] = []
        kept: list[Any] = []
    else:
        last = board_of(base)
        board = last if last.same(s) else Board(s, last)
        memo = memo_of(base)
        kept = memo.get("held") or [] if memo is not None else []
        shared = base.players  # the players still shared with ``base`` never change: their cards may be kept
        if memo is not None and len(kept) != s.n:
            kept = memo["held"] = [None] * s.n
    at = tab.track_at  # ``track_vp``, inline: this runs after every step decided
    war = at[s.war_max] if 0 <= s.war_max < len(at) else track_vp(s, "war")
    revolution = at[s.revolution_max] if 0 <= s.revolution_max < len(at) else track_vp(s, "revolution")
    necronomicon = g["necronomicon_vp"]
    city_vp, assassinated, hidden, rvp, vampires = (board.city_vp, board.assassinated, board.hidden, board.rvp,
                                                    board.vampires)
    known: list[int] = []
    reached = False
    for i, p in enumerate(s.players):
        if kept and p is shared[i]:
            found = kept[i]
            if found is not None and found[0] is p:
                held_ = found[1]
            else:
                held_ = _holdings(tab, p)
                kept[i] = (p, held_)
        else:
            held_ = _holdings(tab, p)
        if not p.known and (p.kills or p.yog_vp or board.cities[i] or board.royals[i] or war or revolution
                            or rvp[i] > 0  # resto_vp is never negative (data.validate)
                            or (held_ and (held_["Necronomicon"] or (vampires[i] and held_["Vampire"])
                                           or (held_["Zombies"] and board.zombies_out)))):
            known.append(i)
        if reached:
            continue
        if held_ is None:
            if not p.revealed:
                reached = city_vp[i] + assassinated[i] + hidden[i] >= target
                continue
            held_ = NONE_HELD
        pts = city_vp[i] + necronomicon * held_["Necronomicon"]
        if not p.revealed:
            pts += assassinated[i] + hidden[i]
        elif p.side == RESTORATIONIST:
            pts += assassinated[i] + revolution + rvp[i]
            pts += g["black_hand_vp"] * board.n_assassinated[i] if held_["The Black Hand"] else 0
        else:
            pts += hidden[i] + war + p.yog_vp
            pts += vampires[i] if held_["Vampire"] else 0
            pts += g["zombie_bonus"] if held_["Zombies"] and board.zombies_out else 0
        reached = pts >= target
    return known, reached


NONE_HELD = dict.fromkeys(SCORING_CARDS, 0)


def holdings(s: State, seat: int) -> tuple[int, ...]:
    """How many of each of ``SCORING_CARDS`` score for the player, in that order (``necronomicons``)."""
    found = _holdings(tables(s.cat), s.players[seat], s.phase != "over")
    return tuple(found.values()) if found is not None else (0,) * len(SCORING_CARDS)


def _holdings(tab: _Tables, p: Any, on: bool = True) -> dict[str, int] | None:
    """How many of each scoring card the player has (``_held``), with, while the game is ``on``, the
    Necronomicons they removed face down; None if none at all (the usual case)."""
    ids = tab.all_ids
    hidden = p.hidden_necronomicons if on else 0
    if not hidden and ids.isdisjoint(p.hand) and ids.isdisjoint(p.deck) and ids.isdisjoint(p.discard):
        return None
    out = dict.fromkeys(SCORING_CARDS, 0)
    out["Necronomicon"] = hidden
    names = tab.scoring
    for pile in (p.hand, p.deck, p.discard):
        for c in pile:
            name = names.get(c)
            if name is not None:
                out[name] += 1
    return out


def discs_on_board(s: State, seat: int) -> int:
    return (sum(1 for o in s.owner.values() if o == seat)
            + sum(1 for a in s.agents.values() if a["owner"] == seat and a["where"] == "board" and not a.get("main"))
            + sum(1 for r in s.royal.values() if r[0] == seat))


def final_scores(s: State) -> Outcome:
    n = s.n
    scores = {i: score(s, i, s.players[i].side, final=True) for i in range(n)}
    detail: dict[int, dict[str, Any]] = {}
    for i in range(n):
        detail[i] = {"side": s.players[i].side, **breakdown(s, i, s.players[i].side, final=True),
                     "discs on the board": discs_on_board(s, i)}
    sides = {s.players[i].side for i in range(n)}
    alive = list(range(n))
    eliminated = ""
    if len(sides) == 2:
        low = min(scores.values())
        losing = {s.players[i].side for i in range(n) if scores[i] == low}
        eliminated = LOYALIST if LOYALIST in losing else RESTORATIONIST
        alive = [i for i in range(n) if s.players[i].side != eliminated]
    best = max(scores[i] for i in alive)
    top = [i for i in alive if scores[i] == best]
    if len(top) > 1:
        most = max(discs_on_board(s, i) for i in top)
        top = [i for i in top if discs_on_board(s, i) == most]
    words = {LOYALIST: "Loyalists", RESTORATIONIST: "Restorationists"}
    summary = (f"The {words[eliminated]} are eliminated (the lowest score is on their side). " if eliminated else "")
    summary += " and ".join(s.names[i] for i in top) + (" share the win." if len(top) > 1 else " wins.")
    return Outcome(scores=scores, breakdown=detail, winners=tuple(top), summary=summary)
