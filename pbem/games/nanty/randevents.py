"""The twelve Random Events, each a small resumable procedure.

An event's progress lives in the turn's bookkeeping (``ctx.p["event"]``, public); when a player must
decide (Holborn's protection, a murder victim, where a flooded agent goes, which building subsides) the
procedure sets ``ctx.p["ask"]`` and stops, and the answer resumes it at the same stage. Die rolls are
made before any question, and kept, so a resumed stage never rolls again.
"""

from __future__ import annotations

from typing import Any

from pbem.games.nanty.effects import (
    Ctx,
    demolish,
    end,
    pay,
    place_pawn,
    place_trouble,
    remove_agent,
    remove_pawn,
    remove_trouble,
    roll,
)
from pbem.games.nanty.scoring import riots_losers, scored_winners

Ev = dict[str, Any]


def start(ctx: Ctx) -> None:
    """Draw the top Random Event card; an exhausted event deck does nothing (GUIDE C2-12)."""
    if not ctx.s.event_deck:
        return
    eid = ctx.s.event_deck[0]
    ctx.emit("EventDrawn", {"seat": ctx.s.active, "event": eid}, reveals=True)
    ctx.p["event"] = {"id": eid, "stage": "start"}


def run(ctx: Ctx) -> None:
    """Go on with the event in progress until it ends or asks a player something."""
    while ctx.p.get("event") and not ctx.p.get("ask"):
        ev = ctx.p["event"]
        STAGES[ev["id"]](ctx, ev)


def _done(ctx: Ctx) -> None:
    ctx.p["event"] = None


def _order(ctx: Ctx) -> list[int]:
    return [(ctx.s.active + i) % ctx.s.n for i in range(ctx.s.n)]


def holborn_owner(ctx: Ctx) -> tuple[int, str]:
    for area in ctx.s.cat.area_ids:
        if ctx.s.cat.areas[area].power == "protect":
            return ctx.s.power_owner(area), area
    return -1, ""


def guard(ctx: Ctx, ev: Ev, area: str, victim: int, agents: int, building: int) -> dict[str, int] | None:
    """What of the victim's pieces the Holborn card saves (£3 apiece); None while the owner is asked."""
    if "saved" in ev:
        saved: dict[str, int] = ev.pop("saved")
        return saved
    owner, hol = holborn_owner(ctx)
    cost = ctx.s.cat.game["holborn_cost"]
    if (owner >= 0 and owner == victim and (agents or building) and ctx.s.power_works(hol)
            and ctx.s.players[owner].money >= cost):
        ctx.p["ask"] = {"kind": "holborn", "seat": owner, "area": area, "agents": agents, "building": building,
                        "event": ev["id"]}
        return None
    return {"agents": 0, "building": 0}


def protect_options(state: Any, ask: dict[str, Any]) -> list[dict[str, Any]]:
    """Keep 0..n of the struck agents and the building, as far as the Holborn holder's money goes."""
    money = state.players[ask["seat"]].money
    cost = state.cat.game["holborn_cost"]
    return [{"kind": "protect", "agents": i, "building": j} for j in range(ask["building"] + 1)
            for i in range(ask["agents"] + 1) if cost * (i + j) <= money]


def answer_protect(ctx: Ctx, seat: int, agents: int, building: int) -> None:
    """Pay for what Holborn keeps; the event's stage that asked reads ``saved`` when it resumes."""
    ctx.p["ask"] = None
    count = agents + building
    if count:
        _, hol = holborn_owner(ctx)
        ctx.emit("PowerUsed", {"seat": seat, "area": hol})
        pay(ctx, seat, ctx.s.cat.game["holborn_cost"] * count, "Holborn")
    ctx.p["event"]["saved"] = {"agents": agents, "building": building}


# --- the events ----------------------------------------------------------------------------

