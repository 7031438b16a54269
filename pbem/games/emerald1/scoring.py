"""Victory points: the public score, the score by side, and the final result."""

from __future__ import annotations

from typing import Any

from events.rules import Outcome
from pbem.games.emerald1.state import LOYALIST, RESTORATIONIST, State


def track_vp(s: State, track: str) -> int:
    reached = s.war_max if track == "war" else s.revolution_max
    table = s.cat.game["track_vp"]
    return max((vp for space, vp in table.items() if int(space) <= reached), default=0)


SCORING_CARDS = ("Necronomicon", "The Black Hand", "Vampire", "Zombies")


def _held(s: State, seat: int) -> dict[str, int]:
    """How many of each card that scores the player has among their cards (hand, deck, discard)."""
    cards = s.cat.cards
    out = dict.fromkeys(SCORING_CARDS, 0)
    p = s.players[seat]
    for pile in (p.hand, p.deck, p.discard):
        for c in pile:
            card = cards[c]
            if card.kind == "game" and card.name in out:
                out[card.name] += 1
    return out


def breakdown(s: State, seat: int, side: str, final: bool = False) -> dict[str, int]:
    """Each kind of points ``seat`` scores as a player of ``side`` (``""``: the public score)."""
    cat, p = s.cat, s.players[seat]
    held = _held(s, seat)

    def _count(s: State, seat: int, name: str) -> int:
        return held[name]

    out = {"cities": sum(cat.city[c]["vp"] for c, o in s.owner.items() if o == seat),
           "necronomicon": cat.game["necronomicon_vp"] * _count(s, seat, "Necronomicon")}
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


def score(s: State, seat: int, side: str | None = None, final: bool = False) -> int:
    if side is None:
        side = s.players[seat].side if s.players[seat].revealed else ""
    return sum(breakdown(s, seat, side, final).values())


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
    rvp = s.cat.agent_rvp
    vampires = 0
    for key, a in s.agents.items():
        if a["owner"] != seat or a.get("main"):
            if a["owner"] == seat and a["vampire"] and a["where"] == "board":
                vampires += 1
            continue
        if a["where"] in ("board", "migo") and not a["vampire"] and rvp.get(int(key), 0) > 0:
            return True
        if a["vampire"] and a["where"] == "board":
            vampires += 1
    held = _held(s, seat)
    if held["Necronomicon"] or (held["Vampire"] and vampires):
        return True
    return bool(held["Zombies"]) and sum(sum(r) for r in s.zombies.values()) >= s.cat.game["zombies"]


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
