"""Retain and recall latency against a running Hindsight, through Smriti's memory layer.

    .venv/bin/python bench/memory_latency.py [--calls 200] [--url http://127.0.0.1:8888]

Retains `calls` single-item batches (one visit narrative each) into a fresh bank, then runs `calls` recalls
with a tag filter, and prints p50/p95/max for each, measured in the same run. The bank is deleted afterwards.
"""

import argparse
import sys
import asyncio
import statistics
import time
import uuid
from datetime import date, datetime, timedelta

from memory import BankProfile, MemoryClient, MemoryItem, RecallRequest
from memory.asof import IST

CROPS = ("chilli", "cotton", "paddy", "maize", "tomato")
VILLAGES = ("chevella", "moinabad", "shankarpally", "vikarabad")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def summary(name: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (f"{name:<8} n={len(ms):<4} p50={percentile(ms, 0.5):7.1f} ms  p95={percentile(ms, 0.95):7.1f} ms  "
            f"max={max(ms):7.1f} ms  mean={statistics.mean(ms):7.1f} ms")


def item(i: int) -> MemoryItem:
    crop, village = CROPS[i % len(CROPS)], VILLAGES[i % len(VILLAGES)]
    day = date(2026, 4, 1) + timedelta(days=i % 180)
    return MemoryItem(
        content=f"Field visit on {day.isoformat()} to farmer F{i:04d} in {village.title()}: {crop} showed leaf spots; "
                f"advised a copper fungicide; the farmer asked about price.",
        event_time=datetime(day.year, day.month, day.day, 11, tzinfo=IST),
        context="field visit", document_id=f"visit:B{i:05d}",
        tags=[f"farmer:f{i:04d}", f"village:{village}", f"crop:{crop}", "kind:visit"],
    )


async def measure(url: str, calls: int) -> None:
    bank = f"bench-{uuid.uuid4().hex[:8]}-agri"
    async with MemoryClient(url) as memory:
        await memory.ensure_bank(BankProfile(bank_id=bank, mission="Benchmark bank."))
        retains: list[float] = []
        for i in range(calls):
            started = time.perf_counter()
            await memory.retain(bank, [item(i)])
            retains.append(time.perf_counter() - started)
        recalls: list[float] = []
        for i in range(calls):
            crop, village = CROPS[i % len(CROPS)], VILLAGES[i % len(VILLAGES)]
            request = RecallRequest(query=f"{crop} problems in {village}: what advice worked?",
                                    tags=[f"village:{village}", f"crop:{crop}"], tags_match="all_strict")
            started = time.perf_counter()
            await memory.recall(bank, request)
            recalls.append(time.perf_counter() - started)
        await memory.delete_bank(bank)
    print(f"Hindsight at {url}, {calls} calls each, one bank")
    print(summary("retain", retains))
    print(summary("recall", recalls))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--smoke", action="store_true", help="5 calls each (the test suite's run)")
    args = parser.parse_args(argv)
    asyncio.run(measure(args.url, 5 if args.smoke else args.calls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
