"""Write AP corpus batch 3: invoices3/*.txt, ledger3.json and expected3.json.

    python -m tests.corpus.ap.make_batch3

Batch 3 was written by a third author before reading the reader (handlers/ap/text*.py), the matcher or the
rules: twelve new vendors and a stranger, each printing the way its billing tool does (TallyPrime, Zoho Books,
Busy, Marg, Vyapar, myBillBook, ERPNext, an IRN e-invoice, Word invoices typed by hand), with a credit note and
a proforma that are not invoices to pay. The figures are worked out here so the printed arithmetic is right
(except where a case is about a wrong figure); the expected decision is the one a careful AP clerk would take
from the scenario, written before any rule was run. Nothing here imports handlers/.
"""

import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from tests.corpus.ap.batch3_money import indian, q, western, words

ROOT = Path(__file__).resolve().parent
D = Decimal
BUYER = ("Kaveri Agri Inputs Pvt Ltd", "36AAGCK1234E1ZX")
BUYER_ADDR = ["Survey No. 88, Shamshabad Road", "Hyderabad, Telangana - 501218"]


@dataclass
class Vendor:
    vid: str | None
    name: str
    addr: list[str]
    gstin: str
    state: str
    phone: str
    bank: str
    account: str
    ifsc: str
    branch: str
    paid: int
    contact: str = "Accounts"

    @property
    def code(self) -> str:
        return self.gstin[:2]


VENDORS = {
    "V201": Vendor("V201", "Sri Sai Durga Agencies", ["Plot 14, IDA Cherlapally", "Hyderabad - 500051"],
                   "36ABCFS1234K1Z8", "Telangana", "040 2726 4410", "State Bank of India", "62104455871",
                   "SBIN0020345", "Malkajgiri", 6, "G. Durga Prasad"),
    "V202": Vendor("V202", "Bhavani Fertilisers & Chemicals", ["D.No. 4-17-30, Arundelpet", "Guntur - 522002"],
                   "37AAKFB6612M1Z5", "Andhra Pradesh", "0863 223 5567", "Canara Bank", "1234101009876",
                   "CNRB0001234", "Arundelpet", 5, "B. Nagamani"),
    "V203": Vendor("V203", "Kakatiya Pipes & Fittings", ["H.No. 2-5-118, Subedari", "Hanamkonda, Warangal 506001"],
                   "36AAQFK2291D1Z8", "Telangana", "0870 255 8821", "Union Bank of India", "072311100004512",
                   "UBIN0807231", "Hanamkonda", 4, "K. Ravinder"),
    "V204": Vendor("V204", "Nirmal Polysacks Pvt Ltd", ["Survey No. 311, Dichpally Road", "Nizamabad, Telangana 503175"],
                   "36AAECN5521R1ZZ", "Telangana", "08462 228 901", "HDFC Bank", "50200078812345", "HDFC0001891",
                   "Nizamabad", 7, "Sowmya N."),
    "V205": Vendor("V205", "Shree Ganesh Seeds Corporation", ["Old Mondha, Jalna", "Maharashtra 431203"],
                   "27AAJFS7710Q1ZH", "Maharashtra", "02482 230 411", "Bank of Maharashtra", "60212345678",
                   "MAHB0000412", "Jalna Main", 3, "Sachin Bhosale"),
    "V206": Vendor("V206", "Rayalaseema Agri Tools", ["Shop 7, Market Yard, Kurnool 518002"],
                   "37ABRPR4410K1Z7", "Andhra Pradesh", "94401 22871", "ICICI Bank", "117405000321", "ICIC0001174",
                   "Kurnool", 2, "R. Mallikarjuna"),
    "V207": Vendor("V207", "Vasudha Bio Organics LLP", ["No. 42, 2nd Phase, Peenya Industrial Area",
                                                        "Bengaluru, Karnataka 560058"],
                   "29AAPFV8833E1ZJ", "Karnataka", "080 4126 7788", "Kotak Mahindra Bank", "9912345678",
                   "KKBK0008041", "Peenya", 5, "Deepa K."),
    "V208": Vendor("V208", "Telangana Tarpaulins & Covers", ["6-3-1109, Somajiguda", "Hyderabad 500082"],
                   "36AAHFT5567J1ZM", "Telangana", "040 2331 0905", "Federal Bank", "15520200012345", "FDRL0001552",
                   "Somajiguda", 0, "Imran Khan"),
    "V209": Vendor("V209", "Sree Venkata Krishna Electricals", ["27-14-60, Museum Road", "Vijayawada 520002"],
                   "37BKVPS9021L1Z7", "Andhra Pradesh", "0866 247 3321", "Indian Bank", "6789012345",
                   "IDIB000V047", "Governorpet", 4, "S. Venkata Krishna"),
    "V210": Vendor("V210", "Annadata Sprayers Pvt Ltd", ["Plot 118, GIDC Metoda", "Rajkot, Gujarat 360021"],
                   "24AAGCA3318H1Z1", "Gujarat", "0281 238 7710", "Bank of Baroda", "29470200001234", "BARB0METODA",
                   "Metoda", 0, "Hitesh Patel"),
    "V211": Vendor("V211", "Pragati Labels & Printers", ["1-8-702, Chikkadpally", "Secunderabad 500020"],
                   "36AAIFP7701N1ZT", "Telangana", "040 2766 1290", "ICICI Bank", "123405001234", "ICIC0001234",
                   "Chikkadpally", 3, "P. Anitha"),
    "V212": Vendor("V212", "Deccan Weighing Systems", ["Shed 9, Balanagar Industrial Estate", "Hyderabad 500037"],
                   "36AAKFD4450G1ZI", "Telangana", "040 2377 9015", "Axis Bank", "917020045566778", "UTIB0002231",
                   "Balanagar", 4, "Md. Azharuddin"),
}
STRANGER = Vendor(None, "Siddhi Vinayak Enterprises", ["Gut No. 55, Chikalthana MIDC", "Aurangabad 431006"],
                  "27BQXPS1188R1ZE", "Maharashtra", "0240 248 1122", "Saraswat Bank", "610000012345678",
                  "SRCB0000061", "Chikalthana", 0)


@dataclass
class Item:
    desc: str
    hsn: str
    qty: Decimal
    unit: str
    rate: Decimal  # net of tax and of any line discount: what the PO compares
    gst: Decimal
    list_rate: Decimal | None = None  # printed rate before a line discount
    disc: Decimal | None = None  # line discount %

    @property
    def amount(self) -> Decimal:
        return q(self.qty * self.rate)

    @property
    def incl_rate(self) -> Decimal:
        return q(self.rate * (1 + self.gst / 100))


def I(desc: str, hsn: str, qty: str, unit: str, rate: str, gst: str = "18", disc: str | None = None) -> Item:
    if disc is None:
        return Item(desc, hsn, D(qty), unit, D(rate), D(gst))
    net = q(D(rate) * (1 - D(disc) / 100))
    return Item(desc, hsn, D(qty), unit, net, D(gst), D(rate), D(disc))


@dataclass
class Case:
    id: str
    vendor: str  # vendor id, or "STRANGER"
    layout: str
    fmt: str
    number: str
    day: date
    items: list[Item]
    po: str | None
    decision: str = "APPROVE"
    flags: list[str] = field(default_factory=list)
    note: str = ""
    po_rates: dict[int, Decimal] = field(default_factory=dict)  # PO price where it differs from the invoice
    received: dict[int, Decimal] = field(default_factory=dict)  # GRN quantity where it differs from the invoice
    grn: bool = True
    in_ledger: bool = True  # the PO is in our ledger
    bank: str = "master"  # master | none | other
    discount: Decimal = D("0")  # invoice-level
    rounding: bool = True
    tax_typo: Decimal = D("0")  # added to each printed CGST/SGST (or IGST) figure, the total left right
    kind: str = "invoice"  # invoice | credit_note | proforma
    quirk: str = ""

    @property
    def v(self) -> Vendor:
        return STRANGER if self.vendor == "STRANGER" else VENDORS[self.vendor]

    @property
    def inter(self) -> bool:
        return self.v.code != "36"

    @property
    def lines_total(self) -> Decimal:
        return sum((i.amount for i in self.items), D("0"))

    @property
    def taxable(self) -> Decimal:
        return self.lines_total - self.discount

    def tax_by_rate(self) -> dict[Decimal, tuple[Decimal, Decimal]]:
        """GST rate -> (taxable value, tax at that rate, before any typo)."""
        out: dict[Decimal, tuple[Decimal, Decimal]] = {}
        share = self.discount / self.lines_total if self.lines_total else D(0)
        for item in self.items:
            base = q(item.amount * (1 - share)) if self.discount else item.amount
            old = out.get(item.gst, (D(0), D(0)))
            out[item.gst] = (old[0] + base, D(0))
        result = {}
        for rate, (base, _) in out.items():
            if self.inter:
                result[rate] = (base, q(base * rate / 100))
            else:
                half = q(base * rate / 200)
                result[rate] = (base, half * 2)
        return result

    @property
    def true_tax(self) -> Decimal:
        return sum((t for _, t in self.tax_by_rate().values()), D(0))

    @property
    def printed_tax(self) -> Decimal:
        heads = 1 if self.inter else 2
        return self.true_tax + self.tax_typo * heads * len(self.tax_by_rate())

    @property
    def gross(self) -> Decimal:
        return self.taxable + self.true_tax

    @property
    def total(self) -> Decimal:
        return q(self.gross).quantize(D("1"), rounding="ROUND_HALF_UP") if self.rounding else self.gross

    @property
    def round_off(self) -> Decimal:
        return self.total - self.gross

    @property
    def printed_bank(self) -> tuple[str, str] | None:
        if self.bank == "none":
            return None
        if self.bank == "other":
            return OTHER_BANKS[self.id]
        return self.v.account, self.v.ifsc


