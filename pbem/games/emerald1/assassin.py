"""Assassinations, Hide Royalty, killing zombies, and the window in which others may stop an attack."""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1.effects import (
    Ctx, draw, draw_sanity, end, give_card, hand_card_lost, play, reveal, where_is,
)
from pbem.games.emerald1.flow import complete_action, relocate
from pbem.games.emerald1.moves import subsets
from pbem.games.emerald1.permanent import cthulhu_next
from pbem.games.emerald1.state import LOYALIST, RESTORATIONIST, State

Action = dict[str, Any]
NEVER_LOST = (14, 18)   # Professor Moriarty and Sherlock Holmes are not lost to a Mad counter


def counter_bombs(s: State, key: str) -> int:
    return s.cat.game["main_agent_bombs"] if key.startswith("m") else s.cat.agent_bombs.get(int(key), 0)


def my_cities(s: State, seat: int) -> list[str]:
    return [c for c in s.cat.city_ids if s.agents_in(c, seat)]


def abilities(s: State, seat: int, card: int) -> tuple[list[str], bool, bool, str]:
    """(cities, may assassinate royalty, may assassinate agents, how) for an attack with ``card``."""
    c = s.cat.cards[card]
    if c.action == "assassinate_any":
        return my_cities(s, seat), True, True, "hired"
    if c.kind == "agent":
        a = s.agents.get(str(card))
        if not a or a["owner"] != seat or a["where"] != "board":
            return [], False, False, ""
        vamp = a["vampire"]
        return [a["city"]], c.ar or vamp, c.aa or vamp or s.has_pe(seat, "moran"), "agent"
    if c.action == "hide_royalty":
        return my_cities(s, seat), True, False, "hide"
    return [], False, False, ""


def agent_targets(s: State, seat: int, city: str, anywhere: bool = False) -> list[str]:
    """Agents of other players that may be assassinated (or destroyed) by ``seat``."""
    out = []
    for key, a in s.agents.items():
        if a["where"] != "board" or a["owner"] in (None, seat) or (not anywhere and a["city"] != city):
            continue
        owner = a["owner"]
        if not s.players[owner].known or a["vampire"]:
            continue
        if a.get("main") and [k for k, b in s.agents.items() if b["owner"] == owner and not b.get("main")
                              and b["where"] in ("board", "migo")]:
            continue
        out.append(key)
    return sorted(out)


def base_bombs(s: State, seat: int, city: str) -> int:
    return sum(counter_bombs(s, k) for k in s.agents_in(city, seat)) + (1 if s.has_pe(seat, "moran") else 0)


def bomb_value(s: State, seat: int, city: str, card: int) -> int:
    c = s.cat.cards[card]
    if c.action == "fenians":
        mine = s.agents_in(city, seat)
        return max(0, 2 * len(mine) - sum(counter_bombs(s, k) for k in mine))
    return c.bomb


def bomb_sets(s: State, seat: int, city: str, exclude: int, defence: int) -> list[list[int]]:
    """Minimal sets of bomb cards that, with the counters, meet ``defence`` (no card is surplus)."""
    base = base_bombs(s, seat, city)
    if base >= defence:
        return [[]]
    cards = [c for c in s.players[seat].hand if c != exclude and bomb_value(s, seat, city, c) > 0]
    out = []
    for combo in subsets(cards):
        vals = [bomb_value(s, seat, city, c) for c in combo]
        total = base + sum(vals)
        if total >= defence and all(total - v < defence for v in vals):
            out.append(list(combo))
    return out


def attack_options(s: State, seat: int, card: int) -> list[Action]:
    cities, royal, agent, how = abilities(s, seat, card)
    out: list[Action] = []
    for city in cities:
        if city in s.destroyed:
            continue
        if royal and city not in s.royal and s.discs_free(seat) > 0 \
                and (how != "hide" or s.safe_used < s.cat.game["safe_counters"]):
            for bombs in bomb_sets(s, seat, city, card, s.cat.city[city]["royal"]["defence"]):
                out.append({"kind": "card", "card": card, "city": city, "target": "royal", "bombs": bombs})
        if agent:
            targets = agent_targets(s, seat, city)
            if targets:
                for bombs in bomb_sets(s, seat, city, card, s.cat.city[city]["defence"]):
                    out.extend({"kind": "card", "card": card, "city": city, "target": t, "bombs": bombs}
                               for t in targets)
        # a card that may assassinate (revision 2; before it, any agent's card) kills a zombie
        if how != "hide" and (royal or agent or s.readings.revision < 2):
            for owner, count in enumerate(s.zombies[city]):
                if count and owner != seat:
                    out.append({"kind": "card", "card": card, "city": city, "zombie": owner})
    return out


