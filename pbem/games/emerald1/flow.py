"""The turn: completing actions, ending a turn with the refill, relocating agents out of a city."""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1.effects import Ctx, check, draw, end
from pbem.games.emerald1.state import State


def complete_action(ctx: Ctx, seat: int, free: bool = False) -> None:
    """The action is over (unless a step or a question is still open): count it, maybe end the turn."""
    if ctx.s.phase == "over" or ctx.s.window or ctx.s.step:
        return
    ctx.emit("ActionDone", {"seat": seat, "free": free})
    check(ctx)
    if ctx.s.actions_done >= ctx.s.cat.game["actions"]:
        if ctx.s.readings.free_actions_after_last_action:
            return set_step(ctx, {"step": "free"})  # ``engine.settle`` ends the turn when no free action is left
        end_turn(ctx)


def set_step(ctx: Ctx, step: dict[str, Any] | None) -> None:
    ctx.emit("StepSet", {"step": step or {}})


def end_turn(ctx: Ctx) -> None:
    s = ctx.s
    seat = s.active
    need = s.hand_limit(seat) - len(s.players[seat].hand)
    if need > 0:
        draw(ctx, seat, need)
    nxt = (seat + 1) % s.n
    ctx.emit("TurnStarted", {"seat": nxt, "turn": s.turn + (1 if nxt == s.first else 0)})


def escape_cities(s: State, seat: int, city: str) -> list[str]:
    """Adjacent connected cities an agent of ``seat`` may be moved to at no cost."""
    return [c for c in s.cat.neighbours[city] if not s.locked_against(c, seat) and c != city]


def start_relocation(ctx: Ctx, actor: int, city: str, movers: list[tuple[int, str]], then_end: str = "") -> None:
    """Agents must leave ``city`` for an adjacent city, each player choosing for their own, in the order given;
    then the action is complete, or, with ``then_end``, the game ends for that reason."""
    queue = []
    for seat, key in movers:
        choices = escape_cities(ctx.s, seat, city)
        if len(choices) == 1:
            ctx.emit("AgentMoved", {"seat": seat, "agent": key, "from": city, "to": choices[0], "cost": 0,
                                    "why": "forced out"})
        elif choices:
            queue.append([seat, key, choices])
    if queue:
        effect: dict[str, Any] = {"type": "relocate", "actor": actor, "city": city, "queue": queue}
        if then_end:
            effect["then_end"] = then_end
        ctx.emit("WindowSet", {"window": {"effect": effect, "asking": [queue[0][0]]}})
    else:
        relocated(ctx, actor, then_end)


def relocate(ctx: Ctx, effect: dict[str, Any], a: dict[str, Any]) -> None:
    seat = effect["queue"][0][0]
    ctx.emit("AgentMoved", {"seat": seat, "agent": a["agent"], "from": effect["city"], "to": a["to"], "cost": 0,
                            "why": "forced out"})
    queue = effect["queue"][1:]
    if queue:
        ctx.emit("WindowSet", {"window": {"effect": {**effect, "queue": queue}, "asking": [queue[0][0]]}})
    else:
        relocated(ctx, effect["actor"], effect.get("then_end", ""))


def relocated(ctx: Ctx, actor: int, then_end: str) -> None:
    if then_end:
        end(ctx, then_end)
    complete_action(ctx, actor)
