"""Looking for many secrets in long texts and large JSON values without reading them once per secret.

The leak test reads every channel of every reader at every move: the log and the replay of a long game are hundreds
of kilobytes, and a reader may not know a hundred cards. These helpers find exactly what a search per secret would,
in one pass over the text or the value.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

_BRACKETED = re.compile(r"\([^()]*\)")


def labels_in(text: str, labels: Iterable[str]) -> list[str]:
    """The labels that occur in ``text``, as ``[label for label in labels if label in text]``.

    A card's label ends in its number in brackets ("Dr. Watson (12)"): only the labels whose bracket occurs in the
    text at all are looked for, so the text is read once for its brackets and then only for the few candidates.
    """
    brackets = set(_BRACKETED.findall(text))
    return [label for label in labels
            if (not label.endswith(")") or label[label.rfind("("):] in brackets) and label in text]


def card_ids(value: Any, found: set[int], card_keys: tuple[str, ...], nested: str = "") -> None:
    """Every card id in a JSON value: ints under one of ``card_keys`` (and under any key of a map that is itself
    under ``nested``, such as ``stacks`` by city), and card faces ``{id, number, name}``; walked without recursion."""
    keys = frozenset(card_keys)
    todo: list[tuple[Any, str]] = [(value, "")]
    while todo:
        item, key = todo.pop()
        if isinstance(item, dict):
            if "id" in item and "number" in item and "name" in item and isinstance(item["id"], int):
                found.add(item["id"])
            inherited = nested if nested and key == nested else ""
            for k, v in item.items():
                child = k if k in keys else inherited
                if isinstance(v, (dict, list)):
                    todo.append((v, child))
                elif child in keys and isinstance(v, int) and not isinstance(v, bool):
                    found.add(v)
        elif isinstance(item, list):
            for v in item:
                if isinstance(v, (dict, list)):
                    todo.append((v, key))
                elif key in keys and isinstance(v, int) and not isinstance(v, bool):
                    found.add(v)
