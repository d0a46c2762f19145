"""Recall latency as a bank grows from 100 to 10,000 memories, measured in one run.

    .venv/bin/python bench/recall_growth.py [--sizes 100,1000,10000] [--recalls 100] [--url URL]

Fills one fresh bank in batches up to each size, then times `recalls` tag-filtered recalls at that size.
The ratio column is each size's p50 over the smallest size's p50.
"""

import argparse
import asyncio
import time
import uuid

from bench.memory_latency import CROPS, VILLAGES, item, percentile
from memory import BankProfile, MemoryClient, RecallRequest


async def main(url: str, sizes: list[int], recalls: int) -> None:
    bank = f"bench-{uuid.uuid4().hex[:8]}-agri"
    rows: list[tuple[int, float, float, float]] = []
    async with MemoryClient(url, write_timeout_s=600) as memory:
        await memory.ensure_bank(BankProfile(bank_id=bank, mission="Benchmark bank."))
        stored = 0
        fill_started = time.perf_counter()
        for size in sizes:
            while stored < size:
                batch = [item(i) for i in range(stored, min(size, stored + 200))]
                await memory.retain(bank, batch)
                stored += len(batch)
            timings = []
            for i in range(recalls):
                crop, village = CROPS[i % len(CROPS)], VILLAGES[i % len(VILLAGES)]
                request = RecallRequest(query=f"{crop} leaf spots in {village}: what was advised?",
                                        tags=[f"village:{village}", f"crop:{crop}"], tags_match="all_strict")
                started = time.perf_counter()
                await memory.recall(bank, request)
                timings.append((time.perf_counter() - started) * 1000)
            rows.append((size, percentile(timings, 0.5), percentile(timings, 0.95),
                         time.perf_counter() - fill_started))
        await memory.delete_bank(bank)
    base = rows[0][1]
    print(f"Recall latency by bank size ({recalls} recalls per size, Hindsight at {url})")
    print(f"{'memories':>9} {'p50 ms':>8} {'p95 ms':>8} {'p50 / first':>12} {'elapsed s':>10}")
    for size, p50, p95, elapsed in rows:
        print(f"{size:>9} {p50:>8.1f} {p95:>8.1f} {p50 / base:>12.2f} {elapsed:>10.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--recalls", type=int, default=100)
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    args = parser.parse_args()
    asyncio.run(main(args.url, [int(s) for s in args.sizes.split(",")], args.recalls))
