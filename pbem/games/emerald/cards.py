"""Card text effects: what each card's text allows (its options) and what it does."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from pbem.games.emerald import flow, moves
from pbem.games.emerald.effects import (
    Ctx,
    claim,
    draw,
    end,
    move_marker,
    play_cards,
    roll_sanity,
    score,
    turn_top,
)
from pbem.games.emerald.state import RESTORATIONIST, State

Action = dict[str, Any]

FREE = ("free action", "one-use free action")
ACTION = ("action", "one-use action", "one-use action or interrupt")


def is_free(state: State, card: int) -> bool:
    return state.cat.cards[card].text_type in FREE


def has_vp(state: State, card: int) -> bool:
    c = state.cat.cards[card]
    return any(c.sym(k) for k in ("vp_neutral", "vp_resto", "vp_loyal"))


def destination(state: State, card: int) -> str:
    """Where a card goes after its text is used.

    "If the card gained you victory points in any manner, either when you claimed it or because you
    have just played it, then you place it near your Secret Identity card" (Card action); cards the
    text places there (Mi-Go, Yog-Sothoth, Change of Heart, Hide Royalty, The Black Hand) go there too.
    Other one-use cards leave play; the rest go to the discard pile.
    """
    c = state.cat.cards[card]
    if has_vp(state, card) or c.text in ("mi_go", "yog_sothoth", "black_hand", "change_of_heart", "hide_royalty"):
        return "kept"
    return "removed" if c.one_use else "discard"


def _agents_of_others(state: State, seat: int, cities: list[str] | None = None) -> list[tuple[int, str]]:
    out = []
    for city in cities or state.cat.city_ids:
        c = state.city(city)
        for v in range(state.n):
            if v != seat and c.agents[v] > 0:
                out.append((v, city))
    return out


def options(state: State, seat: int, card: int, free: bool) -> list[Action]:
    """The ways to use ``card``'s text now (only free ones if ``free``, else only actions)."""
    cdef = state.cat.cards[card]
    text = cdef.text
    if not text or cdef.text_type not in (FREE if free else ACTION):
        return []
    if text in ("zombies", "vampires") and state.leopold:
        return []
    pl = state.players[seat]
    base: Action = {"kind": "play", "card": card}
    cities = list(state.cat.city_ids)
    if text in ("golovinski", "draw_two", "peoples_will", "black_hand", "change_of_heart", "holy_brotherhood",
                "freud", "leopold", "zombies"):
        return [base]
    if text in ("mrs_hudson", "freemasons"):
        others = [c for c in pl.hand if c != card]
        return [{**base, "discard": []}] + [{**base, "discard": list(s)} for s in moves.subsets(others)]
    if text == "third_section":
        return [{**base, "city": c} for c in cities if state.city(c).stack]
    if text == "mi_go":
        mine = [c for c in cities if state.city(c).agents[seat] > 0]
        out = [{**base, "from": [c]} for c in mine]
        for a, b in combinations_with_replacement(mine, 2):
            if a != b or state.city(a).agents[seat] >= 2:
                out.append({**base, "from": sorted([a, b])})
        return out
    if text == "pinkerton":
        return [{**base, "city": c} for c in cities] if pl.stock_agents else []
    if text == "cthulhu":
        return [{**base, "city": c} for c in cities]
    if text == "duchess":
        return [{**base, "city": c} for c in moves.claimable_cities(state, seat, need_cube=False)]
    if text == "hide_royalty":
        return [{**base, "city": c} for c in cities if state.city(c).royalty and state.has_most(c, seat)]
    if text == "lestrade":
        return [{**base, "player": v, "city": c} for c in cities for v in range(state.n)
                if state.city(c).cubes[v] > 0]
    if text == "irene_adler":
        if not pl.stock_agents:
            return []
        return [{**base, "player": v, "city": c} for v, c in _agents_of_others(state, seat)]
    if text == "vampires":
        if not pl.stock_agents:
            return []
        mine = [c for c in cities if state.city(c).agents[seat] > 0]
        return [{**base, "player": v, "city": c} for v, c in _agents_of_others(state, seat, mine)] if mine else []
    if text == "shoggoth":
        return [{**base, "player": v, "city": c} for v, c in _agents_of_others(state, seat)]
    if text == "okhrana":
        spots = [(v, c) for c in cities for v in range(state.n) if state.city(c).cubes[v] > 0]
        out = [{**base, "cubes": [[v, c]]} for v, c in spots]
        for i, (v, c) in enumerate(spots):
            for w, d in spots[i:]:
                if (w, d) != (v, c) or state.city(c).cubes[v] >= 2:
                    out.append({**base, "cubes": sorted([[v, c], [w, d]])})
        return out
    if text in ("terrors", "burtsev"):
        return [{**base, "player": v} for v in range(state.n) if v != seat]
    if text == "yog_sothoth":
        return [base] if state.agents_in_cities(seat) else []
    return []


