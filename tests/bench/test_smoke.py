"""Every benchmark in bench/ runs to the end in its smoke mode (tiny sizes, seconds each), so a change that
breaks one fails here rather than the next time someone wants the figures.

Marked own_registers: the benchmarks must give their tenants registers themselves (through the import path),
as they do outside the test suite; the suite's own seeding would hide a benchmark that forgot to.
"""

import importlib
import inspect
import pkgutil
from types import ModuleType

import pytest

import bench
from bench import run_all

HELPERS = {"harness", "stats", "server_cpu", "scale"}
"""Modules that measure nothing themselves: they are used by the benchmarks below."""
SECTIONS = {"brief_parallel", "ingest_workers", "scale_agri", "scale_legal", "scale_ap"}
"""Benchmarks run as sections of run_all only (its smoke run covers them)."""
PRIVATE_SERVER = {"llm_save"}
"""Starts a Hindsight of its own with a faked model: smoke-run in tests/llm_mode against that suite's server."""


def benchmarks() -> list[str]:
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__))
    return [n for n in names if n not in HELPERS | SECTIONS | PRIVATE_SERVER]


def test_every_module_is_a_helper_a_section_or_a_benchmark_with_a_smoke_mode() -> None:
    for name in sorted(m.name for m in pkgutil.iter_modules(bench.__path__)):
        module = importlib.import_module(f"bench.{name}")
        if name in HELPERS:
            continue
        if name in SECTIONS:
            assert name in inspect.getsource(importlib.import_module("bench.run_all")), name
            continue
        assert callable(getattr(module, "main", None)), f"bench.{name} has no main(argv)"
        assert '"--smoke"' in inspect.getsource(module), f"bench.{name} has no --smoke mode"


def runs() -> list[tuple[str, str | None]]:
    """Each benchmark, and bench.run_all once per section (a failing section is named by its own test)."""
    return [(name, section) for name in benchmarks()
            for section in (run_all.SECTIONS if name == "run_all" else (None,))]


def _argv(module: ModuleType, hindsight_url: str, section: str | None) -> list[str]:
    takes_url = '"--url"' in inspect.getsource(module)
    return ["--smoke", *(["--url", hindsight_url] if takes_url else []), *(["--only", section] if section else [])]


@pytest.mark.hindsight
@pytest.mark.own_registers
@pytest.mark.parametrize(("name", "section"), runs())
def test_benchmark_runs_in_smoke_mode(name: str, section: str | None, hindsight_url: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    module = importlib.import_module(f"bench.{name}")
    assert module.main(_argv(module, hindsight_url, section)) == 0
    printed = capsys.readouterr().out
    assert printed.strip(), f"bench.{name} printed nothing"
    assert "Traceback" not in printed
