"""London drawn small: the twelve areas on both banks of the Thames, which border which, who has agents,
buildings and trouble where, readable on a 375-pixel phone (``pbem.games.drawing``); the areas in words beside it
are the page's (``templates/web/games/nanty.html``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.drawing import linked, pill, svg, title

HEIGHT = 246
# Each area's centre on the drawing (340 units wide): the north bank above the river, the south below.
SPOTS = {"west_end": (62, 24), "holborn": (170, 24), "highbury": (280, 24), "chelsea": (42, 76),
         "westminster": (140, 76), "city": (246, 72), "east_end": (290, 112), "strand": (188, 114),
         "battersea": (56, 186), "lambeth": (140, 222), "southwark": (226, 186), "bermondsey": (278, 222)}
RIVER = ("M0,146 C60,136 110,160 170,148 S280,134 340,150 L340,164 C280,150 230,172 170,162 S60,150 0,160 Z")


def draw(scene: Mapping[str, Any], links: Mapping[str, str] | None = None) -> str:
    """The river, the borders between areas, then the areas (an area in ``links`` is a link to its choices)."""
    links = links or {}
    areas = {str(a["id"]): a for a in scene["areas"]}
    spot = {key: SPOTS.get(key, (170, HEIGHT / 2)) for key in areas}
    parts = [f'<path d="{RIVER}" fill="#9cc3dd" stroke="#5d8fb3">{title("The River Thames")}</path>']
    drawn: set[tuple[str, str]] = set()
    for key, a in areas.items():
        for n in a["neighbours"]:
            if n in areas and (n, key) not in drawn:
                drawn.add((key, n))
                (x1, y1), (x2, y2) = spot[key], spot[n]
                parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#c9bfa8" stroke-width="2"/>')
    for key, a in areas.items():
        x, y = spot[key]
        name = str(a["name"])
        link = links.get(str(a.get("key", "")))
        shape = pill(x, y, name, "#b00020" if a["trouble"] else "#1f4d3a", bool(a["trouble"]), bool(link),
                     "#f3e0dc" if a["trouble"] else None)
        marks = [("circle", p["colour"]) for p in a["players"] for _ in range(min(int(p["agents"]), 3))][:7]
        if a["building"]:
            marks.append(("house", a["building"]["colour"]))
        mx = x - 4.5 * len(marks)
        for kind, colour in marks:  # each agent a dot, a building a house, in the owner's colour
            if kind == "circle":
                shape += f'<circle cx="{mx + 3.5:.0f}" cy="{y + 17}" r="3.5" fill="{colour}"/>'
            else:
                shape += (f'<path d="M{mx:.0f},{y + 17} l4.5,-4 l4.5,4 v5 h-9 z" fill="{colour}" '
                          'stroke="#222" stroke-width="0.8"/>')
            mx += 9
        parts.append(linked(f"<g>{title(_area_title(a))}{shape}</g>", link, name))
    label = "London: the areas and which border which, the Thames across. " + str(scene["turn_words"])
    return svg(parts, HEIGHT, label, bool(links))


def _area_title(a: Mapping[str, Any]) -> str:
    said = f"{a['name']}: building £{a['cost']}, die {a['die']}"
    if a["players"]:
        said += "; agents: " + ", ".join(f"{p['name']} {p['agents']}" for p in a["players"])
    if a["building"]:
        said += f"; building of {a['building']['name']}"
    return said + ("; trouble" if a["trouble"] else "")
