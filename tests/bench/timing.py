"""What the benchmark scripts share: one timed call, with the garbage collector held off."""

from __future__ import annotations

import gc
import time
from typing import Any, Callable


def timed(call: Callable[[], Any]) -> float:
    """Seconds one call takes, the collector off so that its pauses do not land in one side of a comparison."""
    gc.disable()
    try:
        start = time.perf_counter()
        call()
        return time.perf_counter() - start
    finally:
        gc.enable()
