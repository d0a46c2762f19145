"""Seeds, policy, catalogues and money formatting: the data the rules stand on is validated, not trusted."""

import json
import string
from decimal import Decimal
from typing import get_args

import pytest
from pydantic import ValidationError

from bot.services.i18n import LOCALES_DIR
from handlers.ap.ledger import Ledger, LedgerData
from handlers.ap.money import format_inr, masked, parse_amount
from handlers.ap.narratives import seed_memories
from handlers.ap.risk import RESOLUTIONS, FlagCode


def test_seed_history_backs_the_vendor_master(ledger: Ledger) -> None:
    ravi = ledger.history("V001")
    assert (ravi.payment_count, ravi.clean_payments_to_current_account, ravi.bank_changes) == (14, 14, 0)
    assert ravi.account_suffix == "4821" and ravi.amount_max == Decimal("1182000.00")
    abc = ledger.history("V002")
    assert abc.payment_count == 6
    [rejected] = [p for p in ledger.past_invoices("V002") if p.outcome == "rejected"]
    assert rejected.exception is not None
    assert (rejected.exception.invoiced_quantity, rejected.exception.received_quantity) == (22, 20)
    nova = ledger.vendor("V003")
    assert nova is not None and nova.never_paid and ledger.history("V003").payment_count == 0


def test_a_master_count_the_ledger_does_not_back_is_refused(ledger: Ledger) -> None:
    data = ledger.data.model_dump()
    data["vendors"][0]["payment_count"] = 15
    with pytest.raises(ValidationError, match="master says 15 payments, ledger has 14"):
        LedgerData.model_validate(data)


def test_seed_memories_carry_numbers_and_dates_as_metadata(ledger: Ledger) -> None:
    items = {i.document_id: i for i in seed_memories(ledger)}
    ravi = items["ap-vendor-history:V001"]
    assert "14 payments" in ravi.content and "ending 4821" in ravi.content and "Suresh Kumar" in ravi.content
    assert ravi.metadata["clean_payments"] == "14" and ravi.metadata["account_suffix"] == "4821"
    assert ravi.event_time.tzinfo is not None and ravi.metadata_with_event_date()["event_date"] == "2026-03-17"
    abc = next(i for i in items.values() if i.metadata.get("kind") == "past_exception")
    assert abc.metadata["resolution_code"] == "request_corrected_invoice" and abc.metadata["sku"] == "MON-24"
    assert "vendor:v002" in abc.tags


def test_every_flag_variant_has_english_and_telugu_text() -> None:
    en = json.loads((LOCALES_DIR / "en" / "ap.json").read_text(encoding="utf-8"))
    te = json.loads((LOCALES_DIR / "te" / "ap.json").read_text(encoding="utf-8"))
    assert en.keys() == te.keys()

    def slots(template: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(template) if f}

    assert {k for k in en if slots(en[k]) != slots(te[k])} == set()
    evidence = {k.removeprefix("evidence_") for k in en if k.startswith("evidence_")}
    for code in get_args(FlagCode):
        assert any(e == code or e.startswith(f"{code}_") for e in evidence), code
    for resolution in RESOLUTIONS:
        assert f"rec_RECURRING_MISMATCH_{resolution}" in en


@pytest.mark.parametrize(("printed", "value"), [
    ("Rs. 9,58,632.00", "958632.00"), ("₹ 1,650", "1650.00"), ("INR 42.5", "42.50"), ("85000/-", "85000.00"),
])
def test_amounts_as_invoices_print_them(printed: str, value: str) -> None:
    assert parse_amount(printed) == Decimal(value)


def test_rupees_are_shown_the_indian_way() -> None:
    assert format_inr(Decimal("958632")) == "₹9,58,632"
    assert format_inr(Decimal("4849800")) == "₹48,49,800"
    assert format_inr(Decimal("42.5")) == "₹42.50"
    assert format_inr(Decimal("999")) == "₹999"
    assert masked("0345 0155 7719") == "••••7719"
