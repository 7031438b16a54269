"""Who acts now, every legal action, and deciding one action into events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.rng import Rng
from events.rules import IllegalAction, InvalidAction, Prompt
from pbem.games.emerald1 import assassin, cards, legality, moves, permanent, scoring
from pbem.games.emerald1.claims import claim
from pbem.games.emerald1.effects import Ctx, Stop, check, end, move_marker, play, reveal
from pbem.games.emerald1.flow import complete_action, end_turn, set_step
from pbem.games.emerald1.legality import total_of
from pbem.games.emerald1.state import State

Action = dict[str, Any]
INTERRUPT_TOPIC = "emerald1.interrupt"


def acting(s: State) -> tuple[int, str] | None:
    """The seat that must decide now, and the kind of decision (setup, turn, window)."""
    if s.phase == "over":
        return None
    if s.window:
        return s.window["asking"][0], "window"
    if s.phase == "setup":
        return (s.setup_queue[0], "setup") if s.setup_queue else None
    return s.active, "turn"


def legal_actions(s: State, seat: int, only: Action | None = None) -> list[Action]:
    """Every legal action of ``seat``; with ``only``, just those that could equal it (for ``decide``)."""
    who = acting(s)
    if who is None or who[0] != seat:
        return []
    if who[1] == "window":
        return assassin.window_options(s, seat)
    if who[1] == "setup":
        return [{"kind": "start", "city": c} for c in s.cat.city_ids]
    if s.step:
        name = s.step["step"]
        if name == "move":
            return moves.move_options(s, seat, s.step)
        if name == "retrieve":
            return moves.take_options(s, seat)
        if name == "cthulhu":
            return permanent.cthulhu_options(s)
        if name == "free":
            return free_options(s, seat) + [{"kind": "done"}]
        return cards.step_options(s, seat)
    return turn_actions(s, seat, only)


def turn_actions(s: State, seat: int, only: Action | None = None) -> list[Action]:
    pl = s.players[seat]
    out: list[Action] = []
    kind = only.get("kind") if only else None

    def want(k: str) -> bool:
        return kind is None or kind == k

    if want("claim") and s.actions_done == 0 and not s.free_used:
        out += [{"kind": "claim", "target": t} for t in moves.claim_targets(s) if moves.can_claim(s, seat, t)]
    if want("place"):
        out += moves.place_options(s, seat)
    if want("retrieve"):
        out += moves.retrieve_options(s, seat)
    if want("buy"):
        out += moves.buy_options(s, seat)
    if want("move"):
        out += moves.move_options(s, seat)
    if want("markers"):
        out += moves.marker_options(s, seat)
    if want("discard") and pl.hand:
        out += moves.discard_options(s, seat)
    if want("reveal") and not pl.revealed and \
            scoring.score(s, seat, pl.side) >= s.cat.game["victory_target"][str(s.n)]:
        out.append({"kind": "reveal"})
    if want("double_agent"):
        out += [{"kind": "double_agent", "agent": a} for a in sorted(pl.double_agents)
                if s.agents.get(str(a), {}).get("where") == "board"
                and s.agents[str(a)]["owner"] not in (None, seat) and s.discs_free(seat) > 0]
    if want("card"):
        for card in sorted(set(pl.hand)):
            if only is None or only.get("card") == card:
                out += cards.options(s, seat, card)
    if kind is None or kind in ("devils_island", "mi_go", "mi_go_return", "hudson", "sacrifice"):
        out += permanent.options(s, seat)
    if want("pass"):
        out.append({"kind": "pass"})
    return out


FREE_KINDS = ("devils_island", "mi_go", "mi_go_return", "hudson")


def free_options(s: State, seat: int) -> list[Action]:
    """The free actions ``seat`` could take now: cards marked Free action, and the Permanent Effects' free
    actions (Devil's Island, Mi-go, Mrs Hudson)."""
    out: list[Action] = []
    for card in sorted(set(s.players[seat].hand)):
        if cards.is_free(s, card):
            out += cards.options(s, seat, card)
    return out + [a for a in permanent.options(s, seat) if a["kind"] in FREE_KINDS]


def settle(ctx: Ctx) -> None:
    """After the second action, with free actions allowed after it: the turn ends when none is left."""
    s = ctx.s
    if s.step.get("step") == "free" and not s.window and not free_options(s, s.active):
        set_step(ctx, None)
        end_turn(ctx)


# --- prompts -----------------------------------------------------------------------------

def _agent_name(s: State, key: str) -> str:
    return f"{s.names[int(key[1:])]}'s Main Agent" if key.startswith("m") else s.cat.cards[int(key)].name


def window_text(s: State) -> str:
    e = s.window["effect"]
    city = s.cat.city[e["city"]]["name"] if e.get("city") else ""
    if e["type"] == "holmes_moriarty":
        return (f"{s.names[e['by']]} reveals {_agent_name(s, e['agent'])} as a double agent. Reveal your identity "
                "to keep the agent (reveal), or let them take control (allow)?")
    if e["type"] == "relocate":
        _, key, _ = e["queue"][0]
        return f"{_agent_name(s, key)} must leave {city}: choose the adjacent city to move to."
    actor = s.names[e["seat"]]
    target = "the royal person" if e["target"] == "royal" else _agent_name(s, e["target"])
    verb = {"assassinate": "assassinate", "hide": "hide", "destroy": "destroy with a Shoggoth",
            "convert": "turn into their vampire", "cthulhu_escape": "destroy with Cthulhu"}[e["type"]]
    return (f"{actor} is about to {verb} {target} in {city}. Reveal a double agent or use Master of Disguise "
            "to stop it, or let it happen (allow).")


def _prompt(s: State) -> tuple[int, str, str, Action, str, dict[str, Action]] | None:
    """Who is asked now, and (kind, text, default, topic, answers) of the prompt: for ``prompts`` and
    ``prompt_json``."""
    who = acting(s)
    if who is None:
        return None
    seat, kind = who
    if kind == "window":
        legal = legal_actions(s, seat)
        allow: Action = {"kind": "allow"}
        e = s.window["effect"]
        if e["type"] == "relocate":
            return seat, "interrupt", window_text(s), legal[0], "emerald1.relocate", {}
        use = next((a for a in legal if a["kind"] != "allow"), allow)
        topic = INTERRUPT_TOPIC if e["type"] != "holmes_moriarty" else ""
        return seat, "interrupt", window_text(s), allow, topic, {"use": use, "decline": allow} if topic else {}
    if kind == "setup":
        return seat, "turn", "Place your Main Agent in a city (setup).", {"kind": "start",
                                                                            "city": s.cat.city_ids[0]}, "", {}
    if s.step:
        if s.step["step"] == "move":  # moves and payments, never done or skip: the default is the first of them
            default = next(moves.iter_move_options(s, seat, s.step), None) or {"kind": "pass"}
        elif s.step["step"] == "retrieve":  # takes only, never done or skip: likewise
            default = moves.first_take(s, seat) or {"kind": "pass"}
        else:
            legal = legal_actions(s, seat)
            default = next((a for a in legal if a["kind"] in ("done", "skip")),
                           legal[0] if legal else {"kind": "pass"})
        return seat, "turn", STEP_WORDS.get(s.step["step"], "Go on with your action."), default, "", {}
    return (seat, "turn", f"Your turn: action {s.actions_done + 1} of {s.cat.game['actions']}.", {"kind": "pass"},
            "", {})


def prompts(s: State) -> dict[int, Prompt]:
    found = _prompt(s)
    if found is None:
        return {}
    seat, kind, text, default, topic, answers = found
    return {seat: Prompt(seat, kind, text, default, topic, answers)}


def prompt_json(s: State) -> dict[str, Any] | None:
    """``prompts(s)[seat].to_json()`` for the seat asked (None if nobody is), without making the ``Prompt``: a
    view asks for it once per state (a test checks it is the same)."""
    found = _prompt(s)
    if found is None:
        return None
    seat, kind, text, default, topic, answers = found
    return {"seat": seat, "kind": kind, "text": text, "topic": topic, "default": dict(default),
            "answers": {k: dict(v) for k, v in answers.items()}}


STEP_WORDS = {"move": "Go on moving agents, or pay for the moves so far (pay).",
              "retrieve": "Take back your cubes, one at a time.",
              "cthulhu": "Cthulhu: choose the city to destroy.",
              "zombie_kill": "Zombies: kill an agent in a city with your zombies (one per city, in any order), "
                             "or stop killing (skip).",
              "zombie_place": "Zombies: place a zombie, or stop (done).",
              "pinkerton": "Pinkerton Agents: choose the two double-agent counters to keep.",
              "free": "Your two actions are done: take a free action, or end your turn (done)."}


# --- deciding ----------------------------------------------------------------------------

_PLAIN = frozenset((int, str, bool, float, type(None), list, dict))  # no tuple among them


def normalize(action: Mapping[str, Any]) -> Action:
    if not (type(action) is dict or isinstance(action, Mapping)) or not isinstance(action.get("kind"), str):
        raise InvalidAction("An action is a JSON object with a \"kind\" (e.g. {\"kind\": \"pass\"}).")
    out: Action = {}
    for k, v in action.items():
        if isinstance(v, (tuple, list)):
            # a copy, each tuple in it a list (a list of plain values, the usual case, is simply copied)
            v = (v.copy() if type(v) is list and _PLAIN.issuperset(map(type, v))
                 else [list(x) if isinstance(x, tuple) else x for x in v])
        out[k if type(k) is str else str(k)] = v
    return out


def refuse(s: State, seat: int, a: Action, legal: list[Action]) -> IllegalAction:
    from pbem.games.emerald1.commands import format_action
    who = acting(s)
    if who is None:
        return IllegalAction("The game is over: nothing more can be done.")
    if not legal:
        return IllegalAction(f"It is not your turn: waiting for {s.names[who[0]]}.")
    same = [x for x in legal if x["kind"] == a["kind"]]
    if a["kind"] == "claim" and not same and (s.actions_done or s.free_used):
        why = "You can claim a card only with your first action, before any free action."
    elif not same:
        why = f"You cannot {a['kind'].replace('_', ' ')} now."
    else:
        why = "Not like that (the cards, the amount or the place are not allowed)."
    pool = same or legal
    examples = [format_action(s, x) for x in pool[:6]]
    more = len(pool) - len(examples)
    kinds = ", ".join(sorted({x["kind"].replace("_", " ") for x in legal}))
    return IllegalAction(f"{why} Legal now: {kinds}. For example: " + "; ".join(examples)
                         + (f"; and {more} more." if more > 0 else "."))


def decide(s: State, seat: int, action: Mapping[str, Any], rng: Rng) -> list[Any]:
    a = normalize(action)
    who = acting(s)
    ok = legality.legal(s, seat, a, who)
    if ok is None:
        ok = a in legal_actions(s, seat, a)
    if not ok:
        raise refuse(s, seat, a, legal_actions(s, seat))
    ctx = Ctx(s, rng)
    try:
        dispatch(ctx, seat, a, who)
        settle(ctx)
        check(ctx)
    except Stop:
        pass
    return ctx.events


def dispatch(ctx: Ctx, seat: int, a: Action, who: tuple[int, str] | None = None) -> None:
    """Decide a legal action into events; ``who`` is ``acting`` of the state decided on, if the caller has it."""
    s = ctx.s
    kind = a["kind"]
    if who is None:
        who = acting(s)
    assert who is not None
    if who[1] == "setup":
        ctx.emit("MainAgentPlaced", {"seat": seat, "city": a["city"]})
        if not ctx.s.setup_queue:
            ctx.emit("TurnStarted", {"seat": s.first, "turn": 1})
        return
    if who[1] == "window":
        return assassin.answer(ctx, seat, a)
    step = s.step.get("step")
    if step == "free":  # after the second action: a free action, or the end of the turn
        set_step(ctx, None)
        if kind == "done":
            return end_turn(ctx)
        step = None
    if step == "move" and kind == "move":
        return _move_one(ctx, seat, a)
    if step == "move" and kind == "pay":
        play(ctx, seat, a["cards"], "gold")
        set_step(ctx, None)
        return complete_action(ctx, seat)
    if step == "retrieve":
        ctx.emit("CubesMoved", {"seat": seat, "from": a["from"], "to": "available", "count": 1})
        left = s.step["left"] - 1
        if left > 0 and moves.cubes_out(ctx.s, seat) > 0:
            return set_step(ctx, {"step": "retrieve", "left": left})
        set_step(ctx, None)
        return complete_action(ctx, seat)
    if step == "cthulhu":
        return permanent.cthulhu(ctx, seat, a["city"])
    if step:
        return cards.step_do(ctx, seat, a)
    if kind == "claim":
        claim(ctx, seat, a["target"])
        return complete_action(ctx, seat)
    if kind == "place":
        play(ctx, seat, a["cards"], "cubes")
        count = min(total_of(s, a["cards"], "cube"), s.players[seat].available)
        ctx.emit("CubesMoved", {"seat": seat, "from": "available", "to": a["to"], "count": count})
        return complete_action(ctx, seat)
    if kind == "retrieve":
        play(ctx, seat, a["cards"], "cubes")
        total = total_of(s, a["cards"], "cube")
        return set_step(ctx, {"step": "retrieve", "left": total})
    if kind == "buy":
        play(ctx, seat, a["cards"], "gold")
        ctx.emit("CubesMoved", {"seat": seat, "from": "pool", "to": "available",
                                "count": total_of(s, a["cards"], "gold") // 2})
        return complete_action(ctx, seat)
    if kind == "move":
        set_step(ctx, {"step": "move", "moved": [], "cost": 0})
        return _move_one(ctx, seat, a)
    if kind == "markers":
        for card, arrow in a["plays"]:
            play(ctx, seat, [card], "arrow")
            track, steps = s.cat.cards[card].arrows[arrow]
            move_marker(ctx, track, steps)
        return complete_action(ctx, seat)
    if kind == "discard":
        hidden = sorted(c for c in a["cards"] if c != a["shown"])
        ctx.emit("CardsDiscarded", {"seat": seat, "cards": hidden + [a["shown"]]}, to=seat, reveals=True)
        ctx.emit("CardsDiscardedCount", {"seat": seat, "count": len(a["cards"]), "shown": a["shown"]})
        return complete_action(ctx, seat)
    if kind == "reveal":
        reveal(ctx, seat, "to end the game")
        check(ctx)
        return end(ctx, "victory_points")
    if kind == "double_agent":
        return assassin.reveal_double_agent(ctx, seat, a["agent"], seat)
    if kind == "card":
        return cards.perform(ctx, seat, a)
    if kind in ("devils_island", "mi_go", "mi_go_return", "hudson", "sacrifice"):
        return permanent.perform(ctx, seat, a)
    if kind == "pass":
        return complete_action(ctx, seat)
    raise InvalidAction(f"Unknown action {kind!r}.")  # pragma: no cover - legal_actions lists no other


def _move_one(ctx: Ctx, seat: int, a: Action) -> None:
    s = ctx.s
    frm = s.agents[a["agent"]]["city"]
    cost = moves.route_costs(s, seat, frm)[a["to"]]
    ctx.emit("AgentMoved", {"seat": seat, "agent": a["agent"], "from": frm, "to": a["to"], "cost": cost})
    step = ctx.s.step
    set_step(ctx, {"step": "move", "moved": step["moved"] + [a["agent"]], "cost": step["cost"] + cost})


__all__ = ["acting", "decide", "end_turn", "legal_actions", "prompts"]
