"""`smriti forget` and `smriti export-subject`: erase, or hand over, everything held about one person or matter.

    smriti forget --tenant T --farmer F017 | --case "OS 112/2024" | --vendor V-03 [--yes] [--by NAME]
    smriti export-subject --tenant T --farmer F017 [--out FILE] [--by NAME]

Forget shows what will go, store by store, and asks to confirm (`--yes` skips the question). Both are audited
(who, when, which subject, how much, and the outcome; never the content) to state_dir/audit/subjects.jsonl.
"""

import argparse
import getpass
import json
import sys
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ValidationError

from bot.settings import Settings
from memory.errors import MemoryLayerError
from memory.subjects import HeldItem, MemorySubjectStore, Subject, SubjectStore

if TYPE_CHECKING:
    from bot.app import App

WithApp = Callable[[Settings, Callable[["App"], Awaitable[int]]], Awaitable[int]]
Confirm = Callable[[str], bool]


def subject_stores(app: "App") -> list[SubjectStore]:
    """Every store that holds data about subjects. The bot's own database stores join this list."""
    services = app.services
    return [MemorySubjectStore(services.memory, services.outbox, services.bank_of)]


class AuditEntry(BaseModel):
    at: datetime
    action: Literal["forget", "export"]
    by: str
    tenant: str
    kind: str
    subject_id: str
    held: dict[str, int]
    outcome: Literal["done", "declined", "nothing held", "failed"]


def audit(state_dir: Path, entry: AuditEntry) -> None:
    path = state_dir / "audit" / "subjects.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(entry.model_dump_json() + "\n")


def _counts(held: list[HeldItem]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in held:
        key = f"{item.store}:{item.kind}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def describe(subject: Subject, held: list[HeldItem]) -> str:
    """What is held, by store and kind, with the dates (no content)."""
    if not held:
        return f"Nothing is held about {subject.kind} {subject.subject_id} in tenant {subject.tenant}."
    lines = [f"Held about {subject.kind} {subject.subject_id} in tenant {subject.tenant}:"]
    for key, count in sorted(_counts(held).items()):
        store, kind = key.split(":", 1)
        days = sorted({i.day.isoformat() for i in held if f"{i.store}:{i.kind}" == key and i.day})
        dated = f" (dated {', '.join(days[:8])}{', ...' if len(days) > 8 else ''})" if days else ""
        lines.append(f"  {store}: {count} {kind}(s){dated}")
    return "\n".join(lines)


async def forget(app: "App", subject: Subject, confirm: Confirm, by: str) -> int:
    """Show what will go, ask, erase it from every store, audit; 0 when done or nothing was held."""
    stores = subject_stores(app)
    held = [item for store in stores for item in await store.list_held(subject)]
    print(describe(subject, held))

    def record(outcome: Literal["done", "declined", "nothing held", "failed"]) -> None:
        audit(app.settings.state_dir, AuditEntry(at=datetime.now(timezone.utc), action="forget", by=by,
                                                 tenant=subject.tenant, kind=subject.kind,
                                                 subject_id=subject.subject_id, held=_counts(held), outcome=outcome))

    if not held:
        record("nothing held")
        return 0
    if not confirm(f"Erase all of this about {subject.kind} {subject.subject_id}? This cannot be undone."):
        record("declined")
        print("Nothing was erased.")
        return 1
    try:
        for store in stores:
            await store.delete(subject)
    except (MemoryLayerError, RuntimeError) as exc:
        record("failed")
        print(f"Erasing failed part-way ({exc}); run the command again to finish.", file=sys.stderr)
        return 2
    record("done")
    print(f"Erased {len(held)} item(s) about {subject.kind} {subject.subject_id}.")
    return 0


async def export(app: "App", subject: Subject, by: str) -> dict[str, Any]:
    """Everything held about the subject, store by store, as one JSON-ready object; audited."""
    stores = subject_stores(app)
    held = [item for store in stores for item in await store.list_held(subject)]
    result = {"subject": subject.model_dump(), "exported_at": datetime.now(timezone.utc).isoformat(),
              "stores": {store.name: await store.export(subject) for store in stores}}
    audit(app.settings.state_dir, AuditEntry(at=datetime.now(timezone.utc), action="export", by=by,
                                             tenant=subject.tenant, kind=subject.kind, subject_id=subject.subject_id,
                                             held=_counts(held), outcome="done" if held else "nothing held"))
    return result


def _subject(args: argparse.Namespace) -> Subject | None:
    chosen = [(k, getattr(args, k)) for k in ("farmer", "case", "vendor") if getattr(args, k)]
    if len(chosen) != 1:
        print("Name exactly one of --farmer, --case or --vendor.", file=sys.stderr)
        return None
    kind, value = chosen[0]
    try:
        subject = Subject.model_validate({"tenant": args.tenant, "kind": kind, "subject_id": value})
        subject.tag  # noqa: B018 - refuses an id that cannot be a tag
    except (ValidationError, ValueError) as exc:
        print(f"Not a usable subject: {exc}", file=sys.stderr)
        return None
    return subject


def _ask(question: str) -> bool:
    if not sys.stdin.isatty():
        print("Not confirmed: no terminal to ask on; pass --yes to erase without asking.", file=sys.stderr)
        return False
    return input(f"{question} Type 'yes' to go on: ").strip().lower() == "yes"


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--farmer", default=None, help="farmer id, e.g. F017")
    parser.add_argument("--case", default=None, help="case id as filed, e.g. 'OS 112/2024'")
    parser.add_argument("--vendor", default=None, help="vendor id")
    parser.add_argument("--by", default=None, help="who asks (for the audit); the login name by default")


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]", with_app: WithApp) -> None:
    forget_parser = sub.add_parser("forget", help="erase everything held about a farmer, case or vendor")
    _arguments(forget_parser)
    forget_parser.add_argument("--yes", action="store_true", help="do not ask to confirm")

    async def forget_handler(args: argparse.Namespace, settings: Settings) -> int:
        subject = _subject(args)
        if subject is None:
            return 2
        by = args.by or getpass.getuser()
        return await with_app(settings, lambda app: forget(app, subject, (lambda _: True) if args.yes else _ask, by))

    forget_parser.set_defaults(handler=forget_handler)

    export_parser = sub.add_parser("export-subject", help="write everything held about a farmer, case or vendor")
    _arguments(export_parser)
    export_parser.add_argument("--out", type=Path, default=None, help="write the JSON here instead of stdout")

    async def export_handler(args: argparse.Namespace, settings: Settings) -> int:
        subject = _subject(args)
        if subject is None:
            return 2

        async def body(app: "App") -> int:
            data = json.dumps(await export(app, subject, args.by or getpass.getuser()), indent=2, ensure_ascii=False)
            if args.out:
                args.out.write_text(data + "\n", encoding="utf-8")
                print(f"Wrote {args.out}")
            else:
                print(data)
            return 0

        return await with_app(settings, body)

    export_parser.set_defaults(handler=export_handler)