OTHER_BANKS = {"ap3-26": ("50100443322110", "HDFC0004410")}


def dmy(d: date, sep: str = "-") -> str:
    return d.strftime(f"%d{sep}%m{sep}%Y")


def tally_date(d: date) -> str:
    return f"{d.day}-{d.strftime('%b-%y')}"


def qty_text(n: Decimal) -> str:
    text = f"{n:f}"
    return text


def pad(text: str, width: int, right: bool = False) -> str:
    return text.rjust(width) if right else text.ljust(width)


# ---------------------------------------------------------------- layouts


def tally(c: Case) -> list[str]:
    v = c.v
    irn = c.quirk == "irn"
    out = []
    if irn:
        out += ["IRN       : 8b1f0c6e2d4a9b7738e5f1c20a6d9e4b3c7f8a1d2e5b6c9f0a3d4e7b8c1f2a5d",
                "Ack No.   : 112621789045673",
                f"Ack Date  : {tally_date(c.day + timedelta(days=1))}", "                                        [e-Invoice QR]", ""]
    out += ["                                   TAX INVOICE                     (ORIGINAL FOR RECIPIENT)",
            "-" * 96,
            f"{pad(v.name, 48)}| Invoice No.            | Dated",
            f"{pad(v.addr[0], 48)}| {pad(c.number, 23)}| {tally_date(c.day)}",
            f"{pad(v.addr[-1] if len(v.addr) > 1 else '', 48)}| Delivery Note          | Mode/Terms of Payment",
            f"{pad('GSTIN/UIN: ' + v.gstin, 48)}|                        | 30 Days",
            f"{pad(f'State Name : {v.state}, Code : {v.code}', 48)}| Buyer's Order No.      | Dated",
            f"{pad('Contact : ' + v.phone, 48)}| {pad(c.po or '', 23)}| {tally_date(c.day - timedelta(days=14))}",
            f"{'-' * 48}| Dispatch Doc No.       | Delivery Note Date",
            f"{pad('Buyer (Bill to)', 48)}| DC-{c.id[-2:]:<20}| {tally_date(c.day)}",
            f"{pad(BUYER[0], 48)}| Dispatched through     | Destination",
            f"{pad(BUYER_ADDR[0], 48)}| By Road                | Shamshabad",
            f"{pad(BUYER_ADDR[1], 48)}|",
            f"{pad('GSTIN/UIN    : ' + BUYER[1], 48)}|",
            f"{pad('State Name   : Telangana, Code : 36', 48)}|",
            "-" * 96,
            "Sl | Description of Goods                | HSN/SAC  |    Quantity |      Rate | per  |       Amount",
            "No.|                                     |          |             |          |      |",
            "-" * 96]
    per_page = 5 if c.quirk == "pages" else 99
    for n, it in enumerate(c.items, 1):
        if n > 1 and (n - 1) % per_page == 0:
            carried = sum((i.amount for i in c.items[:n - 1]), D(0))
            out += [f"   | {'continued to page 2':>35} |          |             |           |      | {indian(carried):>12}",
                    "-" * 96, "", "                                   TAX INVOICE                        Page 2",
                    f"Invoice No. {c.number}        Dated {tally_date(c.day)}", "-" * 96,
                    "Sl | Description of Goods                | HSN/SAC  |    Quantity |      Rate | per  |       Amount",
                    "-" * 96,
                    f"   | {'Brought forward':>35} |          |             |           |      | {indian(carried):>12}"]
        q_ = f"{qty_text(it.qty)} {it.unit}"
        out.append(f"{n:>2} | {pad(it.desc, 35)} | {pad(it.hsn, 8)} | {q_:>11} | {indian(it.rate):>9} | "
                   f"{pad(it.unit, 4)} | {indian(it.amount):>12}")
    out.append(f"   | {'':35} |          |             |           |      | {'-' * 12}")
    out.append(f"   | {'':35} |          |             |           |      | {indian(c.lines_total):>12}")
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        if c.inter:
            out.append(f"   | {'IGST @ ' + f'{rate:f}' + '%':>35} |          |             |           |      | "
                       f"{indian(tax + c.tax_typo):>12}")
        else:
            for head in ("CGST", "SGST"):
                out.append(f"   | {head + ' @ ' + f'{rate / 2:f}' + '%':>35} |          |             |           |      | "
                           f"{indian(tax / 2 + c.tax_typo):>12}")
    if c.round_off:
        sign = "(-)" if c.round_off < 0 else ""
        out.append(f"   | {'Round Off':>35} |          |             |           |      | {sign + indian(abs(c.round_off)):>12}")
    units = {i.unit for i in c.items}
    tq = f"{qty_text(sum((i.qty for i in c.items), D(0)))} {c.items[0].unit}" if len(units) == 1 else ""
    out += ["-" * 96,
            f"   | {'Total':>35} |          | {tq:>11} |          |      | ₹ {indian(c.total)}",
            "-" * 96,
            "Amount Chargeable (in words)                                                     E. & O.E",
            f"INR {words(c.total)} Only", "",
            "Tax Rate     Taxable Value" + ("     Integrated Tax  Rate   Amount" if c.inter else
                                            "   Central Tax Rate  Amount   State Tax Rate  Amount") + "   Total Tax Amount"]
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        hsn = f"GST {rate:f}%"
        if c.inter:
            out.append(f"{pad(hsn, 12)} {indian(base):>13}            {rate:f}%  {indian(tax):>10}   {indian(tax):>14}")
        else:
            out.append(f"{pad(hsn, 12)} {indian(base):>13}   {rate / 2:f}%  {indian(tax / 2):>10}   {rate / 2:f}%  "
                       f"{indian(tax / 2):>10}   {indian(tax):>14}")
    out += [f"{'Total':<12} {indian(c.taxable):>13}" + " " * 30 + f"{indian(c.true_tax):>14}",
            f"Tax Amount (in words) : INR {words(c.true_tax)} Only", ""]
    if c.printed_bank:
        out += ["Company's Bank Details", f"Bank Name          : {v.bank}", f"A/c No.            : {c.printed_bank[0]}",
                f"Branch & IFS Code  : {v.branch} & {c.printed_bank[1]}"]
    out += ["Declaration", "We declare that this invoice shows the actual price of the goods described and that all",
            "particulars are true and correct.", f"{'for ' + v.name:>90}", f"{'Authorised Signatory':>90}",
            "                       This is a Computer Generated Invoice"]
    return out


