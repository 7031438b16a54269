"""What the games' small maps share: text, a place's name in a pill, and links to a thing's choices.

A map for a page is drawn to be read on a 375-pixel phone: ``WIDTH`` units wide, no text under ``SMALLEST``
units, so that at the narrowest (about 318 pixels of a phone's page) nothing is under 11 CSS pixels.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

WIDTH = 340
SMALLEST = 12
NAME_SIZE = 12.5
CHAR = 8.2  # the width of a letter of a name in bold, generous (DejaVu Serif stands in for Georgia on many phones)


def text(x: float, y: float, s: str, size: float, weight: str = "normal", fill: str = "#222",
         anchor: str = "middle", underline: bool = False) -> str:
    line = ' text-decoration="underline"' if underline else ""
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{max(size, SMALLEST)}" font-weight="{weight}" fill="{fill}" '
            f'text-anchor="{anchor}"{line}>{escape(s)}</text>')


def linked(part: str, link: str | None, label: str) -> str:
    """A drawn thing as a link to its choices when it has some; ``label`` holds the words the reader sees on it."""
    if not link:
        return part
    return f'<a href={quoteattr(link)} aria-label={quoteattr(label)}>{part}</a>'


def pill(x: float, y: float, name: str, edge: str, thick: bool, link: bool, fill: str | None = None) -> str:
    """A place's name in a rounded box centred at (x, y): its edge in the controller's colour, thick when held."""
    w = CHAR * len(name) + 14
    back = fill or ("#fffdf5" if link else "#f7f4ec")
    return (f'<rect x="{x - w / 2:.0f}" y="{y - 11}" width="{w:.0f}" height="22" rx="11" fill="{back}" '
            f'stroke="{edge}" stroke-width="{3 if thick else 1.5}"/>'
            + text(x, y + 4.5, name, NAME_SIZE, "bold", "#1f4d3a", underline=link))


def svg(parts: list[str], height: float, label: str, linked_any: bool, max_width: int = 460) -> str:
    """The drawing: a group of links when it has any (a picture would hide them), else one picture."""
    role = "group" if linked_any else "img"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="100%" '
            f'role="{role}" aria-label={quoteattr(label)} class="map" '
            f'style="max-width:{max_width}px;height:auto;font-family:Georgia,\'DejaVu Serif\',serif;">'
            + "".join(parts) + "</svg>")


def title(words: str) -> str:
    return f"<title>{escape(words)}</title>"


def links_of(links: Mapping[str, str] | None, thing: Mapping[str, Any]) -> str | None:
    return (links or {}).get(str(thing.get("key", "")))
