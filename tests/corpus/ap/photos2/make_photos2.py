"""AP corpus batch "photos2": phone photos and scans of Godavari Irrigation Pumps' invoices, drawn another way.

A second author's batch for the walk batch's company (its ledger: ../walk/ledger.json), so the OCR fixes made on
the walk batch are measured on pages they were not tuned on. Where the walk batch types monospaced text and
photographs it, this one draws each billing program's page the way a laser printer lays it out: a proportional
font (Liberation Sans, Arial's metrics), columns placed by pixel position with figures right-aligned, ruled
boxes and table lines drawn as lines, bold headings. The camera differs too: a linear shadow gradient and a
vignette rather than a hand's polygon, motion blur along one direction, uneven rotation with a slight keystone,
JPEG quality from 38 to 70, and scans at 150-300 dpi saved as image-only PDFs.

Layouts: Tally (boxed header, ruled item grid), Busy (centred heading, dashed rules), Marg (pharma-style grid
with batch column), Zoho (clean right-hand totals). Writes invoices/* and expected.json. Run from the
repository root: python tests/corpus/ap/photos2/make_photos2.py (Pillow and numpy).
"""

from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = Path(__file__).resolve().parent
OUT = HERE / "invoices"
SANS = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
SANS_B = "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"
PAGE_W, PAGE_H = 1654, 2339  # A4 at 200 dpi
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BUYER_GSTIN = "37AAJCG5821R1ZW"
BUYER = ("Godavari Irrigation Pumps Pvt Ltd", "Plot No. 41, APIIC Industrial Estate, Bommuru",
         "Rajamahendravaram - 533124, Andhra Pradesh")


def check_char(first14: str) -> str:
    total = 0
    for i, c in enumerate(first14):
        p = ALPHABET.index(c) * (1 if i % 2 == 0 else 2)
        total += p // 36 + p % 36
    return ALPHABET[(36 - total % 36) % 36]


def money(x: Decimal) -> Decimal:
    return x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def indian(x: Decimal) -> str:
    """1,23,456.00 the way Indian billing programs group it."""
    whole, paise = f"{money(x):.2f}".split(".")
    head, tail = whole[:-3], whole[-3:]
    groups = []
    while len(head) > 2:
        groups.insert(0, head[-2:])
        head = head[:-2]
    return ",".join(([head] if head else []) + groups + [tail]) + "." + paise


@dataclass
class Vendor:
    code: str
    name: str
    place: str
    gstin: str
    account: str
    ifsc: str
    bank: str


# The walk batch's vendors as its ledger has them (../walk/ledger.json): their GSTINs and accounts on file.
VENDORS = {
    "SCR/014": Vendor("SCR/014", "Sri Venkateswara Castings", "Autonagar, Vijayawada - 520007",
                      "37ABDFS2214K1Z" + check_char("37ABDFS2214K1Z"), "31245678901", "SBIN0011452",
                      "State Bank of India"),
    "SCR/022": Vendor("SCR/022", "Kovai Motor Windings", "Ganapathy, Coimbatore - 641006",
                      "33AAGFK5530B1Z" + check_char("33AAGFK5530B1Z"), "6734091825", "IDIB000G012", "Indian Bank"),
    "SCR/031": Vendor("SCR/031", "Lakshmi Bearings & Seals", "Ranigunj, Secunderabad - 500003",
                      "36AALFL8812C1Z" + check_char("36AALFL8812C1Z"), "50200012345678", "HDFC0000145",
                      "HDFC Bank"),
    "SCR/047": Vendor("SCR/047", "Sai Krishna Cables & Wires", "Jagannaickpur, Kakinada - 533002",
                      "37ACCPS6650H1Z" + check_char("37ACCPS6650H1Z"), "520101234567890", "UBIN0801234",
                      "Union Bank of India"),
    "SCR/063": Vendor("SCR/063", "Gowthami Industrial Products", "Dowleswaram, East Godavari - 533125",
                      "37AAECG9090F1Z" + check_char("37AAECG9090F1Z"), "3152201000456", "CNRB0003152",
                      "Canara Bank"),
}


