"""What the end-to-end walks send: real files for each pack, the scripted Groq answers, and a tenant of their own.

The walks run the real packs behind the real transports. Each test module gets a fresh tenant (with the
seeded users moved into it), so its banks hold only what the walk itself stored.
"""

import json
import uuid
from datetime import date, datetime
from pathlib import Path

from pydantic import BaseModel

from bot.paths import SEEDS_DIR
from bot.core.registry import Registry
from handlers.ap.demo import load_sample
from handlers.legal.backlog import CASES_FILE, SeedEntry, SeedUpload, page_lines, render_file
from handlers.legal.register import CaseRegister
from memory.asof import IST
from tests.ap.documents import invoice_lines, make_pdf

DIARY_FILE = "IMG_20250619_081500.png"


def walk_tenant() -> str:
    return f"w{uuid.uuid4().hex[:8]}"


def walk_registry(tenant: str) -> Registry:
    """The seeded users, with everyone of the demo tenant moved into `tenant`."""
    users = Registry.load(SEEDS_DIR / "users.json").users
    return Registry([u.model_copy(update={"tenant": tenant}) if u.tenant == "demo" else u for u in users])


def visit_draft(farmer_id: str, crop: str, issue: str, product_id: str, reaction: str,
                objection: str | None = None, severity_pct: int = 20) -> str:
    """The JSON the structuring model answers for a visit note (handlers/agri/structure.py VisitDraft)."""
    advice: dict[str, object] = {"product_id": product_id, "reaction": reaction}
    if objection:
        advice["objection"] = objection
    return json.dumps({"farmer_id": farmer_id, "village": "chevella", "crop": crop, "issue": issue,
                       "severity": "medium", "severity_pct": severity_pct, "products": [advice]})


class DiaryPage(BaseModel):
    png: bytes
    text: str
    """What is printed on the page: what a vision model reading the photo answers."""


def diary_page() -> DiaryPage:
    """A diary page for 18 June 2025 with a Gorle and a Seabreeze entry, rendered as a scanned PNG."""
    spec = SeedUpload(
        file=DIARY_FILE, kind="diary", author="aditya", printed_date=date(2025, 6, 18),
        uploaded_at=datetime(2025, 11, 2, 19, 0, tzinfo=IST),
        entries=[
            SeedEntry(case_id="gorle", ref="Gorle partition O.S. 88/2023", hearing_date=date(2025, 6, 18),
                      next_date=date(2025, 7, 16), text="PW1 chief affidavit filed, marked Ex.A1 to A6"),
            SeedEntry(case_id="seabreeze", ref="Seabreeze SP suit", hearing_date=date(2025, 6, 18),
                      next_date=date(2025, 7, 2), text="counsel for defendant sought time for written statement"),
        ])
    register = CaseRegister.load(CASES_FILE)
    return DiaryPage(png=render_file(spec, register), text="\n".join(page_lines(spec, register)))


def invoice_pdf(directory: Path, sample: str = "ravi_new_account") -> bytes:
    """A sample invoice printed to a PDF with a text layer, as a vendor's billing software makes it."""
    return make_pdf(directory / f"{sample}.pdf", invoice_lines(load_sample(sample))).read_bytes()


def order_sheet_pdf() -> bytes:
    """A certified order sheet of the Mahesh cheque case (hearing 7 Jan 2026, next date 18 Feb 2026), as a PDF."""
    spec = SeedUpload(
        file="certified_mahesh.pdf", kind="order_sheet", author="divya",
        uploaded_at=datetime(2026, 3, 16, 20, 40, tzinfo=IST), filed_on=date(2025, 2, 6),
        copy_applied=date(2026, 2, 23), copy_ready=date(2026, 3, 13),
        entries=[SeedEntry(case_id="mahesh-cheque", ref="C.C. 1423/2025", hearing_date=date(2026, 1, 7),
                           next_date=date(2026, 2, 18), text="complainant's evidence closed, accused examined")])
    return render_file(spec, CaseRegister.load(CASES_FILE))
