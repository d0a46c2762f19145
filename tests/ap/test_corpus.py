"""The AP corpus, scored by bench.ap_corpus: every field and every decision at least 95%, on its own data."""

import json
from pathlib import Path

from bench.ap_corpus import CORPUS, FIELDS, run

SEEDS = Path(__file__).resolve().parent.parent.parent / "seeds" / "ap"
THRESHOLD = 0.95


def test_the_corpus_is_its_own_not_the_seeds() -> None:
    cases = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 42
    assert {c["layout"] for c in cases} == {"tally", "zoho", "busy", "marg", "hand", "typed"}
    assert {c["format"] for c in cases} == {"text", "pdf", "photo"}
    assert {c["decision"] for c in cases} == {"APPROVE", "EXCEPTION", "HUMAN_REVIEW", "PAYMENT_BLOCKED"}
    seeded = json.loads((SEEDS / "vendors.json").read_text(encoding="utf-8"))
    ours = json.loads((CORPUS / "ledger" / "vendors.json").read_text(encoding="utf-8"))
    assert not {v["gstin"] for v in seeded["vendors"]} & {v["gstin"] for v in ours["vendors"]}
    seeded_pos = json.loads((SEEDS / "purchase_orders.json").read_text(encoding="utf-8"))["purchase_orders"]
    ours_pos = json.loads((CORPUS / "ledger" / "purchase_orders.json").read_text(encoding="utf-8"))["purchase_orders"]
    assert not {p["po_number"] for p in seeded_pos} & {p["po_number"] for p in ours_pos}


async def test_every_field_and_decision_is_read_right_at_least_95_percent() -> None:
    report = await run()
    fields = report.field_accuracy()
    assert set(fields) == set(FIELDS)
    low = {name: share for name, share in fields.items() if share < THRESHOLD}
    decisions = {status: share for status, share in report.decision_accuracy().items() if share < THRESHOLD}
    misses = {c.id: c.misses for c in report.cases if c.misses or not c.right}
    assert not low and not decisions, (low, decisions, misses)


async def test_the_held_out_batch_two_is_read_as_well() -> None:
    """Batch 2 was typed by someone else from the issue alone; the reader was fixed with general rules after."""
    cases = json.loads((CORPUS / "expected2.json").read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 30
    assert not {c["id"] for c in cases} & {c["id"] for c in json.loads(
        (CORPUS / "expected.json").read_text(encoding="utf-8"))["cases"]}
    report = await run(batches=("2",))
    low = {name: share for name, share in report.field_accuracy().items() if share < THRESHOLD}
    decisions = {status: share for status, share in report.decision_accuracy().items() if share < THRESHOLD}
    misses = {c.id: c.misses for c in report.cases if c.misses or not c.right}
    assert not low and not decisions, (low, decisions, misses)


async def test_the_held_out_batch_three_is_read_as_well() -> None:
    """Batch 3 was written by a third author before reading the reader or the rules, with documents that are not
    invoices to pay (a credit note, a proforma: refused as such); the reader was fixed with general rules after."""
    cases = json.loads((CORPUS / "expected3.json").read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 30
    earlier = {c["id"] for name in ("expected.json", "expected2.json")
               for c in json.loads((CORPUS / name).read_text(encoding="utf-8"))["cases"]}
    assert not {c["id"] for c in cases} & earlier
    assert {"REFUSED", "APPROVE", "EXCEPTION", "HUMAN_REVIEW", "PAYMENT_BLOCKED"} <= {c["decision"] for c in cases}
    report = await run(batches=("3",))
    low = {name: share for name, share in report.field_accuracy().items() if share < THRESHOLD}
    decisions = {status: share for status, share in report.decision_accuracy().items() if share < THRESHOLD}
    misses = {c.id: (c.decision, c.misses) for c in report.cases if c.misses or not c.right}
    assert not low and not decisions, (low, decisions, misses)
