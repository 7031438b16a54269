"""How far a long command has got: a bar on a terminal, else a count in lines, both on stderr."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TextIO

import click

Step = Callable[[int, int, str], None]  # (done, total, the step in words)


def terminal() -> TextIO | None:
    """The terminal a bar can be drawn on (stderr, if it is one), or None."""
    return sys.stderr if sys.stderr.isatty() else None


@contextmanager
def meter(label: str, *, lines: int | None = None, words_on_bar: bool = True) -> Iterator[Step]:
    """A ``step(done, total, words)`` to call as work is done: on a terminal it moves a bar labelled ``label`` (the
    step's words beside it); otherwise it prints the words of every step, or of about ``lines`` steps spread over
    the work and the last, so a log shows the count. ``words_on_bar``: the bar shows the words too (not when they
    only repeat its count).
    """
    screen = terminal()
    bar: Any = None
    printed = 0

    def step(done: int, total: int, words: str) -> None:
        nonlocal bar, printed
        if screen is not None:
            if bar is None:
                bar = click.progressbar(length=total, label=label, file=screen, show_pos=True,
                                        item_show_func=(lambda item: item) if words_on_bar else None)
                bar.__enter__()
            bar.update(done - bar.pos, words)
        elif lines is None or done == total or (done - printed) * lines >= total:
            printed = done
            click.echo(words, err=True)

    try:
        yield step
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
