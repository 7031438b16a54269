"""How a game looks to a player: the presentation beside each game's rules.

A game is its rules (``events.rules.Rules``) and its presentation. The presentation turns a
*view* (what ``rules.view(state, seat)`` returned, nothing more) into what a player reads:

* ``scene(view)``: a JSON-able picture in the game's own words: whose turn and what is asked,
  the board, the hand as cards (each with the number the commands accept), the table's public
  state. No state keys, no step names: only words and numbers a player would use.
* ``svg(scene)``: the board as inline SVG for pages (drawn on the server; no JavaScript).
* ``text_board(scene)``: the board, the hand and the table as plain lines of at most 78
  columns, for the text part of mails (a terminal mail client shows it as is).
* ``assumed(view)``: the game data that is assumed rather than printed, grouped for a page.
* ``group(view, legal)``: the legal actions grouped by kind, in words: ``[(group label,
  [(command text, label in words)])]``; ``legal`` holds ``{"text", "action"}`` entries, the
  command text is the one the player would type. Without it the choices are one group, each
  labelled by its command (``choices`` below).
* optionally ``short_name`` (``Emerald``: the name mail subjects start with) and
  ``turn_label(view)`` (``turn 6, action 2 of 2``: the turn in a few words, for subjects).
* optionally ``part_of(view, action)``: which part of a long group an action is in, and the action in a few
  words within it (``("with Agent X (109)", "on Berlin")``): the page shows such a group by card, then
  target (``choices`` below).
* optionally ``touches(view, action)``: the things on the table an action is about, as keys
  (``city:paris``, ``card:310``), with ``pick_name(view, key)`` saying a key in words. With them
  a player picks by clicking: a city on the board or a card in the hand links to the play page
  with ``?on=KEY``, which offers first the choices about that thing (``picks`` and ``focus``
  below); ``svg(scene, links)`` then draws each linked thing as a link (``links``: key -> URL).
* the templates that draw a scene: ``web_template`` (a page partial) and ``mail_html_template``
  (tables only: many mail clients strip SVG).

Games without a presentation are drawn by the generic renderer (``templates/web/_view.html``,
``templates/mail/_view.*``), which shows the view as nested tables: a fallback only.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from pbem.games import BUILTIN

LINE_WIDTH = 78
FOLD_OVER = 12  # a group of more choices than this is folded on the page (unless it is the only one)


@runtime_checkable
class Presentation(Protocol):
    """What pages and mails need to show one game type."""

    name: str                # the game type, as the rules name it
    web_template: str        # e.g. "web/games/emerald.html"; it gets ``scene``, ``svg`` and ``seat``
    mail_html_template: str  # e.g. "mail/games/emerald.html"; it gets ``scene``

    def scene(self, view: Mapping[str, Any]) -> dict[str, Any]: ...

    def svg(self, scene: Mapping[str, Any]) -> str: ...

    def text_board(self, scene: Mapping[str, Any]) -> list[str]: ...

    def assumed(self, view: Mapping[str, Any]) -> list[dict[str, Any]]: ...

    def group(self, view: Mapping[str, Any],
              legal: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[tuple[str, str]]]]: ...


_registered: dict[str, Presentation] = {}


def register(presentation: Presentation) -> None:
    _registered[presentation.name] = presentation


def unregister(name: str) -> None:
    _registered.pop(name, None)


def lookup(game_type: str) -> Presentation | None:
    """The presentation of ``game_type``: a registered one, or a built-in game's ``present`` module's
    ``PRESENTATION``; None means the generic renderer."""
    if game_type in _registered:
        return _registered[game_type]
    module = BUILTIN.get(game_type)
    if module is None:
        return None
    try:
        found = importlib.import_module(f"{module}.present")
    except ModuleNotFoundError as missing:
        if missing.name != f"{module}.present":
            raise
        return None
    presentation: Presentation | None = getattr(found, "PRESENTATION", None)
    return presentation


def present(game_type: Any, view: Any) -> dict[str, Any] | None:
    """For templates: the scene of ``view`` with its presentation, or None (use the generic renderer)."""
    if not isinstance(game_type, str) or not isinstance(view, Mapping):
        return None
    presentation = lookup(game_type)
    if presentation is None:
        return None
    scene = presentation.scene(view)
    return {"scene": scene, "presentation": presentation, "web_template": presentation.web_template,
            "mail_html_template": presentation.mail_html_template}


def choices(game_type: Any, view: Any, legal: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The legal actions as a page shows them: groups ``{label, folded, choices: [{text, label}], parts}``.

    A game's ``group`` names the groups and says each action in words; without one (or with a
    view it cannot read) every action is in one group, labelled by its command. Every legal
    command is in exactly one group, in the order the game gave (missing ones join a last group).
    A long group is divided into ``parts`` (``[{label, choices: [{text, label, short}]}]``) when the game
    says, with ``part_of``, which part each action is in: by card, then target (``with Agent X (109)``,
    then ``on Berlin``); each choice keeps its whole ``label`` too.
    """
    presentation = lookup(game_type) if isinstance(game_type, str) else None
    grouped: list[tuple[str, list[tuple[str, str]]]] = []
    if presentation is not None and hasattr(presentation, "group") and isinstance(view, Mapping):
        grouped = presentation.group(view, legal)
    texts = [str(entry["text"]) for entry in legal]
    seen = {text for _, items in grouped for text, _ in items}
    rest = [(text, text) for text in texts if text not in seen]
    if rest:
        grouped.append(("Choose an action" if not grouped else "Other actions", rest))
    groups = [{"label": label, "choices": [{"text": text, "label": words} for text, words in items], "parts": []}
              for label, items in grouped if items]
    part_of = getattr(presentation, "part_of", None)
    if part_of is not None and isinstance(view, Mapping):
        actions = {str(entry["text"]): entry.get("action") or {} for entry in legal}
        for g in groups:
            if len(g["choices"]) > FOLD_OVER:
                g["parts"] = _parts(g["choices"], lambda text: part_of(view, actions.get(text) or {}))
    for g in groups:
        g["folded"] = len(groups) > 1 and len(g["parts"] or g["choices"]) > FOLD_OVER
    return groups