def zoho(c: Case) -> list[str]:
    v = c.v
    out = [v.name, *v.addr, "India", f"GSTIN {v.gstin}", "", f"{'TAX INVOICE':>70}", f"{'# ' + c.number:>70}", "",
           f"{'Balance Due':>70}", f"{'₹' + western(c.total):>70}", "", "Bill To", BUYER[0], *BUYER_ADDR,
           f"GSTIN {BUYER[1]}", "", f"{'Invoice Date :':>50} {c.day.strftime('%d %b %Y')}",
           f"{'Terms :':>50} Net 45", f"{'Due Date :':>50} {(c.day + timedelta(days=45)).strftime('%d %b %Y')}",
           f"{'P.O.# :':>50} {c.po}", "", "Place Of Supply: Telangana (36)", ""]
    if c.inter:
        out += [" #  Item & Description                HSN/SAC        Qty        Rate      IGST            Amount",
                "                                                                          %    Amt"]
    else:
        out += [" #  Item & Description                HSN/SAC        Qty        Rate      CGST          SGST           Amount",
                "                                                                          %    Amt      %    Amt"]
    for n, it in enumerate(c.items, 1):
        share = 1 - c.discount / c.lines_total
        base = q(it.amount * share)
        if c.inter:
            tax = f"{it.gst:f}% {western(q(base * it.gst / 100)):>9}"
        else:
            half = western(q(base * it.gst / 200))
            tax = f"{it.gst / 2:f}% {half:>9}  {it.gst / 2:f}% {half:>9}"
        out.append(f"{n:>2}  {pad(it.desc, 32)} {pad(it.hsn, 10)} {western(it.qty) + ' ' + it.unit.lower():>14} "
                   f"{western(it.rate):>10}  {tax}  {western(it.amount):>12}")
    out += ["", f"{'Sub Total':>80}  {western(c.lines_total):>14}"]
    if c.discount:
        out.append(f"{'Discount(' + c.quirk + ')':>80}  {'(-) ' + western(c.discount):>14}")
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        if c.inter:
            out.append(f"{'IGST' + f'{rate:f}' + ' (' + f'{rate:f}' + '%)':>80}  {western(tax + c.tax_typo):>14}")
        else:
            for head in ("CGST", "SGST"):
                out.append(f"{head + f'{rate / 2:f}' + ' (' + f'{rate / 2:f}' + '%)':>80}  {western(tax / 2 + c.tax_typo):>14}")
    if c.round_off:
        out.append(f"{'Rounding':>80}  {western(c.round_off):>14}")
    out += [f"{'Total':>80}  {'₹' + western(c.total):>14}", f"{'Balance Due':>80}  {'₹' + western(c.total):>14}", "",
            f"Total In Words: Indian Rupee {words(c.total)} Only", "", "Notes", "Thanks for your business.", ""]
    if c.printed_bank:
        out += ["Terms & Conditions", f"Please pay by NEFT/RTGS to {v.name}, {v.bank}",
                f"Account No: {c.printed_bank[0]}  IFSC: {c.printed_bank[1]}", "Interest @ 18% p.a. on overdue bills."]
    out += ["", f"{'Authorized Signature':>90}"]
    return out


def busy(c: Case) -> list[str]:
    v = c.v
    out = [f"{'GST INVOICE':^88}", f"{v.name.upper():^88}", f"{', '.join(v.addr):^88}",
           f"{'Ph. ' + v.phone + '   GSTIN : ' + v.gstin:^88}", "=" * 88,
           f"Bill No.   : {pad(c.number, 30)}Bill Date  : {dmy(c.day, '.')}",
           f"Party      : {pad(BUYER[0], 30)}Order No.  : {c.po}",
           f"             {pad(BUYER_ADDR[1], 30)}Order Dt.  : {dmy(c.day - timedelta(days=9), '.')}",
           f"GSTIN      : {pad(BUYER[1], 30)}Transport  : SRMT Roadways, LR 44{c.id[-2:]}1",
           "Place of Supply : Telangana (36)", "=" * 88,
           "S.N. Description of Goods            HSN Code      Qty.  Unit      Price    GST%     Amount(Rs.)",
           "-" * 88]
    for n, it in enumerate(c.items, 1):
        out.append(f"{n:>3}. {pad(it.desc, 32)} {pad(it.hsn, 10)} {qty_text(it.qty):>8}  {pad(it.unit, 5)} "
                   f"{indian(it.rate):>10}  {it.gst:f}%  {indian(it.amount):>13}")
    out += ["-" * 88, f"{'':50}Total Qty {qty_text(sum((i.qty for i in c.items), D(0))):>6}   {indian(c.lines_total):>16}",
            "-" * 88]
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        if c.inter:
            out.append(f"{'Add : IGST @ ' + f'{rate:f}' + '% on ' + indian(base):>70}  {indian(tax + c.tax_typo):>14}")
        else:
            out.append(f"{'Add : CGST @ ' + f'{rate / 2:f}' + '% on ' + indian(base):>70}  {indian(tax / 2 + c.tax_typo):>14}")
            out.append(f"{'Add : SGST @ ' + f'{rate / 2:f}' + '% on ' + indian(base):>70}  {indian(tax / 2 + c.tax_typo):>14}")
    if c.round_off:
        label = "Less : Round Off" if c.round_off < 0 else "Add : Round Off"
        out.append(f"{label:>70}  {indian(abs(c.round_off)):>14}")
    out += ["=" * 88, f"{'Grand Total':>70}  {indian(c.total):>14}", "=" * 88,
            f"Rs. {words(c.total)} Only", ""]
    if c.printed_bank:
        out += [f"Bank : {v.bank}, {v.branch}   A/c No. {c.printed_bank[0]}   IFSC {c.printed_bank[1]}"]
    out += ["Terms : Goods once sold will not be taken back. Subject to Guntur jurisdiction.",
            f"{'For ' + v.name.upper():>88}", "", f"{'Authorised Signatory':>88}"]
    return out


def marg(c: Case) -> list[str]:
    v = c.v
    out = [f"{'GST INVOICE':^96}", f"M/s {v.name.upper()}", f"{' '.join(v.addr)}  Ph:{v.phone}",
           f"GSTIN:{v.gstin}  D.L.No: --", "-" * 96,
           f"Party: {pad(BUYER[0].upper(), 44)}Inv.No : {c.number}",
           f"       {pad(BUYER_ADDR[1], 44)}Date   : {dmy(c.day, '/')}",
           f"GSTIN: {pad(BUYER[1], 44)}PO No  : {c.po}",
           f"{'':51}Salesman: SRINU", "-" * 96,
           "SN  Product Name                 HSN       Qty  Free Unit       MRP      Rate  Disc%  GST%       Amount",
           "-" * 96]
    for n, it in enumerate(c.items, 1):
        mrp = q(it.rate * D("1.35")).quantize(D("1"))
        rate = it.list_rate or it.rate
        disc = f"{it.disc:.2f}" if it.disc else "0.00"
        out.append(f"{n:<3} {pad(it.desc.upper(), 28)} {pad(it.hsn, 8)} {qty_text(it.qty):>5} {'0':>4} {pad(it.unit, 5)} "
                   f"{mrp:>9.2f} {rate:>9.2f} {disc:>6} {it.gst:>5.2f} {it.amount:>12.2f}")
    out.append("-" * 96)
    gross = sum((q(i.qty * (i.list_rate or i.rate)) for i in c.items), D(0))
    out.append(f"{'GROSS AMT':>80} {gross:>14.2f}")
    if gross != c.lines_total:
        out.append(f"{'LESS DIS':>80} {gross - c.lines_total:>14.2f}")
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        out.append(f"{'ADD SGST ' + f'{rate / 2:.2f}' + '%':>80} {tax / 2 + c.tax_typo:>14.2f}")
        out.append(f"{'ADD CGST ' + f'{rate / 2:.2f}' + '%':>80} {tax / 2 + c.tax_typo:>14.2f}")
    if c.round_off:
        out.append(f"{'R/OFF':>80} {c.round_off:>14.2f}")
    out += ["-" * 96, f"{'NET AMT':>80} {c.total:>14.2f}", "-" * 96,
            f"Rs. {words(c.total).upper()} ONLY", "",
            "GST SUMMARY  CLASS   TAXABLE    SGST    CGST"]
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        out.append(f"             GST {rate:.0f}%  {base:>9.2f} {tax / 2:>7.2f} {tax / 2:>7.2f}")
    out += ["", "Goods once sold will not be taken back or exchanged. E.&O.E.", f"{'For ' + v.name.upper():>96}"]
    return out


