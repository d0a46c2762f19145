"""The three-way match: every invoice line against its PO line and what the goods receipts say arrived."""

import re
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, Field

from handlers.ap.ledger import Ledger
from handlers.ap.ledgerview import BilledLine, LedgerEntry, normalise_number
from handlers.ap.models import GoodsReceipt, Invoice, InvoiceLine, POLine, Tolerances, normalise_name

Issue = Literal["QUANTITY_MISMATCH", "PRICE_MISMATCH", "TOTAL_MISMATCH", "LINE_NOT_ON_PO", "RECEIPT_ALREADY_BILLED"]
MatchStatus = Literal["matched", "mismatch", "no_po", "no_grn"]

HUNDRED = Decimal("100")


class LineMatch(BaseModel):
    """One invoice line beside its PO line and the quantity received against it."""

    line: int
    description: str
    sku: str | None
    po_line: int | None
    invoiced_quantity: Decimal
    ordered_quantity: Decimal | None = None
    received_quantity: Decimal | None = None
    invoiced_unit_price: Decimal
    po_unit_price: Decimal | None = None
    invoiced_amount: Decimal
    billed_before: Decimal = Decimal("0")
    """What earlier invoices already billed against the receipts of this PO line."""
    billed_by: list[str] = Field(default_factory=list)
    """Those earlier invoices' numbers, as printed."""
    issues: list[Issue] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.issues

    @property
    def price_over(self) -> Decimal:
        """How much more this line costs than at the PO price (0 when at or under it)."""
        if self.po_unit_price is None or self.invoiced_unit_price <= self.po_unit_price:
            return Decimal("0")
        return ((self.invoiced_unit_price - self.po_unit_price) * self.invoiced_quantity).quantize(Decimal("0.01"))


class TotalsMatch(BaseModel):
    lines_total: Decimal
    subtotal: Decimal
    tax: Decimal
    discount: Decimal = Decimal("0")
    round_off: Decimal = Decimal("0")
    total: Decimal
    expected_total: Decimal
    total_in_words: Decimal | None = None
    ok: bool


class MatchResult(BaseModel):
    status: MatchStatus
    po_number: str | None
    grn_numbers: list[str] = Field(default_factory=list)
    lines: list[LineMatch] = Field(default_factory=list)
    totals: TotalsMatch
    billed: list[BilledLine] = Field(default_factory=list)
    """The receipt quantities this invoice bills, to be recorded with its decision."""
    candidates: list[str] = Field(default_factory=list)
    """When the PO printed is not found: the vendor's POs with the nearest numbers, named, never matched."""

    def variances(self) -> list[LineMatch]:
        """Lines priced above the PO but within tolerance: approved, and said so."""
        return [line for line in self.lines if "PRICE_MISMATCH" not in line.issues and line.price_over > 0]

    def issues(self) -> list[Issue]:
        found: list[Issue] = [i for line in self.lines for i in line.issues]
        if not self.totals.ok:
            found.append("TOTAL_MISMATCH")
        return list(dict.fromkeys(found))


def _within(actual: Decimal, expected: Decimal, pct: Decimal) -> bool:
    return abs(actual - expected) <= abs(expected) * pct / HUNDRED


def _similarity(printed: str, ordered: str) -> float:
    """How well a printed description names a PO line: shared words over all words, or every PO word printed
    (rows carry batch, pack and expiry columns the PO never had). Read both as written and with each size apart
    from its unit, since a scan or a clerk drops the space ("1L" for "1 L", "16 mm" for "16mm")."""
    best = 0.0
    for split in (False, True):
        wanted, words = (set((_SIZE.sub(" ", normalise_name(text)) if split else normalise_name(text)).split())
                         for text in (printed, ordered))
        shared = len(wanted & words)
        covered = shared / max(len(words), 1)
        best = max(best, shared / max(len(wanted | words), 1), covered if covered >= 0.75 else 0.0)
    return best


_SIZE = re.compile(r"(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)")


def _find_po_line(line: InvoiceLine, po_lines: list[POLine], used: set[int]) -> POLine | None:
    free = [p for p in po_lines if p.line_no not in used]
    if line.sku:
        by_sku = next((p for p in free if p.sku.upper() == line.sku.strip().upper()), None)
        if by_sku is not None:
            return by_sku
    best, best_score = None, 0.0
    for candidate in free:
        score = _similarity(line.description, candidate.description)
        if score > best_score:
            best, best_score = candidate, score
    return best if best_score >= 0.5 else None


def _totals(invoice: Invoice, tolerances: Tolerances) -> TotalsMatch:
    lines_total = invoice.lines_total
    subtotal = invoice.subtotal if invoice.subtotal is not None else lines_total - invoice.discount
    expected = subtotal + invoice.tax + invoice.round_off
    slack = max(tolerances.total_abs, abs(expected) * tolerances.total_pct / HUNDRED)
    in_words = invoice.total_in_words
    words_agree = in_words is None or abs(in_words - invoice.total) <= tolerances.total_abs
    lines_agree = abs(lines_total - invoice.discount - subtotal) <= tolerances.total_abs
    ok = lines_agree and abs(invoice.total - expected) <= slack and words_agree
    return TotalsMatch(lines_total=lines_total, subtotal=subtotal, tax=invoice.tax, discount=invoice.discount,
                       round_off=invoice.round_off,
                       total=invoice.total, expected_total=expected, total_in_words=in_words, ok=ok)


