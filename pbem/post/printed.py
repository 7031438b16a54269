"""A game printed in words for the command line, as the plain-text mail shows it.

``pbem game show GAME --as EMAIL`` prints what the player's next mail would say (the story since their last turn,
the decision with the commands it takes, the text board and hand with the numbers commands use), rendered by the
mail's own text template, so that the two never drift apart. ``pbem game show GAME`` prints the public table the
same way. The raw state is printed only behind the operator's flag (``--raw``).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from pbem.errors import ServiceError
from pbem.games.presentation import present, turn_label
from pbem.post.desk import Desk
from pbem.post.mail.render import environment
from pbem.table import naming

TEMPLATE = "show"  # templates/mail/show.txt: the turn mail's text part, introduced as a look at the game


def player_words(service: Desk, game_id: str, seat: int) -> dict[str, Any]:
    """The player's view as their mail would print it now: ``text`` (the lines) and what they say, JSON-able:
    the game's name, where it stands, the story, the decision, the commands and the scene (cards by their numbers).

    :raises ServiceError: the instance composes no mails (it has no secret key), so it cannot print one.
    """
    notifier = service.notifier
    if notifier is None:
        raise ServiceError("this instance writes no mails (it has no secret key), so it cannot print a player's view "
                           "as a mail; use --raw for the state")
    state = service.load(game_id)
    rules = service.kernel.rules(state)
    player = next(p for p in service.players(game_id) if int(p["seat"]) == seat)
    prompt = rules.prompts(state.game).get(seat) if not state.ended else None
    context = notifier.context(service, state, player, TEMPLATE, prompt, told=state.seq,  # a look: no receipt
                               deadline=service.deadline_of(game_id, seat), now=datetime.now(timezone.utc),
                               tz=str(getattr(notifier, "timezone", "UTC")))
    text = environment().get_template(f"mail/{TEMPLATE}.txt").render(**context, present=present)
    shown = present(state.game_type, context["view"])
    return {"game_id": game_id, "name": context["name"], "title": context["title"], "label": context["label"],
            "player": context["player"], "story": context["story"], "prompt": context["prompt"],
            "commands": context["commands"], "deadline": context["deadline"],
            "scene": shown["scene"] if shown else context["view"], "text": text}


def public_words(service: Desk, game_id: str) -> dict[str, Any]:
    """The public table in words: ``lines`` (the text board, or the view as indented lines for a game without a
    presentation) and the ``scene`` they print."""
    state = service.load(game_id)
    rules = service.kernel.rules(state)
    view = rules.view(state.game, None)
    shown = present(state.game_type, view)
    if shown:
        lines = list(shown["presentation"].text_board(shown["scene"]))
    else:
        macro = environment().get_template("mail/_view.txt").module.show  # type: ignore[attr-defined]
        lines = [line for line in str(macro(view, 0)).splitlines() if line.strip()]
    return {"game_id": game_id, "name": naming.name_of(state, rules.title), "title": rules.title,
            "label": turn_label(state.game_type, view), "scene": shown["scene"] if shown else view, "lines": lines}
