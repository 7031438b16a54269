"""The final adjustment: points by identity, the tracks, the lowest player's side, the winner."""

from __future__ import annotations

from typing import Any

from events.rules import Outcome
from pbem.games.emerald.state import LOYALIST, RESTORATIONIST, State


def adjusted(state: State) -> dict[int, dict[str, Any]]:
    r, l_ = state.resto_track, state.loyal_track
    diff = abs(r - l_)
    out: dict[int, dict[str, Any]] = {}
    for seat, p in enumerate(state.players):
        side = p.side
        kept_kills = lost_kills = 0
        for k in p.kills:
            victim_side = state.players[k.victim].side
            keep = victim_side == RESTORATIONIST if side == LOYALIST else k.type != "loyal"
            if keep:
                kept_kills += k.vp
            else:
                lost_kills += k.vp
        track_kept = (side == RESTORATIONIST and r > l_) or (side == LOYALIST and l_ > r)
        own = p.vp_loyal if side == LOYALIST else p.vp_resto
        lost = p.vp_resto if side == LOYALIST else p.vp_loyal
        score = p.vp_neutral + own + kept_kills + (diff if track_kept else 0)
        out[seat] = {
            "side": side, "identity_card": p.identity, "change_of_heart": p.flipped,
            "running_total": state.total_vp(seat),
            "neutral": p.vp_neutral, "restorationist": p.vp_resto, "loyalist": p.vp_loyal,
            "own_side_points": own, "other_side_points_lost": lost,
            "assassinations_kept": kept_kills, "assassinations_lost": lost_kills,
            "track": diff, "track_kept": track_kept,
            "before_penalty": score,
        }
    return out


def final_scores(state: State) -> Outcome:
    rows = adjusted(state)
    low = min(r["before_penalty"] for r in rows.values())
    lowest = [s for s, r in rows.items() if r["before_penalty"] == low]
    # on a tie for lowest a Loyalist counts as lower than a Restorationist
    losing_side = LOYALIST if any(rows[s]["side"] == LOYALIST for s in lowest) else RESTORATIONIST
    penalty = state.cat.game["lowest_side_penalty"]
    for r in rows.values():
        r["lowest_side_penalty"] = -penalty if r["side"] == losing_side else 0
        r["score"] = r["before_penalty"] + r["lowest_side_penalty"]
    best = max(r["score"] for r in rows.values())
    tied = [s for s, r in rows.items() if r["score"] == best]
    restos = [s for s in tied if rows[s]["side"] == RESTORATIONIST]
    winners = tuple(restos or tied)
    names = [state.names[s] for s in winners]
    why = {"victory_points": "a player reached the victory point target",
           "track": "a track marker reached the end", "restorationist_revealed": "a Restorationist was revealed"}
    summary = (f"The game ended because {why.get(state.end_reason, state.end_reason)}. "
               f"The lowest player's side ({losing_side}s) lost {penalty}. "
               f"{' and '.join(names)} {'win' if len(names) > 1 else 'wins'} with {best} points.")
    return Outcome(scores={s: r["score"] for s, r in rows.items()}, breakdown=rows, winners=winners,
                   summary=summary)
