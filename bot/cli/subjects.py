"""`smriti forget` and `smriti export-subject`: erase, or hand over, everything held about one person or matter.

    smriti forget --tenant T --farmer F017 | --case "OS 112/2024" | --vendor V-03 | --person ravi [--yes] [--by NAME]
    smriti export-subject --tenant T --farmer F017 [--out FILE] [--by NAME]

Forget shows what will go, store by store, and what is kept and why, and asks to confirm (`--yes` skips the
question). Both are audited in the database (who, when, which subject, how much, and the outcome; never the
content): see bot.store.subject_audit.
"""

import argparse
import getpass
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.services.i18n import counted
from bot.settings import Settings
from memory.subjects import Subject, SubjectStore

if TYPE_CHECKING:
    from bot.core.app import App

KINDS = ("farmer", "case", "vendor", "person")
WithApp = Callable[[Settings, Callable[["App"], Awaitable[int]]], Awaitable[int]]
Confirm = Callable[[str], bool]


def subject_stores(app: "App") -> list[SubjectStore]:
    """Every store that holds data about subjects: memory, the bot's own records, and each pack's."""
    from bot.core.subject_ops import stores_for

    return stores_for(app.services, app.packs)


def resolved(app: "App", subject: Subject) -> Subject | None:
    """The subject a name or an id means: the one match (shown), or None after listing the several that fit or
    saying that nothing does. An id no register knows any more (its row erased) stays as given."""
    from bot.core.subject_chat import find

    if subject.kind == "person":
        return subject  # a person is named by user id: their own rows, whatever the register says
    found = find(app.services, app.packs, subject.tenant, subject.kind, subject.subject_id)
    if len(found) == 1:
        if found[0][0] != subject.subject_id:
            print(f"{subject.kind} {subject.subject_id!r} is {found[0][0]}: {found[0][1]}", file=sys.stderr)
            others = [o for pack in app.packs.values()
                      for o in pack.also_named(subject.tenant, subject.kind, subject.subject_id, found[0][0])]
            if others:
                print("  (the name also fits " + ", ".join(f"{i} {n}" for i, n in others)
                      + "; give the id to choose one of them)", file=sys.stderr)
        return subject.model_copy(update={"subject_id": found[0][0]})
    if len(found) > 1:
        print(f"Several {subject.kind}s fit {subject.subject_id!r}; run again with one of these ids:", file=sys.stderr)
        for subject_id, name in found:
            print(f"  {subject_id}  {name}", file=sys.stderr)
        return None
    if " " not in subject.subject_id.strip() and any(c.isdigit() for c in subject.subject_id):
        return subject
    print(f"No {subject.kind} in tenant {subject.tenant} is called {subject.subject_id!r}; nothing was done.",
          file=sys.stderr)
    return None


async def forget(app: "App", subject: Subject, confirm: Confirm, by: str) -> int:
    """Show what will go, ask, erase it from every store, audit; 0 when done or nothing was held."""
    from bot.core.subject_ops import SubjectRequests, canonical, describe

    requests = SubjectRequests(app.services, app.packs, by=by, via="cli")
    found = resolved(app, subject)
    if found is None:
        return 2
    subject = canonical(app.packs, found)
    held = await requests.preview(subject)
    print(describe(subject, held))
    if not [i for i in held if i.kept_because is None]:
        requests.audit("forget", subject, held, "nothing held")
        return 0
    if not confirm(f"Erase all of this about {subject.kind} {subject.subject_id}? This cannot be undone."):
        requests.audit("forget", subject, held, "declined")
        print("Nothing was erased.")
        return 1
    failed = await requests.erase(subject, held)
    if failed is not None:
        print(f"Erasing failed part-way ({failed}); run the command again to finish.", file=sys.stderr)
        return 2
    erased = sum(1 for i in held if i.kept_because is None)
    print(f"Erased {counted(erased, 'item', 'items')} about {subject.kind} {subject.subject_id}.")
    return 0


async def export(app: "App", subject: Subject, by: str) -> dict[str, Any]:
    """Everything held about the subject, store by store, as one JSON-ready object; audited."""
    from bot.core.subject_ops import SubjectRequests, canonical

    requests = SubjectRequests(app.services, app.packs, by=by, via="cli")
    return await requests.export(canonical(app.packs, subject))


def _subject(args: argparse.Namespace) -> Subject | None:
    chosen = [(k, getattr(args, k)) for k in KINDS if getattr(args, k)]
    if len(chosen) != 1:
        print("Name exactly one of --farmer, --case, --vendor or --person.", file=sys.stderr)
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
    parser.add_argument("--farmer", default=None, help="farmer id (F017) or name ('Erra Ramulamma', 'Ramulamma')")
    parser.add_argument("--case", default=None, help="case id as filed, e.g. 'OS 112/2024'")
    parser.add_argument("--vendor", default=None, help="vendor id")
    parser.add_argument("--person", default=None, help="a person's user id: their own rows, channels and queue")
    parser.add_argument("--by", default=None, help="who asks (for the audit); the login name by default")


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]", with_app: WithApp) -> None:
    forget_parser = sub.add_parser("forget", help="erase everything held about a farmer, case, vendor or person")
    _arguments(forget_parser)
    forget_parser.add_argument("--yes", action="store_true", help="do not ask to confirm")

    async def forget_handler(args: argparse.Namespace, settings: Settings) -> int:
        subject = _subject(args)
        if subject is None:
            return 2
        by = args.by or getpass.getuser()
        return await with_app(settings, lambda app: forget(app, subject, (lambda _: True) if args.yes else _ask, by))

    forget_parser.set_defaults(handler=forget_handler)

    export_parser = sub.add_parser("export-subject",
                                   help="write everything held about a farmer, case, vendor or person")
    _arguments(export_parser)
    export_parser.add_argument("--out", type=Path, default=None, help="write the JSON here instead of stdout")

    async def export_handler(args: argparse.Namespace, settings: Settings) -> int:
        subject = _subject(args)
        if subject is None:
            return 2

        async def body(app: "App") -> int:
            found = resolved(app, subject)
            if found is None:
                return 2
            data = json.dumps(await export(app, found, args.by or getpass.getuser()), indent=2, ensure_ascii=False)
            if args.out:
                args.out.write_text(data + "\n", encoding="utf-8")
                print(f"Wrote {args.out}")
            else:
                print(data)
            return 0

        return await with_app(settings, body)

    export_parser.set_defaults(handler=export_handler)
