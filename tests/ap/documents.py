"""Real documents for intake tests: PDFs with a text layer (matplotlib's PDF backend), photos (PIL + a TTF)."""

from pathlib import Path

import matplotlib
from matplotlib.figure import Figure
from PIL import Image, ImageDraw, ImageFont

from handlers.ap.models import Invoice

_FONT = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


def _rupees(value: object) -> str:
    whole, _, paise = f"{value:.2f}".partition(".")
    head, tail = whole[:-3], whole[-3:]
    groups = []
    while len(head) > 2:
        groups.insert(0, head[-2:])
        head = head[:-2]
    if head:
        groups.insert(0, head)
    return ",".join([*groups, tail]) + f".{paise}"


def invoice_lines(invoice: Invoice, extra: list[str] | None = None) -> list[str]:
    """Lay an invoice out the way a vendor's billing software prints it."""
    lines = [
        "TAX INVOICE",
        f"Supplier: {invoice.vendor_name}",
        f"GSTIN: {invoice.vendor_gstin}",
        "Bill To: Smriti Demo Industries Pvt Ltd  GSTIN: 36AAECS9876M1ZE",
        f"Invoice No: {invoice.invoice_number}",
        f"Invoice Date: {invoice.invoice_date:%d-%m-%Y}",
        f"PO Ref: {invoice.po_number}",
        "Description  Qty  Rate  Amount",
    ]
    lines += [f"{ln.description}  {ln.quantity}  {_rupees(ln.unit_price)}  {_rupees(ln.amount)}" for ln in invoice.lines]
    lines += [f"Subtotal: {_rupees(invoice.subtotal)}", f"GST 18%: {_rupees(invoice.tax)}",
              f"Total: Rs. {_rupees(invoice.total)}"]
    if invoice.bank:
        lines.append(f"Bank: {invoice.bank.bank_name}  A/c No: {invoice.bank.account_number}  IFSC: {invoice.bank.ifsc}")
    return lines + (extra or [])


def make_pdf(path: Path, lines: list[str]) -> Path:
    """Write an A4 PDF whose text layer holds these lines, one per row."""
    figure = Figure(figsize=(8.27, 11.69))
    for row, line in enumerate(lines):
        figure.text(0.06, 0.95 - row * 0.03, line, fontsize=9)
    figure.savefig(str(path), format="pdf")
    return path


def make_scan_pdf(path: Path) -> Path:
    """Write a PDF with drawing but no text layer, like a scanned page."""
    figure = Figure(figsize=(8.27, 11.69))
    axes = figure.add_axes((0.1, 0.1, 0.8, 0.8))
    axes.plot([0, 1, 2], [2, 0, 1])
    axes.set_axis_off()
    figure.savefig(str(path), format="pdf")
    return path


def make_photo(path: Path, lines: list[str]) -> Path:
    """Write a PNG of the lines in a real font, the way a phone photo of a clean printout reads."""
    font = ImageFont.truetype(str(_FONT), 28)
    image = Image.new("RGB", (1500, 60 + 46 * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((40, 30 + row * 46), line, fill="black", font=font)
    image.save(path)
    return path
