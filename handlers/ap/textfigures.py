"""The figures under an invoice's line table, as printed: taxable value, CGST/SGST/UTGST/IGST/cess, round-off (+/-)
and the total under its many names, and which total the printed figures add up to.

A label says what a figure is ("Add : IGST @ 5% on 2,47,935.00  12,396.75" is IGST, its last amount); a rate-wise
summary that repeats the heads is not more tax; a page's carried total is no figure at all.
"""

import re
from dataclasses import dataclass, field
from decimal import Decimal

from handlers.ap.textamounts import amount_of, last_amount

_LEAD = r"^\s*(?:\d{1,3}[.)]?\s+)?(?:add\s*[:.-]?\s*|less\s*[:.-]?\s*|output\s+|\(\+\)\s*|\(-\)\s*)?"
_ROUND = re.compile(_LEAD + r"(?:round(?:ed|ing)?[\s-]*(?:off|up|down)?|r\.?\s*/\s*off|r\.?\s*off)\b"
                    r"(?![\s-]*(?:total|net|grand|invoice|bill)\b)", re.IGNORECASE)
"""The round-off itself; "Rounded Total" (ERPNext) is the total after it."""
_TAX = re.compile(
    _LEAD + r"(?P<kind>c\.?g\.?s\.?t\.?|s\.?g\.?s\.?t\.?|u\.?t\.?g\.?s\.?t\.?|i\.?g\.?s\.?t\.?"
    r"|(?:compensation\s+)?cess|(?:central|state|ut|integrated)\s+(?:tax|gst)|gst|tcs)(?:\d+(?:\.\d+)?)?\b(?!\s*(?:in|no|number|reg)\b)", re.IGNORECASE)
_TAX_TOTAL = re.compile(_LEAD + r"(?:total\s+(?:tax|gst)(?:\s+amount)?|tax\s+amount|gst\s+amount)\b(?!\s*\(?in\s+words)",
                        re.IGNORECASE)
_SUBTOTAL = re.compile(_LEAD + r"(?:sub[\s-]*total)\b", re.IGNORECASE)
_TAXABLE = re.compile(
    _LEAD + r"(?:total\s+taxable\s+(?:value|amount)|taxable(?:\s+(?:value|amount|amt|total))?|total\s+before\s+tax"
    r"|(?:total\s+)?amount\s+before\s+tax|total\s+value\s+before\s+tax|assessable\s+value|taxable\s+amt)\b",
    re.IGNORECASE)
_DISCOUNT = re.compile(_LEAD + r"(?:less\s*:?\s*)?(?:trade\s+|cash\s+|special\s+|bill\s+)?(?:discount|disc\.?)\b"
                       r"(?!\s*%\s*$)", re.IGNORECASE)
_OTHER_FIGURE = re.compile(_LEAD + r"(?:gross\s+(?:amt|amount|total|value)|total\s+(?:qty|quantity))\b", re.IGNORECASE)
"""Figures under the table that are neither tax nor total: they end the table and are not line items."""
_TOTALS: list[tuple[int, re.Pattern[str]]] = [(rank, re.compile(_LEAD + pattern + r"\b(?!\s*(?:qty|quantity|tax|gst|"
                                                                "discount|taxable|in\\s+words))", re.IGNORECASE))
                                              for rank, pattern in [
    (0, r"(?:(?:credit|debit)\s+note\s+(?:total|amount|value)|grand\s+total|rounded\s+(?:off\s+)?total|total\s+inv(?:oice)?\.?\s+(?:value|amount|amt)|g\.\s?total|(?:total\s+)?amount\s+after\s+tax|total\s+after\s+tax|total\s+invoice\s+(?:value|amount)|invoice\s+(?:value|total|amount)|total\s+bill\s+amount)"),
    (1, r"(?:net\s+(?:amount|amt|payable|total|value)(?:\s+payable)?|(?:total\s+)?amount\s+payable|total\s+payable"
        r"|bill\s+(?:amount|amt)|total\s+(?:amount|amt)|amount\s+chargeable)"),
    (2, r"(?:balance\s+(?:due|payable)|amount\s+due|total\s+due)"),
    (3, r"(?:total)"),
]]

_GENERIC = {"gst"}
_EXTRA = {"cess", "compensation cess", "tcs"}
"""Charged on top of GST: they never stand for the GST heads themselves."""
_CENTRAL = {"cgst", "central tax", "central gst"}
_STATE = {"sgst", "utgst", "state tax", "state gst", "ut tax", "ut gst"}


