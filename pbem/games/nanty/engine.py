"""Who acts now, every legal action, and deciding one action into events.

A turn: area powers at any time (once each), one card whose symbols resolve top to bottom (each may be
skipped except a Random Event), more cards for each Play Another Card, then ``end``: refill to five.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from events.rng import Rng
from events.rules import IllegalAction, InvalidAction, Prompt
from pbem.games.nanty import moves, randevents
from pbem.games.nanty.effects import Ctx, Stop, demolish, draw, end, move_agent
from pbem.games.nanty.evolve import FRESH_TURN
from pbem.games.nanty.keepopen import could_open
from pbem.games.nanty.scoring import deck_out_winners, scored_winners, wins_now
from pbem.games.nanty.state import State

Action = dict[str, Any]
INTERRUPT_TOPIC = "nanty.interrupt"


def fresh_turn() -> dict[str, Any]:
    """The turn's bookkeeping when it starts (``evolve`` sets the same on ``TurnStarted``)."""
    fresh: dict[str, Any] = json.loads(FRESH_TURN)
    return fresh


# --- who acts ------------------------------------------------------------------------------

def acting(state: State) -> tuple[int, str] | None:
    """The seat that must decide now and the kind of decision (turn, or the kind of question asked)."""
    if state.phase != "play":
        return None
    ask = state.pend().get("ask")
    if ask:
        return ask["seat"], ask["kind"]
    return state.active, "turn"


def interrupt_cards(state: State, seat: int) -> list[int]:
    return sorted(c for c in state.players[seat].hand if state.cat.cards[c].interrupt)


def legal_actions(state: State, seat: int) -> list[Action]:
    who = acting(state)
    if who is None or who[0] != seat:
        return []
    p = state.pend()
    ask = p.get("ask")
    if ask:
        return ask_actions(state, seat, ask, p)
    out = moves.power_options(state, seat, p.get("powers", []))
    card = p.get("card")
    if card is not None:
        sym = state.cat.cards[card].symbols[p["i"]]
        return moves.symbol_options(state, seat, card, sym) + [{"kind": "skip"}] + out
    hand = state.players[seat].hand
    if p.get("plays", 0) > 0:
        out = [{"kind": "play", "card": c} for c in sorted(set(hand))] + out
    if p.get("played", 0) > 0 or not hand:
        out.append({"kind": "end"})
    return out


def ask_actions(state: State, seat: int, ask: Mapping[str, Any], p: Mapping[str, Any]) -> list[Action]:
    kind = ask["kind"]
    if kind == "interrupt":
        return [{"kind": "interrupt", "card": c} for c in interrupt_cards(state, seat)] + [{"kind": "decline"}]
    if kind == "holborn":
        return randevents.protect_options(state, dict(ask))
    if kind == "murder":
        return randevents.murder_options(state, dict(ask))
    if kind == "flood":
        return randevents.flood_options(state, p["event"], seat, ask["area"])
    if kind == "subsidence":
        return [{"kind": "lose", "area": a} for a in state.buildings_of(seat)]
    if kind == "discard":
        return [{"kind": "discard", "card": c} for c in sorted(set(state.players[seat].hand))]
    return []


# --- prompts -------------------------------------------------------------------------------

def _area(state: State, area: str) -> str:
    return state.cat.areas[area].name


def _threat(state: State, effect: Mapping[str, Any], seat: int) -> str:
    """What the asked player reads: the same words whoever holds what (only whose agent it is differs)."""
    actor, where = state.names[effect["seat"]], _area(state, effect["area"])
    whose = "your" if effect["victim"] == seat else f"{state.names[effect['victim']]}'s"
    if effect["type"] == "move":
        return f"{actor} is about to move one of {whose} agents from {where} to {_area(state, effect['to'])}."
    return f"{actor} is about to remove one of {whose} agents from {where}."