def _fire(ctx: Ctx, ev: Ev) -> None:
    """"Continue until an area without a building is rolled": ``last`` is the area the fire last reached."""
    readings = ctx.s.readings
    if ev["stage"] in ("start", "roll"):
        area = roll(ctx, "fire")
        last = ev.get("last")
        if ctx.s.spot(area).building < 0:
            return _done(ctx)
        if last and area not in ctx.s.neighbours(last):
            if readings.fire_spread == "ends":
                return _done(ctx)
            return                # rolls_on: not next to the fire, that building is spared; roll again
        ev.update(stage="burn", area=area)
        return
    area = ev["area"]
    saved = guard(ctx, ev, area, ctx.s.spot(area).building, 0, 1)
    if saved is None:
        return
    if saved["building"]:
        if readings.fire_saved_building == "stops":
            return _done(ctx)     # as ruled before: nothing burnt there, so the fire stops
        ev.update(stage="roll", last=area)  # goes_on: the building still stands, so the fire goes on from there
        return
    demolish(ctx, area, "fire")
    ev.update(stage="roll", last=area)


def _buildings(why: str) -> Any:
    def stage(ctx: Ctx, ev: Ev) -> None:
        if ev["stage"] == "start":
            ev.update(stage="roll", left=ctx.s.cat.events[why]["amount"] or 1)
        if ev["stage"] == "roll":
            if ev["left"] <= 0:
                return _done(ctx)
            ev["left"] -= 1
            area = roll(ctx, why)
            if ctx.s.spot(area).building >= 0:
                ev.update(stage="hit", area=area)
            return
        area = ev["area"]
        saved = guard(ctx, ev, area, ctx.s.spot(area).building, 0, 1)
        if saved is None:
            return
        if not saved["building"]:
            demolish(ctx, area, why)
        ev["stage"] = "roll"
    return stage


def _zeppelin(ctx: Ctx, ev: Ev) -> None:
    if ev["stage"] == "start":
        ev.update(stage="crash", area=roll(ctx, "zeppelin"))
        return
    area = ev["area"]
    owner, _ = holborn_owner(ctx)
    sp = ctx.s.spot(area)
    mine = (sp.agents[owner], 1 if sp.building == owner else 0) if owner >= 0 else (0, 0)
    saved = guard(ctx, ev, area, owner, *mine)
    if saved is None:
        return
    for seat in range(ctx.s.n):
        keep = saved["agents"] if seat == owner else 0
        for _ in range(ctx.s.spot(area).agents[seat] - keep):
            remove_agent(ctx, seat, area, "zeppelin")
    for pawn, count in (("grenadier", ctx.s.spot(area).grenadiers), ("citizen", ctx.s.spot(area).citizens)):
        for _ in range(count):
            remove_pawn(ctx, pawn, area, "zeppelin")
    if not saved["building"]:
        demolish(ctx, area, "zeppelin")
    remove_trouble(ctx, area)
    _done(ctx)


def _inigo(ctx: Ctx, ev: Ev) -> None:
    if ev["stage"] == "start":
        area = roll(ctx, "inigo_jones")
        owner = ctx.s.spot(area).building
        if owner < 0:
            return _done(ctx)
        if not ctx.s.spot(area).disabled:
            ctx.emit("PowerDisabled", {"area": area})
        if ctx.s.spot(area).agents[owner] == 0:
            return _done(ctx)
        ev.update(stage="agent", area=area, owner=owner)
        return
    saved = guard(ctx, ev, ev["area"], ev["owner"], 1, 0)
    if saved is None:
        return
    if not saved["agents"]:
        remove_agent(ctx, ev["owner"], ev["area"], "inigo_jones")
    _done(ctx)


def _pawns(pawn: str) -> Any:
    def stage(ctx: Ctx, ev: Ev) -> None:
        eid = ev["id"]
        for _ in range(ctx.s.cat.events[eid]["amount"]):
            area = roll(ctx, eid)
            if (ctx.s.grenadiers if pawn == "grenadier" else ctx.s.citizens) > 0:
                place_pawn(ctx, pawn, area)
            if pawn == "grenadier":
                place_trouble(ctx, area)     # Riot Act: "placing a Trouble marker if there is not one"
        _done(ctx)
    return stage


def _fog(ctx: Ctx, ev: Ev) -> None:
    cards = list(ctx.s.deck[:ctx.s.cat.events["fog"]["amount"]])
    if cards:
        ctx.emit("CardsRevealed", {"cards": cards}, reveals=True)
    _done(ctx)


def _riots(ctx: Ctx, ev: Ev) -> None:
    _done(ctx)
    if ctx.s.trouble_count() >= ctx.s.cat.game["riots_trouble"]:
        end(ctx, "riots", scored_winners(ctx.s, riots_losers(ctx.s)))


