"""Permanent Effect cards: what happens when one is claimed, and the actions they give."""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1.effects import (
    Ctx, draw, draw_sanity, end, hand_card_lost, play, reveal, stack_emptied, where_is,
)
from pbem.games.emerald1.flow import complete_action, set_step, start_relocation
from pbem.games.emerald1.state import RESTORATIONIST, State

Action = dict[str, Any]


def on_claim(ctx: Ctx, seat: int, effect: str, then_end: str = "") -> None:
    """What a Permanent Effect does when claimed; ``then_end``: the claimer died of it (Cthulhu's Sanity counter),
    and the game ends, for that reason, once it is played."""
    s = ctx.s
    if effect == "change_of_heart":
        ctx.emit("SideChanged", {"seat": seat})
    elif effect == "cthulhu":
        set_step(ctx, {"step": "cthulhu", "then_end": then_end} if then_end else {"step": "cthulhu"})
    elif effect == "leopold":
        leopold(ctx, seat)
    del s


def leopold(ctx: Ctx, seat: int) -> None:
    """Society of Leopold: every vampire and zombie leaves the board; Vampire and Zombies become useless."""
    s = ctx.s
    ctx.emit("SocietyOfLeopold", {"seat": seat})
    for city in s.cat.city_ids:
        for owner, count in enumerate(s.zombies[city]):
            if count:
                ctx.emit("ZombiesRemoved", {"seat": owner, "city": city, "count": count, "by": seat, "gone": True})
    for key, a in sorted(s.agents.items()):
        if a["where"] != "board" or not a["vampire"]:
            continue
        if not a.get("main"):
            ctx.emit("AgentLost", {"agent": key, "why": "Society of Leopold", "to": "gone"})
            continue
        owner = a["owner"]
        reveal(ctx, owner, "Society of Leopold")
        if s.players[owner].side == RESTORATIONIST:
            ctx.emit("AgentLost", {"agent": key, "why": "Society of Leopold", "to": "gone"})
            end(ctx, "restorationist_main_agent_killed")
        ctx.emit("AgentFlipped", {"agent": key, "vampire": False, "seat": owner})


def cthulhu_options(s: State) -> list[Action]:
    return [{"kind": "destroy", "city": c} for c in s.cat.city_ids if c not in s.destroyed]


def cthulhu(ctx: Ctx, seat: int, city: str) -> None:
    """Before the city goes, each agent there whose owner has Master of Disguise may escape."""
    s = ctx.s
    queue = [k for k in sorted(s.agents_in(city)) if not s.agents[k].get("main")
             and s.has_pe(s.agents[k]["owner"], "master_of_disguise")]
    cthulhu_next(ctx, seat, city, queue)


def cthulhu_next(ctx: Ctx, seat: int, city: str, queue: list[str]) -> None:
    s = ctx.s
    queue = [k for k in queue if s.agents[k]["where"] == "board" and s.agents[k]["city"] == city]
    if queue:
        owner = s.agents[queue[0]]["owner"]
        ctx.emit("WindowSet", {"window": {"effect": {"type": "cthulhu_escape", "seat": seat, "city": city,
                                                      "target": queue[0], "queue": queue}, "asking": [owner]}})
        return
    destroy(ctx, seat, city)


def destroy(ctx: Ctx, seat: int, city: str) -> None:
    s = ctx.s
    ctx.emit("CityDestroyed", {"seat": seat, "city": city})
    top = s.top(city)
    for place in [f"city:{city}"] + ([f"card:{top}"] if top is not None else []):
        if place in s.cubes:
            ctx.emit("CubesCleared", {"place": place, "all_to": "pool"})
        if place in s.blocking:
            ctx.emit("BlockingRemoved", {"seat": seat, "place": place})
    for owner, count in enumerate(s.zombies[city]):
        if count:
            ctx.emit("ZombiesRemoved", {"seat": owner, "city": city, "count": count, "by": seat})
    for key in sorted(s.agents_in(city)):
        if not s.agents[key].get("main"):
            owner = s.agents[key]["owner"]
            ctx.emit("AgentLost", {"agent": key, "why": "Cthulhu", "to": "gone"})
            card_gone(ctx, int(key), owner)
    for key in [k for k, a in s.agents.items() if a["where"] == "card" and a["city"] == city]:
        ctx.emit("AgentLost", {"agent": key, "why": "Cthulhu", "to": "gone"})
    prev = s.owner.get(city)
    if prev is not None:
        ctx.emit("CityLost", {"seat": prev, "city": city})
    card_gone(ctx, s.cat.city_card[city], prev)
    for c in list(s.stacks[city]):
        ctx.emit("CardGone", {"card": c, "why": "Cthulhu", "city": city})
    stack_emptied(ctx, city)
    for o in s.seat_order_from(seat):
        if o != seat:
            draw_sanity(ctx, o, "Cthulhu")
    movers = [(o, f"m{o}") for o in s.seat_order_from(seat)
              if s.agents.get(f"m{o}", {}).get("where") == "board" and s.agents[f"m{o}"]["city"] == city]
    then_end = s.step.get("then_end", "")
    set_step(ctx, None)
    start_relocation(ctx, seat, city, movers, then_end)