@dataclass
class Bill:
    id: str
    vendor: Vendor
    number: str
    date: str  # ISO
    po: str
    items: list[tuple[str, str, str, Decimal, Decimal]]  # description, HSN, unit, quantity, rate
    decision: str
    flags: list[str]
    note: str
    account: str | None = None
    gstin: str | None = None
    lines_amounts: list[Decimal] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.account = self.account or self.vendor.account
        self.gstin = self.gstin or self.vendor.gstin
        self.lines_amounts = [money(q * r) for _, _, _, q, r in self.items]

    @property
    def intra(self) -> bool:
        return self.vendor.gstin[:2] == BUYER_GSTIN[:2]

    @property
    def taxable(self) -> Decimal:
        return sum(self.lines_amounts, Decimal(0))

    @property
    def taxes(self) -> list[tuple[str, Decimal]]:
        if self.intra:
            half = money(self.taxable * Decimal("0.09"))
            return [("CGST @ 9%", half), ("SGST @ 9%", half)]
        return [("IGST @ 18%", money(self.taxable * Decimal("0.18")))]

    @property
    def tax(self) -> Decimal:
        return sum((t for _, t in self.taxes), Decimal(0))

    @property
    def total(self) -> Decimal:
        return (self.taxable + self.tax).quantize(Decimal("1"), rounding=ROUND_HALF_UP)

    @property
    def round_off(self) -> Decimal:
        return self.total - self.taxable - self.tax

    def printed_date(self, style: str) -> str:
        y, m, d = self.date.split("-")
        months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
        return {"tally": f"{int(d)}-{months[int(m) - 1]}-{y[2:]}", "dots": f"{d}.{m}.{y}",
                "slash": f"{d}/{m}/{y}", "dash": f"{d}-{m}-{y}"}[style]

    def expected(self) -> dict[str, object]:
        return {"number": self.number, "date": self.date, "po": self.po,
                "lines": [[f"{q.normalize():f}", f"{r:.2f}", f"{a:.2f}"]
                          for (_, _, _, q, r), a in zip(self.items, self.lines_amounts, strict=True)],
                "tax": f"{self.tax:.2f}", "total": f"{self.total:.2f}",
                "bank": {"account_number": self.account, "ifsc": self.vendor.ifsc}}


class Page:
    """A white A4 page drawn at 200 dpi: text placed by pixel, right-aligned figures, ruled lines."""

    def __init__(self, size: int = 27) -> None:
        self.image = Image.new("L", (PAGE_W, PAGE_H), 255)
        self.draw = ImageDraw.Draw(self.image)
        self.font = ImageFont.truetype(SANS, size)
        self.bold = ImageFont.truetype(SANS_B, size + 2)
        self.big = ImageFont.truetype(SANS_B, size + 12)
        self.line_h = int(size * 1.5)

    def text(self, x: float, y: float, words: str, bold: bool = False, big: bool = False) -> None:
        self.draw.text((x, y), words, fill=15, font=self.big if big else self.bold if bold else self.font)

    def right(self, x: float, y: float, words: str, bold: bool = False) -> None:
        font = self.bold if bold else self.font
        self.draw.text((x - font.getlength(words), y), words, fill=15, font=font)

    def centre(self, y: float, words: str, big: bool = False) -> None:
        font = self.big if big else self.bold
        self.draw.text(((PAGE_W - font.getlength(words)) / 2, y), words, fill=15, font=font)

    def rule(self, y: float, x0: float = 90, x1: float = PAGE_W - 90, dashed: bool = False) -> None:
        if not dashed:
            self.draw.line((x0, y, x1, y), fill=40, width=2)
            return
        x = x0
        while x < x1:
            self.draw.line((x, y, min(x + 14, x1), y), fill=60, width=2)
            x += 24

    def column(self, x: float, y0: float, y1: float) -> None:
        self.draw.line((x, y0, x, y1), fill=40, width=2)


