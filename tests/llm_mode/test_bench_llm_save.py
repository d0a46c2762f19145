"""bench.llm_save's measurement, smoke-run against this tier's private LLM-mode server (one save each way), so a
change that breaks the benchmark fails here."""

import pytest

from bench import llm_save


@pytest.mark.own_registers
async def test_llm_save_benchmark_measures_one_save_each_way(llm_hindsight_url: str) -> None:
    lines = await llm_save.measure(llm_hindsight_url, saves=1, delay=0.0)
    assert any(line.startswith("synchronous retain") and "n=1" in line for line in lines)
    assert any(line.startswith("asynchronous retain") and "n=1" in line for line in lines)