def prompts(state: State) -> dict[int, Prompt]:
    who = acting(state)
    if who is None:
        return {}
    seat, kind = who
    p = state.pend()
    ask = p.get("ask") or {}
    out_of_turn = "interrupt" if seat != state.active else "turn"
    if kind == "interrupt":
        decline: Action = {"kind": "decline"}
        held = interrupt_cards(state, seat)
        use: Action = {"kind": "interrupt", "card": held[0]} if held else decline
        asked = _threat(state, ask["effect"], seat) + " Will you stop it with an interrupt card?"
        return {seat: Prompt(seat, out_of_turn, asked,
                             decline, INTERRUPT_TOPIC, {"use": use, "decline": decline})}
    if kind == "holborn":
        text = (f"A Random Event strikes your pieces in {_area(state, ask['area'])}: pay "
                f"£{state.cat.game['holborn_cost']} apiece with Holborn to keep them?")
        return {seat: Prompt(seat, out_of_turn, text, {"kind": "protect", "agents": 0, "building": 0})}
    if kind == "turn":
        # the default without listing every legal action (views ask for prompts on every read)
        hand = state.players[seat].hand
        if p.get("card") is not None:
            default: Action = {"kind": "skip"}
        elif p.get("played", 0) > 0 or not hand:
            default = {"kind": "end"}
        else:
            default = {"kind": "play", "card": min(hand)}
        return {seat: Prompt(seat, "turn", _turn_text(p), default)}
    legal = legal_actions(state, seat)
    if not legal:
        return {}
    if kind == "murder":
        text = f"Mysterious Murders: remove a pawn from {_area(state, ask['area'])}."
    elif kind == "flood":
        text = f"Flood: move one of your agents out of {_area(state, ask['area'])}."
    elif kind == "subsidence":
        text = "Subsidence: you cannot pay for all your buildings; choose one to lose."
    else:
        text = "Westminster: discard one card."
    return {seat: Prompt(seat, out_of_turn, text, _default(state, seat, kind, legal))}


def _default(state: State, seat: int, kind: str, legal: list[Action]) -> Action:
    """On a deadline: a murder spares the player's own agents when it can; Subsidence takes the cheapest building."""
    if kind == "murder":
        def harm(a: Action) -> int:
            t = a["target"]
            return 0 if isinstance(t, str) else (2 if t == seat else 1)
        return min(legal, key=harm)
    if kind == "subsidence":
        return min(legal, key=lambda a: state.cat.areas[a["area"]].cost)
    return legal[0]


def _turn_text(p: Mapping[str, Any]) -> str:
    if p.get("card") is not None:
        return "Go on with your card: use its next symbol, or skip it."
    if p.get("plays", 0) > 0 and p.get("played", 0) == 0:
        return "Your turn: play a card (area powers may be used at any time in your turn)."
    if p.get("plays", 0) > 0:
        return "Play another card, or end your turn."
    return "End your turn (area powers may still be used)."


# --- deciding ------------------------------------------------------------------------------

def normalize(action: Mapping[str, Any]) -> Action:
    if not isinstance(action, Mapping):
        raise InvalidAction("An action is a JSON object with a \"kind\".")
    kind = action.get("kind")
    if not isinstance(kind, str) or not kind:
        raise InvalidAction("An action needs a \"kind\" (e.g. \"end\").")
    out: Action = {}
    for k, v in action.items():
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, (int, str)):
            raise InvalidAction(f"Field {k!r} must be a number or a name.")
        out[k] = v
    return out


def refuse(state: State, seat: int, action: Action, legal: list[Action]) -> IllegalAction:
    from pbem.games.nanty.commands import format_action
    who = acting(state)
    if who is None:
        return IllegalAction("The game is over: nothing more can be done.")
    if not legal:
        return IllegalAction(f"It is not your turn: waiting for {state.names[who[0]]}.")
    kind = action.get("kind")
    same = [a for a in legal if a["kind"] == kind]
    why = f"That {kind} is not possible now." if same else f"You cannot {kind} now."
    pool = same or legal
    examples = [format_action(state, a) for a in pool[:8]]
    more = len(pool) - len(examples)
    return IllegalAction(f"{why} You can: " + "; ".join(examples) + (f"; and {more} more." if more > 0 else "."))


def decide(state: State, seat: int, action: Mapping[str, Any], rng: Rng) -> list[Any]:
    a = normalize(action)
    legal = legal_actions(state, seat)
    if a not in legal:
        raise refuse(state, seat, a, legal)
    ctx = Ctx(state, rng)
    try:
        dispatch(ctx, seat, a)
        ctx.commit()
    except Stop:
        pass
    return ctx.events