def card_gone(ctx: Ctx, card: int, owner: int | None) -> None:
    """A card Cthulhu takes from its owner's cards; from revision 2 one taken from the hand is replaced at once,
    and a deck searched for one is shuffled, as for a City card ("If at any time during the game you are forced
    to lose a card from your hand, draw a replacement card immediately")."""
    where = where_is(ctx.s, owner, card) if owner is not None else ""
    ctx.emit("CardGone", {"card": card, "from_seat": owner, "why": "Cthulhu"})
    if owner is not None and ctx.s.readings.revision >= 2:
        hand_card_lost(ctx, owner, where)


# --- actions given by Permanent Effects --------------------------------------------------

def options(s: State, seat: int) -> list[Action]:
    pl = s.players[seat]
    out: list[Action] = []
    if s.has_pe(seat, "devils_island"):
        for card in sorted(pl.hand):
            city = s.cat.card_city.get(card)
            if city:
                places = devils_island_places(s, city)
                out += [{"kind": "devils_island", "card": card, "player": o} for o in range(s.n)
                        if any(s.cube_list(place)[o] for place in places)]
    if s.has_pe(seat, "mi_go"):
        if len(s.migo) < 2:
            out += [{"kind": "mi_go", "card": c} for c in sorted(pl.hand)
                    if s.cat.cards[c].kind == "agent" and s.agents.get(str(c), {}).get("owner") == seat
                    and s.agents[str(c)]["where"] == "board"]
        for key, turn in sorted(s.migo.items()):
            if turn < s.turn:
                out += [{"kind": "mi_go_return", "agent": key, "to": c} for c in s.cat.city_ids
                        if not s.locked_against(c, seat)]
    if s.has_pe(seat, "mrs_hudson") and not s.hudson_used:
        out += [{"kind": "hudson", "card": c} for c in sorted(pl.hand)]
    if s.has_pe(seat, "yog_sothoth"):
        out += [{"kind": "sacrifice", "card": c} for c in sorted(pl.hand)
                if s.cat.cards[c].kind == "agent" and s.agents.get(str(c), {}).get("owner") == seat
                and s.agents[str(c)]["where"] in ("board", "migo")]
    return out


def devils_island_places(s: State, city: str) -> list[str]:
    """Where Devil's Island takes a player's cubes from: the City box, and, if the table reads "that city" so,
    its face-up Game card."""
    top = s.top(city)
    if s.readings.devils_island == "city_and_card" and top is not None:
        return [f"city:{city}", f"card:{top}"]
    return [f"city:{city}"]


def perform(ctx: Ctx, seat: int, a: Action) -> None:
    s = ctx.s
    kind = a["kind"]
    if kind == "devils_island":
        city = s.cat.card_city[a["card"]]
        play(ctx, seat, [a["card"]], "Devil's Island")
        for place in devils_island_places(s, city):
            n = s.cube_list(place)[a["player"]]
            if n:
                ctx.emit("CubesMoved", {"seat": a["player"], "from": place, "to": "limbo", "count": n})
        return complete_action(ctx, seat, True)
    if kind == "mi_go":
        ctx.emit("CardsPlayed", {"seat": seat, "cards": [a["card"]], "use": "Mi-go", "to": "mi_go"})
        ctx.emit("AgentToMiGo", {"seat": seat, "agent": str(a["card"]), "turn": s.turn})
        return complete_action(ctx, seat, True)
    if kind == "mi_go_return":
        ctx.emit("AgentMoved", {"seat": seat, "agent": a["agent"], "from": "mi_go", "to": a["to"], "cost": 0,
                                "why": "Mi-go"})
        ctx.emit("CardsDrawnBack", {"seat": seat, "card": int(a["agent"])})
        return complete_action(ctx, seat, True)
    if kind == "hudson":
        ctx.emit("CardsDiscarded", {"seat": seat, "cards": [a["card"]]}, to=seat, reveals=True)
        ctx.emit("CardsDiscardedCount", {"seat": seat, "count": 1, "shown": a["card"]})
        ctx.emit("MrsHudsonUsed", {"seat": seat})
        draw(ctx, seat, 1)
        return complete_action(ctx, seat, True)
    if kind == "sacrifice":
        key = str(a["card"])
        vp = 0 if s.agents[key]["vampire"] else s.cat.game["yog_vp"]
        play(ctx, seat, [a["card"]], "Yog-Sothoth", remove=True)
        ctx.emit("Sacrificed", {"seat": seat, "agent": key, "vp": vp})
        return complete_action(ctx, seat)