def play(ctx: Ctx, seat: int, a: Action) -> bool:
    """Use a card's text. Returns True when the action is complete (not waiting for more steps)."""
    s = ctx.s
    card = a["card"]
    cdef = s.cat.cards[card]
    text = cdef.text
    dest = destination(s, card)

    def spend(to: str = dest) -> None:
        play_cards(ctx, seat, [card], "text", to=to)

    if text == "golovinski":
        spend()
        move_marker(ctx, "loyal", 2)
    elif text in ("mrs_hudson", "freemasons"):
        play_cards(ctx, seat, list(a["discard"]), "discard", to="discard")
        draw(ctx, seat, len(a["discard"]) + 1)
        spend()          # after drawing: a reshuffle happens BEFORE this card is discarded
    elif text == "draw_two":
        draw(ctx, seat, 2)
        spend()
    elif text == "third_section":
        spend()
        top = s.city(a["city"]).stack[0]
        ctx.emit("CardRemoved", {"card": top, "from": "stack", "city": a["city"], "why": "third_section"})
        turn_top(ctx, a["city"])
    elif text == "mi_go":
        spend()
        for city in a["from"]:
            ctx.emit("AgentRemoved", {"seat": seat, "city": city, "to": "migo", "by": seat})
    elif text == "pinkerton":
        spend()
        ctx.emit("AgentPlaced", {"seat": seat, "city": a["city"], "why": "pinkerton"})
    elif text == "peoples_will":
        spend()
        if s.players[seat].limbo:
            ctx.emit("CubesMoved", {"seat": seat, "from": "limbo", "to": "stock", "count": s.players[seat].limbo})
    elif text == "black_hand":
        spend()
        ctx.emit("BlackHandPlayed", {"seat": seat})
        score(ctx, seat, 2 * ctx.s.royalty_gained(seat), "resto", "The Black Hand")
    elif text == "change_of_heart":
        spend()
        ctx.emit("SideChanged", {"seat": seat})
        if ctx.s.players[seat].revealed and ctx.s.players[seat].side == RESTORATIONIST:
            end(ctx, "restorationist_revealed")
    elif text == "holy_brotherhood":
        spend()
        k = min(s.agents_on_board(seat), s.players[seat].limbo)
        if k:
            ctx.emit("CubesMoved", {"seat": seat, "from": "limbo", "to": "stock", "count": k})
    elif text == "lestrade":
        spend()
        ctx.emit("CubesMoved", {"seat": a["player"], "from": a["city"], "to": "stock",
                                "count": s.city(a["city"]).cubes[a["player"]]})
    elif text == "okhrana":
        spend()
        for v, city in a["cubes"]:
            ctx.emit("CubesMoved", {"seat": v, "from": city, "to": "limbo", "count": 1})
    elif text == "freud":
        spend()
        pl = ctx.s.players[seat]
        to = min(s.cat.game["sanity_tokens"], pl.sanity + ctx.s.sanity_stock)
        if to > pl.sanity:
            ctx.emit("SanityChanged", {"seat": seat, "to": to})
        move_marker(ctx, "resto", 2)
    elif text == "terrors":
        spend()
        roll_sanity(ctx, a["player"], "Terrors of the Night")
    elif text == "burtsev":
        spend()
        target = a["player"]
        ctx.emit("IdentityLooked", {"seat": seat, "target": target})
        ctx.emit("IdentitySeen", {"seat": seat, "target": target, "identity": s.players[target].identity},
                 to=seat, reveals=True)
    elif text == "duchess":
        spend()
        claim(ctx, seat, a["city"])
    elif text == "hide_royalty":
        spend()
        flow.hide_royalty(ctx, seat, a["city"])
    elif text == "leopold":
        spend()
        leopold(ctx)
    elif text == "cthulhu":
        spend()
        flow.eliminate(ctx, {"type": "cthulhu", "seat": seat, "city": a["city"]}, {"then": "done"})
        return False
    elif text in ("irene_adler", "vampires"):
        spend()
        flow.eliminate(ctx, {"type": "replace", "seat": seat, "city": a["city"], "victim": a["player"],
                             "card": card}, {"then": "done"})
        return False
    elif text == "shoggoth":
        flow.eliminate(ctx, {"type": "shoggoth", "seat": seat, "city": a["city"], "victim": a["player"],
                             "card": card}, {"then": "done"})
        return False
    elif text == "yog_sothoth":
        spend()
        flow.set_step(ctx, {"step": "yog", "taken": 0})
        return False
    elif text == "zombies":
        spend()
        mine = [c for c in s.cat.city_ids if ctx.s.city(c).zombies[seat] > 0]
        flow.zombie_next(ctx, mine)
        return False
    return True


def leopold(ctx: Ctx) -> None:
    """Society of Leopold: zombies leave the game; Zombie and Vampire cards leave their holders."""
    s = ctx.s
    for city in s.cat.city_ids:
        for v in range(s.n):
            z = ctx.s.city(city).zombies[v]
            if z:
                ctx.emit("ZombiesRemoved", {"seat": v, "city": city, "count": z, "permanent": True})
    ctx.emit("ZombieCardsVoided", {})
    for v in range(s.n):
        from_hand = 0
        for where in ("hand", "deck", "discard", "kept"):
            for card in getattr(ctx.s.players[v], where):
                cdef = s.cat.cards[card]
                if cdef.text not in ("zombies", "vampires"):
                    continue
                ctx.emit("CardRemoved", {"seat": v, "card": card, "from": where, "why": "leopold"},
                         reveals=where in ("hand", "deck"))
                for t in ("neutral", "resto", "loyal"):
                    score(ctx, v, -cdef.sym("vp_" + t), t, f"lost {cdef.name} (Society of Leopold)")
                from_hand += where == "hand"
        if from_hand:
            draw(ctx, v, from_hand)
