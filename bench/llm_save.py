"""Time from Save to the officer's reply in LLM mode: synchronous retain vs asynchronous retain.

    python -m bench.llm_save [--saves 4] [--delay 1.5]

Starts a private Hindsight (own ports and data directory under /tmp, never the shared server) whose language
model is the fake in tests/fakes/llm.py, answering each prompt after `--delay` seconds to mimic a real model.
The same typed visit notes are saved through the conversation twice: once with retain synchronous (the reply
waits for extraction) and once asynchronous (the reply comes when Hindsight accepted the operation). For the
asynchronous run it also prints how long until Hindsight confirmed every save stored.
"""

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from bench.harness import delete_banks, fresh_prefix, seed_registers
from bot.core.app import App
from bot.core.registry import Registry
from bot.settings import Settings
from bot.core.worker import IntakeWorker
from memory import local as local_memory
from tests.agri.conftest import CAPTURE_TENANT, agri_users, button, say
from tests.fakes.llm import FakeLLM


def server_config(llm_base_url: str) -> local_memory.LocalServerConfig:
    return local_memory.LocalServerConfig(
        data_dir=Path(os.environ.get("SMRITI_LLM_BENCH_HOME", "/tmp/smriti-llm-bench")),
        api_port=int(os.environ.get("SMRITI_LLM_BENCH_PORT", "8899")),
        pg_port=int(os.environ.get("SMRITI_LLM_BENCH_PG_PORT", "55444")),
        llm_provider="openai", llm_base_url=llm_base_url, llm_api_key="fake-key", llm_model="fake-model",
    )


def note(i: int) -> str:
    day = date(2026, 6, 1) + timedelta(days=i)
    return f"Ravinder maize {day.isoformat()}: fall armyworm about {10 + i}%. Coragen accepted."


async def save_times(url: str, asynchronous: bool, saves: int, offset: int) -> tuple[list[float], float | None]:
    """Save `saves` notes; return seconds from Save to reply for each, and (async) seconds until all confirmed."""
    home = Path(tempfile.mkdtemp(prefix="smriti-llm-save-"))
    settings = Settings(data_dir=home, hindsight_url=url, bank_prefix=fresh_prefix("llmsave"),
                        memory_llm=asynchronous)
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    try:
        seed_registers(app.services.database, [CAPTURE_TENANT], ["agri"])
        replies: list[float] = []
        started = time.perf_counter()
        for i in range(saves):
            [card] = await app.conversation.handle(say("ravi", note(offset + i)))
            pressed = time.perf_counter()
            await app.conversation.handle(say("ravi", callback=button(card, "Save")))
            replies.append(time.perf_counter() - pressed)
        confirmed = None
        if asynchronous:
            worker = IntakeWorker(app.conversation)
            while app.services.outbox.pending():
                await worker.run_once()
                await asyncio.sleep(0.2)
            confirmed = time.perf_counter() - started
        return replies, confirmed
    finally:
        await delete_banks(app.services.memory, [app.services.bank_of(CAPTURE_TENANT, "agri")])
        await app.aclose()
        shutil.rmtree(home, ignore_errors=True)


def line(name: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return f"{name:<28} n={len(ms)}  median={statistics.median(ms):8.1f} ms  max={max(ms):8.1f} ms"


async def measure(url: str, saves: int, delay: float) -> list[str]:
    """Save synchronously then asynchronously against a Hindsight whose model answers in `delay` s."""
    sync, _ = await save_times(url, False, saves, 0)
    asyn, confirmed = await save_times(url, True, saves, saves)
    return [
        f"LLM-mode Save -> reply, fake model answering in {delay:.1f} s per prompt",
        line("synchronous retain", sync),
        line("asynchronous retain", asyn),
        f"{'async: all confirmed after':<28} {confirmed * 1000:8.1f} ms for {saves} saves" if confirmed else "",
    ]


async def run(saves: int, delay: float) -> list[str]:
    fake = FakeLLM(delay_s=delay)
    config = server_config(fake.base_url)
    local_memory.stop(config)
    local_memory.start(config)
    try:
        return await measure(config.url, saves, delay)
    finally:
        local_memory.stop(config)
        fake.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=4)
    parser.add_argument("--delay", type=float, default=1.5, help="seconds the fake model takes per answer")
    parser.add_argument("--smoke", action="store_true", help="one save, a quick model (the test suite runs "
                        "measure() against tests/llm_mode's server instead)")
    args = parser.parse_args(argv)
    saves, delay = (1, 0.1) if args.smoke else (args.saves, args.delay)
    for text in asyncio.run(run(saves, delay)):
        if text:
            print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