def tally(bill: Bill) -> Image.Image:
    p, v = Page(), bill.vendor
    p.centre(70, "Tax Invoice", big=True)
    top, y = 140, 150
    p.draw.rectangle((90, top, PAGE_W - 90, top + 420), outline=30, width=2)
    p.column(830, top, top + 420)
    p.text(105, y, v.name, bold=True)
    p.text(105, y + 45, v.place)
    p.text(105, y + 90, f"GSTIN/UIN: {bill.gstin}")
    p.text(105, y + 135, "State Name : " + ("Andhra Pradesh, Code : 37" if bill.intra else "Other State"))
    for i, (label, value) in enumerate([("Invoice No.", bill.number), ("Dated", bill.printed_date("tally")),
                                        ("Buyer's Order No.", bill.po), ("Mode/Terms of Payment", "30 Days")]):
        p.text(845, y + i * 90, label)
        p.text(845, y + i * 90 + 40, value, bold=True)
    p.rule(top + 200, 90, 830)
    p.text(105, top + 215, "Buyer (Bill to)")
    p.text(105, top + 260, BUYER[0], bold=True)
    p.text(105, top + 305, BUYER[1])
    p.text(105, top + 350, f"GSTIN/UIN : {BUYER_GSTIN}")
    y = top + 440
    cols = [(90, "Sl"), (150, "Description of Goods"), (760, "HSN/SAC"), (930, "Quantity"), (1130, "Rate"),
            (1290, "per"), (1380, "Amount")]
    p.rule(y)
    for x, head in cols:
        p.text(x + 10, y + 10, head, bold=True)
    p.rule(y + 55)
    y += 70
    for n, ((desc, hsn, unit, q, r), amount) in enumerate(zip(bill.items, bill.lines_amounts, strict=True), 1):
        p.text(105, y, str(n))
        p.text(160, y, desc, bold=True)
        p.text(770, y, hsn)
        p.right(1100, y, f"{q.normalize():f} {unit}", bold=True)
        p.right(1270, y, indian(r))
        p.text(1300, y, unit)
        p.right(PAGE_W - 100, y, indian(amount), bold=True)
        y += p.line_h
    y += 10
    p.right(PAGE_W - 100, y, indian(bill.taxable))
    y += p.line_h
    for name, amount in bill.taxes:
        p.right(740, y, name, bold=True)
        p.right(PAGE_W - 100, y, indian(amount), bold=True)
        y += p.line_h
    if bill.round_off:
        p.right(740, y, "Round Off")
        p.right(PAGE_W - 100, y, ("(-)" if bill.round_off < 0 else "") + indian(abs(bill.round_off)))
        y += p.line_h
    p.rule(y + 5)
    p.right(740, y + 15, "Total", bold=True)
    p.right(PAGE_W - 100, y + 15, "Rs. " + indian(bill.total), bold=True)
    p.rule(y + 65)
    for x, _ in cols[1:]:
        p.column(x, top + 440, y + 65)
    y += 90
    p.text(105, y, "Company's Bank Details")
    p.text(105, y + 45, f"Bank Name : {v.bank}")
    p.text(105, y + 90, f"A/c No. : {bill.account}")
    p.text(105, y + 135, f"Branch & IFS Code : {v.ifsc}")
    p.right(PAGE_W - 100, y + 200, f"for {v.name}", bold=True)
    p.right(PAGE_W - 100, y + 300, "Authorised Signatory")
    return p.image