# --- resolving ---------------------------------------------------------------------------

def start_attack(ctx: Ctx, seat: int, a: Action) -> None:
    s = ctx.s
    card = a["card"]
    if "zombie" in a:
        if s.readings.zombie_kill_card == "kept":  # shown, and back in the hand
            ctx.emit("CardShown", {"seat": seat, "card": card, "use": "kill a zombie"})
        else:
            play(ctx, seat, [card], "kill a zombie")
        ctx.emit("ZombiesRemoved", {"seat": a["zombie"], "city": a["city"], "count": 1, "by": seat})
        return finish(ctx, seat)
    _, _, _, how = abilities(s, seat, card)
    play(ctx, seat, [card], "hide royalty" if how == "hide" else "assassinate", remove=s.cat.cards[card].one_use)
    play(ctx, seat, a["bombs"], "bombs", remove=False)
    effect = {"type": "hide" if how == "hide" else "assassinate", "seat": seat, "city": a["city"],
              "target": a["target"], "card": card, "how": how}
    open_window(ctx, effect, [o for o in s.seat_order_from(seat) if o != seat])


def open_window(ctx: Ctx, effect: dict[str, Any], asking: list[int]) -> None:
    if not asking:
        return resolve(ctx, effect)
    ctx.emit("WindowSet", {"window": {"effect": effect, "asking": asking}})


def window_options(s: State, seat: int) -> list[Action]:
    w = s.window
    effect = w["effect"]
    out: list[Action] = [{"kind": "allow"}]
    if effect["type"] == "holmes_moriarty":
        return [{"kind": "reveal"}, {"kind": "allow"}]
    if effect["type"] == "relocate":
        _, key, choices = effect["queue"][0]
        return [{"kind": "relocate", "agent": key, "to": c} for c in choices]
    if effect["type"] in ("assassinate", "hide"):
        mine = {k for k in s.agents_in(effect["city"], effect["seat"]) if not k.startswith("m")}
        out += [{"kind": "double_agent", "agent": n} for n in sorted(s.players[seat].double_agents)
                if str(n) in mine]
    target = effect.get("target", "")
    if target and target != "royal" and s.agents[target]["owner"] == seat and s.has_pe(seat, "master_of_disguise"):
        card = s.cat.city_card[effect["city"]] if target.startswith("m") else int(target)
        if card in s.players[seat].hand and effect.get("city"):
            out += [{"kind": "escape", "card": card, "to": c} for c in s.cat.neighbours[effect["city"]]
                    if not s.locked_against(c, seat)]
    return out


def answer(ctx: Ctx, seat: int, a: Action) -> None:
    w = ctx.s.window
    effect = w["effect"]
    rest = [o for o in w["asking"] if o != seat]
    if a["kind"] == "allow":
        if effect["type"] == "holmes_moriarty":
            ctx.emit("WindowSet", {"window": {}})
            take_agent(ctx, effect["by"], effect["agent"], seat)
            return finish(ctx, effect["actor"])
        if rest:
            ctx.emit("WindowSet", {"window": {**w, "asking": rest}})
            return
        ctx.emit("WindowSet", {"window": {}})
        return resolve(ctx, effect)
    ctx.emit("WindowSet", {"window": {}})
    if a["kind"] == "relocate":
        return relocate(ctx, effect, a)
    if a["kind"] == "double_agent":
        ctx.emit("AttackFoiled", {"seat": effect["seat"], "by": seat, "how": "double agent"})
        reveal_double_agent(ctx, seat, a["agent"], effect["seat"])
        return
    if a["kind"] == "escape":
        play(ctx, seat, [a["card"]], "escape")
        draw(ctx, seat, 1)
        ctx.emit("AgentMoved", {"seat": seat, "agent": effect["target"], "from": effect["city"], "to": a["to"],
                                "cost": 0, "why": "Master of Disguise"})
        if effect["type"] == "cthulhu_escape":
            return cthulhu_next(ctx, effect["seat"], effect["city"], effect["queue"][1:])
        ctx.emit("AttackFoiled", {"seat": effect["seat"], "by": seat, "how": "Master of Disguise"})
        return finish(ctx, effect["seat"])
    if a["kind"] == "reveal":    # Holmes / Moriarty: the controller reveals to keep the agent
        reveal(ctx, seat, "double agent")
        keep = RESTORATIONIST if effect["agent"] == "18" else LOYALIST
        if ctx.s.players[seat].side != keep:
            take_agent(ctx, effect["by"], effect["agent"], seat)
        return finish(ctx, effect["actor"])


