"""A payment is marked on a day the invoice existed: a paid date before the invoice's own date (a year typed
wrong, a day and month swapped) is refused in words and the invoice stays unpaid."""

from datetime import date, timedelta

import pytest

from handlers.ap.demo import SAMPLES
from handlers.ap.pack import APPack
from bot.settings import Settings
from tests.ap.test_cli import run

INVOICE_DATE = date(2026, 4, 20)  # seeds/ap/invoices/ravi_clean.json


async def test_a_payment_dated_before_the_invoice_is_refused_in_words(
        settings: Settings, pack: APPack, tenant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert await run(settings, "ap", "decide", str(SAMPLES / "ravi_clean.json"), "--no-memory", "--record",
                     "--tenant", tenant, "--as", "anita") == 0
    capsys.readouterr()
    for earlier in (INVOICE_DATE - timedelta(days=1), INVOICE_DATE.replace(year=2025), date(2026, 2, 4)):
        written = earlier.strftime("%d-%m-%Y")
        assert await run(settings, "ap", "paid", "RSC/26-27/0009", "--tenant", tenant, "--on", written,
                         "--as", "anita") == 1
        err = capsys.readouterr().err
        assert f"{written} is before the invoice's own date (20-04-2026)" in err and "Nothing changed" in err, err
        assert "Traceback" not in err
        [record] = pack.book.recorded_entries(tenant)
        assert record.state == "decided" and record.entry.paid_on is None
    assert not pack.book.actions(tenant, action="paid")
    assert await run(settings, "ap", "paid", "RSC/26-27/0009", "--tenant", tenant, "--on", "20-04-2026",
                     "--as", "anita") == 0
    [record] = pack.book.recorded_entries(tenant)
    assert record.state == "paid" and record.entry.paid_on == INVOICE_DATE
