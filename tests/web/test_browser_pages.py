"""The play page, the preview, the receipt and the replay in headless Chromium, at 375 and 1280 pixels wide.

A seeded three-player game of A Study in Emerald is played some moves through the service; then
the player to move opens their page, unfolds a group of choices, picks one, previews it and
confirms it. At each page and each width the test takes a screenshot (into the test's temporary
folder), checks that the page does not scroll sideways, and that every piece of text on it is
at least 4.5:1 against its background (WCAG AA), as Chromium computed the colours.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from selenium.webdriver.common.by import By

from events.handling import Cause
from pbem.service import Player, Service
from browser import CHROMEDRIVER, CHROMIUM, MISSING, Browser, serve

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Ann", "Ben", "Cy")]
WIDTHS = (375, 1280)
BOARD = "#f7f4ec"  # the SVG's city cards; its other text stands on a white section

# Each visible text node's element: its computed colour and the first opaque background behind it.
TEXT_COLOURS = """
const out = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const el = node.parentElement;
  if (!node.textContent.trim() || !el || el.closest('svg') || !el.getClientRects().length) continue;
  let bg = null;
  for (let at = el; at && !bg; at = at.parentElement) {
    const c = getComputedStyle(at).backgroundColor;
    if (c && !/rgba\\(.*, 0\\)$/.test(c) && c !== 'transparent') bg = c;
  }
  out.push([getComputedStyle(el).color, bg || 'rgb(255, 255, 255)', el.tagName, node.textContent.trim().slice(0, 40)]);
}
return out;
"""
SVG_FILLS = "return Array.from(document.querySelectorAll('svg text')).map(t => [t.getAttribute('fill'), t.textContent]);"


def rgb(colour: str) -> tuple[float, float, float]:
    if colour.startswith("#"):
        h = colour[1:] if len(colour) == 7 else "".join(c * 2 for c in colour[1:])
        return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    r, g, b = (float(x) for x in re.findall(r"[\d.]+", colour)[:3])
    return (r, g, b)


def luminance(colour: str) -> float:
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two opaque colours."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_wcag_ratio_is_computed_as_the_standard_says() -> None:
    assert round(contrast("#000", "#fff"), 2) == 21.0 and round(contrast("#777", "#fff"), 2) == 4.48
    assert contrast("rgb(85, 85, 85)", "rgba(255, 255, 255, 1)") == contrast("#555", "#fff")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    yield from serve(tmp_path)


def check_page(browser: Browser, shots: Path, name: str) -> dict[int, str]:
    """At each width: a full-height screenshot, no sideways scrolling (of the page or of a section in it), every text
    colour at least 4.5:1."""
    texts = {}
    for width in WIDTHS:
        browser.resize(width, 900)
        inner = browser.run("return window.innerWidth;")
        scroll = browser.run("return document.documentElement.scrollWidth;")
        assert scroll <= inner, f"{name} scrolls sideways at {width}px: {scroll} > {inner}"
        boxed = browser.run("return [...document.querySelectorAll('section, figure, .scroll')]"
                            ".filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent.trim().slice(0, 40));")
        assert boxed == [], f"{name} at {width}px: sections that scroll sideways, cutting {boxed}"
        height = browser.run("return document.documentElement.scrollHeight;")
        browser.resize(width, min(int(height) + 140, 9000))
        browser.screenshot(shots / f"{name}-{width}.png")
        low = [(round(contrast(fg, bg), 2), fg, bg, tag, words) for fg, bg, tag, words in browser.run(TEXT_COLOURS)
               if contrast(fg, bg) < 4.5]
        assert not low, f"{name} at {width}px: text below 4.5:1: {low[:8]}"
        low_svg = [(fill, words) for fill, words in browser.run(SVG_FILLS)
                   if fill and min(contrast(fill, BOARD), contrast(fill, "#fff")) < 4.5]
        assert not low_svg, f"{name}: board text below 4.5:1: {low_svg[:8]}"
        texts[width] = browser.text()
    return texts


def test_the_pages_of_a_move_read_at_375_and_1280_pixels(server: tuple[str, Any], browser: Browser,
                                                           tmp_path: Path) -> None:
    base, app = server
    shots = Path(os.environ.get("PBEM_SCREENSHOTS", tmp_path / "screenshots"))
    shots.mkdir(exist_ok=True)
    service = Service.open(app.config["PBEM_SETTINGS"])
    try:
        game_id = service.create_game("emerald", PLAYERS, seed="board").after.game_id
        pick = random.Random(4)
        for _ in range(40):
            state = service.load(game_id)
            rules = service.kernel.rules(state)
            seat = sorted(rules.prompts(state.game))[0]
            service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("cli"))
        seat = int(service.show(game_id)["waiting_for"][0]["seat"])
        links = app.extensions["pbem.links"]
        token = links.play(game_id, seat, service.store.last(game_id)[0])

        browser.go(f"{base}/play/{token}")
        page = check_page(browser, shots, "play")[375]
        assert "it is your move" in page and "Since your last turn" in page
        assert "Place cubes" in page and "Discard cards" in page and "Show the 31 choices" in page

        # a city of the board is clicked (its name on its card): its choices come first, the rest folded
        browser.resize(1280, 900)
        browser.click(browser.find(".emerald-board ul.places h4 a"))
        focused = check_page(browser, shots, "focus")[375]
        assert "Your choices with" in focused and "All your choices" in focused
        browser.go(f"{base}/play/{token}")

        # a folded group opens like a player opens it; its first choice is previewed, then confirmed
        browser.resize(1280, 900)
        group = browser.xpath_all("//fieldset[legend[starts-with(., 'Place cubes')]]")[0]
        browser.click(group.find_element(By.CSS_SELECTOR, "summary"))
        radio = browser.xpath_all("//fieldset[legend[starts-with(., 'Place cubes')]]//input[@name='choice']")[0]
        command = browser.attr(radio, "value")
        browser.click(radio)
        browser.click(browser.find("form[action$='/preview'] button[type=submit]"))
        browser.wait_text("Preview:")
        preview = check_page(browser, shots, "preview")[375]
        assert f"If you confirm, this is played: Place cubes — {command.split(' using')[0].removeprefix('place ')}" in preview

        browser.resize(1280, 900)
        browser.click(browser.find("form button[type=submit]"))
        browser.wait_text("Done:")
        done = check_page(browser, shots, "done")[375]
        assert "What happened" in done and "Receipt" in done and "verify the whole game" in done
        assert "plays" in done  # the events in words, as the log says them

        browser.go(f"{base}/play/{token}/replay")
        check_page(browser, shots, "replay")
    finally:
        service.close()
    for name in ("play", "focus", "preview", "done", "replay"):
        for width in WIDTHS:
            assert (shots / f"{name}-{width}.png").stat().st_size > 5_000