@dataclass
class Figures:
    """The figures under the table, as printed; `totals` holds every candidate with its label's rank."""

    subtotal: Decimal | None = None
    """"Sub Total": the lines, before any discount on the whole invoice."""
    taxable: Decimal | None = None
    """"Taxable Value" / "Amount before Tax": after the discount."""
    discount: Decimal = Decimal(0)
    taxes: dict[str, Decimal] = field(default_factory=dict)
    tax_total: Decimal | None = None
    round_off: Decimal = Decimal(0)
    totals: list[tuple[int, Decimal]] = field(default_factory=list)

    def taxable_value(self, lines_total: Decimal) -> Decimal:
        """The value tax is charged on: as printed, else the sub total (or the lines) less the discount."""
        if self.taxable is not None:
            return self.taxable
        return (self.subtotal if self.subtotal is not None else lines_total) - self.discount

    def mend_split_tax(self, lines_total: Decimal, stated: list[Decimal]) -> None:
        """CGST and SGST (or UTGST) are charged at one rate on one value, so they are equal. When the figures do
        not add up to a stated total, and taking one half for the other (a scan's misread "3, 175220") makes
        them, the misread half is put right; a half missing (its line unreadable) is its twin's amount."""
        base = self.taxable_value(lines_total) + self.round_off
        if not stated or any(abs(base + self.tax - t) <= Decimal("1.00") for t in stated):
            return
        for key, value in list(self.taxes.items()):
            kind, rate = key.split("@")
            twins = [k for k in self.taxes if k.split("@")[1] == rate
                     and k.split("@")[0] in (_STATE if kind in _CENTRAL else _CENTRAL)]
            if rate != "-" and kind in _CENTRAL | _STATE and not twins \
                    and any(abs(base + self.tax + value - t) <= Decimal("1.00") for t in stated):
                self.taxes[f"{'sgst' if kind in _CENTRAL else 'cgst'}@{rate}"] = value  # its twin was unreadable
                return
            if kind not in _CENTRAL:
                continue
            for other, other_value in list(self.taxes.items()):
                if other.split("@")[0] not in _STATE or other.split("@")[1] != rate or other_value == value:
                    continue
                for wrong, right in ((key, other_value), (other, value)):
                    if any(abs(base + self.tax - self.taxes[wrong] + right - t) <= Decimal("1.00") for t in stated):
                        self.taxes[wrong] = right
                        return

    @property
    def tax(self) -> Decimal:
        """The heads as printed (CGST+SGST, IGST, cess, TCS). A bare "GST 18%" figure counts only on a bill that
        names no head: beside CGST/SGST or IGST it is their sum again, a rate-wise summary (Marg's GST class table,
        a "GST 5% ... 7,475.00" row under Tally's table)."""
        if not self.taxes:
            return self.tax_total or Decimal(0)
        named = any(key.split("@")[0] not in _GENERIC | _EXTRA for key in self.taxes)
        return sum((v for k, v in self.taxes.items() if not (named and k.split("@")[0] in _GENERIC)), Decimal(0))


_CARRIED = re.compile(r"^\s*(?:total\s+)?(?:continued|contd\b\.?|carried\s+(?:forward|fwd|over)|brought\s+(?:forward|fwd|over)"
                      r"|b\s*/\s*f\b|c\s*/\s*f\b|balance\s+(?:b|c)\s*/\s*f\b)", re.IGNORECASE)


def is_carried(line: str) -> bool:
    """A page's running total carried to the next page or brought from the last ("continued to page 2",
    "Brought forward", "Total c/f"): neither an item nor a figure of the invoice, and the table goes on."""
    return bool(_CARRIED.match(line))


def _round_sign(line: str) -> int:
    lowered = line.lower()
    if "(-)" in lowered or re.search(r"\bless\b", lowered) or re.search(r"(?<![\w.])-\s*\d", lowered):
        return -1
    return 1


_BOTH_HEADS = re.compile(_LEAD + r"(?P<central>c\.?g\.?s\.?t\.?|central\s+tax)\s*(?:/|&|\+|and)\s*"
                        r"(?P<state>s\.?g\.?s\.?t\.?|u\.?t\.?g\.?s\.?t\.?|state\s+tax)\b", re.IGNORECASE)
"""Both GST heads under one label ("CGST/SGST @9% 450+450", "CGST & SGST 9% each 450.00")."""
_FIGURE_AMOUNT = re.compile(r"(?<![\d.,])\d[\d,]*(?:\.\d+)?(?![\d%])")


def figure_parts(line: str) -> list[str]:
    """A line of figures printed side by side, one per label ("Taxable Value 1,06,000.00 CGST 6% 6,360.00 SGST 6%
    6,360.00 Total 1,18,720.00"): split after an amount where another figure's label begins."""
    if not is_figure_label(line):
        return [line]
    tokens = line.split()
    parts: list[str] = []
    start = 0
    for i, token in enumerate(tokens[:-1]):
        if token.endswith("%") or amount_of(token.rstrip(":/-").lstrip("₹")) is None:
            continue
        rest = " ".join(tokens[i + 1:])
        if re.match(r"[A-Za-z(]", rest) and is_figure_label(rest):
            parts.append(" ".join(tokens[start:i + 1]))
            start = i + 1
    parts.append(" ".join(tokens[start:]))
    return parts


