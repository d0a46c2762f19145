"""`smriti memory check|rebuild --tenant T [--pack P]`: a tenant's banks against its packs' records."""

import argparse
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.settings import Settings

if TYPE_CHECKING:
    from bot.core.app import App
    from bot.core.memory_records import RecordsCheck

WithApp = Callable[[Settings, Callable[["App"], Awaitable[int]]], Awaitable[int]]
SHOWN = 10
"""Document ids listed per kind of difference; the counts are always whole."""


def _ids(label: str, ids: list[str]) -> list[str]:
    if not ids:
        return []
    more = f" (and {len(ids) - SHOWN} more)" if len(ids) > SHOWN else ""
    return [f"  {label}: {', '.join(ids[:SHOWN])}{more}"]


def render_check(result: "RecordsCheck") -> list[str]:
    if not result.keeps_records:
        return [f"{result.pack}: keeps no records of its own; its bank {result.bank_id} is not checked."]
    verdict = "memory agrees with the records" if result.agrees else "memory and records differ"
    lines = [f"{result.pack}: {verdict} ({result.records} records, {result.documents} documents in "
             f"{result.bank_id}; {len(result.records_without_memory)} records without memory, "
             f"{len(result.memory_without_records)} memories without records)"]
    lines += _ids("records without memory", result.records_without_memory)
    lines += _ids("memory without records", result.memory_without_records)
    if result.records_without_memory:
        lines.append(f"  `smriti memory rebuild --tenant ... --pack {result.pack}` writes the missing ones.")
    return lines


async def check(args: argparse.Namespace, settings: Settings) -> int:
    from bot.core.memory_records import check_pack

    async def body(app: "App") -> int:
        differ = False
        for name, pack in app.packs.items():
            if args.pack and name != args.pack:
                continue
            result = await check_pack(pack, app.services, args.tenant)
            differ = differ or not result.agrees
            print("\n".join(render_check(result)))
        return 1 if differ else 0

    with_app: WithApp = args.with_app
    return await with_app(settings, body)


async def rebuild(args: argparse.Namespace, settings: Settings) -> int:
    from bot.core.memory_records import rebuild_pack

    async def body(app: "App") -> int:
        for name, pack in app.packs.items():
            if args.pack and name != args.pack:
                continue
            report = await rebuild_pack(pack, app.services, args.tenant)
            if report.keeps_records:
                print(f"{name}: {report.retained} memories written from the records into {report.bank_id}.")
            else:
                print(f"{name}: keeps no records of its own; its bank {report.bank_id} is left as it is.")
        return 0

    with_app: WithApp = args.with_app
    return await with_app(settings, body)
