"""The small chart on a blocked payment's card: the vendor's past payments from the ledger, by account."""

import uuid
from datetime import date
from pathlib import Path

from pydantic import BaseModel

from bot.services.charts import NEXT_DATE_COLOUR, Chart, pyplot, save
from bot.services.i18n import text
from handlers.ap.ledger import Ledger
from handlers.ap.models import Invoice


class PaymentPoint(BaseModel):
    paid_on: date
    amount: float
    account_suffix: str


def payments_by_account(title: str, payments: list[PaymentPoint], path: Path,
                        pending: PaymentPoint | None = None, pending_label: str = "this invoice") -> Chart:
    """Plot a vendor's past payments over time, one colour per bank-account suffix; the invoice being decided,
    if given, as a hollow marker so a change of account stands out."""
    plt = pyplot()
    import matplotlib.dates as mdates
    from matplotlib.ticker import FuncFormatter

    figure, axis = plt.subplots(figsize=(8, 3.2))
    suffixes = sorted({p.account_suffix for p in payments})
    palette = ["#1f5fbf", "#2b8a3e", "#862e9c", "#e67700"]
    for index, suffix in enumerate(suffixes):
        mine = sorted((p for p in payments if p.account_suffix == suffix), key=lambda p: p.paid_on)
        axis.plot([p.paid_on for p in mine], [p.amount for p in mine], "o", color=palette[index % len(palette)],
                  label=f"••••{suffix} ({len(mine)})")
    if pending is not None:
        axis.plot([pending.paid_on], [pending.amount], "D", markerfacecolor="none", markeredgecolor=NEXT_DATE_COLOUR,
                  markeredgewidth=2, markersize=10, label=f"{pending_label} ••••{pending.account_suffix}")
    axis.xaxis.set_major_formatter(mdates.DateFormatter("%b %Y"))
    # Indian amounts read in lakh (1 L = Rs 1,00,000).
    axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value / 1e5:.1f} L"))
    axis.set_ylabel("Rs")
    axis.legend(loc="upper left", fontsize=8)
    axis.set_title(title)
    figure.tight_layout()
    facts = {"payments": [p.model_dump(mode="json") for p in payments],
             "pending": pending.model_dump(mode="json") if pending else None}
    save(figure, path, title, facts)
    return Chart(path=path, plotted=len(payments))


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