def _parts(items: Sequence[Mapping[str, Any]], part: Any) -> list[dict[str, Any]]:
    """The choices of a group divided by ``part`` (a command -> ``(part label, short label)`` or None), in the order
    each part first appears; no division (``[]``) when a choice has no part, or all are in one."""
    parts: dict[str, list[dict[str, Any]]] = {}
    for choice in items:
        found = part(choice["text"])
        if not found:
            return []
        label, short = found
        parts.setdefault(str(label), []).append({**choice, "short": str(short)})
    if len(parts) < 2:
        return []
    return [{"label": label, "choices": found} for label, found in parts.items()]


def picks(game_type: Any, view: Any, legal: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """What a player can click to narrow the choices: ``{key: number of legal actions about it}``
    (empty when the game's presentation has no ``touches``)."""
    presentation = lookup(game_type) if isinstance(game_type, str) else None
    touches = getattr(presentation, "touches", None)
    if touches is None or not isinstance(view, Mapping):
        return {}
    counts: dict[str, int] = {}
    for entry in legal:
        for key in dict.fromkeys(touches(view, entry.get("action") or {})):
            counts[key] = counts.get(key, 0) + 1
    return counts


def focus(game_type: Any, view: Any, groups: Sequence[Mapping[str, Any]], legal: Sequence[Mapping[str, Any]],
          on: str) -> dict[str, Any] | None:
    """The choices about one clicked thing ``on`` (a key of ``picks``): ``{key, name, choices: [{text, label}]}``,
    each labelled as in its group; None when nothing legal is about it."""
    presentation = lookup(game_type) if isinstance(game_type, str) else None
    touches = getattr(presentation, "touches", None)
    if touches is None or not isinstance(view, Mapping) or not on:
        return None
    texts = [str(entry["text"]) for entry in legal if on in touches(view, entry.get("action") or {})]
    if not texts:
        return None
    name = getattr(presentation, "pick_name", lambda _view, key: key)(view, on)
    return {"key": on, "name": str(name), "choices": [{"text": t, "label": said(groups, t) or t} for t in texts]}


def board_svg(shown: Mapping[str, Any], links: Mapping[str, str] | None = None) -> str:
    """The board of a ``present`` result as SVG, its clickable things linked when the game draws links."""
    presentation, scene = shown["presentation"], shown["scene"]
    if links and "links" in inspect.signature(presentation.svg).parameters:
        return str(presentation.svg(scene, links=links))
    return str(presentation.svg(scene))


def said(groups: Sequence[Mapping[str, Any]], text: str) -> str | None:
    """The action with command ``text`` in words ("Place cubes — 1 cube in Berlin, ..."), if it is among ``groups``."""
    for g in groups:
        for choice in g["choices"]:
            if choice["text"] == text:
                return str(choice["label"]) if choice["label"] == text else f"{g['label']} — {choice['label']}"
    return None


def short_name(game_type: Any, title: str) -> str:
    """The game's name as mail subjects give it: the presentation's ``short_name``, else the rules' title."""
    presentation = lookup(game_type) if isinstance(game_type, str) else None
    return str(getattr(presentation, "short_name", "") or title)


def turn_label(game_type: Any, view: Any) -> str | None:
    """Where the game stands in a few words (``turn 6, action 2 of 2``), if the presentation says it."""
    presentation = lookup(game_type) if isinstance(game_type, str) else None
    label = getattr(presentation, "turn_label", None)
    if label is None or not isinstance(view, Mapping):
        return None
    words = label(view)
    return str(words) if words else None


def wrap_text(text: str, indent: str) -> list[str]:
    """``text`` in lines of at most 78 columns (its own leading spaces kept), the next ones indented: the text
    boards of mails."""
    body = text.lstrip(" ")
    out, line = [], text[: len(text) - len(body)]
    for word in body.split(" "):
        if line.strip() and len(line) + 1 + len(word) > LINE_WIDTH:
            out.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line.strip() else line + word
    out.append(line)
    return out
