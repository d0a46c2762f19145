"""`smriti memory status` tells the truth quickly: answering with per-bank counts, or down with a non-zero exit."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memory import MemoryClient


def run_status(env_overrides: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SMRITI_")}
    env.update({"SMRITI_HOME": str(tmp_path), **env_overrides})
    return subprocess.run([sys.executable, "-m", "bot.cli.smriti", "memory", "status"], env=env, capture_output=True,
                          text=True, timeout=60)


def test_status_with_the_server_stopped_says_so_and_exits_non_zero(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run_status({"SMRITI_HINDSIGHT_URL": "http://127.0.0.1:9"}, tmp_path)
    assert time.monotonic() - started < 45  # the health probe gives up after 5 s; the rest is start-up
    assert result.returncode != 0
    assert "NOT ANSWERING" in result.stdout
    assert "remote" in result.stdout


@pytest.mark.hindsight
async def test_status_lists_bank_counts(tmp_path: Path, hindsight_url: str, memory: MemoryClient,
                                        bank_prefix: str) -> None:
    from tests.memory.test_hindsight import visit
    from datetime import date
    bank = f"{bank_prefix}-status-agri"
    await memory.retain(bank, [visit("visit:S1", date(2026, 4, 8), "A status check memory.", "kind:visit")])
    result = run_status({"SMRITI_HINDSIGHT_URL": hindsight_url, "SMRITI_BANK_PREFIX": bank_prefix}, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Status: answering" in result.stdout
    assert f"{bank}: 1 documents" in result.stdout
