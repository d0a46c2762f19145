"""Shared helpers for the legal pack's tests: rendering (parts of) the seed backlog and talking to the bot."""

import csv
import random
import uuid
from pathlib import Path
from typing import Any

from bot.core.messages import Incoming, Media, Reply
from handlers.legal.backlog import Expected, SeedBacklog, load_backlog, render_backlog


def render_subset(out: Path, files: list[str]) -> Expected:
    """Render only the named uploads of the seed backlog into `out`."""
    backlog = load_backlog()
    chosen = [u for u in backlog.uploads if u.file in files]
    assert len(chosen) == len(files), "every named file must be in the seed backlog"
    return render_backlog(out, SeedBacklog(uploads=chosen))


def shuffle_manifest(directory: Path, seed: int) -> list[str]:
    """Rewrite manifest.csv in a shuffled order; return the new order of files."""
    path = directory / "manifest.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    random.Random(seed).shuffle(rows)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["file", "uploaded_at", "author"])
        writer.writeheader()
        writer.writerows(rows)
    return [r["file"] for r in rows]


async def fresh_practice(app: Any, tenant: str) -> None:
    """The document-kind practice's four matters in the tenant's register, and none of their memories left by
    another test (the bank outlives a test's database)."""
    from handlers.legal.pack import LegalPack
    from memory import tags
    from tests.legal.kinds_corpus import CASES

    pack = app.packs["legal"]
    assert isinstance(pack, LegalPack)
    pack.registers.add(tenant, CASES)
    bank = app.services.bank_of(tenant, "legal")
    for case in CASES:
        for document in await app.services.memory.list_documents(bank, tags=[tags.case(case.case_id)]):
            await app.services.memory.delete_document(bank, document.document_id)


def say(sender: str, text: str | None = None, callback: str | None = None, media: Media | None = None) -> Incoming:
    return Incoming(transport="console", sender=sender, delivery_id=uuid.uuid4().hex, text=text,
                    callback=callback, media=media)


def button(reply: Reply, label_start: str) -> str:
    return next(b.data for b in reply.flat_buttons() if b.label.startswith(label_start))