def _both_heads(line: str, figures: Figures) -> bool:
    """CGST and SGST (or UTGST) on one label: two amounts are one each; one amount 'each' is each; one amount
    alone is both together."""
    match = _BOTH_HEADS.match(line)
    if match is None:
        return False
    rest = line[match.end():]
    rate = re.search(r"(\d+(?:\.\d+)?)\s*%", rest)
    amounts = [a for a in (amount_of(m.group()) for m in _FIGURE_AMOUNT.finditer(re.sub(r"\d+(?:\.\d+)?\s*%", " ", rest)))
               if a is not None]
    if not amounts:
        return False
    at = f"{Decimal(rate.group(1)).normalize() if rate else '-'}"
    central = " ".join(match.group("central").lower().replace(".", "").split())
    state = " ".join(match.group("state").lower().replace(".", "").split())
    if len(amounts) >= 2:
        figures.taxes.setdefault(f"{central}@{at}", abs(amounts[-2]))
        figures.taxes.setdefault(f"{state}@{at}", abs(amounts[-1]))
    elif re.search(r"\beach\b", rest, re.IGNORECASE):
        figures.taxes.setdefault(f"{central}@{at}", abs(amounts[0]))
        figures.taxes.setdefault(f"{state}@{at}", abs(amounts[0]))
    else:
        figures.taxes.setdefault(f"{central}+{state}@{at}", abs(amounts[0]))
    return True


def read_figure(line: str, figures: Figures) -> bool:
    """Read a subtotal, tax, round-off or total line into the figures; True when the line was one. Figures
    printed side by side on one line are each read under their own label."""
    parts = figure_parts(line)
    if len(parts) > 1:
        return any([_read_one(part, figures) for part in parts])
    return _read_one(line, figures)


def _read_one(line: str, figures: Figures) -> bool:
    if _both_heads(line, figures):
        return True
    value = last_amount(line)
    if value is None:
        return False
    if _ROUND.match(line):
        figures.round_off = abs(value) * _round_sign(line)
        return True
    if _DISCOUNT.match(line):
        figures.discount += abs(value)
        return True
    if _TAXABLE.match(line):
        if figures.taxable is None:
            figures.taxable = value
        return True
    if _SUBTOTAL.match(line):
        if figures.subtotal is None:
            figures.subtotal = value
        return True
    if (match := _TAX.match(line)) and "gstin" not in line.lower():
        rate = re.search(r"(\d+(?:\.\d+)?)\s*%", line)
        kind = " ".join(match.group("kind").lower().replace(".", "").split())
        key = f"{kind}@{Decimal(rate.group(1)).normalize() if rate else '-'}"
        # A tax summary repeats the same tax: keep the first printing of each kind and rate.
        figures.taxes.setdefault(key, abs(value))
        return True
    if _TAX_TOTAL.match(line):
        if figures.tax_total is None:
            figures.tax_total = value
        return True
    for rank, pattern in _TOTALS:
        if pattern.match(line):
            figures.totals.append((rank, value))
            return True
    return bool(_OTHER_FIGURE.match(line))


def is_figure_label(line: str) -> bool:
    """True when the line starts with a subtotal/tax/round-off/total label (it ends the line table)."""
    return any(p.match(line) for p in (_ROUND, _DISCOUNT, _TAXABLE, _SUBTOTAL, _TAX, _TAX_TOTAL, _OTHER_FIGURE,
                                       *(p for _, p in _TOTALS)))


def choose_total(figures: Figures, lines_total: Decimal, words: Decimal | None) -> Decimal | None:
    """The invoice total: the printed total that the printed figures add up to, else the one the words state,
    else the best-labelled one. A total that does not add up is still returned, for the match to flag."""
    if not figures.totals:
        return words
    expected = figures.taxable_value(lines_total) + figures.tax + figures.round_off
    ranked = sorted(enumerate(figures.totals), key=lambda item: (item[1][0], item[0]))
    # To the paisa first: ERPNext prints the Grand Total before its round-off and the Rounded Total after it.
    for _, (_, value) in ranked:
        if abs(value - expected) <= Decimal("0.005"):
            return value
    near = [value for _, (_, value) in ranked if abs(value - expected) <= Decimal("1.00")]
    if near and words is not None and abs(words - expected) <= Decimal("0.005"):
        return words  # the words and the figures agree to the paisa: a printed total off by paise is misread
    if near:
        return near[0]
    if words is not None:
        for _, (_, value) in ranked:
            if value == words:
                return value
    if words is None or abs(words - expected) <= Decimal("1.00"):
        for _, (_, value) in ranked:
            if _rupee_sign_read_as_digit(value, expected):
                return expected
    return ranked[0][1][1]


def _rupee_sign_read_as_digit(value: Decimal, expected: Decimal) -> bool:
    """A scan reads "₹60,888.00" as "360,888.00": the figure is the sum with one more digit in front."""
    if expected <= 0:
        return False
    place = Decimal(10) ** len(str(int(expected)))
    extra = value - expected
    return extra > 0 and extra % place == 0 and extra // place < 10
