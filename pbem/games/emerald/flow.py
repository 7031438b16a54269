"""Turn flow: steps of an action, completing it, ending the turn, and the interrupt windows."""

from __future__ import annotations

from typing import Any

from pbem.games.emerald import card_uses, moves
from pbem.games.emerald.effects import (
    Ctx,
    can_be_stopped,
    check_agents,
    check_end,
    clear_cubes,
    draw,
    play_cards,
    roll_sanity,
    score,
    turn_top,
)


def set_step(ctx: Ctx, step: dict[str, Any] | None) -> None:
    if step is None and not ctx.s.pending:
        return
    ctx.emit("StepSet", {"seat": ctx.s.active, "step": step})


def complete_action(ctx: Ctx) -> None:
    seat = ctx.s.active
    ctx.emit("ActionCompleted", {"seat": seat, "number": ctx.s.actions_done + 1})
    check_end(ctx)
    if ctx.s.actions_done >= 2:
        if ctx.s.free_after_actions and free_options(ctx.s, seat):
            set_step(ctx, {"step": "end_of_turn"})
        else:
            end_turn(ctx)


def free_options(state: Any, seat: int) -> list[dict[str, Any]]:
    """Free actions the seat could take now (cards marked Free action, returning Mi-Go's agents)."""
    pl = state.players[seat]
    out: list[dict[str, Any]] = []
    for card in pl.hand:
        out.extend(card_uses.options(state, seat, card, free=True))
    if pl.migo and state.turn > pl.migo_turn:
        out.extend({"kind": "migo_return", "city": c} for c in state.cat.city_ids)
    return out


def after_free_action(ctx: Ctx) -> None:
    """After a free action that follows the second action: end the turn when no free action is left."""
    if ctx.s.pend().get("step") == "end_of_turn" and not free_options(ctx.s, ctx.s.active):
        set_step(ctx, None)
        end_turn(ctx)


def end_turn(ctx: Ctx) -> None:
    s = ctx.s
    seat = s.active
    missing = s.cat.game["hand_size"] - len(s.players[seat].hand)
    if missing > 0:
        draw(ctx, seat, missing)
    ctx.emit("TurnStarted", {"seat": (seat + 1) % s.n, "turn": s.turn + 1})


# --- eliminations that another player may negate -----------------------------------------

def eliminate(ctx: Ctx, effect: dict[str, Any], cont: dict[str, Any]) -> None:
    """Ask the victims whether to stop ``effect`` (or resolve it at once), then go on with ``cont``.

    Every targeted player is asked, whatever they hold: being asked must not tell anyone that they hold
    Sherlock Holmes or Vampires. One who holds neither can only let it happen (docs/emerald-rulings.md, 6).
    Where no card can stop it (a replacement, at a table that reads ruling 3 so), nobody is asked.
    """
    if not can_be_stopped(ctx.s, effect["type"]):
        resolve(ctx, effect)
        proceed(ctx, cont)
        return
    if effect["type"] == "cthulhu":
        queue = _cthulhu_victims(ctx, effect)
        if queue:
            effect = {**effect, "queue": queue[1:]}
            _offer(ctx, queue[0], effect, cont)
            return
    else:
        _offer(ctx, effect["victim"], effect, cont)
        return
    resolve(ctx, effect)
    proceed(ctx, cont)


def _cthulhu_victims(ctx: Ctx, effect: dict[str, Any]) -> list[int]:
    s = ctx.s
    actor = effect["seat"]
    c = s.city(effect["city"])
    order = [(actor + i) % s.n for i in range(1, s.n)]
    return [v for v in order if c.agents[v] > 0]


def _offer(ctx: Ctx, victim: int, effect: dict[str, Any], cont: dict[str, Any]) -> None:
    # Public, and the same whatever the victim holds: legal_actions reads their cards from the hand.
    ctx.emit("InterruptOffered", {"seat": victim, "effect": effect, "cont": cont})