def reveal_double_agent(ctx: Ctx, seat: int, agent: int, actor: int) -> None:
    """``seat`` reveals a counter: control of the agent passes to them (Holmes, Moriarty: the owner may reveal)."""
    key = str(agent)
    owner = ctx.s.agents[key]["owner"]
    ctx.emit("DoubleAgentRevealed", {"seat": seat, "agent": agent, "owner": owner}, reveals=True)
    if agent in (14, 18) and not ctx.s.players[owner].revealed:
        ctx.emit("WindowSet", {"window": {"effect": {"type": "holmes_moriarty", "agent": key, "by": seat,
                                                      "actor": actor}, "asking": [owner]}})
        return
    if agent in (14, 18) and ctx.s.players[owner].side == (RESTORATIONIST if agent == 18 else LOYALIST):
        return finish(ctx, actor)
    take_agent(ctx, seat, key, owner)
    finish(ctx, actor)


def take_agent(ctx: Ctx, seat: int, key: str, owner: int) -> None:
    ctx.emit("AgentOwnerChanged", {"agent": key, "seat": seat, "from_seat": owner})
    give_card(ctx, owner, seat, int(key))


def resolve(ctx: Ctx, effect: dict[str, Any]) -> None:
    s = ctx.s
    seat, city, target = effect["seat"], effect["city"], effect["target"]
    if effect["type"] == "cthulhu_escape":
        return cthulhu_next(ctx, seat, city, effect["queue"][1:])
    if effect["type"] in ("destroy", "convert"):
        return resolve_other(ctx, effect)
    if effect["type"] in ("assassinate", "hide") and target == "royal":
        how = "hidden" if effect["type"] == "hide" else "assassinated"
        ctx.emit("RoyalTaken", {"seat": seat, "city": city, "how": how})
        mad = draw_sanity(ctx, seat, "royal person " + how, assassination=effect["how"] == "agent")
        card = effect["card"]
        if mad and effect["how"] == "agent" and card not in NEVER_LOST and not s.agents[str(card)]["vampire"] \
                and ctx.s.agents[str(card)]["where"] == "board":
            ctx.emit("AgentLost", {"agent": str(card), "why": "mad", "to": "gone"})
            ctx.emit("CardGone", {"card": card, "from_seat": seat, "why": "mad"})
        return finish(ctx, seat)
    kill(ctx, seat, target, effect["type"])
    finish(ctx, seat)


def resolve_other(ctx: Ctx, effect: dict[str, Any]) -> None:
    s = ctx.s
    if effect["type"] == "destroy":
        kill(ctx, effect["seat"], effect["target"], "shoggoth")
    elif effect["type"] == "convert":
        owner = s.agents[effect["target"]]["owner"]
        ctx.emit("AgentOwnerChanged", {"agent": effect["target"], "seat": effect["seat"], "from_seat": owner,
                                       "vampire": True})
        give_card(ctx, owner, effect["seat"], int(effect["target"]))
    complete_action(ctx, effect["seat"])


def kill(ctx: Ctx, seat: int, key: str, how: str) -> None:
    """An agent assassinated, destroyed or killed by a zombie; a Main Agent reveals its player."""
    a = ctx.s.agents[key]
    owner = a["owner"]
    if a.get("main"):
        reveal(ctx, owner, "main agent attacked")
        if ctx.s.players[owner].side == RESTORATIONIST:
            ctx.emit("AgentKilled", {"seat": seat, "agent": key, "owner": owner, "city": a["city"], "how": how})
            end(ctx, "restorationist_main_agent_killed")
        ctx.emit("MainAgentSurvives", {"seat": owner, "by": seat})
        return
    ctx.emit("AgentKilled", {"seat": seat, "agent": key, "owner": owner, "city": a["city"], "how": how})
    if ctx.s.readings.killed_agent_card == "removed":  # found among its player's cards and put to one side
        where = where_is(ctx.s, owner, int(key))
        if where:
            ctx.emit("CardGone", {"card": int(key), "from_seat": owner, "why": "killed"})
            hand_card_lost(ctx, owner, where)


def finish(ctx: Ctx, seat: int) -> None:
    complete_action(ctx, seat)