def dispatch(ctx: Ctx, seat: int, a: Action) -> None:
    kind = a["kind"]
    p = ctx.p
    if kind == "power":
        moves.apply_power(ctx, seat, a)
    elif kind == "play":
        ctx.emit("CardPlayed", {"seat": seat, "card": a["card"]}, reveals=True)
        p.update(plays=p["plays"] - 1, played=p["played"] + 1, card=a["card"], i=0)
    elif kind == "skip":
        p["i"] += 1
    elif kind == "end":
        end_turn(ctx)
        return
    elif kind in ("interrupt", "decline"):
        answer_interrupt(ctx, seat, a.get("card"))
    elif kind == "protect":
        randevents.answer_protect(ctx, seat, a["agents"], a["building"])
    elif kind == "murder":
        p["ask"] = None
        p["event"].update(target=a["target"], stage="kill")
    elif kind == "flood":
        p["ask"] = None
        move_agent(ctx, seat, p["event"]["queue"][0][1], a["to"], "flood")
        p["event"]["move"] -= 1
    elif kind == "lose":
        p["ask"] = None
        demolish(ctx, a["area"], "subsidence")
    elif kind == "discard":
        p["ask"] = None
        ctx.emit("CardDiscarded", {"seat": seat, "card": a["card"], "why": "power"}, reveals=True)
    else:
        card = p["card"]
        sym = ctx.s.cat.cards[card].symbols[p["i"]]
        p["i"] += 1
        moves.apply_symbol(ctx, seat, card, sym, a)
    advance(ctx)


def advance(ctx: Ctx) -> None:
    """Resolve what needs no decision: events in progress, Play Another Card, symbols with no option."""
    p = ctx.p
    while not p.get("ask"):
        if p.get("event"):
            randevents.run(ctx)
            continue
        card = p.get("card")
        if card is None:
            return
        syms = ctx.s.cat.cards[card].symbols
        if p["i"] >= len(syms):
            p.update(card=None, i=0)
            return
        sym = syms[p["i"]]
        if sym == "again":
            p["plays"] += 1
        elif sym == "event":
            p["i"] += 1
            randevents.start(ctx)
            continue
        elif sym != "interrupt" and (moves.symbol_options(ctx.s, ctx.s.active, card, sym) or (
                ctx.s.readings.revision >= 2 and could_open(ctx.s, ctx.s.active, card, sym, p.get("powers", [])))):
            return   # a symbol with no option now stays open while a power could make it possible (revision 2)
        p["i"] += 1


def answer_interrupt(ctx: Ctx, seat: int, card: int | None) -> None:
    """A card stops the effect; a decline passes the question to the next player asked, or lets it happen."""
    ask = ctx.p["ask"]
    effect = ask["effect"]
    ctx.p["ask"] = None
    ctx.emit("InterruptAnswered", {"seat": seat, "used": card is not None, "card": card})
    if card is not None:
        ctx.emit("CardPlayed", {"seat": seat, "card": card}, reveals=True)
        return
    if ask.get("next"):
        ctx.p["ask"] = {**ask, "seat": ask["next"][0], "next": ask["next"][1:]}
        return
    moves.let_happen(ctx, effect)


def end_turn(ctx: Ctx) -> None:
    s = ctx.s
    seat = s.active
    need = s.cat.game["hand_size"] - len(s.players[seat].hand)
    if need > 0:
        short = len(s.deck) < need
        draw(ctx, seat, need)
        if short:   # the player cannot refill their hand: the game ends (GUIDE C2-11)
            winners = deck_out_winners(ctx.s) or scored_winners(ctx.s, set())
            end(ctx, "deck_out", winners)
    start_turn(ctx, (seat + 1) % s.n)


def start_turn(ctx: Ctx, seat: int) -> None:
    ctx.emit("TurnStarted", {"seat": seat, "turn": ctx.s.turn + 1})
    ctx.p = fresh_turn()
    if wins_now(ctx.s, seat):   # silent unless it wins
        end(ctx, "personality", [seat])


__all__ = ["INTERRUPT_TOPIC", "acting", "decide", "fresh_turn", "legal_actions", "prompts", "start_turn"]
