"""Recall latency as a bank grows from 100 to 10,000 memories, measured in one run.

    .venv/bin/python -m bench.recall_growth [--sizes 100,1000,10000] [--recalls 100] [--url URL]

Fills one fresh bank in batches up to each size, then times `recalls` tag-filtered recalls at that size.
The ratio column is each size's p50 over the smallest size's p50. The bank is deleted afterwards.
"""

import argparse
import sys
import asyncio
import time
import uuid

from pydantic import BaseModel

from bench.memory_latency import CROPS, VILLAGES, item, percentile
from bench.stats import ms_to_await
from memory import BankProfile, MemoryClient, RecallRequest


class SizeRow(BaseModel):
    size: int
    p50_ms: float
    p95_ms: float
    elapsed_s: float


async def _recall_ms(memory: MemoryClient, bank: str, i: int) -> float:
    crop, village = CROPS[i % len(CROPS)], VILLAGES[i % len(VILLAGES)]
    request = RecallRequest(query=f"{crop} leaf spots in {village}: what was advised?",
                            tags=[f"village:{village}", f"crop:{crop}"], tags_match="all_strict")
    return await ms_to_await(memory.recall(bank, request))


async def measure(url: str, sizes: list[int], recalls: int) -> list[SizeRow]:
    """Grow one fresh bank through `sizes`, timing `recalls` recalls at each."""
    bank = f"bench-{uuid.uuid4().hex[:8]}-agri"
    rows: list[SizeRow] = []
    async with MemoryClient(url, write_timeout_s=600) as memory:
        await memory.ensure_bank(BankProfile(bank_id=bank, mission="Benchmark bank."))
        try:
            stored = 0
            fill_started = time.perf_counter()
            for size in sizes:
                while stored < size:
                    batch = [item(i) for i in range(stored, min(size, stored + 200))]
                    await memory.retain(bank, batch)
                    stored += len(batch)
                timings = [await _recall_ms(memory, bank, i) for i in range(recalls)]
                rows.append(SizeRow(size=size, p50_ms=percentile(timings, 0.5), p95_ms=percentile(timings, 0.95),
                                    elapsed_s=time.perf_counter() - fill_started))
        finally:
            await memory.delete_bank(bank)
    return rows


def render(rows: list[SizeRow], recalls: int, heading: str = "Recall latency by bank size") -> list[str]:
    base = rows[0].p50_ms
    out = [f"{heading} ({recalls} tag-filtered recalls per size, one bank growing)",
           f"  {'memories':>9} {'p50 ms':>8} {'p95 ms':>8} {'p50 / first':>12} {'elapsed s':>10}"]
    out += [f"  {r.size:>9} {r.p50_ms:>8.1f} {r.p95_ms:>8.1f} {r.p50_ms / base:>11.2f}x {r.elapsed_s:>10.0f}"
            for r in rows]
    return out


async def run(url: str, sizes: list[int], recalls: int) -> list[str]:
    """Run the section; return its printed lines."""
    return render(await measure(url, sizes, recalls), recalls, "3. Recall p50/p95 as a bank grows")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--recalls", type=int, default=100)
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--smoke", action="store_true", help="10 and 30 memories, 3 recalls (the test suite's run)")
    args = parser.parse_args(argv)
    sizes, recalls = ([10, 30], 3) if args.smoke else ([int(s) for s in args.sizes.split(",")], args.recalls)
    print("\n".join(asyncio.run(run(args.url, sizes, recalls))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
