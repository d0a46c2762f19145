"""The LLM-mode tier: a second, private Hindsight server whose language model is a local fake.

The shared server at 127.0.0.1:8888 runs without a model (chunks only). Customers run Hindsight with one, where
it extracts facts, consolidates observations and reflects. This tier starts its own Hindsight (own ports, own
data directory under /tmp) with provider `openai` pointed at tests/fakes/llm.py on loopback, so those code paths
run for real. Every test here is marked `llm_mode`; `-m "not llm_mode"` leaves the tier out.
"""

import asyncio
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from memory import MemoryClient
from memory import local as local_memory
from tests.fakes.llm import FakeLLM

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.llm_mode)


def llm_server_config(llm_base_url: str) -> local_memory.LocalServerConfig:
    """The private LLM-mode server: ports and data directory overridable, never the shared server's."""
    return local_memory.LocalServerConfig(
        data_dir=Path(os.environ.get("SMRITI_LLM_TEST_HOME", "/tmp/smriti-llm-tests")),
        api_port=int(os.environ.get("SMRITI_LLM_TEST_PORT", "8898")),
        pg_port=int(os.environ.get("SMRITI_LLM_TEST_PG_PORT", "55443")),
        llm_provider="openai",
        llm_base_url=llm_base_url,
        llm_api_key="fake-key",
        llm_model="fake-model",
    )


@pytest.fixture(scope="session")
def fake_llm() -> Iterator[FakeLLM]:
    fake = FakeLLM()
    yield fake
    fake.close()


@pytest.fixture(scope="session")
def llm_hindsight_url(fake_llm: FakeLLM) -> Iterator[str]:
    """Start the private server for this session (after stopping one a crashed run may have left)."""
    config = llm_server_config(fake_llm.base_url)
    if config.api_port == 8888:
        raise RuntimeError("the LLM-mode tier must not use the shared server's port")
    local_memory.stop(config)
    local_memory.start(config)
    yield config.url
    local_memory.stop(config)


@pytest.fixture(scope="session")
async def llm_memory(llm_hindsight_url: str) -> AsyncIterator[MemoryClient]:
    client = MemoryClient(llm_hindsight_url)
    yield client
    await client.aclose()


@pytest.fixture(autouse=True)
def no_model_delay(fake_llm: FakeLLM) -> Iterator[None]:
    yield
    fake_llm.delay_s = 0.0


async def eventually(check: Callable[[], Awaitable[bool]], timeout_s: float = 60.0, what: str = "condition") -> None:
    """Poll `check` until it holds; fail with `what` after the timeout."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if await check():
            return
        await asyncio.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


async def settled(memory: MemoryClient, bank: str, timeout_s: float = 90.0) -> None:
    """Wait until the bank has no pending operations (retains, consolidation, mental model refreshes)."""

    async def idle() -> bool:
        return not await memory.pending_operations(bank)

    await eventually(idle, timeout_s, f"{bank} to settle")
