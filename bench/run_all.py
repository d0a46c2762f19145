"""Every benchmark of issue 7, side by side in one run, against a running Hindsight.

    .venv/bin/python -m bench.run_all [--quick | --smoke] [--only overhead,brief,...] [--url URL]

Each section measures its own comparison within this one run (the server is shared and noisy, so only the
ratios are meant to be compared across runs). Every bank is fresh, uniquely named, and deleted afterwards.
"""

import argparse
import asyncio
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import datetime

from pydantic import BaseModel

from bench import brief_parallel, ingest_workers, overhead, recall_growth, scale_agri, scale_ap, scale_legal, season_agri
from memory import MemoryClient

SECTIONS = ("overhead", "brief", "growth", "ingest", "season", "scale")


class Plan(BaseModel):
    rounds: int
    repetitions: int
    sizes: list[int]
    recalls: int
    ingest_pairs: int
    ingest_uploads: int | None = None
    """None: the whole seed backlog."""
    season_notes: int = 210
    season_farmers: int = 40
    scale_sizes: list[int] = [100, 1000, 10000]
    """Memories each pack's scale benchmark grows its bank to, asking its questions at each size."""
    scale_questions: int = 12


FULL = Plan(rounds=30, repetitions=30, sizes=[100, 1000, 10000], recalls=100, ingest_pairs=2)
QUICK = Plan(rounds=10, repetitions=15, sizes=[100, 1000], recalls=50, ingest_pairs=1, scale_sizes=[100, 1000],
             scale_questions=8)
SMOKE = Plan(rounds=2, repetitions=2, sizes=[10, 30], recalls=4, ingest_pairs=1, ingest_uploads=3, season_notes=8,
             season_farmers=4, scale_sizes=[30, 60], scale_questions=2)
"""The test suite's run: every section to the end on tiny sizes, so a change that breaks one fails CI."""


def sections(url: str, plan: Plan) -> dict[str, Callable[[], Awaitable[list[str]]]]:
    # Slowest last, so a failure in it still leaves the quick figures printed.
    return {
        "overhead": lambda: overhead.run(url, plan.rounds),
        "brief": lambda: brief_parallel.run(url, plan.repetitions),
        "ingest": lambda: ingest_workers.run(url, plan.ingest_pairs, plan.ingest_uploads),
        "season": lambda: season_agri.run(url, plan.season_notes, plan.season_farmers, False),
        "growth": lambda: recall_growth.run(url, plan.sizes, plan.recalls),
        "scale": lambda: scale(url, plan),
    }


async def scale(url: str, plan: Plan) -> list[str]:
    """Each pack's scale benchmark in turn: its main question and its exact ones, small and large, one run."""
    lines: list[str] = []
    for bench in (scale_agri, scale_legal, scale_ap):
        lines += await bench.run(url, plan.scale_sizes, plan.scale_questions)
    return lines


async def run(url: str, plan: Plan, only: list[str]) -> int:
    async with MemoryClient(url) as memory:
        if not await memory.health():
            print(f"Hindsight does not answer at {url}", file=sys.stderr)
            return 2
    print(f"Smriti benchmarks, {datetime.now():%Y-%m-%d %H:%M}, Hindsight at {url}; {plan.model_dump()}", flush=True)
    for name, section in sections(url, plan).items():
        if name not in only:
            continue
        started = time.perf_counter()
        lines = await section()
        lines.append(f"  ({name}: {time.perf_counter() - started:.0f} s)")
        print("\n" + "\n".join(lines), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="fewer repetitions; the bank grows only to 1,000")
    size.add_argument("--smoke", action="store_true", help="tiny sizes, seconds per section (the test suite's run)")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated subset of {', '.join(SECTIONS)}")
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(chosen) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s): {', '.join(unknown)}")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    plan = SMOKE if args.smoke else QUICK if args.quick else FULL
    return asyncio.run(run(args.url, plan, chosen))


if __name__ == "__main__":
    sys.exit(main())