def busy(bill: Bill) -> Image.Image:
    p, v = Page(28), bill.vendor
    p.centre(70, v.name.upper(), big=True)
    p.centre(125, v.place)
    p.centre(170, f"GSTIN : {bill.gstin}")
    p.rule(220, dashed=True)
    p.centre(235, "TAX INVOICE")
    p.rule(285, dashed=True)
    p.text(100, 305, f"Invoice No. : {bill.number}")
    p.text(900, 305, f"Date : {bill.printed_date('dots')}")
    p.text(100, 350, f"Order No. : {bill.po}")
    p.rule(400, dashed=True)
    p.text(100, 415, "Billed to :")
    p.text(100, 460, f"M/s {BUYER[0]}", bold=True)
    p.text(100, 505, BUYER[1])
    p.text(100, 550, f"GSTIN : {BUYER_GSTIN}")
    p.rule(600, dashed=True)
    for x, head, right in [(100, "S.N.", False), (180, "Description of Goods", False), (820, "HSN", False),
                           (1080, "Qty.", True), (1150, "Unit", False), (1360, "Price", True),
                           (PAGE_W - 100, "Amount(Rs.)", True)]:
        (p.right if right else p.text)(x, 615, head, bold=True)
    p.rule(665, dashed=True)
    y = 680
    for n, ((desc, hsn, unit, q, r), amount) in enumerate(zip(bill.items, bill.lines_amounts, strict=True), 1):
        p.text(100, y, f"{n}.")
        p.text(180, y, desc)
        p.text(820, y, hsn)
        p.right(1080, y, f"{q.normalize():f}")
        p.text(1150, y, unit)
        p.right(1360, y, indian(r))
        p.right(PAGE_W - 100, y, indian(amount))
        y += p.line_h
    p.rule(y + 5, dashed=True)
    y += 20
    p.right(PAGE_W - 100, y, indian(bill.taxable))
    y += p.line_h
    for name, amount in bill.taxes:
        p.text(100, y, f"Add : {name}")
        p.right(PAGE_W - 100, y, indian(amount))
        y += p.line_h
    if bill.round_off:
        p.text(100, y, "Rounded Off (" + ("-" if bill.round_off < 0 else "+") + ")")
        p.right(PAGE_W - 100, y, indian(abs(bill.round_off)))
        y += p.line_h
    p.rule(y + 5, dashed=True)
    p.text(100, y + 20, "Grand Total", bold=True)
    p.right(PAGE_W - 100, y + 20, indian(bill.total), bold=True)
    p.rule(y + 75, dashed=True)
    y += 100
    p.text(100, y, f"Bank : {v.bank}   A/c No. {bill.account}   IFSC {v.ifsc}")
    p.text(100, y + 60, "Terms & Conditions: Interest @ 18% p.a. after due date.")
    p.right(PAGE_W - 100, y + 160, f"For {v.name}", bold=True)
    return p.image


def marg(bill: Bill) -> Image.Image:
    p, v = Page(25), bill.vendor
    p.draw.rectangle((80, 60, PAGE_W - 80, 330), outline=30, width=3)
    p.text(100, 75, v.name, big=True)
    p.text(100, 135, v.place)
    p.text(100, 175, f"GSTIN No. {bill.gstin}")
    p.text(1000, 75, "GST INVOICE", big=True)
    p.text(1000, 135, f"Inv. No. : {bill.number}")
    p.text(1000, 175, f"Inv. Date : {bill.printed_date('dash')}")
    p.text(1000, 215, f"P.O. No. : {bill.po}")
    p.text(100, 240, f"Party : {BUYER[0]}", bold=True)
    p.text(100, 280, f"Party GSTIN : {BUYER_GSTIN}")
    y = 360
    heads = [(95, "SN", False), (150, "Product Description", False), (760, "HSN", False),
             (1000, "Qty", True), (1100, "Unit", False), (1320, "Rate", True), (PAGE_W - 95, "Amount", True)]
    p.draw.rectangle((80, y, PAGE_W - 80, y + 50), outline=30, width=2)
    for x, head, right in heads:
        (p.right if right else p.text)(x, y + 10, head, bold=True)
    y += 65
    for n, ((desc, hsn, unit, q, r), amount) in enumerate(zip(bill.items, bill.lines_amounts, strict=True), 1):
        p.text(95, y, str(n))
        p.text(150, y, desc)
        p.text(760, y, hsn)
        p.right(1000, y, f"{q.normalize():f}")
        p.text(1100, y, unit)
        p.right(1320, y, indian(r))
        p.right(PAGE_W - 95, y, indian(amount))
        y += p.line_h
    p.rule(y + 10, 80, PAGE_W - 80)
    y += 25
    for label, amount in [("Taxable Amount", bill.taxable), *bill.taxes,
                          *([("Round Off", bill.round_off)] if bill.round_off else [])]:
        p.text(900, y, label)
        p.right(PAGE_W - 95, y, indian(amount) if amount >= 0 else "-" + indian(-amount))
        y += p.line_h
    p.draw.rectangle((880, y, PAGE_W - 80, y + 55), outline=30, width=2)
    p.text(900, y + 10, "NET AMOUNT", bold=True)
    p.right(PAGE_W - 95, y + 10, indian(bill.total), bold=True)
    y += 90
    p.text(95, y, f"Bank: {v.bank}")
    p.text(95, y + 40, f"A/c No: {bill.account}   IFSC: {v.ifsc}")
    p.text(95, y + 120, "E.& O.E.   Subject to local jurisdiction.")
    return p.image


