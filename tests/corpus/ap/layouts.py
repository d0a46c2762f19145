"""How the common Indian billing programs lay an invoice out, as text: Tally, Zoho Books, Busy, Marg, hand-made.

Each layout takes one invoice spec (make_corpus.py) and returns the lines the program would print. The
figures are computed the way the programs compute them (line amounts, CGST/SGST or IGST per rate, cess,
round-off to the rupee), then printed with Indian digit grouping and the total in words.
"""

import textwrap
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

P = Decimal("0.01")
BUYER = ("Kaveri Agri Inputs Pvt Ltd", "36AAGCK1234E1ZX", "Plot 7, Phase II, IDA Cherlapally, Hyderabad 500051")


@dataclass
class Line:
    description: str
    hsn: str
    quantity: Decimal
    unit: str
    rate: Decimal
    gst: Decimal

    @property
    def amount(self) -> Decimal:
        return (self.quantity * self.rate).quantize(P, ROUND_HALF_UP)


@dataclass
class Seller:
    name: str
    address: list[str]
    gstin: str
    state: str
    phone: str
    bank_name: str
    account: str
    ifsc: str
    branch: str


@dataclass
class Spec:
    seller: Seller
    number: str
    day: date
    po: str | None
    lines: list[Line]
    cess_pct: Decimal = Decimal(0)
    discount: Decimal = Decimal(0)
    """Taken off the whole invoice before tax (only the hand-typed invoices print one)."""
    rounding: bool = True
    total_error: Decimal = Decimal(0)
    """A vendor's arithmetic slip: added to the printed total (and its words)."""
    account: str | None = None
    ifsc: str | None = None
    extra: list[str] = field(default_factory=list)

    @property
    def interstate(self) -> bool:
        return self.seller.gstin[:2] != BUYER[1][:2]

    @property
    def taxable(self) -> Decimal:
        return sum((ln.amount for ln in self.lines), Decimal(0)) - self.discount

    def taxes(self) -> list[tuple[str, Decimal, Decimal]]:
        """(name, rate, amount) per tax and rate, in the order programs print them."""
        by_rate: dict[Decimal, Decimal] = {}
        share = self.taxable / (self.taxable + self.discount) if self.discount else Decimal(1)
        for line in self.lines:
            by_rate[line.gst] = by_rate.get(line.gst, Decimal(0)) + line.amount * share
        out: list[tuple[str, Decimal, Decimal]] = []
        for rate, base in sorted(by_rate.items()):
            if self.interstate:
                out.append(("IGST", rate, (base * rate / 100).quantize(P, ROUND_HALF_UP)))
            else:
                half = rate / 2
                amount = (base * half / 100).quantize(P, ROUND_HALF_UP)
                out += [("CGST", half, amount), ("SGST", half, amount)]
        if self.cess_pct:
            out.append(("Cess", self.cess_pct, (self.taxable * self.cess_pct / 100).quantize(P, ROUND_HALF_UP)))
        return out

    @property
    def tax(self) -> Decimal:
        return sum((t[2] for t in self.taxes()), Decimal(0))

    @property
    def round_off(self) -> Decimal:
        raw = self.taxable + self.tax
        return (raw.quantize(Decimal(1), ROUND_HALF_UP) - raw) if self.rounding else Decimal(0)

    @property
    def total(self) -> Decimal:
        return self.taxable + self.tax + self.round_off + self.total_error

    @property
    def bank_account(self) -> str:
        return self.account or self.seller.account

    @property
    def bank_ifsc(self) -> str:
        return self.ifsc or self.seller.ifsc


def inr(value: Decimal) -> str:
    sign = "-" if value < 0 else ""
    whole, _, paise = f"{abs(value):.2f}".partition(".")
    head, tail = whole[:-3], whole[-3:]
    groups: list[str] = []
    while len(head) > 2:
        groups.insert(0, head[-2:])
        head = head[:-2]
    if head:
        groups.insert(0, head)
    return sign + ",".join([*groups, tail]) + "." + paise