def word(c: Case) -> list[str]:
    """An invoice typed in Word by the vendor's office: labels with colons, 'Rs.', a plain table."""
    v = c.v
    day = c.day
    suffixes = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}
    long_date = f"{day.day}{suffixes.get(day.day, 'th')} {day.strftime('%B %Y')}"
    out = [v.name.upper(), *v.addr, f"Phone: {v.phone}    GSTIN: {v.gstin}", "", "INVOICE", "",
           f"Invoice Number : {c.number}", f"Invoice Date   : {long_date}"]
    if c.po:
        out.append(f"Your PO Ref    : {c.po} dated {dmy(day - timedelta(days=12), '/')}")
    out += ["", "To,", f"The Purchase Manager, {BUYER[0]}", *BUYER_ADDR, f"GSTIN: {BUYER[1]}", "",
            f"{'S.No':<5} {'Item':<36} {'HSN':<9} {'Qty':>10} {'Unit Price (Rs.)':>17} {'Total (Rs.)':>14}"]
    for n, it in enumerate(c.items, 1):
        qt = f"{western(it.qty).rstrip('0').rstrip('.') if it.qty % 1 else f'{int(it.qty):,}'} {it.unit}"
        out.append(f"{n:<5} {pad(it.desc, 36)} {pad(it.hsn, 9)} {qt:>10} {western(it.rate):>17} {western(it.amount):>14}")
    out += ["", f"{'Sub-total:':>70} Rs. {western(c.lines_total)}"]
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        if c.inter:
            out.append(f"{'IGST @ ' + f'{rate:f}' + '%:':>70} Rs. {western(tax + c.tax_typo)}")
        else:
            out.append(f"{'CGST @ ' + f'{rate / 2:f}' + '%:':>70} Rs. {western(tax / 2 + c.tax_typo)}")
            out.append(f"{'SGST @ ' + f'{rate / 2:f}' + '%:':>70} Rs. {western(tax / 2 + c.tax_typo)}")
    if c.round_off:
        out.append(f"{'Round off:':>70} Rs. {western(c.round_off)}")
    out += [f"{'Grand Total:':>70} Rs. {western(c.total)}", "", f"(Rupees {words(c.total)} only)", ""]
    if c.quirk == "tds":
        out += [f"Note: TDS u/s 194C @ 2% on the printing charges (Rs. {western(q(c.taxable * D('0.02')))}) may be",
                "deducted at your end; kindly send the TDS certificate every quarter.", ""]
    if c.printed_bank:
        out += ["Payment by NEFT to:", f"  Bank: {v.bank}, {v.branch} branch",
                f"  A/c No: {c.printed_bank[0]}", f"  IFSC: {c.printed_bank[1]}", ""]
    out += ["Thanking you,", f"For {v.name}", "", "Proprietor / Partner"]
    return out


def einvoice(c: Case) -> list[str]:
    v = c.v
    out = ["e-Invoice", "-" * 90,
           "IRN      : 3e7a91c4f0b25d68e9a1b7c3d5f2e8a0c6b4d9f1e3a5c7b9d0f2e4a6c8b1d3f5",
           f"Ack No.  : 1826{c.day.strftime('%m%d')}90012{c.id[-2:]}", f"Ack Date : {dmy(c.day, '-')} 17:42:10",
           "                                                         [QR CODE]", "-" * 90,
           "1. e-Invoice Details", "   IRN Status: ACT     Supply Type: B2B     Document Type: Tax Invoice",
           f"   Document No: {c.number}      Document Date: {dmy(c.day, '/')}",
           f"   Buyer PO Ref: {c.po}", "2. Party Details",
           f"   Supplier: {v.name}, GSTIN {v.gstin}, {', '.join(v.addr)}",
           f"   Recipient: {BUYER[0]}, GSTIN {BUYER[1]}, Place of Supply: 36-Telangana",
           "3. Goods / Services Details",
           "   SlNo  Item Description              HSN       Quantity  Unit      Unit Price   Taxable Amt   Tax Rate"
           "     Other  Total"]
    for n, it in enumerate(c.items, 1):
        tax = q(it.amount * it.gst / 100)
        out.append(f"   {n:<5} {pad(it.desc, 29)} {pad(it.hsn, 8)} {qty_text(it.qty):>9}  {pad(it.unit, 6)} "
                   f"{indian(it.rate):>12} {indian(it.amount):>13}   {it.gst:f}+0       0.00  {indian(it.amount + tax)}")
    heads = ("IGST",) if c.inter else ("CGST", "SGST")
    taxes = [(c.printed_tax if c.inter else c.printed_tax / 2)] * len(heads)
    out += ["4. Value Details",
            "   Taxable Amt   " + "   ".join(f"{h} Amt" for h in heads) + "   Cess   Round off   Total Inv. Value",
            f"   {indian(c.taxable):>11}   " + "   ".join(f"{indian(t):>8}" for t in taxes)
            + f"   0.00   {indian(c.round_off):>9}   {indian(c.total):>16}", ""]
    if c.printed_bank:
        out += [f"Bank: {v.bank}  A/c {c.printed_bank[0]}  IFSC {c.printed_bank[1]}"]
    out += ["Generated By: " + v.gstin, f"Print Date: {dmy(c.day + timedelta(days=1), '-')} 10:05:33"]
    return out


def vyapar(c: Case) -> list[str]:
    """Vyapar, with the rate printed inclusive of GST and the taxable value worked out below the table."""
    v = c.v
    out = [f"{v.name:^80}", f"{', '.join(v.addr):^80}", f"{'Phone no.: ' + v.phone + '  GSTIN: ' + v.gstin:^80}",
           f"State: {v.code}-{v.state}", "", f"{'Tax Invoice':^80}", "",
           "Bill To                                   Invoice Details",
           f"{pad(BUYER[0], 42)}Invoice No.: {c.number}",
           f"{pad(BUYER_ADDR[1], 42)}Date: {dmy(c.day, '-')}",
           f"GSTIN Number: {pad(BUYER[1], 28)}Place of supply: 36-Telangana",
           f"{'':42}PO No.: {c.po}", "",
           "#  Item name                   HSN/ SAC   Quantity  Unit  Price/ Unit   GST          Amount",
           "                                                          (incl. tax)"]
    for n, it in enumerate(c.items, 1):
        tax = q(it.qty * it.incl_rate) - it.amount
        out.append(f"{n:<2} {pad(it.desc, 27)} {pad(it.hsn, 10)} {qty_text(it.qty):>8}  {pad(it.unit, 5)} "
                   f"₹ {western(it.incl_rate):>9}   ₹ {western(tax)} ({it.gst:f}%)  ₹ {western(q(it.qty * it.incl_rate))}")
    incl_total = sum((q(i.qty * i.incl_rate) for i in c.items), D(0))
    out += [f"{'Total':<40} {qty_text(sum((i.qty for i in c.items), D(0))):>8}{'':26}₹ {western(c.true_tax)}   "
            f"₹ {western(incl_total)}", "",
            "Tax type          Taxable amount    Rate       Tax amount"]
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        if c.inter:
            out.append(f"IGST              ₹ {western(base):>12}    {rate:f}%   ₹ {western(tax)}")
        else:
            out.append(f"SGST              ₹ {western(base):>12}    {rate / 2:f}%   ₹ {western(tax / 2)}")
            out.append(f"CGST              ₹ {western(base):>12}    {rate / 2:f}%   ₹ {western(tax / 2)}")
    out += ["", f"{'Sub Total':>60}  ₹ {western(incl_total)}"]
    if c.round_off:
        out.append(f"{'Round off':>60}  ₹ {western(c.round_off)}")
    out += [f"{'Total':>60}  ₹ {western(c.total)}", f"{'Received':>60}  ₹ 0.00",
            f"{'Balance':>60}  ₹ {western(c.total)}", "", "Invoice Amount In Words",
            f"{words(c.total)} Rupees only", ""]
    if c.printed_bank:
        bank = v.bank if c.bank == "master" else "HDFC Bank, Kurnool"
        out += ["Pay To:", f"Bank Name: {bank}", f"Bank Account No.: {c.printed_bank[0]}",
                f"Bank IFSC code: {c.printed_bank[1]}", f"Account holder's name: {v.name}"]
    out += ["", "Terms and conditions", "Thanks for doing business with us!", f"For : {v.name}",
            "Authorized Signatory"]
    return out


