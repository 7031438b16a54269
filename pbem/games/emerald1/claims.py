"""Claiming a card: a face-up Game card, a Permanent Effect on display, or a City card."""

from __future__ import annotations

from pbem.games.emerald1.effects import (
    Ctx, draw_sanity, hand_card_lost, stack_emptied, take_double_agents, turn_top, where_is,
)
from pbem.games.emerald1.permanent import on_claim


def claim(ctx: Ctx, seat: int, target: str) -> None:
    """Claim a face-up Game card (``card:<n>`` on a stack), a Permanent Effect or a City card (``city:<id>``)."""
    s = ctx.s
    cat = s.cat
    if target.startswith("city:"):
        city = target[5:]
        card = cat.city_card[city]
        prev = s.owner.get(city)
        if prev is not None:
            where = where_is(s, prev, card)
            ctx.emit("CardClaimed", {"seat": seat, "card": card, "city": city, "from_seat": prev, "from": where})
            hand_card_lost(ctx, prev, where)
        else:
            ctx.emit("CardClaimed", {"seat": seat, "card": card, "city": city})
        ctx.emit("CubesCleared", {"place": target, "claimer": seat})
        return
    card = int(target[5:])
    c = cat.cards[card]
    if c.kind == "pe":
        ctx.emit("CardClaimed", {"seat": seat, "card": card})
        ctx.emit("CubesCleared", {"place": target, "claimer": seat})
        then_end = ""
        if c.sanity:
            # "you still play the card even if you go mad and die" (revision 2): Cthulhu ends the game after
            still_plays = c.effect == "cthulhu" and s.readings.revision >= 2
            alive = not ctx.s.players[seat].main_dead
            draw_sanity(ctx, seat, c.name, dies_after=still_plays)
            if still_plays and alive and ctx.s.players[seat].main_dead:
                then_end = "restorationist_mad"
        on_claim(ctx, seat, c.effect, then_end)
        return
    city = next(x for x, st in s.stacks.items() if st and st[0] == card)
    ctx.emit("CardClaimed", {"seat": seat, "card": card, "city": city})
    if c.kind == "agent":
        ctx.emit("AgentControlled", {"seat": seat, "agent": str(card), "city": city})
    ctx.emit("CubesCleared", {"place": target, "claimer": seat})
    if ctx.s.stacks[city]:
        turn_top(ctx, city)
    else:
        stack_emptied(ctx, city)
    if c.action == "rachkovsky" and ctx.s.da_pool:
        take = take_double_agents(ctx, 2)
        ctx.emit("DoubleAgentsTaken", {"seat": seat, "agents": sorted(take), "why": "Peter Rachkovsky"}, to=seat,
                 reveals=True)
        ctx.emit("DoubleAgentsCount", {"seat": seat, "count": len(take), "why": "Peter Rachkovsky"})
    if c.sanity:
        draw_sanity(ctx, seat, c.name)
