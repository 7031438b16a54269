"""Card actions: what each Game card's action may do now, and doing it."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from pbem.games.emerald1 import assassin
from pbem.games.emerald1.effects import (
    Ctx, draw, draw_sanity, end, move_marker, play, stack_emptied, stack_top_removed, take_double_agents,
)
from pbem.games.emerald1.flow import complete_action, set_step, start_relocation
from pbem.games.emerald1.moves import placeable, subsets
from pbem.games.emerald1.state import State

Action = dict[str, Any]
ATTACKS = ("assassinate_any", "hide_royalty")


def is_free(s: State, card: int) -> bool:
    return s.cat.cards[card].free


def options(s: State, seat: int, card: int) -> list[Action]:
    """Every legal use of ``card``'s action by ``seat`` now."""
    c = s.cat.cards[card]
    pl = s.players[seat]
    act = c.action
    base: Action = {"kind": "card", "card": card}
    if c.kind == "agent" or act in ATTACKS:
        out = assassin.attack_options(s, seat, card)
        if act not in ("irene_adler", "burtsev"):
            return out
    else:
        out = []
    others = [o for o in range(s.n) if o != seat]
    if act == "blocking_disc":
        free_discs = s.cat.game["blocking_discs"] - len(s.blocking)
        spots = [p for p in _all_places(s) if p not in s.blocking] if free_discs > 0 else []
        out += [{**base, "block": p} for p in spots] + [{**base, "unblock": p} for p in sorted(s.blocking)]
    elif act == "irene_adler" and _agent_here(s, seat, card):
        out += [{**base, "player": o} for o in others if len(s.players[o].double_agents) > 1]
    elif act == "burtsev" and _agent_here(s, seat, card):
        out += [{**base, "player": o} for o in others]
    elif act == "bismarck":
        out += [{**base, "city": city} for city, o in sorted(s.owner.items()) if o == seat and city not in s.bismarck]
    elif act in ("diogenes", "peoples_will", "pinkerton"):
        if act != "peoples_will" or pl.pool > 0:
            if act != "pinkerton" or s.da_pool:
                out.append(base)
    elif act == "duchess":
        if pl.available > 0:
            out += [{**base, "to": p} for p in placeable(s, seat)]
    elif act == "freemasons":
        rest = [h for h in pl.hand if h != card]
        # as with the Discard action, only one discarded card (the player's choice) is left showing
        out += [{**base, "discard": []}] + [{**base, "discard": list(x), "shown": shown}
                                            for x in subsets(rest) for shown in x]
    elif act == "holy_brotherhood":
        sources = (["available"] if pl.available else []) + (["limbo"] if pl.limbo else []) + \
            [p for p, row in sorted(s.cubes.items()) if row[seat]]
        for src in sources:
            have = pl.available if src == "available" else pl.limbo if src == "limbo" else s.cubes[src][seat]
            for dest in placeable(s, seat):
                if dest != src:
                    out += [{**base, "from": src, "to": dest, "count": k} for k in (1, 2) if k <= have]
    elif act == "lestrade":
        out += [{**base, "city": city, "player": o} for city in s.cat.city_ids for o in others
                if s.cube_list(f"city:{city}")[o]]
    elif act == "golovinsky":
        top = s.cat.game["track_top"]
        out += [{**base, "steps": k} for k in range(1, s.cat.game["golovinsky_steps"] + 1) if s.war + k <= top
                or k == 1]
    elif act == "nadar":
        for key in sorted(s.controlled(seat)):
            here = s.agents[key]["city"]
            out += [{**base, "agent": key, "city": c} for c in s.cat.city_ids if c != here
                    and not s.locked_against(c, seat)]
    elif act == "shoggoth":
        out += [{**base, "agent": k} for k in assassin.agent_targets(s, seat, "", anywhere=True)]
    elif act == "okhrana":
        cubes = [(p, o) for p, row in sorted(s.cubes.items()) for o in others if row[o]]
        for k in (1, 2):
            for pick in combinations_with_replacement(cubes, k):
                if k == 2 and pick[0] == pick[1] and s.cubes[pick[0][0]][pick[0][1]] < 2:
                    continue
                out.append({**base, "cubes": [[p, o] for p, o in pick]})
    elif act == "terrors":
        out += [{**base, "player": o} for o in others]
    elif act == "third_section":
        out += [{**base, "stack": city} for city in s.cat.city_ids if s.top(city) is not None
                and f"card:{s.top(city)}" not in s.blocking]
        out += [{**base, "display": p} for p in s.pe_display]
        out += [{**base, "remove": h} for h in pl.hand if h != card and s.cat.cards[h].kind != "city"]
    elif act == "vampire" and not s.leopold:
        out += [{**base, "flip": k} for k in sorted(s.controlled(seat)) if not s.agents[k]["vampire"]]
        for k, a in sorted(s.agents.items()):
            if a["where"] == "board" and a["owner"] not in (None, seat) and not a.get("main") \
                    and s.players[a["owner"]].known and not a["vampire"] and s.discs_free(seat) > 0 \
                    and any(s.agents[m]["vampire"] for m in s.agents_in(a["city"], seat)):
                out.append({**base, "convert": k})
    elif act == "zombies" and not s.leopold:
        out.append(base)
    return out