def mybillbook(c: Case) -> list[str]:
    """myBillBook: the AMOUNT column is the line with its tax; the taxable value comes in the summary."""
    v = c.v
    out = ["TAX INVOICE                                          ORIGINAL FOR RECIPIENT", "", v.name,
           *v.addr, f"GSTIN: {v.gstin}   Mobile: {v.phone}", "",
           "Invoice No.         Invoice Date        Due Date",
           f"{pad(c.number, 20)}{pad(dmy(c.day, '/'), 20)}{dmy(c.day + timedelta(days=30), '/')}", "",
           "BILL TO", BUYER[0].upper(), *BUYER_ADDR, f"GSTIN: {BUYER[1]}", f"PO Number: {c.po}", "",
           "S.NO. ITEMS                          HSN       QTY.       RATE        TAX               AMOUNT"]
    for n, it in enumerate(c.items, 1):
        tax = q(it.amount * it.gst / 100)
        out.append(f"{n:<5} {pad(it.desc, 30)} {pad(it.hsn, 9)} {qty_text(it.qty) + ' ' + it.unit:>8} "
                   f"{western(it.rate):>10}  {western(tax):>9} ({it.gst:.0f}%)  {western(it.amount + tax):>12}")
    out += ["", f"{'SUBTOTAL':<40}{qty_text(sum((i.qty for i in c.items), D(0))):>14}{'':14}₹ {western(c.true_tax):>9}"
            f"       ₹ {western(c.gross)}", ""]
    out += [f"{'TAXABLE AMOUNT':>60}  ₹ {western(c.taxable)}"]
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        if c.inter:
            out.append(f"{'IGST @' + f'{rate:.0f}' + '%':>60}  ₹ {western(tax)}")
        else:
            out.append(f"{'CGST @' + f'{rate / 2:f}' + '%':>60}  ₹ {western(tax / 2)}")
            out.append(f"{'SGST @' + f'{rate / 2:f}' + '%':>60}  ₹ {western(tax / 2)}")
    if c.round_off:
        out.append(f"{'Round Off':>60}  {'-' if c.round_off < 0 else ''}₹ {western(abs(c.round_off))}")
    out += [f"{'TOTAL AMOUNT':>60}  ₹ {western(c.total)}", f"{'Received Amount':>60}  ₹ 0",
            "", "Total Amount (in words)", f"{words(c.total)} Rupees", ""]
    if c.printed_bank:
        out += ["BANK DETAILS", f"Name: {v.name}", f"IFSC Code: {c.printed_bank[1]}",
                f"Account No: {c.printed_bank[0]}", f"Bank: {v.bank}, {v.branch}"]
    out += ["", "TERMS AND CONDITIONS", "1. Goods once sold will not be taken back or exchanged",
            f"AUTHORISED SIGNATORY FOR {v.name.upper()}"]
    return out


def erpnext(c: Case) -> list[str]:
    v = c.v
    out = [v.name, *v.addr, f"GSTIN: {v.gstin}", "", f"Tax Invoice{'':44}{c.number}", "",
           f"Customer Name: {BUYER[0]}", f"Billing Address: {', '.join(BUYER_ADDR)}", f"Customer GSTIN: {BUYER[1]}",
           f"Invoice Date: {dmy(c.day, '-')}", f"Due Date: {dmy(c.day + timedelta(days=30), '-')}",
           f"Customer's Purchase Order: {c.po}", "",
           "| Sr | Item                              | HSN/SAC  | Quantity   | Rate          | Amount          |",
           "|----|-----------------------------------|----------|------------|---------------|-----------------|"]
    for n, it in enumerate(c.items, 1):
        out.append(f"| {n:<2} | {pad(it.desc, 33)} | {pad(it.hsn, 8)} | {qty_text(it.qty) + ' ' + it.unit:<10} | "
                   f"₹ {western(it.rate):>11} | ₹ {western(it.amount):>13} |")
    out += ["", f"{'Total Quantity':>60} {qty_text(sum((i.qty for i in c.items), D(0)))}",
            f"{'Total':>60} ₹ {western(c.lines_total)}"]
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        if c.inter:
            out.append(f"{'IGST @ ' + f'{rate:.1f}':>60} ₹ {western(tax)}")
        else:
            out.append(f"{'CGST @ ' + f'{rate / 2:.1f}':>60} ₹ {western(tax / 2)}")
            out.append(f"{'SGST @ ' + f'{rate / 2:.1f}':>60} ₹ {western(tax / 2)}")
    out += [f"{'Grand Total':>60} ₹ {western(c.gross)}"]
    if c.round_off:
        out.append(f"{'Rounding Adjustment':>60} ₹ {western(c.round_off)}")
    out += [f"{'Rounded Total':>60} ₹ {western(c.total)}", "",
            f"In Words: INR {words(c.total, 'And')} only.", ""]
    if c.printed_bank:
        out += [f"Bank Account: {v.bank} - {c.printed_bank[0]} (IFSC {c.printed_bank[1]})"]
    out += ["Terms: Payment within 30 days. Warranty as per manufacturer."]
    return out


def shop(c: Case) -> list[str]:
    """A counter invoice typed in Excel by a small dealer: rates quoted inclusive of GST."""
    v = c.v
    out = [v.name.upper(), f"{', '.join(v.addr)}   Cell: {v.phone}", f"GSTIN : {v.gstin}", "",
           "TAX INVOICE", f"Bill No : {c.number}                    Date : {dmy(c.day, '.')}",
           f"M/s {BUYER[0]}, {BUYER_ADDR[1]}", f"Buyer GSTIN : {BUYER[1]}      Your Order : {c.po}", "",
           "Sl  Particulars                        HSN       Qty      Rate incl. GST     GST%     Value"]
    for n, it in enumerate(c.items, 1):
        out.append(f"{n:<3} {pad(it.desc, 34)} {pad(it.hsn, 8)} {qty_text(it.qty) + ' ' + it.unit:>8}  "
                   f"Rs.{indian(it.incl_rate):>12}      {it.gst:.0f}%   {indian(q(it.qty * it.incl_rate)):>11}")
    incl_total = sum((q(i.qty * i.incl_rate) for i in c.items), D(0))
    out += ["", f"Total value (incl. GST){'':50}{indian(incl_total):>12}",
            f"Of which taxable value{'':51}{indian(c.taxable):>12}"]
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        out.append(f"        CGST {rate / 2:f}%{'':54}{indian(tax / 2):>12}")
        out.append(f"        SGST {rate / 2:f}%{'':54}{indian(tax / 2):>12}")
    if c.round_off:
        out.append(f"Round off{'':64}{indian(c.round_off):>12}")
    out += [f"NET AMOUNT PAYABLE Rs.{'':51}{indian(c.total):>12}", f"Rupees {words(c.total)} Only.", ""]
    if c.printed_bank:
        out += [f"Our Bank: {v.bank}  A/c No.{c.printed_bank[0]}  IFSC:{c.printed_bank[1]}"]
    out += ["E.&O.E.  Subject to local jurisdiction.", f"For {v.name.upper()}"]
    return out


def credit_note(c: Case) -> list[str]:
    v = c.v
    out = [f"{'CREDIT NOTE':^90}", f"{'(Issued under Section 34 of the CGST Act, 2017)':^90}", v.name, *v.addr,
           f"GSTIN/UIN: {v.gstin}", "-" * 90,
           f"Credit Note No. : {c.number}              Dated : {tally_date(c.day)}",
           "Against Invoice : KPF/2627/00301          Dated : 02-Sep-26",
           "Reason          : Rate difference / goods returned (burst pipes)",
           f"Party           : {BUYER[0]}  GSTIN {BUYER[1]}", f"Buyer's Order No. {c.po}", "-" * 90,
           "Sl | Particulars                       | HSN/SAC  | Quantity | Rate     | Amount"]
    for n, it in enumerate(c.items, 1):
        out.append(f"{n:>2} | {pad(it.desc, 33)} | {pad(it.hsn, 8)} | {qty_text(it.qty) + ' ' + it.unit:>8} | "
                   f"{indian(it.rate):>8} | {indian(it.amount):>12}")
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        out.append(f"   | {'CGST @ ' + f'{rate / 2:f}' + '%':>33} |          |          |          | {indian(tax / 2):>12}")
        out.append(f"   | {'SGST @ ' + f'{rate / 2:f}' + '%':>33} |          |          |          | {indian(tax / 2):>12}")
    if c.round_off:
        out.append(f"   | {'Round Off':>33} |          |          |          | {indian(c.round_off):>12}")
    out += ["-" * 90, f"   | {'Total':>33} |          |          |          | ₹ {indian(c.total)}",
            f"Amount (in words): INR {words(c.total)} Only",
            "This credit will be adjusted against your next payment.", f"for {v.name}", "Authorised Signatory"]
    return out


