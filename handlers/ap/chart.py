"""The small chart on a blocked payment's card: the vendor's past payments from the ledger, by account."""

import uuid
from pathlib import Path

from bot.charts import Chart, PaymentPoint, payments_by_account
from bot.i18n import text
from handlers.ap.ledger import Ledger
from handlers.ap.models import Invoice


def payment_chart(ledger: Ledger, invoice: Invoice, vendor_id: str, vendor_name: str, lang: str,
                  folder: Path) -> Chart | None:
    """Plot every paid invoice of the vendor by the account it was paid to, and this invoice's account beside
    them; None without payments."""
    points = [PaymentPoint(paid_on=p.paid_on, amount=float(p.total), account_suffix=p.paid_to_account[-4:])
              for p in ledger.past_invoices(vendor_id)
              if p.outcome == "paid" and p.paid_on is not None and p.paid_to_account]
    if not points:
        return None
    pending = None
    if invoice.bank is not None:
        pending = PaymentPoint(paid_on=invoice.invoice_date, amount=float(invoice.total),
                               account_suffix=invoice.bank.account_number[-4:])
    title = text(lang, "ap.chart_title", vendor=vendor_name)
    return payments_by_account(title, points, folder / f"payments-{vendor_id}-{uuid.uuid4().hex}.png",
                               pending=pending, pending_label=text(lang, "ap.chart_this_invoice"))