def zoho(bill: Bill) -> Image.Image:
    p, v = Page(26), bill.vendor
    p.text(100, 80, v.name, big=True)
    p.text(100, 140, v.place)
    p.text(100, 180, f"GSTIN {bill.gstin}")
    p.right(PAGE_W - 100, 80, "TAX INVOICE", bold=True)
    p.right(PAGE_W - 100, 130, f"# {bill.number}")
    p.text(100, 280, "Bill To", bold=True)
    p.text(100, 320, BUYER[0])
    p.text(100, 360, BUYER[2])
    p.text(100, 400, f"GSTIN {BUYER_GSTIN}")
    for i, (label, value) in enumerate([("Invoice Date :", bill.printed_date("slash")), ("Terms :", "Net 30"),
                                        ("P.O.# :", bill.po)]):
        p.right(1180, 280 + i * 45, label)
        p.text(1200, 280 + i * 45, value)
    y = 480
    p.draw.rectangle((90, y, PAGE_W - 90, y + 50), fill=60)
    for x, head, right in [(105, "#", False), (160, "Item & Description", False), (820, "HSN/SAC", False),
                           (1090, "Qty", True), (1330, "Rate", True), (PAGE_W - 105, "Amount", True)]:
        font = p.bold
        draw_x = x - font.getlength(head) if right else x
        p.draw.text((draw_x, y + 10), head, fill=255, font=font)
    y += 70
    for n, ((desc, hsn, unit, q, r), amount) in enumerate(zip(bill.items, bill.lines_amounts, strict=True), 1):
        p.text(105, y, str(n))
        p.text(160, y, desc)
        p.text(820, y, hsn)
        p.right(1090, y, f"{q.normalize():f} {unit}")
        p.right(1330, y, indian(r))
        p.right(PAGE_W - 105, y, indian(amount))
        y += p.line_h
        p.rule(y - 6, 90, PAGE_W - 90)
    y += 20
    rows = [("Sub Total", bill.taxable)] + [(n.replace(" @ ", " (") + ")", a) for n, a in bill.taxes]
    if bill.round_off:
        rows.append(("Rounding", bill.round_off))
    for label, amount in rows:
        p.right(1250, y, label)
        p.right(PAGE_W - 105, y, indian(amount) if amount >= 0 else "-" + indian(-amount))
        y += p.line_h
    p.right(1250, y, "Total", bold=True)
    p.right(PAGE_W - 105, y, "Rs." + indian(bill.total), bold=True)
    y += 110
    p.text(100, y, "Bank details for NEFT/RTGS:")
    p.text(120, y + 45, f"Bank : {v.bank}")
    p.text(120, y + 90, f"A/c No : {bill.account}   IFSC : {v.ifsc}")
    return p.image


LAYOUTS = {"tally": tally, "busy": busy, "marg": marg, "zoho": zoho}