def proforma(c: Case) -> list[str]:
    v = c.v
    out = [v.name.upper(), *v.addr, f"GSTIN: {v.gstin}", "", "PROFORMA INVOICE", "",
           f"Proforma Invoice No : {c.number}", f"Date : {dmy(c.day, '/')}", f"Your enquiry / PO : {c.po}",
           f"To : {BUYER[0]}, {BUYER_ADDR[1]}", "",
           f"{'Sr':<4}{'Description':<38}{'HSN':<10}{'Qty':>8}{'Rate (Rs.)':>14}{'Amount (Rs.)':>16}"]
    for n, it in enumerate(c.items, 1):
        out.append(f"{n:<4}{pad(it.desc, 38)}{pad(it.hsn, 10)}{qty_text(it.qty) + ' ' + it.unit:>8}"
                   f"{western(it.rate):>14}{western(it.amount):>16}")
    for rate, (base, tax) in sorted(c.tax_by_rate().items()):
        out.append(f"{'IGST @ ' + f'{rate:f}' + '%':>74}{western(tax):>16}")
    out += [f"{'Total':>74}{western(c.total):>16}", f"Rupees {words(c.total)} only", "",
            "This is a proforma invoice for advance payment (50% with order, balance before dispatch).",
            "Tax invoice will be issued at the time of dispatch. Validity: 15 days.", ""]
    if c.printed_bank:
        out += [f"Bank: {v.bank}  A/c No {c.printed_bank[0]}  IFSC {c.printed_bank[1]}"]
    out += [f"For {v.name}"]
    return out


LAYOUTS = {"tally": tally, "zoho": zoho, "busy": busy, "marg": marg, "word": word, "einvoice": einvoice,
           "vyapar": vyapar, "mybillbook": mybillbook, "erpnext": erpnext, "shop": shop, "credit_note": credit_note,
           "proforma": proforma}


# ---------------------------------------------------------------- the cases