def _agent_here(s: State, seat: int, card: int) -> bool:
    a = s.agents.get(str(card))
    return bool(a) and a["owner"] == seat and a["where"] == "board"


def _all_places(s: State) -> list[str]:
    out = []
    for c in s.cat.city_ids:
        if c in s.destroyed:
            continue
        out.append(f"city:{c}")
        if s.top(c) is not None:
            out.append(f"card:{s.top(c)}")
    return out + [f"card:{p}" for p in s.pe_display]


# --- doing -------------------------------------------------------------------------------

def perform(ctx: Ctx, seat: int, a: Action) -> None:
    s = ctx.s
    card = a["card"]
    c = s.cat.cards[card]
    act = c.action
    if "target" in a or "zombie" in a:
        return assassin.start_attack(ctx, seat, a)
    free = c.free
    keep_until_done = act in ("diogenes", "freemasons")
    if not keep_until_done and act not in ("bismarck",):
        play(ctx, seat, [card], "action", remove=c.one_use)
    if act == "blocking_disc":
        if "block" in a:
            ctx.emit("BlockingPlaced", {"seat": seat, "place": a["block"]})
        else:
            ctx.emit("BlockingRemoved", {"seat": seat, "place": a["unblock"]})
    elif act == "irene_adler":
        agent = ctx.rng.choice(sorted(s.players[a["player"]].double_agents))
        ctx.emit("DoubleAgentStolen", {"seat": seat, "from_seat": a["player"], "agent": agent},
                 to=(seat, a["player"]), reveals=True)
        ctx.emit("DoubleAgentStolenCount", {"seat": seat, "from_seat": a["player"]})
    elif act == "burtsev":
        ctx.emit("IdentityLooked", {"seat": seat, "target": a["player"]})
        ctx.emit("IdentitySeen", {"seat": seat, "target": a["player"], "side": s.players[a["player"]].side},
                 to=seat, reveals=True)
    elif act == "bismarck":
        city = a["city"]
        play(ctx, seat, [card], "action", remove=True)
        for place in (f"city:{city}", f"card:{s.top(city)}"):
            if place in s.cubes:
                ctx.emit("CubesCleared", {"place": place, "all_to": "limbo"})
            if place in s.blocking:
                ctx.emit("BlockingRemoved", {"seat": seat, "place": place})
        for owner, count in enumerate(s.zombies[city]):
            if count:
                ctx.emit("ZombiesRemoved", {"seat": owner, "city": city, "count": count, "by": seat})
        ctx.emit("BismarckPlayed", {"seat": seat, "city": city, "card": card})
        order = [o for o in s.seat_order_from(seat) if o != seat]
        movers = [(o, k) for o in order for k in sorted(s.agents_in(city, o))]
        return start_relocation(ctx, seat, city, movers)
    elif act == "diogenes":
        draw(ctx, seat, 2)
        play(ctx, seat, [card], "action")
    elif act == "peoples_will":
        ctx.emit("CubesMoved", {"seat": seat, "from": "pool", "to": "available", "count": 1})
    elif act == "pinkerton":
        take = take_double_agents(ctx, 4)
        ctx.emit("DoubleAgentsTaken", {"seat": seat, "agents": sorted(take), "why": "Pinkerton Agents"}, to=seat,
                 reveals=True)
        ctx.emit("DoubleAgentsCount", {"seat": seat, "count": len(take), "why": "Pinkerton Agents"})
        if len(take) > 2:
            return set_step(ctx, {"step": "pinkerton", "drawn": sorted(take), "free": True})
    elif act == "duchess":
        ctx.emit("CubesMoved", {"seat": seat, "from": "available", "to": a["to"], "count": 1})
    elif act == "freemasons":
        if a["discard"]:
            hidden = sorted(c for c in a["discard"] if c != a["shown"])
            ctx.emit("CardsDiscarded", {"seat": seat, "cards": hidden + [a["shown"]]}, to=seat, reveals=True)
            ctx.emit("CardsDiscardedCount", {"seat": seat, "count": len(a["discard"]), "shown": a["shown"]})
        draw(ctx, seat, len(a["discard"]) + 1)
        play(ctx, seat, [card], "action")
    elif act == "holy_brotherhood":
        ctx.emit("CubesMoved", {"seat": seat, "from": a["from"], "to": a["to"], "count": a["count"]})
    elif act == "lestrade":
        n = s.cube_list(f"city:{a['city']}")[a["player"]]
        ctx.emit("CubesMoved", {"seat": a["player"], "from": f"city:{a['city']}", "to": "limbo", "count": n})
    elif act == "golovinsky":
        move_marker(ctx, "war", a["steps"])
    elif act == "nadar":
        ctx.emit("AgentMoved", {"seat": seat, "agent": a["agent"], "from": s.agents[a["agent"]]["city"],
                                "to": a["city"], "cost": 0, "why": "Nadar"})
    elif act == "shoggoth":
        return _attack_with_escape(ctx, seat, {"type": "destroy", "seat": seat, "target": a["agent"],
                                               "city": s.agents[a["agent"]]["city"], "card": card, "how": "shoggoth"})
    elif act == "okhrana":
        for place, owner in a["cubes"]:
            ctx.emit("CubesMoved", {"seat": owner, "from": place, "to": "limbo", "count": 1})
    elif act == "terrors":
        draw_sanity(ctx, a["player"], "Terrors of the Night")
    elif act == "third_section":
        if "stack" in a:
            stack_top_removed(ctx, a["stack"], s.top(a["stack"]), "The Third Section", "limbo")
            if not ctx.s.stacks[a["stack"]]:
                stack_emptied(ctx, a["stack"])
        elif "display" in a:
            place = f"card:{a['display']}"
            if place in s.cubes:
                ctx.emit("CubesCleared", {"place": place, "all_to": "limbo"})
            if place in s.blocking:
                ctx.emit("BlockingRemoved", {"seat": seat, "place": place})
            ctx.emit("CardGone", {"card": a["display"], "why": "The Third Section"})
        else:
            ctx.emit("CardRemovedFace", {"seat": seat, "card": a["remove"]}, to=seat, reveals=True)
            ctx.emit("CardRemovedHidden", {"seat": seat})
    elif act == "vampire":
        if "flip" in a:
            ctx.emit("AgentFlipped", {"agent": a["flip"], "vampire": True, "seat": seat})
        else:
            return _attack_with_escape(ctx, seat, {"type": "convert", "seat": seat, "target": a["convert"],
                                                   "city": s.agents[a["convert"]]["city"], "card": card,
                                                   "how": "vampire"})
    elif act == "zombies":
        return start_zombies(ctx, seat)
    complete_action(ctx, seat, free)


