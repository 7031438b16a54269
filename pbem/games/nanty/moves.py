"""The options of a card's symbols, its scroll text and the area powers, and applying a chosen one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.nanty.effects import (
    Ctx,
    build,
    draw,
    gain,
    move_agent,
    pay,
    place_agent,
    place_trouble,
    remove_agent,
    remove_pawn,
    remove_trouble,
)
from pbem.games.nanty.state import State

Action = dict[str, Any]


# --- where pieces may go -------------------------------------------------------------------

def agent_spots(s: State, seat: int, lift: str | None, centre: str | None = None) -> list[str]:
    """Areas an agent may be placed in; with ``lift``, judged with that agent already lifted (GUIDE C2-17), or
    still there (``relocation_adjacency = before_lifting``); never back where it was lifted from."""
    if centre is not None:
        allowed = {centre} | s.neighbours(centre)
    else:
        before = s.readings.relocation_adjacency == "before_lifting"
        own = {a for a in s.areas_with_agent(seat) if before or not (a == lift and s.spot(a).agents[seat] == 1)}
        if not own:
            allowed = set(s.cat.area_ids)
        else:
            allowed = set(own)
            for a in own:
                allowed |= s.neighbours(a)
    return [a for a in s.cat.area_ids if a in allowed and a != lift]


def placements(s: State, seat: int, centre: str | None = None) -> list[Action]:
    """``{"area"}`` (or ``{"area", "from"}`` when every agent is on the board and one must be lifted)."""
    if s.agents_in_stock(seat) > 0:
        return [{"area": a} for a in agent_spots(s, seat, None, centre)]
    return [{"area": a, "from": f} for f in s.areas_with_agent(seat) for a in agent_spots(s, seat, f, centre)]


def building_spots(s: State, seat: int) -> list[Action]:
    money = s.players[seat].money
    free = [a for a in s.areas_with_agent(seat)
            if not s.spot(a).trouble and s.spot(a).building < 0 and s.cat.areas[a].cost <= money]
    if s.buildings_in_stock(seat) > 0:
        return [{"area": a} for a in free]
    return [{"area": a, "from": f} for f in s.buildings_of(seat) for a in free]


def assassination_targets(s: State, seat: int) -> list[Action]:
    out: list[Action] = []
    for a, sp in zip(s.cat.area_ids, s.spots):
        if not sp.trouble:
            continue
        out += [{"area": a, "target": v} for v in range(s.n) if v != seat and sp.agents[v] > 0]
        if sp.grenadiers:
            out.append({"area": a, "target": "grenadier"})
        if sp.citizens:
            out.append({"area": a, "target": "citizen"})
    return out


# --- card symbols --------------------------------------------------------------------------

def symbol_options(s: State, seat: int, card: int, sym: str) -> list[Action]:
    name = sym.split(":", 1)[0]
    if name == "agent":
        return [{"kind": "agent", **p} for p in placements(s, seat)]
    if name == "building":
        return [{"kind": "build", **p} for p in building_spots(s, seat)]
    if name == "assassinate":
        return [{"kind": "assassinate", **t} for t in assassination_targets(s, seat)]
    if name == "money":
        return [{"kind": "take"}]
    if name == "trouble":
        return [{"kind": "remove_trouble", "area": a} for a, sp in zip(s.cat.area_ids, s.spots) if sp.trouble]
    if name == "scroll":
        return scroll_options(s, seat, card)
    return []


def apply_symbol(ctx: Ctx, seat: int, card: int, sym: str, a: Action) -> None:
    kind = a["kind"]
    if kind == "agent":
        place_agent(ctx, seat, a["area"], "card", a.get("from"))
    elif kind == "build":
        build(ctx, seat, a["area"], a.get("from"))
    elif kind == "assassinate":
        if isinstance(a["target"], int):
            offer_interrupt(ctx, {"type": "assassinate", "seat": seat, "victim": a["target"], "area": a["area"]})
        else:
            remove_pawn(ctx, a["target"], a["area"], "assassinated")
    elif kind == "take":
        gain(ctx, seat, int(sym.split(":")[1]), "card")
    elif kind == "remove_trouble":
        remove_trouble(ctx, a["area"])
    elif kind == "scroll":
        apply_scroll(ctx, seat, card, a)


def offer_interrupt(ctx: Ctx, effect: dict[str, Any]) -> None:
    """Ask whether to stop the effect, in the same words whatever the asked player holds.

    ``targeted``: the agent's owner is asked, always. ``any_time``: every other player holding a card (a public
    fact), the owner first and then clockwise from the acting player, until one stops it.
    """
    if ctx.s.readings.interrupts == "targeted":
        ctx.p["ask"] = {"kind": "interrupt", "seat": effect["victim"], "effect": effect}
        return
    actor, victim, n = effect["seat"], effect["victim"], ctx.s.n
    order = [victim] + [(actor + i) % n for i in range(1, n) if (actor + i) % n != victim]
    asked = [seat for seat in order if ctx.s.players[seat].hand]
    if not asked:
        let_happen(ctx, effect)
        return
    ctx.p["ask"] = {"kind": "interrupt", "seat": asked[0], "effect": effect, "next": asked[1:]}


def let_happen(ctx: Ctx, effect: Mapping[str, Any]) -> None:
    """Nobody stopped it: the agent is moved or removed."""
    victim, area = effect["victim"], effect["area"]
    if ctx.s.spot(area).agents[victim] == 0:   # pragma: no cover - nothing moves between offer and answer
        return
    if effect["type"] == "move":
        move_agent(ctx, victim, area, effect["to"], "moved")
    else:
        remove_agent(ctx, victim, area, "assassinated" if effect["type"] == "assassinate" else "removed",
                     by=effect["seat"])


# --- scroll texts --------------------------------------------------------------------------

def scroll_options(s: State, seat: int, card: int) -> list[Action]:
    c = s.cat.cards[card]
    eff = c.scroll
    others = [v for v in range(s.n) if v != seat]
    if eff in ("loan", "levy_all", "per_trouble", "per_building", "per_area"):
        return [{"kind": "scroll"}]
    if eff == "draw":
        return [{"kind": "scroll"}] if s.deck else []
    if eff == "calm":
        return [{"kind": "scroll"}] if any(s.spot(a).trouble for a in s.areas_with_agent(seat)) else []
    if eff == "levy_one":
        return [{"kind": "scroll", "player": v} for v in others if s.players[v].money > 0]
    if eff == "move_own":
        return [{"kind": "scroll", "from": f, "to": t} for f in s.areas_with_agent(seat)
                for t in s.cat.area_ids if t in s.neighbours(f)]
    if eff == "move_other":
        return [{"kind": "scroll", "player": v, "from": f, "to": t} for v in others for f in s.areas_with_agent(v)
                for t in s.cat.area_ids if t in s.neighbours(f)]
    if eff == "remove_agent":
        mine = s.areas_with_agent(seat)
        return [{"kind": "scroll", "player": v, "area": a} for v in others for a in mine if s.spot(a).agents[v] > 0]
    if eff == "place_trouble":
        return [{"kind": "scroll", "area": a} for a, sp in zip(s.cat.area_ids, s.spots) if sp.pawns and not sp.trouble]
    return []


def apply_scroll(ctx: Ctx, seat: int, card: int, a: Action) -> None:
    s = ctx.s
    c = s.cat.cards[card]
    eff, amount = c.scroll, c.amount
    if eff == "loan":
        ctx.emit("LoanTaken", {"seat": seat, "card": card})
        gain(ctx, seat, amount, "loan")
    elif eff == "draw":
        draw(ctx, seat, amount)
    elif eff == "levy_all":
        for i in range(1, s.n):
            pay(ctx, (seat + i) % s.n, amount, "scroll", to=seat)
    elif eff == "levy_one":
        pay(ctx, a["player"], amount, "scroll", to=seat)
    elif eff == "per_trouble":
        gain(ctx, seat, amount * s.trouble_count(), "scroll")
    elif eff == "per_building":
        gain(ctx, seat, amount * len(s.buildings_of(seat)), "scroll")
    elif eff == "per_area":
        gain(ctx, seat, amount * len(s.areas_with_agent(seat)), "scroll")
    elif eff == "move_own":
        move_agent(ctx, seat, a["from"], a["to"], "scroll")
    elif eff == "move_other":
        offer_interrupt(ctx, {"type": "move", "seat": seat, "victim": a["player"], "area": a["from"], "to": a["to"]})
    elif eff == "remove_agent":
        offer_interrupt(ctx, {"type": "remove", "seat": seat, "victim": a["player"], "area": a["area"]})
    elif eff == "place_trouble":
        place_trouble(ctx, a["area"])
    elif eff == "calm":
        for area in s.areas_with_agent(seat):
            remove_trouble(ctx, area)


# --- area powers ---------------------------------------------------------------------------

def power_options(s: State, seat: int, used: list[str]) -> list[Action]:
    """Powers of the seat's City Area cards not yet used this turn and not disabled."""
    out: list[Action] = []
    g = s.cat.game
    pl = s.players[seat]
    for area in s.buildings_of(seat):
        if area in used or not s.power_works(area):
            continue
        info = s.cat.areas[area]
        base: Action = {"kind": "power", "area": area}
        kind = info.power
        lifting = s.agents_in_stock(seat) == 0
        if kind == "place_agent" and pl.money >= g["power_agent_cost"] and not (
                lifting and s.readings.power_relocation == "none"):
            out += [{**base, "to": p["area"], **({"from": p["from"]} if "from" in p else {})}
                    for p in placements(s, seat, centre=area)]
        elif kind == "draw_discard" and s.deck:
            out.append(base)
        elif kind == "money":
            out.append(base)
        elif kind == "remove_trouble" and pl.money >= g["strand_cost"]:
            out += [{**base, "target": a} for a, sp in zip(s.cat.area_ids, s.spots) if sp.trouble]
        elif kind == "discard_money":
            out += [{**base, "card": c} for c in sorted(set(pl.hand))]
        elif kind == "place_trouble":
            near = {area} | s.neighbours(area)
            out += [{**base, "target": a} for a in s.cat.area_ids
                    if a in near and sum(s.spot(a).agents) > 0 and not s.spot(a).trouble]
    return out


def apply_power(ctx: Ctx, seat: int, a: Action) -> None:
    area = a["area"]
    g = ctx.s.cat.game
    info = ctx.s.cat.areas[area]
    ctx.emit("PowerUsed", {"seat": seat, "area": area})
    ctx.p["powers"] = sorted(ctx.p.get("powers", []) + [area])
    kind = info.power
    if kind == "place_agent":
        pay(ctx, seat, g["power_agent_cost"], "power")
        place_agent(ctx, seat, a["to"], "power", a.get("from"))
    elif kind == "draw_discard":
        draw(ctx, seat, info.amount)
        ctx.p["ask"] = {"kind": "discard", "seat": seat}
    elif kind == "money":
        gain(ctx, seat, info.amount, "power")
    elif kind == "remove_trouble":
        pay(ctx, seat, g["strand_cost"], "power")
        remove_trouble(ctx, a["target"])
    elif kind == "discard_money":
        ctx.emit("CardDiscarded", {"seat": seat, "card": a["card"], "why": "power"}, reveals=True)
        gain(ctx, seat, g["city_power_money"], "power")
    elif kind == "place_trouble":
        place_trouble(ctx, a["target"])
