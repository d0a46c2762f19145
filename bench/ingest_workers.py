"""Section 4: backlog ingest throughput with 1 worker against 5, on the legal seed backlog.

The backlog is rendered once (render_backlog); each run ingests it through the pack's own ingest_dir into a
fresh tenant of a fresh App with use_cache=False, so every image is OCR'd for real. Runs alternate 1, 5, 5, 1
... so drifting server load falls on both sides evenly.
"""

import shutil
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel

from bench.harness import bench_app
from bench.stats import p50, ratio
from handlers.legal.backlog import load_backlog, render_backlog
from handlers.legal.pack import LegalPack

TENANT = "benchbacklog"


class IngestRun(BaseModel):
    workers: int
    uploads: int
    stored: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.uploads / self.seconds


async def ingest_once(url: str, directory: Path, workers: int) -> IngestRun:
    async with bench_app(url, f"ingest{workers}", ["legal"], [TENANT]) as app:
        pack = app.packs["legal"]
        assert isinstance(pack, LegalPack)
        started = time.perf_counter()
        report = await pack.ingest_dir(TENANT, directory, workers=workers, yes=True, use_cache=False)
        seconds = time.perf_counter() - started
    if report.errors:
        raise RuntimeError(f"{len(report.errors)} uploads failed: {report.errors[0].error}")
    return IngestRun(workers=workers, uploads=len(report.results), stored=len(report.stored_ids), seconds=seconds)


async def run(url: str, pairs: int, uploads: int | None = None) -> list[str]:
    """Run the section (`pairs` runs of each worker count, on the first `uploads` of the backlog or all of it);
    return its printed lines."""
    home = Path(tempfile.mkdtemp(prefix="smriti-backlog-"))
    try:
        directory = home / "backlog"
        backlog = load_backlog()
        render_backlog(directory, backlog.model_copy(update={"uploads": backlog.uploads[:uploads]}))
        runs: list[IngestRun] = []
        for pair in range(pairs):
            for workers in ((1, 5) if pair % 2 == 0 else (5, 1)):
                runs.append(await ingest_once(url, directory, workers))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    one = [r for r in runs if r.workers == 1]
    five = [r for r in runs if r.workers == 5]
    out = [f"4. Backlog ingest, 1 vs 5 workers (legal seed backlog: {one[0].uploads} uploads, OCR for real, "
           f"fresh tenant each; {pairs} run(s) each, alternating)"]
    for label, group in (("1 worker", one), ("5 workers", five)):
        each = ", ".join(f"{r.seconds:.1f}" for r in group)
        out.append(f"  {label:<10} p50 {p50([r.seconds for r in group]):6.1f} s  "
                   f"{p50([r.per_second for r in group]):5.2f} uploads/s  (runs: {each} s; "
                   f"{group[0].stored} hearings stored)")
    out.append(f"  throughput 5 workers / 1 worker (p50): "
               f"{ratio(p50([r.per_second for r in five]), p50([r.per_second for r in one]))}")
    return out