def answer(ctx: Ctx, seat: int, card: int | None) -> None:
    info = ctx.s.intr()
    effect, cont = info["effect"], info["cont"]
    ctx.emit("InterruptAnswered", {"seat": seat, "used": card is not None, "card": card,
                                   "effect": effect["type"]})
    ctx.emit("InterruptClosed", {"seat": seat})
    if card is not None:
        # Vampires scored when claimed; its interrupt is not its one-use action (docs/emerald-rulings.md, 1)
        to = "kept" if card_uses.keeps_points(ctx.s, card, one_use=False) else "discard"
        ctx.emit("CardsPlayed", {"seat": seat, "cards": [card], "to": to, "use": "interrupt"})
        draw(ctx, seat, 1)
        negated(ctx, effect)
        proceed(ctx, cont)
        return
    if effect["type"] == "cthulhu" and effect.get("queue"):
        queue = effect["queue"]
        _offer(ctx, queue[0], {**effect, "queue": queue[1:]}, cont)
        return
    resolve(ctx, effect)
    proceed(ctx, cont)


def negated(ctx: Ctx, effect: dict[str, Any]) -> None:
    """The action was stopped; the acting player still loses the cards played for it."""
    if effect["type"] in ("assassinate", "shoggoth"):
        ctx.emit("CardsPlayed", {"seat": effect["seat"], "cards": [effect["card"]], "to": "removed",
                                 "use": effect["type"]})


def resolve(ctx: Ctx, effect: dict[str, Any]) -> None:
    kind = effect["type"]
    seat = effect["seat"]
    city = effect.get("city", "")
    cat = ctx.s.cat
    if kind == "assassinate":
        victim, card = effect["victim"], effect["card"]
        cdef = cat.cards[card]
        if cdef.sym("kill_vp"):
            ctx.emit("AgentRemoved", {"seat": victim, "city": city, "to": "trophy", "by": seat})
            ctx.emit("CardsPlayed", {"seat": seat, "cards": [card], "to": "kept", "use": "assassinate"})
            ctx.emit("KillScored", {"seat": seat, "victim": victim, "card": card, "amount": cdef.sym("kill_vp"),
                                    "type": cdef.symbols.get("kill_vp_type", "neutral")})
        else:
            ctx.emit("AgentRemoved", {"seat": victim, "city": city, "to": "stock", "by": seat})
            ctx.emit("CardsPlayed", {"seat": seat, "cards": [card], "to": "removed", "use": "assassinate"})
        if ctx.s.assassination_clears_cubes:
            clear_cubes(ctx, seat, city)
        check_agents(ctx, victim)
    elif kind == "shoggoth":
        victim, card = effect["victim"], effect["card"]
        cdef = cat.cards[card]
        if cdef.sym("kill_vp"):
            ctx.emit("AgentRemoved", {"seat": victim, "city": city, "to": "trophy", "by": seat})
            ctx.emit("CardsPlayed", {"seat": seat, "cards": [card], "to": "kept", "use": "shoggoth"})
            ctx.emit("KillScored", {"seat": seat, "victim": victim, "card": card, "amount": cdef.sym("kill_vp"),
                                    "type": cdef.symbols.get("kill_vp_type", "neutral")})
        else:
            ctx.emit("AgentRemoved", {"seat": victim, "city": city, "to": "stock", "by": seat})
            ctx.emit("CardsPlayed", {"seat": seat, "cards": [card], "to": "removed", "use": "shoggoth"})
        check_agents(ctx, victim)
    elif kind in ("replace", "zombie"):
        victim = effect["victim"]
        ctx.emit("AgentRemoved", {"seat": victim, "city": city, "to": "stock", "by": seat})
        if kind == "replace" and ctx.s.players[seat].stock_agents > 0:
            ctx.emit("AgentPlaced", {"seat": seat, "city": city, "why": "replace"})
        check_agents(ctx, victim)
    elif kind == "cthulhu":
        c = ctx.s.city(city)
        shown = c.stack if ctx.s.cthulhu_shows_cards else c.stack[:1]   # ruling 5: the face-down ones, or none
        for i, card in enumerate(shown):
            ctx.emit("CardRemoved", {"card": card, "from": "stack", "city": city, "why": "cthulhu"},
                     reveals=i > 0)
        unseen = list(c.stack[len(shown):])
        if unseen:
            ctx.emit("CardsRemovedUnseen", {"city": city, "cards": unseen}, server=True)
            ctx.emit("CardsRemovedUnseenCount", {"city": city, "count": len(unseen), "why": "cthulhu"})
        if c.royalty and ctx.s.cthulhu_takes_royalty:
            ctx.emit("CardRemoved", {"card": c.royalty, "from": "royalty", "city": city, "why": "cthulhu"})
        hit = []
        for v in range(ctx.s.n):
            c = ctx.s.city(city)
            if c.agents[v]:
                ctx.emit("AgentRemoved", {"seat": v, "city": city, "to": "stock", "count": c.agents[v],
                                          "by": seat})
                hit.append(v)
            if c.zombies[v]:
                ctx.emit("ZombiesRemoved", {"seat": v, "city": city, "count": c.zombies[v], "permanent": False})
            if c.cubes[v]:
                ctx.emit("CubesMoved", {"seat": v, "from": city, "to": "limbo", "count": c.cubes[v]})
        for v in hit:
            check_agents(ctx, v)