def _billed_before(receipts: list[GoodsReceipt], vendor_id: str, invoice: Invoice,
                   view: list[LedgerEntry]) -> dict[int, list[tuple[str, Decimal]]]:
    """Per PO line: the earlier invoices (other than this one) that billed these receipts, with quantities."""
    grns = {g.grn_number for g in receipts}
    key = normalise_number(invoice.invoice_number)
    found: dict[int, list[tuple[str, Decimal]]] = {}
    for entry in view:
        if entry.vendor_id != vendor_id or entry.number_key == key or entry.status in ("rejected", "superseded"):
            continue
        for billed in entry.billed:
            if billed.grn_number in grns:
                found.setdefault(billed.po_line, []).append((entry.invoice_number, billed.quantity))
    return found


def _allocate(receipts: list[GoodsReceipt], lines: list[LineMatch]) -> list[BilledLine]:
    """Spread each line's invoiced quantity over the receipts of its PO line, oldest receipt first,
    after what earlier invoices already took."""
    billed: list[BilledLine] = []
    for line in lines:
        if line.po_line is None:
            continue
        skip, wanted = line.billed_before, line.invoiced_quantity
        for grn in sorted(receipts, key=lambda g: g.received_on):
            for grn_line in grn.lines:
                if grn_line.po_line != line.po_line or wanted <= 0:
                    continue
                free = grn_line.quantity_received - min(skip, grn_line.quantity_received)
                skip -= min(skip, grn_line.quantity_received)
                take = min(free, wanted)
                if take > 0:
                    billed.append(BilledLine(grn_number=grn.grn_number, po_line=line.po_line, quantity=take))
                    wanted -= take
    return billed


def three_way_match(
    invoice: Invoice, ledger: Ledger, tolerances: Tolerances, vendor_id: str | None,
    view: list[LedgerEntry] | None = None,
) -> MatchResult:
    """Match the invoice line by line against its PO and what its goods receipts still have unbilled.

    The received quantity is consumed: what earlier invoices in the ledger view billed against the same
    receipts is subtracted, and billing a receipt again is its own issue, naming the earlier invoice.
    """
    totals = _totals(invoice, tolerances)
    po = ledger.purchase_order(invoice.po_number, vendor_id)
    # A PO raised on another vendor is no PO for this one, and a vendor not in the master has none.
    if po is None or po.vendor_id != vendor_id:
        return MatchResult(status="no_po", po_number=invoice.po_number, totals=totals,
                           candidates=ledger.nearest_pos(invoice.po_number, vendor_id))
    receipts = ledger.receipts_for(po.po_number)
    earlier = _billed_before(receipts, po.vendor_id, invoice, view or [])
    received: dict[int, Decimal] = {}
    for grn in receipts:
        for grn_line in grn.lines:
            received[grn_line.po_line] = received.get(grn_line.po_line, Decimal("0")) + grn_line.quantity_received
    used: set[int] = set()
    lines: list[LineMatch] = []
    for number, line in enumerate(invoice.lines, start=1):
        po_line = _find_po_line(line, po.lines, used)
        if po_line is None:
            lines.append(LineMatch(line=number, description=line.description, sku=line.sku, po_line=None,
                                   invoiced_quantity=line.quantity, invoiced_unit_price=line.unit_price,
                                   invoiced_amount=line.amount, issues=["LINE_NOT_ON_PO"]))
            continue
        used.add(po_line.line_no)
        got = received.get(po_line.line_no, Decimal("0"))
        before = earlier.get(po_line.line_no, [])
        already = sum((q for _, q in before), Decimal("0"))
        issues: list[Issue] = []
        slack = 1 + tolerances.quantity_pct / HUNDRED
        if line.quantity > min(po_line.quantity, got) * slack:
            issues.append("QUANTITY_MISMATCH")
        elif already > 0 and line.quantity > max(min(po_line.quantity, got) - already, Decimal("0")) * slack:
            issues.append("RECEIPT_ALREADY_BILLED")
        if not _within(line.unit_price, po_line.unit_price, tolerances.unit_price_pct):
            issues.append("PRICE_MISMATCH")
        if abs(line.quantity * line.unit_price - line.amount) > tolerances.total_abs:
            issues.append("TOTAL_MISMATCH")
        lines.append(LineMatch(
            line=number, description=line.description, sku=po_line.sku, po_line=po_line.line_no,
            invoiced_quantity=line.quantity, ordered_quantity=po_line.quantity, received_quantity=got,
            invoiced_unit_price=line.unit_price, po_unit_price=po_line.unit_price, invoiced_amount=line.amount,
            billed_before=already, billed_by=list(dict.fromkeys(number for number, _ in before)), issues=issues,
        ))
    if not receipts:
        status: MatchStatus = "no_grn"
    elif all(line.ok for line in lines) and totals.ok:
        status = "matched"
    else:
        status = "mismatch"
    return MatchResult(status=status, po_number=po.po_number, grn_numbers=[g.grn_number for g in receipts],
                       lines=lines, totals=totals, billed=_allocate(receipts, lines))