d = date
CASES = [
    Case("ap3-01", "V201", "tally", "text", "SSDA/26-27/0112", d(2026, 9, 14),
         [I("Zinc Sulphate 21% 25 kg Bag", "28332990", "200", "Bags", "612.50", "5"),
          I("Gypsum Granules 25 kg Bag", "25201010", "150", "Bags", "180.00", "5")], "KAI-PO-2609-301",
         note="TallyPrime boxed header, 'Dated 14-Sep-26', CGST/SGST at 2.5% as rows of the goods table"),
    Case("ap3-02", "V201", "tally", "pdf", "SSDA-26-27-45", d(2026, 8, 18),
         [I("Calcium Nitrate 25 kg Bag", "31026000", "80", "Bags", "1345.00", "5")], "KAI-PO-2608-302",
         decision="PAYMENT_BLOCKED", flags=["DUPLICATE_INVOICE"],
         note="the same invoice paid on 1 Sep as SSDA/26-27/0045, re-sent with dashes and no leading zeros"),
    Case("ap3-03", "V201", "tally", "text", "SSDA/26-27/0139", d(2026, 10, 6),
         [I("Boron 20% 1 kg Pkt", "28100020", "500", "Pkt", "142.50", "18"),
          I("Magnesium Sulphate 25 kg Bag", "28332100", "120", "Bags", "465.00", "5"),
          I("Ferrous Sulphate 25 kg Bag", "28332910", "80", "Bags", "392.00", "5"),
          I("Sulphur 80% WDG 3 kg Bucket", "38089290", "150", "Bkt", "318.75", "18"),
          I("Humic Acid 98% 1 kg Pkt", "38249900", "240", "Pkt", "210.00", "18"),
          I("Seaweed Extract 500 ml Btl", "31010099", "300", "Btl", "168.40", "5"),
          I("Sticker Spreader 1 L Btl", "34021300", "60", "Btl", "295.00", "18")], "KAI-PO-2610-303",
         quirk="pages", note="seven lines over two pages (continued / brought forward), GST at 5% and 18%"),
    Case("ap3-04", "V205", "tally", "photo", "SGSC/0457/26-27", d(2026, 9, 22),
         [I("Seed Treating Drum 50 kg", "84368090", "2", "Nos", "48500.00", "12"),
          I("Seed Germination Tray 98 cavity", "39269099", "400", "Nos", "34.50", "18")], "KAI-PO-2609-304",
         flags=["PRICE_VARIANCE"], po_rates={0: D("47800.00")},
         note="IGST at two rates; the drum at 48,500 against 47,800 on the PO: 1.46%, within 2%"),
    Case("ap3-05", "V212", "tally", "text", "DWS/26-27/218", d(2026, 10, 15),
         [I("Platform Scale 300 kg", "84238190", "10", "Nos", "14250.00", "18"),
          I("Counter Scale 30 kg", "84238190", "5", "Nos", "6480.00", "18")], "KAI-PO-2610-305",
         decision="EXCEPTION", flags=["QUANTITY_MISMATCH"], received={0: D("8")}, quirk="irn",
         note="e-invoice IRN and Ack No. above the Tally header; 10 platform scales billed, 8 received"),
    Case("ap3-06", "V204", "zoho", "text", "INV-002371", d(2026, 9, 9),
         [I("HDPE Woven Sack 50 kg laminated", "63053300", "4000", "pcs", "21.40", "5"),
          I("LDPE Liner 50 kg", "39232990", "4000", "pcs", "6.85", "18")], "KAI-PO-2609-306",
         note="Zoho Books: '# INV-', Balance Due at the top, P.O.#, per-line CGST/SGST % and amount columns"),
    Case("ap3-07", "V204", "zoho", "pdf", "INV-002390", d(2026, 10, 19),
         [I("HDPE Woven Sack 50 kg laminated", "63053300", "6000", "pcs", "21.40", "5")], "KAI-PO-2610-307",
         decision="PAYMENT_BLOCKED", flags=["DUPLICATE_INVOICE"],
         note="already approved (not yet paid) as INV/2390 when keyed in by hand two days after"),
    Case("ap3-08", "V208", "zoho", "text", "TTC/INV/0031", d(2026, 10, 27),
         [I("HDPE Tarpaulin 18x24 ft 200 GSM", "63061990", "60", "Nos", "2350.00", "12")], "KAI-PO-2610-308",
         decision="HUMAN_REVIEW", flags=["NEW_VENDOR"], note="a vendor in the master never paid: first payment"),
    Case("ap3-09", "V204", "zoho", "photo", "INV-002446", d(2026, 11, 12),
         [I("HDPE Woven Sack 50 kg laminated", "63053300", "5000", "pcs", "21.40", "5")], "KAI-PO-2611-309",
         discount=D("2140.00"), quirk="2%", note="invoice-level discount 2% below the sub total, tax on the rest"),
    Case("ap3-10", "V202", "busy", "text", "BFC/26-27/0057", d(2026, 9, 18),
         [I("Potassium Schoenite 50 kg Bag", "31042000", "100", "Bags", "1180.00", "5"),
          I("Bentonite Sulphur 90% 25 kg Bag", "25030010", "120", "Bags", "1045.00", "5"),
          I("Freight & Cartage", "996511", "1", "Trip", "4535.00", "5")], "KAI-PO-2609-310",
         note="Busy: Bill No./Bill Date 18.09.2026, IGST 'Add :' rows, freight as a line on the PO, round-off"),
    Case("ap3-11", "V202", "busy", "pdf", "BFC-26-27-12", d(2026, 8, 25),
         [I("Potassium Schoenite 50 kg Bag", "31042000", "60", "Bags", "1180.00", "5")], "KAI-PO-2608-311",
         decision="PAYMENT_BLOCKED", flags=["DUPLICATE_INVOICE"],
         note="paid on 5 Sep as BFC/26-27/0012; this copy prints the number with dashes, zeros dropped"),
    Case("ap3-12", "V202", "busy", "text", "BFC/26-27/0088", d(2026, 11, 4),
         [I("Bentonite Sulphur 90% 25 kg Bag", "25030010", "200", "Bags", "1097.25", "5")], "KAI-PO-2611-312",
         decision="EXCEPTION", flags=["PRICE_MISMATCH"], po_rates={0: D("1045.00")},
         note="1,097.25 against 1,045.00 on the PO: 5% over"),
    Case("ap3-13", "V203", "marg", "text", "KPF/2627/00318", d(2026, 9, 11),
         [I("PVC Pipe 63mm 6kgf 6m", "39172390", "120", "Pcs", "410.00"),
          I("PVC Elbow 63mm", "39174000", "80", "Pcs", "46.00"),
          I("Solvent Cement 250ml", "35069999", "24", "Nos", "185.00")], "KAI-PO-2609-313", bank="none",
         note="Marg: whole-rupee rates times whole quantities, MRP and Free columns, SGST before CGST"),
    Case("ap3-14", "V203", "marg", "pdf", "KPF/2627/00377", d(2026, 10, 23),
         [I("HDPE Pipe 75mm 4kgf 100m Coil", "39172190", "12", "Coil", "9850.00")], "KAI-PO-2609-314",
         bank="none", decision="EXCEPTION", flags=["RECEIPT_ALREADY_BILLED"],
         note="the 12 coils received on GRN-314-01 were billed and paid on KPF/2627/00332 in September"),
    Case("ap3-15", "V203", "marg", "text", "KPF/2627/00361", d(2026, 10, 9),
         [I("Drip Lateral 16mm 400m Roll", "39172390", "40", "Roll", "2760.00")], "KAI-PO-2609-315",
         bank="none", received={0: D("100")},
         note="100 rolls received, 60 billed earlier on KPF/2627/00349: these 40 are the rest"),
    Case("ap3-16", "V203", "marg", "photo", "KPF/2627/00402", d(2026, 11, 16),
         [I("Ball Valve 2 inch PVC", "84818030", "36", "Nos", "212.50"),
          I("Gate Valve 3 inch CI", "84818030", "6", "Nos", "1864.75")], "KAI-PO-2611-316", bank="none",
         note="Marg photo, rates with paise"),
    Case("ap3-17", "V211", "word", "text", "PLP-77", d(2026, 9, 7),
         [I("Printed pouch labels 80x120mm", "48211020", "25000", "Nos", "1.85"),
          I("Carton stickers 100x50mm", "48211090", "4000", "Nos", "0.90")], "KAI-PO-2609-317",
         note="typed in Word: 'Invoice Date : 7th September 2026', Rs., western grouping, sub-total"),
    Case("ap3-18", "V211", "word", "text", "PLP-91", d(2026, 10, 13),
         [I("Printed pouch labels 80x120mm", "48211020", "30000", "Nos", "1.85")], "KAI-PO-2610-318",
         tax_typo=D("450.00"), decision="EXCEPTION", flags=["TOTAL_MISMATCH"],
         note="CGST and SGST typed as 5,445.00 (9% is 4,995.00) while the grand total is right: the figures disagree"),
    Case("ap3-19", "V205", "word", "text", "SGSC/0498/26-27", d(2026, 11, 5),
         [I("Seed Germination Tray 98 cavity", "39269099", "1500", "Nos", "34.50"),
          I("Seed Packing Pouch 1 kg printed", "39232990", "10000", "Nos", "3.20")], "KAI-PO-2611-319",
         note="Word invoice from Maharashtra: IGST, '5th November 2026'"),
    Case("ap3-20", "STRANGER", "word", "text", "SVE/112/2026-27", d(2026, 10, 29),
         [I("Knapsack Sprayer 16 L manual", "84241000", "25", "Nos", "1380.00", "12")], None,
         decision="HUMAN_REVIEW", flags=["UNKNOWN_VENDOR"], in_ledger=False,
         note="a supplier not in the vendor master, no PO quoted"),
    Case("ap3-21", "V211", "word", "pdf", "PLP-104", d(2026, 11, 19),
         [I("Product leaflets A5 4 colour", "49111090", "20000", "Nos", "2.35"),
          I("Design and plate charges", "998912", "1", "Job", "3500.00")], "KAI-PO-2611-321", quirk="tds",
         note="a TDS 194C note with its own rupee figure below the total"),
    Case("ap3-22", "V207", "einvoice", "text", "VBO/26-27/0398", d(2026, 9, 24),
         [I("Trichoderma viride 1% WP 1 kg", "38089290", "400", "Kg", "285.00", "12"),
          I("Neem Oil 1500 ppm 1 L", "38089190", "300", "Ltr", "362.00", "12")], "KAI-PO-2609-322",
         note="NIC e-invoice print: IRN, Ack No., Document No./Date, value details row"),
    Case("ap3-23", "V207", "einvoice", "pdf", "VBO/26-27/0419", d(2026, 10, 16),
         [I("PSB Liquid Biofertiliser 1 L", "31010099", "600", "Ltr", "190.00", "5")], "KAI-PO-2610-323",
         decision="HUMAN_REVIEW", flags=["POSSIBLE_DUPLICATE"],
         note="VBO/26-27/0412 of 8 Oct, already approved, was for the same amount on another PO"),
    Case("ap3-24", "V207", "einvoice", "photo", "VBO/26-27/0455", d(2026, 11, 20),
         [I("Azotobacter Liquid 1 L", "31010099", "250", "Ltr", "176.00", "5")], "KAI-PO-2611-324",
         grn=False, decision="EXCEPTION", flags=["GRN_NOT_FOUND"], note="billed before the goods were received"),
    Case("ap3-25", "V206", "vyapar", "text", "27", d(2026, 9, 29),
         [I("Pruning Secateurs 8 inch", "82016000", "40", "Nos", "50.00"),
          I("Grafting Knife", "82119400", "30", "Nos", "85.00"),
          I("Hand Sprayer 1 L", "84241000", "60", "Nos", "75.00", "12")], "KAI-PO-2609-325",
         note="Vyapar: 'Price/ Unit (incl. tax)' 59.00 / 100.30 / 84.00 and amounts with tax; a plain number"),
    Case("ap3-26", "V206", "vyapar", "text", "34", d(2026, 11, 9),
         [I("Sickle serrated", "82016000", "120", "Nos", "65.00"),
          I("Khurpi hand hoe", "82019000", "80", "Nos", "90.00")], "KAI-PO-2611-326", bank="other",
         decision="HUMAN_REVIEW", flags=["BANK_CHANGE"],
         note="two payments so far, to ICICI; this bill asks for an HDFC account"),
    Case("ap3-27", "V209", "mybillbook", "text", "SVKE/245", d(2026, 9, 16),
         [I("Submersible Pump Set 5 HP", "84137010", "3", "PCS", "24500.00", "12"),
          I("Starter Panel DOL 5 HP", "85371000", "3", "PCS", "3850.00")], "KAI-PO-2609-327",
         note="myBillBook: AMOUNT column includes the tax of each line, TAXABLE AMOUNT in the summary"),
    Case("ap3-28", "V209", "mybillbook", "pdf", "SVKE/262", d(2026, 10, 30),
         [I("Copper Winding Wire 1.0 mm", "74081990", "25", "Kg", "940.00")], "KAI-PO-2610-399",
         in_ledger=False, decision="EXCEPTION", flags=["PO_NOT_FOUND"], note="quotes a PO we never raised"),
    Case("ap3-29", "V212", "erpnext", "text", "ACC-SINV-2026-00231", d(2026, 9, 26),
         [I("Platform Scale 500 kg", "84238190", "2", "Nos", "18500.00"),
          I("Crane Scale 1 ton", "84238990", "1", "Nos", "27400.00")], "KAI-PO-2609-329",
         note="ERPNext: number beside the title, Customer's Purchase Order, Rounded Total, words with 'And'"),
    Case("ap3-30", "V210", "erpnext", "text", "ASPL/SINV/26-27/00019", d(2026, 10, 21),
         [I("Battery Sprayer 16 L 12V", "84241000", "50", "Nos", "2150.00", "12")], "KAI-PO-2610-330",
         decision="HUMAN_REVIEW", flags=["NEW_VENDOR"], note="on the master since October, never paid"),
    Case("ap3-31", "V212", "shop", "text", "DWS/C/0412", d(2026, 11, 23),
         [I("Test Weight 20 kg CI", "73259999", "4", "Nos", "1000.00"),
          I("Test Weight 1 kg SS", "73259999", "10", "Nos", "250.00")], "KAI-PO-2611-331",
         note="counter bill: 'Rate incl. GST' 1,180.00 / 295.00, value with tax, taxable value below"),
    Case("ap3-32", "V202", "busy", "photo", "BFC/26-27/0094", d(2026, 11, 26),
         [I("Potassium Schoenite 50 kg Bag", "31042000", "80", "Bags", "1180.00", "5"),
          I("Calcium Nitrate Boron 25 kg Bag", "31026000", "40", "Bags", "1512.40", "5")], "KAI-PO-2611-332",
         note="Busy photo"),
    Case("ap3-33", "V203", "credit_note", "text", "CN/2627/014", d(2026, 10, 5),
         [I("PVC Pipe 63mm 6kgf 6m (returned)", "39172390", "6", "Pcs", "410.00")], "KAI-PO-2609-313",
         decision="REFUSED", kind="credit_note", note="a credit note: nothing to pay, not an invoice"),
    Case("ap3-34", "V205", "proforma", "text", "PI/26-27/071", d(2026, 11, 24),
         [I("Seed Treating Drum 100 kg", "84368090", "1", "Nos", "96000.00", "12")], "KAI-PO-2611-334",
         decision="REFUSED", kind="proforma", grn=False, note="a proforma for an advance: no tax invoice yet"),
]