def proceed(ctx: Ctx, cont: dict[str, Any]) -> None:
    """What the acting player does after an elimination was resolved or negated."""
    what = cont.get("then")
    if what == "assassinate":
        if moves.assassination_options(ctx.s, ctx.s.active):
            set_step(ctx, {"step": "assassinate_more"})
        else:
            complete_action(ctx)
    elif what == "zombies":
        zombie_next(ctx, cont["cities"])
    else:
        complete_action(ctx)


def zombie_next(ctx: Ctx, cities: list[str]) -> None:
    s = ctx.s
    seat = s.active
    for i, city in enumerate(cities):
        c = s.city(city)
        if any(c.agents[v] for v in range(s.n) if v != seat):
            set_step(ctx, {"step": "zombie_remove", "cities": cities[i:]})
            return
    left = min(2, s.zombie_supply)
    if left > 0:
        set_step(ctx, {"step": "zombie_place", "left": left})
    else:
        complete_action(ctx)


# --- the assassination action ------------------------------------------------------------

def assassinate(ctx: Ctx, seat: int, a: dict[str, Any]) -> None:
    city, target, card, bombs = a["city"], a["target"], a["card"], list(a["bombs"])
    set_step(ctx, None)
    play_cards(ctx, seat, bombs, "bombs")
    if target == "royalty":
        ctx.emit("CardsPlayed", {"seat": seat, "cards": [card], "to": "removed", "use": "assassinate"})
        royal = ctx.s.city(city).royalty
        rdef = ctx.s.cat.cards[royal]
        ctx.emit("RoyaltyTaken", {"seat": seat, "city": city, "card": royal, "how": "assassinated"})
        score(ctx, seat, rdef.vp, "resto", f"assassinated {rdef.name}")
        if ctx.s.players[seat].black_hand:
            score(ctx, seat, 2, "resto", "The Black Hand")
        if roll_sanity(ctx, seat, f"assassinated {rdef.name}") and ctx.s.city(city).agents[seat]:
            ctx.emit("AgentRemoved", {"seat": seat, "city": city, "to": "stock", "by": seat, "why": "insanity"})
            check_agents(ctx, seat)
        clear_cubes(ctx, seat, city)
        proceed(ctx, {"then": "assassinate"})
        return
    eliminate(ctx, {"type": "assassinate", "seat": seat, "city": city, "victim": target, "card": card},
              {"then": "assassinate"})


def hide_royalty(ctx: Ctx, seat: int, city: str) -> None:
    royal = ctx.s.city(city).royalty
    rdef = ctx.s.cat.cards[royal]
    ctx.emit("RoyaltyTaken", {"seat": seat, "city": city, "card": royal, "how": "hidden"})
    score(ctx, seat, rdef.vp, "loyal", f"hid {rdef.name}")
    clear_cubes(ctx, seat, city)
    if roll_sanity(ctx, seat, f"hid {rdef.name}") and ctx.s.city(city).agents[seat]:
        ctx.emit("AgentRemoved", {"seat": seat, "city": city, "to": "stock", "by": seat, "why": "insanity"})
        check_agents(ctx, seat)


__all__ = ["answer", "assassinate", "complete_action", "eliminate", "proceed", "set_step", "turn_top"]
