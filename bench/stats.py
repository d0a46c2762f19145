"""Percentiles and the one-line summaries every section prints."""

import statistics
import time
from collections.abc import Awaitable

from bench.memory_latency import percentile


def p50(values: list[float]) -> float:
    # The median, not the nearest rank: with few runs (ingest) the nearest rank would just pick the lower one.
    return statistics.median(values)


def p95(values: list[float]) -> float:
    return percentile(values, 0.95)


def line(name: str, ms: list[float], width: int = 24) -> str:
    """Return `name  n  p50  p95  max` for millisecond samples."""
    return (f"  {name:<{width}} n={len(ms):<4} p50={p50(ms):8.1f} ms  p95={p95(ms):8.1f} ms  "
            f"max={max(ms):8.1f} ms")


def ratio(numerator: float, denominator: float) -> str:
    return f"{numerator / denominator:.2f}x" if denominator > 0 else "n/a"


async def ms_to_await(awaitable: Awaitable[object]) -> float:
    """Return how many milliseconds `awaitable` took to finish."""
    started = time.perf_counter()
    await awaitable
    return (time.perf_counter() - started) * 1000