# Earlier invoices the batch meets: (vendor, number, date, total or case id, po, status, billed GRN qty by case)
EARLIER_PAID = {"ap3-02": "SSDA/26-27/0045", "ap3-11": "BFC/26-27/0012"}


def _case(cid: str) -> Case:
    return next(c for c in CASES if c.id == cid)


def grn_number(c: Case) -> str:
    return f"GRN-{c.po[-3:]}-01" if c.po else ""


def ledger() -> dict[str, object]:
    vendors, pos, grns, history, view = [], [], [], [], []
    for vid, v in VENDORS.items():
        own = [c for c in CASES if c.vendor == vid and c.kind == "invoice"]
        typical = sum((c.total for c in own), D(0)) / len(own)
        paid_days = [d(2025, 12, 10) + timedelta(days=27 * k) for k in range(v.paid)]
        for k, day in enumerate(paid_days):
            dup = next((c for c in own if c.id in EARLIER_PAID), None) if k == v.paid - 1 else None
            if dup:
                history.append({"invoice_number": EARLIER_PAID[dup.id], "vendor_id": vid,
                                "invoice_date": dup.day.isoformat(), "total": f"{dup.total:.2f}", "outcome": "paid",
                                "paid_on": (dup.day + timedelta(days=14)).isoformat(), "paid_to_account": v.account})
                continue
            factor = D(("0.82", "1.07", "0.94", "1.15", "0.88", "1.02")[k % 6])
            history.append({"invoice_number": f"{vid}-OLD-{k + 1:03d}", "vendor_id": vid,
                            "invoice_date": (day - timedelta(days=9)).isoformat(), "total": f"{q(typical * factor):.2f}",
                            "outcome": "paid", "paid_on": day.isoformat(), "paid_to_account": v.account})
        first = min((h["paid_on"] for h in history if h["vendor_id"] == vid), default=None)
        vendors.append({"vendor_id": vid, "name": v.name, "aliases": [], "gstin": v.gstin,
                        "bank_account": {"account_number": v.account, "ifsc": v.ifsc, "bank_name": v.bank},
                        "verified_contact": {"name": v.contact, "role": "Accounts", "phone": v.phone,
                                             "email": f"accounts@{vid.lower()}.example"},
                        "onboarded_on": "2025-11-20" if v.paid else "2026-10-02", "first_paid": first,
                        "payment_count": v.paid})
    for c in CASES:
        if not c.po or not c.in_ledger or c.vendor == "STRANGER" or any(p["po_number"] == c.po for p in pos):
            continue
        lines = []
        for n, it in enumerate(c.items):
            qty = max(it.qty, c.received.get(n, it.qty))
            lines.append({"line_no": n + 1, "sku": f"{c.vendor}-{c.po[-3:]}-{n + 1}", "description": it.desc,
                          "quantity": f"{qty:f}", "unit": it.unit.upper(),
                          "unit_price": f"{c.po_rates.get(n, it.rate):.2f}"})
        pos.append({"po_number": c.po, "vendor_id": c.vendor, "po_date": (c.day - timedelta(days=14)).isoformat(),
                    "lines": lines})
        if c.grn:
            grns.append({"grn_number": grn_number(c), "po_number": c.po,
                         "received_on": (c.day - timedelta(days=3)).isoformat(),
                         "lines": [{"po_line": n + 1, "quantity_received": f"{c.received.get(n, it.qty):f}"}
                                   for n, it in enumerate(c.items)]})
    # ap3-07: keyed in by hand as INV/2390 and approved, receipt billed
    c7 = _case("ap3-07")
    view.append({"vendor_id": "V204", "invoice_number": "INV/2390", "invoice_date": c7.day.isoformat(),
                 "total": f"{c7.total:.2f}", "po_number": c7.po, "status": "approved",
                 "decided_at": "2026-10-21T12:15:00+05:30", "decision_id": "r-nps2390",
                 "billed": [{"grn_number": grn_number(c7), "po_line": 1, "quantity": "6000"}]})
    # ap3-14: the receipt billed and paid in September
    c14 = _case("ap3-14")
    view.append({"vendor_id": "V203", "invoice_number": "KPF/2627/00332", "invoice_date": "2026-09-15",
                 "total": f"{c14.total:.2f}", "po_number": c14.po, "status": "paid", "paid_on": "2026-09-29",
                 "decision_id": "r-kpf332", "billed": [{"grn_number": grn_number(c14), "po_line": 1, "quantity": "12"}]})
    # ap3-15: 60 of the 100 rolls billed earlier
    c15 = _case("ap3-15")
    earlier = q(q(D(60) * c15.items[0].rate) * D("1.18"))
    view.append({"vendor_id": "V203", "invoice_number": "KPF/2627/00349", "invoice_date": "2026-09-30",
                 "total": f"{earlier:.2f}", "po_number": c15.po, "status": "paid", "paid_on": "2026-10-07",
                 "decision_id": "r-kpf349", "billed": [{"grn_number": grn_number(c15), "po_line": 1, "quantity": "60"}]})
    # ap3-23: the same amount a week earlier on another PO, approved
    c23 = _case("ap3-23")
    item = c23.items[0]
    pos.append({"po_number": "KAI-PO-2609-290", "vendor_id": "V207", "po_date": "2026-09-25",
                "lines": [{"line_no": 1, "sku": "V207-290-1", "description": item.desc, "quantity": f"{item.qty:f}",
                           "unit": "LTR", "unit_price": f"{item.rate:.2f}"}]})
    grns.append({"grn_number": "GRN-290-01", "po_number": "KAI-PO-2609-290", "received_on": "2026-10-06",
                 "lines": [{"po_line": 1, "quantity_received": f"{item.qty:f}"}]})
    view.append({"vendor_id": "V207", "invoice_number": "VBO/26-27/0412", "invoice_date": "2026-10-08",
                 "total": f"{c23.total:.2f}", "po_number": "KAI-PO-2609-290", "status": "approved",
                 "decided_at": "2026-10-09T16:30:00+05:30", "decision_id": "r-vbo412",
                 "billed": [{"grn_number": "GRN-290-01", "po_line": 1, "quantity": f"{item.qty:f}"}]})
    return {"_about": "Batch 3's vendors, POs, receipts, payment history and earlier invoices, appended to the "
                      "corpus ledger by make_corpus.py (keyed by the file they go into). Written by make_batch3.py.",
            "ledger/vendors.json": vendors, "ledger/purchase_orders.json": pos,
            "ledger/goods_receipts.json": grns, "ledger/history.json": history, "ledger_view.json": view}


def expected(c: Case) -> dict[str, object]:
    fields = None
    if c.kind == "invoice":
        bank = c.printed_bank
        fields = {"number": c.number, "date": c.day.isoformat(), "po": c.po,
                  "lines": [[f"{i.qty.normalize():f}", f"{i.rate:.2f}", f"{i.amount:.2f}"] for i in c.items],
                  "tax": f"{c.printed_tax:.2f}", "total": f"{c.total:.2f}",
                  "bank": {"account_number": bank[0], "ifsc": bank[1]} if bank else None}
    return {"id": c.id, "file": f"invoices3/{c.id}.txt", "format": c.fmt, "layout": c.layout,
            "vendor_id": None if c.vendor == "STRANGER" else c.vendor, "fields": fields,
            "decision": c.decision, "flags": c.flags, "note": c.note}


def main() -> None:
    (ROOT / "invoices3").mkdir(exist_ok=True)
    for c in CASES:
        text = "\n".join(line.rstrip() for line in LAYOUTS[c.layout](c)) + "\n"
        (ROOT / "invoices3" / f"{c.id}.txt").write_text(text, encoding="utf-8")
    (ROOT / "ledger3.json").write_text(json.dumps(ledger(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    body = {"cases": [expected(c) for c in CASES]}
    (ROOT / "expected3.json").write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(CASES)} documents")


if __name__ == "__main__":
    main()