def _attack_with_escape(ctx: Ctx, seat: int, effect: dict[str, Any]) -> None:
    """Shoggoth and vampire conversion: only the victim, if they have Master of Disguise, is asked."""
    owner = ctx.s.agents[effect["target"]]["owner"]
    asking = [owner] if ctx.s.has_pe(owner, "master_of_disguise") else []
    assassin.open_window(ctx, effect, asking)


# --- zombies -----------------------------------------------------------------------------

def start_zombies(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    first = s.actions_done == 0 and not s.free_used
    if (first or s.readings.zombies_end == "any_action") and \
            sum(sum(r) for r in s.zombies.values()) >= s.cat.game["zombies"]:
        end(ctx, "zombies")
    cities = [c for c in s.cat.city_ids if s.zombies[c][seat] > 0]
    set_step(ctx, {"step": "zombie_kill", "cities": cities} if cities else
             {"step": "zombie_place", "left": s.cat.game["zombie_place"]})
    zombie_advance(ctx, seat)


def zombie_advance(ctx: Ctx, seat: int) -> None:
    """Skip the steps with no choice; end the action when nothing is left to do."""
    s = ctx.s
    step = s.step
    if step.get("step") == "zombie_kill" and not any(zombie_targets(s, seat, c) for c in step["cities"]):
        set_step(ctx, {"step": "zombie_place", "left": s.cat.game["zombie_place"]})
        step = ctx.s.step
    if step.get("step") == "zombie_place":
        supply = s.cat.game["zombies"] - sum(sum(r) for r in s.zombies.values())
        if step["left"] <= 0 or supply <= 0 or not zombie_spots(s, seat):
            set_step(ctx, None)
            complete_action(ctx, seat)


def zombie_targets(s: State, seat: int, city: str) -> list[str]:
    out = []
    for key in sorted(s.agents_in(city)):
        a = s.agents[key]
        owner = a["owner"]
        if owner == seat or not s.players[owner].known:
            continue
        if a.get("main") and [k for k, b in s.agents.items() if b["owner"] == owner and not b.get("main")
                              and b["where"] == "board"]:
            continue
        out.append(key)
    return out


def zombie_spots(s: State, seat: int) -> list[str]:
    out = []
    for c in s.cat.city_ids:
        if c in s.destroyed or c in s.bismarck:
            continue
        # a city where you have an agent or a zombie, or next to a city with any zombie
        if s.agents_in(c, seat) or s.zombies[c][seat] or any(sum(s.zombies[n]) for n in s.cat.neighbours[c]):
            out.append(c)
    return out


def step_options(s: State, seat: int) -> list[Action]:
    step = s.step
    if step["step"] == "zombie_kill":   # one kill in each city with your zombies, in the order you choose
        return [{"kind": "zombie_kill", "city": city, "agent": k} for city in step["cities"]
                for k in zombie_targets(s, seat, city)] + [{"kind": "skip"}]
    if step["step"] == "zombie_place":
        return [{"kind": "zombie_place", "city": c} for c in zombie_spots(s, seat)] + [{"kind": "done"}]
    if step["step"] == "pinkerton":
        return [{"kind": "keep", "agents": list(x)} for x in subsets(step["drawn"], 2) if len(x) == 2]
    return []


def step_do(ctx: Ctx, seat: int, a: Action) -> None:
    step = ctx.s.step
    if a["kind"] in ("zombie_kill", "skip"):
        left: list[str] = []
        if a["kind"] == "zombie_kill":
            assassin.kill(ctx, seat, a["agent"], "zombie")
            left = [c for c in step["cities"] if c != a["city"]]
        set_step(ctx, {"step": "zombie_kill", "cities": left})
        return zombie_advance(ctx, seat)
    if a["kind"] == "zombie_place":
        ctx.emit("ZombiePlaced", {"seat": seat, "city": a["city"]})
        set_step(ctx, {"step": "zombie_place", "left": step["left"] - 1})
        return zombie_advance(ctx, seat)
    if a["kind"] == "done":
        set_step(ctx, None)
        return complete_action(ctx, seat)
    if a["kind"] == "keep":
        back = [x for x in step["drawn"] if x not in a["agents"]]
        ctx.emit("DoubleAgentsReturned", {"seat": seat, "agents": back}, to=seat)
        ctx.emit("DoubleAgentsReturnedCount", {"seat": seat, "count": len(back)})
        ctx.emit("DoubleAgentsShuffled", {"order": ctx.rng.shuffle(list(ctx.s.da_pool))}, server=True)
        set_step(ctx, None)
        complete_action(ctx, seat, True)
