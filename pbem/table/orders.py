"""Standing orders: a player's standing answer (always, never, ask) to one kind of out-of-turn question, applied
as soon as the question is asked, so that a slow game saves a round trip by mail."""

from __future__ import annotations

from events.envelope import NewEvent, Visibility, seat_actor
from events.handling import Cause, CommandResult, StaleCommand
from pbem.errors import ServiceError
from pbem.table.delivery import STANDING_ANSWERS, STANDING_ORDER_SET
from pbem.table.hooks import Host


def apply(host: Host, game_id: str, limit: int = 20) -> list[CommandResult]:
    """Answer out-of-turn prompts that a player's standing order covers, without a round trip."""
    done: list[CommandResult] = []
    orders = {(r["seat"], r["topic"]): r["answer"] for r in host.store.query(
        "SELECT seat, topic, answer FROM standing_orders WHERE game_id = ? AND answer != 'ask'", (game_id,))}
    if not orders:
        return done
    for _ in range(limit):
        state = host.load(game_id)
        if state.ended:
            break
        answer = None
        for seat, prompt in sorted(host.kernel.rules(state).prompts(state.game).items()):
            order = orders.get((seat, prompt.topic)) if prompt.topic else None
            choice = {"always": "use", "never": "decline"}.get(order or "")
            if choice and choice in prompt.answers:
                answer = (seat, prompt.answers[choice], order)
                break
        if answer is None:
            break
        seat, action, order = answer
        try:
            done.append(host.kernel.execute(game_id, seat, action, expected_seq=state.seq, hooks=host,
                                            cause=Cause("standing-order", {"order": order})))
        except StaleCommand:
            break  # another command came first; whoever wrote it applies the orders after it
    return done


def set_order(host: Host, game_id: str, seat: int, topic: str, answer: str, *, cause: Cause,
              expected_seq: int | None = None) -> CommandResult:
    """Record a standing answer (always / never / ask) to one kind of out-of-turn prompt.

    With ``expected_seq``, refused if a move or an undo came since (other records do not matter).
    """
    if answer not in STANDING_ANSWERS:
        raise ServiceError(f"a standing order is one of {', '.join(STANDING_ANSWERS)}, not {answer!r}")
    # its owner's alone (``pbem.proof.reading``): an order, with how the game went, would tell the table what they hold
    return host.kernel.record(game_id, [NewEvent(STANDING_ORDER_SET, {"seat": seat, "topic": topic,
                                                                      "answer": answer}, Visibility.to(seat))],
                              actor=seat_actor(seat), cause=cause, hooks=host, expected_seq=expected_seq,
                              exact=False, retries=3)