_ONES = ["Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen"]
_TENS = ["_", "_", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"]


def _below_hundred(n: int, hyphen: bool) -> str:
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + (("-" if hyphen else " ") + _ONES[ones] if ones else "")


def words(n: int, hyphen: bool = False) -> str:
    """An integer in words, the Indian way (crore, lakh, thousand, hundred)."""
    parts: list[str] = []
    for size, name in ((10_000_000, "Crore"), (100_000, "Lakh"), (1000, "Thousand"), (100, "Hundred")):
        count, n = divmod(n, size)
        if count:
            parts.append(f"{words(count, hyphen) if count >= 100 else _below_hundred(count, hyphen)} {name}")
    if n:
        parts.append(_below_hundred(n, hyphen))
    return " ".join(parts) or "Zero"


def amount_words(value: Decimal, hyphen: bool = False) -> str:
    rupees, paise = divmod(int((value * 100).to_integral_value()), 100)
    text = words(rupees, hyphen)
    return text + (f" and {_below_hundred(paise, hyphen)} Paise" if paise else "")


def qty(value: Decimal, places: int = 0) -> str:
    return f"{value:.{places}f}"


def _tally_tax_summary(spec: Spec) -> list[str]:
    """Tally's HSN/SAC summary: Central and State Tax columns (or Integrated Tax), then a Total row."""
    split = not spec.interstate
    heads = ("Central Tax", "State Tax") if split else ("Integrated Tax",)
    out = [f"{'HSN/SAC':<12}{'Taxable':>14}" + "".join(f"{h:>22}" for h in heads) + f"{'Total':>14}",
           f"{'':<12}{'Value':>14}" + "".join(f"{'Rate':>8}{'Amount':>14}" for _ in heads) + f"{'Tax Amount':>14}"]
    for line in spec.lines:
        rate = line.gst / 2 if split else line.gst
        tax = (line.amount * rate / 100).quantize(P, ROUND_HALF_UP)
        cells = "".join(f"{f'{rate.normalize():f}%':>8}{inr(tax):>14}" for _ in heads)
        out.append(f"{line.hsn:<12}{inr(line.amount):>14}{cells}{inr(tax * len(heads)):>14}")
    gst = sum((t[2] for t in spec.taxes() if t[0] != "Cess"), Decimal(0))
    each = gst / len(heads)
    out.append(f"{'Total':<12}{inr(spec.taxable):>14}" + "".join(f"{'':>8}{inr(each):>14}" for _ in heads)
               + f"{inr(gst):>14}")
    return out


def tally(spec: Spec) -> list[str]:
    s = spec.seller
    w = 96
    out = ["Tax Invoice".center(w), "(ORIGINAL FOR RECIPIENT)".rjust(w), ""]
    left = [part for text in (s.name, *s.address, f"GSTIN/UIN: {s.gstin}", f"State Name : {s.state}")
            for part in textwrap.wrap(text, 42)]
    right = [("Invoice No.", "Dated"), (spec.number, f"{spec.day:%d-%b-%y}"),
             ("Delivery Note", "Mode/Terms of Payment"), ("", "30 Days"),
             ("Buyer's Order No.", "Dated"), (spec.po or "", f"{spec.day.replace(day=max(1, spec.day.day - 6)):%d-%b-%y}"),
             ("Dispatch Doc No.", "Delivery Note Date"), (f"DN-{spec.day:%m%d}", f"{spec.day:%d-%b-%y}")]
    for i in range(max(len(left), len(right))):
        left_text = left[i] if i < len(left) else ""
        a, b = right[i] if i < len(right) else ("", "")
        out.append(f"{left_text:<44}{a:<26}{b}".rstrip())
    out += ["Buyer (Bill to)", BUYER[0], BUYER[2], f"GSTIN/UIN      : {BUYER[1]}", "-" * w,
            f"{'Sl':<4}{'Description of Goods':<30}{'HSN/SAC':<10}{'GST':>5}{'Quantity':>13}{'Rate':>12}{'per':>5}{'Amount':>16}",
            f"{'No.':<4}{'':<30}{'':<10}{'Rate':>5}"]
    for n, line in enumerate(spec.lines, 1):
        q = f"{qty(line.quantity, 3)} {line.unit}"
        out.append(f"{n:<4}{line.description:<30}{line.hsn:<10}{qty(line.gst):>3} % {q:>13} {inr(line.rate):>12} "
                   f"{line.unit:>5} {inr(line.amount):>16}")
    out.append(f"{'':>80}{'-' * 16}")
    out.append(f"{'':>80}{inr(spec.taxable):>16}")
    for name, rate, amount in spec.taxes():
        label = f"Output {name} @ {rate.normalize():f}%" if name != "Cess" else f"Compensation Cess @ {rate.normalize():f}%"
        out.append(f"    {label:<76}{inr(amount):>16}")
    if spec.round_off:
        sign = "(-)" if spec.round_off < 0 else ""
        label = "Less : Round Off" if spec.round_off < 0 else "Add : Round Off"
        out.append(f"    {label:<76}{sign + inr(abs(spec.round_off)):>16}")
    total_qty = sum((ln.quantity for ln in spec.lines), Decimal(0))
    units = {ln.unit for ln in spec.lines}
    shown_qty = f"{qty(total_qty, 3)} {units.pop()}" if len(units) == 1 else ""
    out += ["-" * w, f"    {'Total':<40}{shown_qty:>15}{'':<21}{'₹ ' + inr(spec.total):>16}",
            f"{'Amount Chargeable (in words)':<80}{'E. & O.E':>16}",
            f"INR {amount_words(spec.total)} Only", "",
            *_tally_tax_summary(spec)]
    out += [f"Tax Amount (in words) : INR {amount_words(spec.tax)} Only", "", "Company's Bank Details",
            f"Bank Name          : {s.bank_name}", f"A/c No.            : {spec.bank_account}",
            f"Branch & IFS Code  : {s.branch} & {spec.bank_ifsc}", *spec.extra,
            f"{'for ' + s.name:>{w}}", f"{'Authorised Signatory':>{w}}", "This is a Computer Generated Invoice".center(w)]
    return out


def zoho(spec: Spec) -> list[str]:
    s = spec.seller
    out = [f"{s.name:<60}TAX INVOICE", *s.address, f"GSTIN {s.gstin}", f"{'':<60}Invoice# : {spec.number}", "",
           "Bill To", BUYER[0], BUYER[2], f"GSTIN {BUYER[1]}", "",
           f"{'Invoice Date':<14}: {spec.day:%d/%m/%Y}", f"{'Terms':<14}: Net 30",
           f"{'Due Date':<14}: {spec.day.replace(day=min(28, spec.day.day)):%d}/{(spec.day.month % 12) + 1:02d}/{spec.day.year}"]
    if spec.po:
        out.append(f"{'P.O.#':<14}: {spec.po}")
    out.append(f"{'Place Of Supply':<14}: Telangana (36)")
    tax_cols = "IGST" if spec.interstate else "CGST        SGST"
    out += ["", f"{'#':<3}{'Item & Description':<32}{'HSN/SAC':<10}{'Qty':>14}{'Rate':>12}  {tax_cols}{'Amount':>16}"]
    for n, line in enumerate(spec.lines, 1):
        if spec.interstate:
            t = (line.amount * line.gst / 100).quantize(P, ROUND_HALF_UP)
            taxes = f"{qty(line.gst)}% {inr(t)}"
        else:
            t = (line.amount * line.gst / 200).quantize(P, ROUND_HALF_UP)
            taxes = f"{(line.gst / 2).normalize():f}% {inr(t)}  {(line.gst / 2).normalize():f}% {inr(t)}"
        out.append(f"{n:<3}{line.description:<32}{line.hsn:<10}{qty(line.quantity, 2) + ' ' + line.unit:>14} "
                   f"{inr(line.rate):>12}  {taxes}  {inr(line.amount):>14}")
    out += ["", f"{'':<40}{'Sub Total':<26}{inr(spec.taxable):>16}"]
    for name, rate, amount in spec.taxes():
        out.append(f"{'':<40}{name}{rate.normalize():f} ({rate.normalize():f}%){'':<14}{inr(amount):>16}")
    if spec.round_off:
        out.append(f"{'':<40}{'Rounding':<26}{inr(spec.round_off):>16}")
    out += [f"{'':<40}{'Total':<26}{'₹' + inr(spec.total):>16}", f"{'':<40}{'Balance Due':<26}{'₹' + inr(spec.total):>16}",
            "", "Total In Words", f"Indian Rupee {amount_words(spec.total, hyphen=True)} Only", "", "Notes",
            "Thanks for your business.", *spec.extra, "Payment Options: Bank Transfer",
            f"Account Name: {s.name}", f"Account Number: {spec.bank_account}", f"IFSC: {spec.bank_ifsc}",
            f"Bank: {s.bank_name}, {s.branch}", "", "Authorized Signature"]
    return out


def busy(spec: Spec) -> list[str]:
    s = spec.seller
    w = 88
    out = ["GST INVOICE".center(w), s.name.upper(), *s.address, f"GSTIN : {s.gstin}    Ph. {s.phone}", "-" * w,
           f"{'Bill No.':<14}: {spec.number:<26}{'Bill Date':<10}: {spec.day:%d.%m.%Y}",
           f"{'Party':<14}: {BUYER[0]}", f"{'Party GSTIN':<14}: {BUYER[1]}"]
    if spec.po:
        out.append(f"{'Order No.':<14}: {spec.po:<26}{'Order Dt.':<10}: {spec.day.replace(day=max(1, spec.day.day - 9)):%d.%m.%Y}")
    out += [f"{'Place of Supply':<14}: Telangana (36)", "-" * w,
            f"{'S.N.':<6}{'Description of Goods':<30}{'HSN/SAC':<10}{'Qty.':>9}  {'Unit':<6}{'Price':>11}{'Amount(Rs.)':>14}",
            "-" * w]
    for n, line in enumerate(spec.lines, 1):
        out.append(f"{str(n) + '.':<6}{line.description:<30}{line.hsn:<10}{qty(line.quantity, 2):>9}  {line.unit:<6}"
                   f"{inr(line.rate):>11} {inr(line.amount):>14}")
    out += ["-" * w, f"{'':<40}{'Sub Total':<30}: {inr(spec.taxable):>14}"]
    for name, rate, amount in spec.taxes():
        out.append(f"{'':<40}{'Add : ' + name + ' @ ' + f'{rate:.2f}' + ' %':<30}: {inr(amount):>14}")
    if spec.rounding:
        sign = "(-)" if spec.round_off < 0 else "(+)"
        out.append(f"{'':<40}{'Rounded Off ' + sign:<30}: {inr(abs(spec.round_off)):>14}")
    out += [f"{'':<40}{'Grand Total':<30}: {inr(spec.total):>14}", "-" * w,
            f"Rs. {amount_words(spec.total)} Only", *spec.extra,
            f"Bank : {s.bank_name}, A/c No. {spec.bank_account}, IFSC : {spec.bank_ifsc}",
            "Terms & Conditions : E.& O.E.", "1. Goods once sold will not be taken back.",
            "2. Interest @ 18% p.a. will be charged if bill is not paid within due date.",
            f"{'For ' + s.name.upper():>{w}}", f"{'Authorised Signatory':>{w}}"]
    return out


def marg(spec: Spec) -> list[str]:
    s = spec.seller
    w = 110
    out = [f"{s.name.upper():<62}GST INVOICE", f"{s.address[0]:<62}Invoice No.: {spec.number}",
           f"{'Ph: ' + s.phone:<62}Date       : {spec.day:%d/%m/%Y}",
           f"{'GSTIN: ' + s.gstin:<62}" + (f"PO No.     : {spec.po}" if spec.po else ""),
           f"M/S {BUYER[0]}, {BUYER[2]}", f"Party GSTIN: {BUYER[1]}", "-" * w,
           f"{'SN.':<4}{'PRODUCT NAME':<28}{'PACK':<8}{'HSN':<10}{'BATCH':<8}{'EXP':<7}{'QTY':>6}{'FREE':>5}{'MRP':>10}"
           f"{'RATE':>10}{'DIS%':>6}{'GST%':>6}{'AMOUNT':>12}", "-" * w]
    for n, line in enumerate(spec.lines, 1):
        pack, batch = ("1 " + line.unit, f"B{spec.day:%y%m}{n}")
        mrp = (line.rate * Decimal("1.27")).quantize(P)
        out.append(f"{n:<4}{line.description:<28}{pack:<8}{line.hsn:<10}{batch:<8}{'03/28':<7}{qty(line.quantity):>6} "
                   f"{'0':>4} {inr(mrp):>10} {inr(line.rate):>10} {'0.00':>5} {f'{line.gst:.2f}':>5} {inr(line.amount):>12}")
    out += ["-" * w, f"{'':<70}{'GROSS AMT':<15}: {inr(spec.taxable):>12}", f"{'':<70}{'LESS DISCOUNT':<15}: {'0.00':>12}",
            f"{'':<70}{'TAXABLE AMT':<15}: {inr(spec.taxable):>12}"]
    for name, rate, amount in spec.taxes():
        out.append(f"{'':<70}{name + ' ' + f'{rate.normalize():f}' + '%':<15}: {inr(amount):>12}")
    if spec.rounding:
        out.append(f"{'':<70}{'R/OFF':<15}: {('-' if spec.round_off < 0 else '') + inr(abs(spec.round_off)):>12}")
    out += [f"{'':<70}{'NET AMOUNT':<15}: {inr(spec.total):>12}", f"Rs. {amount_words(spec.total)} Only", *spec.extra,
            f"OUR BANK: {s.bank_name}  A/C NO: {spec.bank_account}  IFSC: {spec.bank_ifsc}",
            "Goods once sold will not be taken back. Subject to Rajahmundry Jurisdiction.", f"For {s.name.upper()}"]
    return out


def hand(spec: Spec) -> list[str]:
    s = spec.seller
    out = [s.name.upper(), ", ".join(s.address), f"Cell: {s.phone}   GSTIN: {s.gstin}", "", "INVOICE", "", "To,",
           f"M/s {BUYER[0]}", "Hyderabad", "", f"Invoice Number: {spec.number}        Date: {spec.day.day} {spec.day:%B %Y}"]
    if spec.po:
        out.append(f"Your PO: {spec.po}")
    out += ["", "Sl.No | Particulars                  | Qty       | Rate      | Amount"]
    for n, line in enumerate(spec.lines, 1):
        out.append(f"{n:<6}| {line.description:<28} | {qty(line.quantity) + ' ' + line.unit:<9} | {inr(line.rate):>9} | "
                   f"{inr(line.amount):>10}")
    out.append(f"{'':<40}Total          {inr(spec.taxable):>12}")
    for name, rate, amount in spec.taxes():
        out.append(f"{'':<40}{name} {rate.normalize():f}%{'':<8}{inr(amount):>12}")
    if spec.round_off:
        out.append(f"{'':<40}Round off      {inr(spec.round_off):>12}")
    out += [f"{'':<40}Grand Total    {inr(spec.total):>12}", f"Rupees {amount_words(spec.total)} only.", *spec.extra,
            f"Bank: {s.bank_name}, {s.branch} Br.", f"A/c No {spec.bank_account}   IFSC {spec.bank_ifsc}", "",
            f"For {s.name}", "Proprietor"]
    return out


LAYOUTS = {"tally": tally, "zoho": zoho, "busy": busy, "marg": marg, "hand": hand}
