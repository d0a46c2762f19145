"""Recall latency as a bank grows from 100 to 10,000 memories, measured in one run.

    .venv/bin/python -m bench.recall_growth [--sizes 100,1000,10000] [--recalls 100] [--url URL]

Fills one fresh bank in batches up to each size, then times `recalls` tag-filtered recalls at that size,
half as the bot's banks are set up (no link-graph arm) and half with the graph arm switched back on (the
server's default, and Smriti's before issue 30), in alternating blocks on the same bank, so the two columns
see the same load. The ratio columns are each size's figure over the smallest size's. The bank is deleted
afterwards.
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
    graph_p50_ms: float
    graph_p95_ms: float
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
    profile = BankProfile(bank_id=bank, mission="Benchmark bank.")
    async with MemoryClient(url, write_timeout_s=600) as memory:
        await memory.ensure_bank(profile)
        try:
            stored = 0
            fill_started = time.perf_counter()
            for size in sizes:
                while stored < size:
                    batch = [item(i) for i in range(stored, min(size, stored + 200))]
                    await memory.retain(bank, batch)
                    stored += len(batch)
                timings: dict[bool, list[float]] = {False: [], True: []}
                blocks = max(1, recalls // 4)
                for block, graph in enumerate((False, True, True, False)):
                    await memory.ensure_bank(profile.model_copy(update={"graph_retrieval": graph}))
                    first = block * blocks
                    timings[graph] += [await _recall_ms(memory, bank, i) for i in range(first, first + blocks)]
                await memory.ensure_bank(profile)
                rows.append(SizeRow(size=size, p50_ms=percentile(timings[False], 0.5),
                                    p95_ms=percentile(timings[False], 0.95),
                                    graph_p50_ms=percentile(timings[True], 0.5),
                                    graph_p95_ms=percentile(timings[True], 0.95),
                                    elapsed_s=time.perf_counter() - fill_started))
        finally:
            await memory.delete_bank(bank)
    return rows


def render(rows: list[SizeRow], recalls: int, heading: str = "Recall latency by bank size") -> list[str]:
    first = rows[0]
    out = [f"{heading} ({recalls} tag-filtered recalls per size, one bank growing; half without the graph "
           "arm as the bot runs, half with it, alternating)",
           f"  {'memories':>9} {'p50/p95 ms':>15} {'p50, p95 / first':>17}   {'graph arm on: p50/p95 ms':>25} "
           f"{'p50, p95 / first':>17} {'elapsed s':>10}"]
    out += [f"  {r.size:>9} {r.p50_ms:>7.1f}/{r.p95_ms:<7.1f} {r.p50_ms / first.p50_ms:>7.2f}x {r.p95_ms / first.p95_ms:>6.2f}x"
            f"   {r.graph_p50_ms:>16.1f}/{r.graph_p95_ms:<8.1f} {r.graph_p50_ms / first.graph_p50_ms:>7.2f}x "
            f"{r.graph_p95_ms / first.graph_p95_ms:>6.2f}x {r.elapsed_s:>10.0f}" for r in rows]
    return out


async def run(url: str, sizes: list[int], recalls: int) -> list[str]:
    """Run the section; return its printed lines."""
    return render(await measure(url, sizes, recalls), recalls, "3. Recall p50/p95 as a bank grows")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--recalls", type=int, default=100)
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--smoke", action="store_true", help="10 and 30 memories, 4 recalls (the test suite's run)")
    args = parser.parse_args(argv)
    sizes, recalls = ([10, 30], 4) if args.smoke else ([int(s) for s in args.sizes.split(",")], args.recalls)
    print("\n".join(asyncio.run(run(args.url, sizes, recalls))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
