"""Card text effects: what each card's text does when it is played (what it allows is in ``card_uses``)."""

from __future__ import annotations

from typing import Any

from pbem.games.emerald import flow
from pbem.games.emerald.card_uses import destination
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
from pbem.games.emerald.state import RESTORATIONIST

Action = dict[str, Any]


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
