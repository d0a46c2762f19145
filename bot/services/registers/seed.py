"""The demo is a tenant like any other: seeds/ is imported through the same code that imports a customer's files.

This module is the only run-time reader of seeds/ for registers.
"""

from bot.paths import SEEDS_DIR
from bot.services.registers.catalog import pack_kinds, seed_files
from bot.services.registers.importer import ImportReport, import_file
from bot.store.db import Database


def import_seed_registers(database: Database, tenant: str, pack: str, pack_module: str) -> list[ImportReport]:
    """Import (apply) one pack's seed registers into a tenant; idempotent (a second run changes nothing)."""
    kinds = pack_kinds({pack: pack_module}).get(pack, {})
    reports = []
    for kind, relative in seed_files(pack_module):
        # The pack's seed loader writes the seeds' memories itself (fail loud), so none are queued here.
        report = import_file(database, kinds, kind, tenant, SEEDS_DIR / relative, apply=True, remember=False)
        if report.rejected:
            raise ValueError(f"seed {relative} has rejected rows: {report.render()}")
        reports.append(report)
    return reports