def _subsidence(ctx: Ctx, ev: Ev) -> None:
    if ev["stage"] == "start":
        ev.update(stage="pay", queue=_order(ctx))
    per = ctx.s.cat.events["subsidence"]["amount"]
    while ev["queue"]:
        seat = ev["queue"][0]
        mine = ctx.s.buildings_of(seat)
        money = ctx.s.players[seat].money
        if per * len(mine) <= money:
            pay(ctx, seat, per * len(mine), "subsidence")
            ev["queue"].pop(0)
            continue
        if money < per:             # nothing can be kept: every building goes
            for area in mine:
                demolish(ctx, area, "subsidence")
            ev["queue"].pop(0)
            continue
        ctx.p["ask"] = {"kind": "subsidence", "seat": seat}
        return
    _done(ctx)


def _murders(ctx: Ctx, ev: Ev) -> None:
    if ev["stage"] == "start":
        ev.update(stage="roll", queue=_order(ctx))
    if ev["stage"] == "roll":
        if not ev["queue"]:
            return _done(ctx)
        seat = ev["queue"][0]
        area = roll_for(ctx, seat, "murders")
        if ctx.s.spot(area).pawns == 0:
            ev["queue"].pop(0)
            return
        ev.update(stage="choose", area=area)
        ctx.p["ask"] = {"kind": "murder", "seat": seat, "area": area}
        return
    target, area = ev["target"], ev["area"]
    if isinstance(target, int):
        saved = guard(ctx, ev, area, target, 1, 0)
        if saved is None:
            return
        if not saved["agents"]:
            remove_agent(ctx, target, area, "murders", by=ev["queue"][0])
    else:
        remove_pawn(ctx, target, area, "murders")
    ev["queue"].pop(0)
    ev["stage"] = "roll"


def roll_for(ctx: Ctx, seat: int, why: str) -> str:
    faces = ctx.s.cat.die
    face = ctx.rng.randint(1, len(faces))
    ctx.emit("DieRolled", {"seat": seat, "face": face, "area": faces[face - 1], "why": why})
    return faces[face - 1]


def murder_options(state: Any, ask: dict[str, Any]) -> list[dict[str, Any]]:
    sp = state.spot(ask["area"])
    out: list[dict[str, Any]] = [{"kind": "murder", "target": v} for v in range(state.n) if sp.agents[v] > 0]
    if sp.grenadiers:
        out.append({"kind": "murder", "target": "grenadier"})
    if sp.citizens:
        out.append({"kind": "murder", "target": "citizen"})
    return out


def _flood(ctx: Ctx, ev: Ev) -> None:
    if ev["stage"] == "start":
        rolled = [roll(ctx, "flood") for _ in range(ctx.s.cat.events["flood"]["amount"] or 1)]
        flooded = sorted({a for a in rolled if ctx.s.cat.areas[a].river}, key=ctx.s.cat.area_ids.index)
        queue = [[seat, a] for seat in _order(ctx) for a in flooded if ctx.s.spot(a).agents[seat] > 0]
        ev.update(stage="guard", flooded=flooded, queue=queue)
    while ev["queue"]:
        seat, area = ev["queue"][0]
        if ev["stage"] == "guard":
            count = ctx.s.spot(area).agents[seat]
            saved = guard(ctx, ev, area, seat, count, 0)
            if saved is None:
                return
            ev.update(stage="move", move=count - saved["agents"])
        if ev["move"] > 0 and flood_options(ctx.s, ev, seat, area):
            ctx.p["ask"] = {"kind": "flood", "seat": seat, "area": area}
            return
        ev["queue"].pop(0)
        ev["stage"] = "guard"
    _done(ctx)


def flood_options(state: Any, ev: Ev, seat: int, area: str) -> list[dict[str, Any]]:
    if state.spot(area).agents[seat] == 0:
        return []
    return [{"kind": "flood", "to": t} for t in state.cat.area_ids
            if t in state.neighbours(area) and t not in ev["flooded"]]


STAGES: dict[str, Any] = {
    "fire": _fire, "explosion": _buildings("explosion"), "earthquake": _buildings("earthquake"),
    "zeppelin": _zeppelin, "inigo_jones": _inigo, "riot_act": _pawns("grenadier"),
    "new_citizens": _pawns("citizen"), "fog": _fog, "riots": _riots, "subsidence": _subsidence,
    "murders": _murders, "flood": _flood,
}