def phone_photo(page: Image.Image, seed: int, angle: float, quality: int, blur: int, light: float) -> bytes:
    """The page photographed: on a grey desk, turned with a slight keystone, lit from one side (a linear
    gradient, darker corners), a little motion blur, downscaled to a phone's 12 MP share and saved as JPEG."""
    rnd = random.Random(seed)
    desk = Image.new("L", (int(PAGE_W * 1.12), int(PAGE_H * 1.08)), 110)
    desk.paste(page, (int(PAGE_W * 0.06), int(PAGE_H * 0.04)))
    turned = desk.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=110)
    w, h = turned.size
    squeeze = rnd.uniform(0.01, 0.03) * w
    turned = turned.transform((w, h), Image.Transform.QUAD,
                              (squeeze, 0, 0, h, w, h, w - squeeze, 0), Image.Resampling.BICUBIC, fillcolor=110)
    pixels = np.asarray(turned, dtype=np.float32)
    xs = np.linspace(0, 1, w)[None, :]
    ys = np.linspace(0, 1, h)[:, None]
    gradient = 1.0 - light * (xs if rnd.random() < 0.5 else 1 - xs)
    vignette = 1.0 - 0.25 * ((xs - 0.5) ** 2 + (ys - 0.5) ** 2)
    lit = np.clip(pixels * gradient * vignette + rnd.uniform(-8, 8), 0, 255).astype(np.uint8)
    photo = Image.fromarray(lit)
    if blur:
        kernel = [0.0] * 25
        for i in range(5):
            kernel[i * 5 + i] = 1.0  # a diagonal smear: the hand moved while the shutter was open
        photo = photo.filter(ImageFilter.Kernel((5, 5), kernel, scale=5)) if blur > 1 else photo
        photo = photo.filter(ImageFilter.GaussianBlur(0.7))
    photo = photo.resize((int(w * 0.72), int(h * 0.72)), Image.Resampling.LANCZOS)
    rgb = Image.merge("RGB", [photo, photo.point(lambda c: int(c * 0.97)), photo.point(lambda c: int(c * 0.9))])
    out = io.BytesIO()
    rgb.save(out, "JPEG", quality=quality)
    return out.getvalue()


def office_scan(page: Image.Image, seed: int, angle: float, dpi: int) -> bytes:
    """The page through an office scanner: fed slightly turned, at `dpi`, toner specks, an image-only PDF."""
    rnd = random.Random(seed)
    scale = dpi / 200
    img = page.resize((int(PAGE_W * scale), int(PAGE_H * scale)), Image.Resampling.LANCZOS)
    img = img.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    draw = ImageDraw.Draw(img)
    for _ in range(int(img.width * img.height / 40000)):
        x, y = rnd.randrange(img.width), rnd.randrange(img.height)
        draw.ellipse((x, y, x + rnd.randint(1, 3), y + rnd.randint(1, 3)), fill=rnd.randint(40, 140))
    out = io.BytesIO()
    img.save(out, "PDF", resolution=dpi)
    return out.getvalue()


D = Decimal
V = VENDORS


