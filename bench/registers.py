"""Registers: what importing the seed registers into a tenant costs, and what a pack pays per message to get
its tenant's FieldBook / CaseRegister / Ledger (cached: one version read; after a write: a rebuild).

    python -m bench.registers [--rounds N]
"""

import argparse
import sys
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.services.registers.seed import import_seed_registers
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.agri.registers import FieldBooks
from handlers.ap.registers import Ledgers
from handlers.legal.registers import CaseRegisters


def _ms(call: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="two rounds (the test suite's run)")
    args = parser.parse_args(argv)
    rounds = 2 if args.smoke else args.rounds
    folder = Path(tempfile.mkdtemp(prefix="bench-registers-"))
    database = Database(f"sqlite:///{folder / 'bench.db'}")
    upgrade(database, INSTALLED.migrations())
    counter = iter(range(10**6))

    def seed_new_tenant() -> None:
        tenant = f"t{next(counter)}"
        for pack, module in INSTALLED.packages().items():
            import_seed_registers(database, tenant, pack, module)

    print(f"import all seed registers into a new tenant: {_ms(seed_new_tenant, rounds):.1f} ms (median)")
    for name, repository in (("agri FieldBook", FieldBooks(database)), ("legal CaseRegister", CaseRegisters(database)),
                             ("ap Ledger", Ledgers(database))):
        first = _ms(lambda r=repository: r.for_tenant("t0"), 1)
        cached = _ms(lambda r=repository: r.for_tenant("t0"), rounds * 10)
        print(f"{name}: first build {first:.1f} ms, then cached {cached:.2f} ms per message (one version read)")
    database.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
