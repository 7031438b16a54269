"""Who acts now, every legal action, and deciding one action into events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.rng import Rng
from events.rules import IllegalAction, InvalidAction, Prompt
from pbem.games.emerald import card_uses, cards, flow, moves
from pbem.games.emerald.commands import format_action
from pbem.games.emerald.effects import (
    Ctx,
    Stop,
    check_agents,
    check_end,
    claim,
    interrupt_cards,
    move_marker,
    play_cards,
    score,
)
from pbem.games.emerald.state import State, acting

Action = dict[str, Any]


# --- who acts ----------------------------------------------------------------------------

def legal_actions(state: State, seat: int, kind: str | None = None) -> list[Action]:
    """Every legal action of ``seat`` (only those of ``kind`` when given: a cheaper check for decide)."""
    who = acting(state)
    if who is None or who[0] != seat:
        return []
    deciding = who[1]
    cities = state.cat.city_ids
    if deciding == "interrupt":
        cards_ = interrupt_cards(state, seat, state.intr()["effect"]["type"])
        return [{"kind": "interrupt", "card": c} for c in cards_] + [{"kind": "decline"}]
    if deciding in ("owed", "setup"):
        return [{"kind": "place_agent", "city": c} for c in cities]
    step = state.pend()
    if step:
        return step_actions(state, seat, step)
    return turn_actions(state, seat, kind)


def turn_actions(state: State, seat: int, kind: str | None = None) -> list[Action]:
    out: list[Action] = []
    pl = state.players[seat]

    def want(k: str) -> bool:
        return kind is None or kind == k

    # free actions
    if want("play"):
        for card in pl.hand:
            out.extend(card_uses.options(state, seat, card, free=True))
    if want("migo_return") and pl.migo and state.turn > pl.migo_turn:
        out.extend({"kind": "migo_return", "city": c} for c in state.cat.city_ids)
    # actions
    if want("place"):
        out.extend(moves.place_options(state, seat))
    if want("claim") and state.actions_done == 0:
        out.extend(moves.claim_options(state, seat))
    if want("retrieve"):
        out.extend(moves.retrieve_options(state, seat))
    if want("move"):
        out.extend(moves.move_options(state, seat))
    if want("markers"):
        out.extend(moves.marker_options(state, seat))
    if want("assassinate"):
        out.extend(moves.assassination_options(state, seat))
    if want("discard") and pl.hand:
        out.extend(moves.discard_options(state, seat))
    if want("play"):
        for card in pl.hand:
            out.extend(card_uses.options(state, seat, card, free=False))
    if want("pass"):
        out.append({"kind": "pass"})
    return out


def step_actions(state: State, seat: int, step: Mapping[str, Any]) -> list[Action]:
    name = step["step"]
    cities = state.cat.city_ids
    if name == "move":
        mine = [c for c in cities if state.city(c).agents[seat] > 0]
        return [{"kind": "move_agent", "from": a, "to": b} for a in mine for b in cities if a != b] + [{"kind": "done"}]
    if name == "retrieve":
        out: list[Action] = [{"kind": "take_cube", "from": "limbo"}] if state.players[seat].limbo else []
        return out + [{"kind": "take_cube", "from": c} for c in cities if state.city(c).cubes[seat] > 0]
    if name == "assassinate_more":
        return moves.assassination_options(state, seat) + [{"kind": "done"}]
    if name == "yog":
        out = [{"kind": "yog_take", "city": c} for c in cities if state.city(c).agents[seat] > 0]
        return out + ([{"kind": "done"}] if step["taken"] else [])
    if name == "zombie_remove":
        city = step["cities"][0]
        c = state.city(city)
        return [{"kind": "zombie_kill", "city": city, "player": v} for v in range(state.n)
                if v != seat and c.agents[v] > 0] + [{"kind": "skip"}]
    if name == "zombie_place":
        return [{"kind": "zombie_place", "city": c} for c in cities]
    if name == "end_of_turn":
        return flow.free_options(state, seat) + [{"kind": "done"}]
    return []


def default_action(state: State, seat: int, legal: list[Action]) -> Action:
    for preferred in ("decline", "pass", "done", "skip"):
        for a in legal:
            if a["kind"] == preferred:
                return a
    return legal[0]


INTERRUPT_TOPIC = "emerald.interrupt"

THREATS = {"assassinate": "assassinate one of your agents in {city}",
           "shoggoth": "eliminate one of your agents in {city} with Shoggoth",
           "replace": "replace one of your agents in {city} with one of their own",
           "zombie": "remove one of your agents in {city} with a zombie",
           "cthulhu": "destroy everything in {city}, your agents included, with Cthulhu"}


def interrupt_prompt(state: State, seat: int) -> Prompt:
    """The question put to a targeted player: the same words, topic and answers whatever they hold.

    ``use`` plays the first card that can stop the effect, or lets it happen when they hold none, so
    that a standing order answers at once either way and nobody learns a hand from being asked.
    """
    effect = state.intr()["effect"]
    actor = state.names[effect["seat"]]
    what = THREATS[effect["type"]].format(city=state.cat.city_names.get(effect.get("city", ""), "a city"))
    decline: Action = {"kind": "decline"}
    held = interrupt_cards(state, seat, effect["type"])
    use: Action = {"kind": "interrupt", "card": held[0]} if held else decline
    return Prompt(seat, "interrupt", f"{actor} is about to {what}. Will you stop it?", decline,
                  INTERRUPT_TOPIC, {"use": use, "decline": decline})


# What each step of an action asks, in the game's words (a prompt never shows a step's name).
STEP_WORDS = {
    "assassinate_more": "assassinate another agent, or stop (done)",
    "move": "move your agents, or stop (done)",
    "retrieve": "take back your cubes",
    "yog": "take your agents with Yog-Sothoth",
    "zombie_place": "place your zombies",
    "zombie_remove": "remove an agent with your zombies, or skip",
}

TEXTS = {
    "setup": "Place one of your agents in a city (setup).",
    "owed": "Your identity is revealed: place agents until you have three on the board.",
    "turn": "Your turn: take your actions.",
}


def prompts(state: State) -> dict[int, Prompt]:
    """Who is asked what now; worked out once per state (a command asks several times: to check the seat, for
    the deadlines, the mails and the receipt) and kept on it, as its public view is (``state.replace`` drops both)."""
    found: dict[int, Prompt] | None = state.__dict__.get("_prompts")
    if found is None:
        found = _prompts(state)
        state.__dict__["_prompts"] = found
    return dict(found)


def _prompts(state: State) -> dict[int, Prompt]:
    who = acting(state)
    if who is None:
        return {}
    seat, kind = who
    step = state.pend() if kind == "turn" else {}
    if kind == "turn" and not step:
        default: Action = {"kind": "pass"}      # always legal between actions: no need to list them all
    else:
        legal = legal_actions(state, seat)
        if not legal:
            return {}
        default = default_action(state, seat, legal)
    if kind == "interrupt":
        return {seat: interrupt_prompt(state, seat)}
    if kind == "owed":
        left = state.owed[0][1]
        p_kind = "turn" if seat == state.active else "interrupt"
        return {seat: Prompt(seat, p_kind, f"Your identity is revealed: place {left} more agent{'s' if left != 1 else ''}.", default,
                             "emerald.loyalist_agents" if p_kind == "interrupt" else "",
                             {"default": default} if p_kind == "interrupt" else {})}
    if kind == "setup":
        return {seat: Prompt(seat, "turn", TEXTS["setup"], default)}
    step = state.pend()
    if not step:
        text = f"Your turn: action {state.actions_done + 1} of 2."
    elif step["step"] == "end_of_turn":
        text = "Your two actions are done: play free actions, or end your turn (done)."
    else:
        text = "Continue your action: " + STEP_WORDS.get(step["step"], "make the next choice") + "."
    return {seat: Prompt(seat, "turn", text, default)}


# --- deciding ----------------------------------------------------------------------------

def normalize(action: Mapping[str, Any]) -> Action:
    """A plain copy of the action (tuples become lists); raises ``InvalidAction`` for malformed ones."""
    if not isinstance(action, Mapping):
        raise InvalidAction("An action is a JSON object with a \"kind\".")
    kind = action.get("kind")
    if not isinstance(kind, str) or not kind:
        raise InvalidAction("An action needs a \"kind\" (e.g. \"pass\").")
    out: Action = {}
    for k, v in action.items():
        if not isinstance(k, str):
            raise InvalidAction("Action fields are named by strings.")
        if isinstance(v, (list, tuple)):
            items = [list(x) if isinstance(x, (list, tuple)) else x for x in v]
            for x in items:
                if not isinstance(x, (int, str, list)) or isinstance(x, bool):
                    raise InvalidAction(f"Field {k!r} holds a value that is not a number or a name.")
            out[k] = items
        elif isinstance(v, bool) or not isinstance(v, (int, str)):
            raise InvalidAction(f"Field {k!r} must be a number, a name or a list.")
        else:
            out[k] = v
    return out


def refuse(state: State, seat: int, action: Action, legal: list[Action]) -> IllegalAction:
    who = acting(state)
    if who is None:
        return IllegalAction("The game is over: nothing more can be done.")
    if not legal:
        return IllegalAction(f"It is not your turn: waiting for {state.names[who[0]]}.")
    kind = action.get("kind")
    same = [a for a in legal if a["kind"] == kind]
    kinds = sorted({a["kind"] for a in legal})
    if kind == "claim" and state.actions_done > 0 and not state.pend():
        why = "You can only claim cards with your first action."
    elif not same:
        why = f"You cannot {kind} now."
    elif _sorted_lists(action) in same:
        why = "List the cards (and cities) in increasing order, as below."
    else:
        why = f"That {kind} is not legal now (wrong cards, not enough, overpaying, or a place where you may not)."
    pool = sorted(same or legal, key=lambda a: -sum(1 for k, v in action.items() if a.get(k) == v))
    examples = [format_action(state, a) for a in pool[:8]]
    more = len(same or legal) - len(examples)
    return IllegalAction(f"{why} Legal now: {', '.join(kinds)}. For example: " + "; ".join(examples)
                         + (f"; and {more} more." if more > 0 else "."))


def _sorted_lists(action: Action) -> Action:
    out = dict(action)
    for k, v in action.items():
        if isinstance(v, list):
            try:
                out[k] = sorted(v, key=lambda x: (str(type(x)), x))
            except TypeError:
                pass
    return out


def decide(state: State, seat: int, action: Mapping[str, Any], rng: Rng) -> list[Any]:
    a = normalize(action)
    if a not in legal_actions(state, seat, a["kind"]):
        raise refuse(state, seat, a, legal_actions(state, seat))
    ctx = Ctx(state, rng)
    try:
        dispatch(ctx, seat, a)
        check_end(ctx)
    except Stop:
        pass
    return ctx.events


def dispatch(ctx: Ctx, seat: int, a: Action) -> None:
    s = ctx.s
    kind = a["kind"]
    who = acting(s)
    assert who is not None
    if kind == "place_agent":
        ctx.emit("AgentPlaced", {"seat": seat, "city": a["city"], "why": "setup" if who[1] == "setup" else "reveal"})
        return
    if kind == "interrupt":
        flow.answer(ctx, seat, a["card"])
        return
    if kind == "decline":
        flow.answer(ctx, seat, None)
        return
    step = s.pend()
    if kind == "place":
        play_cards(ctx, seat, a["cards"], "place")
        ctx.emit("CubesMoved", {"seat": seat, "from": "stock", "to": a["city"], "count": a["count"]})
        flow.complete_action(ctx)
    elif kind == "claim":
        play_cards(ctx, seat, a["cards"], "claim")
        for city in a["cities"]:
            claim(ctx, seat, city)
        flow.complete_action(ctx)
    elif kind == "retrieve":
        play_cards(ctx, seat, a["cards"], "retrieve")
        flow.set_step(ctx, {"step": "retrieve", "left": a["count"]})
    elif kind == "take_cube":
        ctx.emit("CubesMoved", {"seat": seat, "from": a["from"], "to": "stock", "count": 1})
        _count_down(ctx, step)
    elif kind == "move":
        play_cards(ctx, seat, a["cards"], "move")
        flow.set_step(ctx, {"step": "move", "left": a["count"]})
    elif kind == "move_agent":
        ctx.emit("AgentMoved", {"seat": seat, "from": a["from"], "to": a["to"]})
        _count_down(ctx, step)
    elif kind == "markers":
        play_cards(ctx, seat, a["resto"], "resto_marker")
        play_cards(ctx, seat, a["loyal"], "loyal_marker")
        cat = s.cat
        move_marker(ctx, "resto", sum(cat.cards[c].sym("resto") for c in a["resto"]))
        move_marker(ctx, "loyal", sum(cat.cards[c].sym("loyal") for c in a["loyal"]))
        flow.complete_action(ctx)
    elif kind == "assassinate":
        flow.assassinate(ctx, seat, a)
    elif kind == "discard":
        play_cards(ctx, seat, a["cards"], "discard", to="discard")
        flow.complete_action(ctx)
    elif kind == "play":
        free = card_uses.is_free(s, a["card"])
        finished = cards.play(ctx, seat, a)
        if finished and not free:
            flow.complete_action(ctx)
        elif free:
            flow.after_free_action(ctx)
    elif kind == "migo_return":
        ctx.emit("AgentPlaced", {"seat": seat, "city": a["city"], "count": s.players[seat].migo,
                                 "source": "migo", "why": "mi_go"})
        flow.after_free_action(ctx)
    elif kind == "pass":
        flow.complete_action(ctx)
    elif kind == "done" and step.get("step") == "end_of_turn":
        flow.set_step(ctx, None)
        flow.end_turn(ctx)
    elif kind == "done":
        flow.set_step(ctx, None)
        flow.complete_action(ctx)
    elif kind == "yog_take":
        ctx.emit("AgentRemoved", {"seat": seat, "city": a["city"], "to": "yog", "by": seat})
        score(ctx, seat, 1, "loyal", "Yog-Sothoth")
        if ctx.s.agents_on_board(seat) == 0:
            # The card's effect ends with the reveal: the agents a Loyalist then places are not its to take.
            check_agents(ctx, seat)
            flow.set_step(ctx, None)
            flow.complete_action(ctx)
        else:
            flow.set_step(ctx, {"step": "yog", "taken": step["taken"] + 1})
    elif kind == "zombie_kill":
        flow.eliminate(ctx, {"type": "zombie", "seat": seat, "city": a["city"], "victim": a["player"]},
                       {"then": "zombies", "cities": step["cities"][1:]})
    elif kind == "skip":
        flow.zombie_next(ctx, step["cities"][1:])
    elif kind == "zombie_place":
        ctx.emit("ZombiesPlaced", {"seat": seat, "city": a["city"], "count": 1})
        left = step["left"] - 1
        if left > 0 and ctx.s.zombie_supply > 0:
            flow.set_step(ctx, {"step": "zombie_place", "left": left})
        else:
            flow.set_step(ctx, None)
            flow.complete_action(ctx)
    else:  # pragma: no cover - legal_actions lists no other kind
        raise InvalidAction(f"Unknown action {kind!r}.")


def _count_down(ctx: Ctx, step: Mapping[str, Any]) -> None:
    left = step["left"] - 1
    if left > 0:
        flow.set_step(ctx, {**step, "left": left})
    else:
        flow.set_step(ctx, None)
        flow.complete_action(ctx)