def bills() -> list[tuple[Bill, str, str, dict[str, float]]]:
    """Each invoice, its layout, how it arrives (photo or scanned_pdf) and the camera or scanner's settings."""
    bad = V["SCR/022"].gstin[:14] + next(c for c in "K7Q3" if c != V["SCR/022"].gstin[14])
    return [
        (Bill("p2-01", V["SCR/014"], "SVC/26-27/0352", "2026-11-27", "GIPPL/PUR/26-27/0172",
              [("Motor Body 5HP CI", "85030090", "Nos", D(40), D("2650.00"))], "APPROVE", [],
              "Tally, photo turned 3.2 degrees, lit from one side, JPEG 50"),
         "tally", "photo", {"angle": 3.2, "quality": 50, "blur": 1, "light": 0.35}),
        (Bill("p2-02", V["SCR/022"], "INV-001512", "2026-11-28", "GIPPL/PUR/26-27/0175",
              [("Super Enamelled Copper Wire 20 SWG", "74081990", "Kg", D(300), D("1072.00"))], "APPROVE", [],
              "Zoho, IGST, photo turned -2 degrees with a motion smear, JPEG 65"),
         "zoho", "photo", {"angle": -2.0, "quality": 65, "blur": 2, "light": 0.2}),
        (Bill("p2-03", V["SCR/031"], "LBS/1203", "2026-11-29", "GIPPL/PUR/26-27/0180",
              [("Mechanical Seal 25 mm", "84842000", "Nos", D(120), D("290.00"))], "APPROVE", [],
              "Busy, IGST, scanned at 150 dpi, fed 1.2 degrees off"),
         "busy", "scanned_pdf", {"angle": 1.2, "dpi": 150}),
        (Bill("p2-04", V["SCR/047"], "SKC/26-27/0301", "2026-11-30", "GIPPL/PUR/26-27/0184",
              [("Submersible Winding Wire PVC 1.0 mm", "85441990", "Kg", D(50), D("640.00"))], "APPROVE", [],
              "Marg, photo in poor light (strong gradient), JPEG 38"),
         "marg", "photo", {"angle": -1.1, "quality": 38, "blur": 1, "light": 0.5}),
        (Bill("p2-05", V["SCR/063"], "GIP/26-27/061", "2026-11-27", "GIPPL/PUR/26-27/0186",
              [("Pressure Gauge 0-10 kg/cm2 63 mm", "90262000", "Nos", D(100), D("385.00")),
               ("Gate Valve 2\" GM", "84818030", "Nos", D(40), D("1210.00"))], "APPROVE", [],
              "Tally, two lines, scanned at 300 dpi, fed -0.7 degrees off"),
         "tally", "scanned_pdf", {"angle": -0.7, "dpi": 300}),
        (Bill("p2-06", V["SCR/014"], "SVC/26-27/0355", "2026-11-29", "GIPPL/PUR/26-27/0173",
              [("Delivery Bend 2.5\" CI", "73079190", "Nos", D(150), D("310.00")),
               ("Foot Valve 3\" CI", "84813000", "Nos", D(80), D("545.00"))], "PAYMENT_BLOCKED",
              ["FIRST_BANK_CHANGE"],
              "Busy, the account printed with one digit dropped (3124567890 for 31245678901) after 11 clean "
              "payments: blocked, the difference shown", account="3124567890"),
         "busy", "photo", {"angle": 2.4, "quality": 60, "blur": 1, "light": 0.3}),
        (Bill("p2-07", V["SCR/022"], "INV-001519", "2026-11-30", "GIPPL/PUR/26-27/0176",
              [("Rotor Assembly 3HP", "85030090", "Nos", D(25), D("3980.00"))], "HUMAN_REVIEW", ["GSTIN_INVALID"],
              "Zoho, the vendor's GSTIN printed with a wrong check character, scanned at 200 dpi", gstin=bad),
         "zoho", "scanned_pdf", {"angle": 0.5, "dpi": 200}),
        (Bill("p2-08", V["SCR/031"], "LBS/1207", "2026-11-30", "GIPPL/PUR/26-27/0177",
              [("Ball Bearing 6205 ZZ", "84821011", "Nos", D(200), D("118.00")),
               ("Mechanical Seal 22 mm", "84842000", "Nos", D(100), D("265.00"))], "APPROVE", [],
              "Marg, two lines, photo turned 4.5 degrees with a smear, JPEG 55"),
         "marg", "photo", {"angle": 4.5, "quality": 55, "blur": 2, "light": 0.25}),
    ]


def main() -> None:
    OUT.mkdir(exist_ok=True)
    cases = []
    for n, (bill, layout, arrives, settings) in enumerate(bills()):
        page = LAYOUTS[layout](bill)
        if arrives == "photo":
            name, data = f"{bill.id}.jpg", phone_photo(page, n, **{k: v for k, v in settings.items()})  # type: ignore[arg-type]
        else:
            name, data = f"{bill.id}.pdf", office_scan(page, n, settings["angle"], int(settings["dpi"]))
        (OUT / name).write_bytes(data)
        cases.append({"id": bill.id, "file": f"invoices/{name}", "format": arrives, "layout": layout,
                      "vendor_id": bill.vendor.code, "fields": bill.expected(), "decision": bill.decision,
                      "flags": bill.flags, "note": bill.note})
    about = ("Batch photos2: a second author's phone photos and scans for the walk batch's company (its ledger); "
             "pages drawn in a proportional font with ruled tables, see make_photos2.py.")
    (HERE / "expected.json").write_text(json.dumps({"_about": about, "cases": cases}, indent=1, ensure_ascii=False)
                                        + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
