"""Section 2: the agri brief (its recalls run in parallel) against the slowest of its recalls run alone.

The seeds go into a fresh tenant through the pack's own load_seeds. The brief's own recall requests are
captured from one real build_brief (so they cannot drift from handlers/agri/brief.py), then each repetition
times the whole brief and each captured recall alone, back to back, so all three see the same server load.

Two more figures explain the result. The same recalls without their period (so the server reads dates out of
the query text, which it serialises across requests) show what giving the period buys. And the server's CPU
time during the recalls run alone (from /proc, when the server is local) shows how much of the machine one
recall keeps busy: two at once can only overlap in whatever is left.
"""

import asyncio
import os
from dataclasses import dataclass, field
from datetime import date

from bench.harness import bench_app
from bench.server_cpu import server_cpu_seconds
from bench.stats import line, ms_to_await, p50, p95, ratio
from handlers.agri.brief import build_brief, gather
from handlers.agri.pack import AgriPack
from memory import MemoryClient, Recalled, RecallRequest

TENANT = "benchseed"
FARMER = "F002"
"""Venkatesh Yadav: one crop, so his brief makes exactly two recalls (his history; village and crop)."""
AS_OF = date(2026, 10, 31)
TARGET = 1.2


class RecordingMemory(MemoryClient):
    """A MemoryClient that remembers the recall requests it is given (to replay them one by one)."""

    def __init__(self, base_url: str) -> None:
        super().__init__(base_url)
        self.requests: list[RecallRequest] = []

    async def recall(self, bank_id: str, request: RecallRequest) -> list[Recalled]:
        self.requests.append(request)
        return await super().recall(bank_id, request)


@dataclass
class Timings:
    """Per repetition, in ms: the brief, its parallel recalls (gather), and each recall alone."""

    seeded: int
    briefs: list[float] = field(default_factory=list)
    gathers: list[float] = field(default_factory=list)
    gathers_without_period: list[float] = field(default_factory=list)
    alone: list[list[float]] = field(default_factory=list)
    server_cpu_ms: list[float] = field(default_factory=list)
    """Per repetition: the server's CPU time while the recalls ran alone, one after the other."""

    def slowest_alone(self, rep: int) -> float:
        return max(samples[rep] for samples in self.alone)

    def per_rep(self, values: list[float]) -> list[float]:
        return [v / self.slowest_alone(rep) for rep, v in enumerate(values)]


async def measure(url: str, repetitions: int) -> Timings:
    async with bench_app(url, "brief", ["agri"], [TENANT]) as app:
        pack = app.packs["agri"]
        assert isinstance(pack, AgriPack)
        seeded = await pack.load_seeds(TENANT)
        farmer, memory, bank = pack.book_for(TENANT).farmers[FARMER], app.services.memory, seeded.bank_id
        async with RecordingMemory(url) as recorder:
            await build_brief(recorder, bank, pack.book_for(TENANT), farmer, AS_OF, memory_on=True)
            requests = list(recorder.requests)
        without_period = [r.model_copy(update={"period": None}) for r in requests]
        timings = Timings(seeded=seeded.retained, alone=[[] for _ in requests])
        for rep in range(repetitions + 1):
            brief_ms = await ms_to_await(build_brief(memory, bank, pack.book_for(TENANT), farmer, AS_OF, memory_on=True))
            gather_ms = await ms_to_await(gather(memory, bank, pack.book_for(TENANT), farmer, AS_OF))
            without_period_ms = await ms_to_await(asyncio.gather(*(memory.recall(bank, r) for r in without_period)))
            order = list(range(len(requests)))[::1 if rep % 2 else -1]
            cpu_before = server_cpu_seconds()
            singles = {i: await ms_to_await(memory.recall(bank, requests[i])) for i in order}
            cpu_after = server_cpu_seconds()
            if rep == 0:
                continue  # warm-up
            timings.briefs.append(brief_ms)
            timings.gathers.append(gather_ms)
            timings.gathers_without_period.append(without_period_ms)
            if cpu_before is not None and cpu_after is not None:
                timings.server_cpu_ms.append((cpu_after - cpu_before) * 1000)
            for i, ms in singles.items():
                timings.alone[i].append(ms)
    return timings


def report(t: Timings, repetitions: int) -> list[str]:
    ratios = t.per_rep(t.briefs)
    sequential = [sum(samples[rep] for samples in t.alone) for rep in range(len(t.briefs))]
    verdict = "within" if p50(ratios) <= TARGET else "OVER"
    out = [f"2. Brief with its {len(t.alone)} recalls in parallel vs the slowest single recall "
           f"({repetitions} repetitions, seeded bank of {t.seeded} memories, farmer {FARMER})"]
    out.append(line("brief (build_brief)", t.briefs))
    out.append(line("its recalls (gather)", t.gathers))
    names = ["recall alone: own"] + [f"recall alone: similar{i}" for i in range(1, len(t.alone))]
    out += [line(name, samples) for name, samples in zip(names, t.alone)]
    out.append(line("recalls one by one (sum)", sequential))
    out.append(line("its recalls, no period", t.gathers_without_period))
    out.append(f"  giving the period (server skips reading dates in the query): gather p50 "
               f"{p50(t.gathers):.1f} ms vs {p50(t.gathers_without_period):.1f} ms without, "
               f"{ratio(p50(t.gathers_without_period), p50(t.gathers))} faster")
    if t.server_cpu_ms:
        busy = [cpu / wall for cpu, wall in zip(t.server_cpu_ms, sequential)]
        out.append(f"  server CPU while the recalls ran alone: p50 {p50(t.server_cpu_ms):.1f} ms CPU per "
                   f"{p50(sequential):.1f} ms wall = {p50(busy):.2f} cores busy for one recall; "
                   f"two at once want {2 * p50(busy):.2f} of this machine's {os.cpu_count()} cores")
    out.append(f"  gather / max(single recalls), p50: {p50(t.per_rep(t.gathers)):.2f}x; composing and guardrails "
               f"add p50 {p50(t.briefs) - p50(t.gathers):.1f} ms; brief / sequential sum, p50: "
               f"{p50([b / s for b, s in zip(t.briefs, sequential)]):.2f}x")
    out.append(f"  brief / max(single recalls), p50 of per-repetition ratios: {p50(ratios):.2f}x "
               f"(p95 {p95(ratios):.2f}x); p50 brief / slowest p50 recall: "
               f"{ratio(p50(t.briefs), max(p50(s) for s in t.alone))}  -> {verdict} the {TARGET}x target")
    return out


async def run(url: str, repetitions: int) -> list[str]:
    """Run the section; return its printed lines."""
    return report(await measure(url, repetitions), repetitions)
