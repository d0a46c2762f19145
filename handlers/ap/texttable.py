"""The line table and the figures under it, whatever columns the billing program printed.

A goods row is found by its arithmetic, not by its column order: among the numbers printed on the row, the
quantity and rate are the pair whose product is the row's amount, so HSN/SAC codes, GST% and MRP columns,
units (Nos, Kgs, Mtr, Bags) and "per" columns fall away on their own. Rows that do not multiply out are still
read inside the table (by the usual column order), so a vendor's wrong arithmetic stays visible to the match.
Under the table: taxable value, CGST/SGST/UTGST/IGST/cess, round-off (+/-) and the total under its many names.
"""

import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from handlers.ap.textamounts import amount_of, is_currency, is_sign, last_amount

_UNITS = {
    "no", "nos", "nr", "pc", "pcs", "piece", "pieces", "kg", "kgs", "kilo", "g", "gm", "gms", "mt", "mts", "ton",
    "tons", "tonne", "tonnes", "qtl", "mtr", "mtrs", "m", "meter", "meters", "metre", "metres", "rmt", "rft",
    "ft", "sqft", "sqm", "cum", "l", "ltr", "ltrs", "litre", "litres", "ml", "bag", "bags", "box", "boxes", "set",
    "sets", "pair", "pairs", "doz", "dozen", "roll", "rolls", "bdl", "bundle", "bundles", "pkt", "pkts", "packet",
    "packets", "pack", "btl", "bottle", "bottles", "can", "cans", "drum", "drums", "tin", "tins", "unit", "units",
    "each", "ea", "lot", "job", "ls", "hr", "hrs", "hour", "hours", "day", "days", "month", "months", "coil",
    "coils", "sheet", "sheets", "length", "lengths", "strip", "strips", "vial", "vials", "tab", "tabs", "cartons",
    "carton", "ctn", "reel", "reels",
}
_HEADER = re.compile(r"\b(description|particulars|items?|products?|goods|services|material)\b", re.IGNORECASE)
_HEADER_FIGURES = re.compile(r"\b(qty|quantity|amount|rate|price|amt)\b", re.IGNORECASE)
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
    (0, r"(?:grand\s+total|rounded\s+(?:off\s+)?total|total\s+inv(?:oice)?\.?\s+(?:value|amount|amt)|g\.\s?total|(?:total\s+)?amount\s+after\s+tax|total\s+after\s+tax|total\s+invoice\s+(?:value|amount)|invoice\s+(?:value|total|amount)|total\s+bill\s+amount)"),
    (1, r"(?:net\s+(?:amount|amt|payable|total|value)(?:\s+payable)?|(?:total\s+)?amount\s+payable|total\s+payable"
        r"|bill\s+(?:amount|amt)|total\s+(?:amount|amt)|amount\s+chargeable)"),
    (2, r"(?:balance\s+(?:due|payable)|amount\s+due|total\s+due)"),
    (3, r"(?:total)"),
]]


@dataclass
class Row:
    description: str
    quantity: Decimal
    unit_price: Decimal
    amount: Decimal
    numbered: bool = False
    """The row starts with its serial number."""
    tax_included: Decimal = Decimal(0)
    """The GST printed on the row when its amount includes it (Vyapar, myBillBook); `amount` is without it."""
    inclusive_tax: Decimal | None = None
    """When the rate may be printed with GST in it (quantity x rate = amount, all three with tax): the GST the
    row's own figures put inside its amount (a tax figure that is a GST rate of the rest, or the row's GST %).
    Only a reading of the whole invoice decides whether it was (textinclusive)."""


_SERIAL = re.compile(r"^\s*\d{1,3}[.)]?\s+(?=[A-Za-z])")


def item_heading(line: str) -> str | None:
    """A table line that only names an item ("1  Corrugated Box 5 Ply"), its figures on the line below."""
    if not _SERIAL.match(line):
        return None
    rest = _SERIAL.sub("", line)
    if re.search(r"\d\.\d{2}\b|\d,\d{2,3}\b", rest) or not re.search(r"[A-Za-z]{3}", rest):
        return None
    return rest.strip(" |:-")


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


@dataclass
class _Token:
    text: str
    value: Decimal | None = None
    unit: bool = False
    percent: bool = False
    has_unit: bool = False


def _tokens(line: str) -> list[_Token]:
    raw = line.replace("|", " ").replace("@", " ").split()
    tokens: list[_Token] = []
    for text in raw:
        bare = text.strip(",;:")
        lowered = bare.lower().rstrip(".")
        if bare == "%" and tokens and tokens[-1].value is not None:
            if abs(tokens[-1].value) < 100:  # a rate; after a larger figure it is a scan's ₹ before the next
                tokens[-1].percent, tokens[-1].value = True, None
            continue
        if bare.strip("()").endswith("%"):
            tokens.append(_Token(bare.strip("()"), percent=True))
            continue
        if is_currency(bare) or is_sign(bare) or bare in ("-", "x", "X", "*"):
            continue
        per_unit = re.fullmatch(r"@?(\d[\d,]*(?:\.\d+)?)\s*/-?\s*(?:per\s*)?([A-Za-z]{1,6})\.?", bare)
        if per_unit and per_unit.group(2).lower() in _UNITS:
            tokens.append(_Token(text, value=amount_of(per_unit.group(1))))  # a rate: "56.40/Kg"
            continue
        glued = re.fullmatch(r"(\d[\d,]*(?:\.\d+)?)([A-Za-z]{1,6})\.?", bare)
        if glued and glued.group(2).lower() in _UNITS:
            tokens.append(_Token(text, value=amount_of(glued.group(1)), has_unit=True))
            continue
        if lowered in _UNITS and tokens and tokens[-1].value is not None:
            tokens[-1].has_unit = True
            tokens.append(_Token(text, unit=True))
            continue
        if lowered in _UNITS:
            tokens.append(_Token(text, unit=True))
            continue
        tokens.append(_Token(text, value=amount_of(bare)))
    return tokens


def _hsn_like(token: _Token) -> bool:
    return token.value is not None and re.fullmatch(r"\d{4,8}", token.text.strip(",;:")) is not None


def _close(product: Decimal, amount: Decimal) -> bool:
    return abs(product - amount) <= max(Decimal("0.05"), amount * Decimal("0.0005"))


def _discounts(tokens: list[_Token]) -> list[Decimal]:
    """No discount, and each percentage printed on the row (a Disc% column)."""
    found = [Decimal(0)]
    for token in tokens:
        if token.percent and (match := re.match(r"\d+(?:\.\d+)?", token.text)) and Decimal(match.group(0)) < 100:
            found.append(Decimal(match.group(0)))
    return found


def _pair(numbers: list[int], tokens: list[_Token], amount: Decimal) -> tuple[int, int, Decimal] | None:
    """The (quantity, rate, discount %) whose product is the amount: no discount, quantity first, with a unit,
    preferred. A leading serial number is never the quantity."""
    best: tuple[tuple[int, ...], tuple[int, int, Decimal]] | None = None
    for discount in _discounts(tokens):
        for qi in numbers:
            for ri in numbers:
                q, r = tokens[qi].value, tokens[ri].value
                if qi == ri or q is None or r is None or q <= 0:
                    continue
                if not _close(q * r * (100 - discount) / 100, amount):
                    continue
                # A product to the paisa before one within rounding (an HSN code times the rate can come within
                # it); a quantity printed as money ("161.00") is a rate or a GST% column (Marg's 12.00 beside a
                # quantity of 12) before it is a quantity.
                exact = _exact(tokens, (qi, ri, discount), amount)
                score = (0 if discount == 0 else 1, 0 if exact else 1, 0 if qi < ri else 1,
                         0 if _money_like(tokens[ri]) else 1,
                         0 if tokens[qi].has_unit else 1, 1 if _money_like(tokens[qi]) else 0, -ri)
                if best is None or score < best[0]:
                    best = (score, (qi, ri, discount))
    return best[1] if best else None


def _exact(tokens: list[_Token], pair: tuple[int, int, Decimal], amount: Decimal) -> bool:
    """Quantity x rate (less the discount) is the amount to the paisa."""
    qi, ri, discount = pair
    q, r = tokens[qi].value, tokens[ri].value
    return q is not None and r is not None and abs(q * r * (100 - discount) / 100 - amount) <= Decimal("0.01")


def _money_like(token: _Token) -> bool:
    return not token.has_unit and bool(re.search(r"[.,]\d{2}$|,\d{3}", token.text))


def _description(tokens: list[_Token], first_column: int) -> str:
    start = first_column
    while start > 0:
        before = tokens[start - 1]
        # A unit word is a column only right after a number ("per" column); "Chisel set" keeps its word.
        after_number = start > 1 and tokens[start - 2].value is not None
        if not (_hsn_like(before) or before.percent or (before.unit and after_number)):
            break
        start -= 1
    words = [t.text for t in tokens[:start]]
    if len(words) > 1 and re.fullmatch(r"\d{1,3}[.)]?", words[0]):
        words = words[1:]
    return " ".join(words).strip(" |:-,")


def read_row(line: str, in_table: bool) -> Row | None:
    """Read a goods or service row; outside the table only a row whose numbers multiply out is taken."""
    tokens = _tokens(line)
    numbers = [i for i, t in enumerate(tokens) if t.value is not None]
    if len(numbers) > 1 and numbers[0] == 0 and re.fullmatch(r"\d{1,3}[.)]?", tokens[0].text) \
            and any(t.value is None and not t.unit for t in tokens[1:numbers[1]]):
        numbers = numbers[1:]  # the serial number, before the description
    if not numbers:
        return None
    amount_at = numbers[-1]
    amount = tokens[amount_at].value
    assert amount is not None
    if amount <= 0:
        return None
    pair = _pair(numbers[:-1], tokens, amount)
    tax_included = Decimal(0)
    if in_table and (pair is None or not _exact(tokens, pair, amount)):
        # Quantity x rate within rounding of the amount is second to quantity x rate + the row's tax to the
        # paisa (a small rate: 1 x 1.00 is within rounding of 1.05, 1.00 + 0.05 GST is exactly it).
        taxed, tax = _with_tax(numbers[:-1], tokens, amount)
        if taxed is not None and (pair is None or _exact(tokens, taxed, amount - tax)):
            pair, tax_included = taxed, tax
            amount -= tax_included
    if pair is None and in_table:
        # The NIC e-invoice prints the taxable value, then the tax rate and the value with tax, on each row.
        for at in reversed(numbers[:-1]):
            value = tokens[at].value
            if value is None or not _money_like(tokens[at]) or not value < amount <= value * Decimal("1.45"):
                continue
            if (pair := _pair([i for i in numbers if i < at], tokens, value)) is not None:
                amount_at, amount = at, value
                break
    inclusive_tax = None
    if pair is not None and not tax_included and not pair[2]:
        inclusive_tax = _inclusive_tax(tokens, numbers, pair[1], amount_at, amount)
    if pair is not None:
        qi, ri, discount = pair
        quantity, rate = tokens[qi].value, tokens[ri].value
        if rate is not None and discount:
            rate = (rate * (100 - discount) / 100).quantize(Decimal("0.01"))
        first = min(qi, ri)
    elif in_table and _money_like(tokens[amount_at]):
        columns = [i for i in numbers[:-1] if not _hsn_like(tokens[i]) or tokens[i].has_unit]
        # Past any HSN/SAC code: quantity then rate, the order nearly every program prints.
        with_unit = [i for i in columns if tokens[i].has_unit]
        at = with_unit[0] if with_unit else (columns[0] if columns else None)
        later = [i for i in columns if at is not None and i > at]
        if at is None:
            quantity, rate = Decimal(1), amount
            first = next((i for i in numbers if _hsn_like(tokens[i])), amount_at)
        elif later:
            quantity, rate, first = tokens[at].value, tokens[later[0]].value, at
        else:
            quantity = tokens[at].value
            rate = (amount / quantity).quantize(Decimal("0.01")) if quantity else amount
            first = at
    else:
        return None
    description = _description(tokens, first)
    if quantity is None or rate is None or quantity <= 0 or not re.search(r"[A-Za-z]{2}", description):
        return None
    if quantity == quantity.to_integral():
        quantity = quantity.quantize(Decimal(1))
    return Row(description=description[:200], quantity=quantity, unit_price=rate, amount=amount,
               numbered=bool(_SERIAL.match(line)), tax_included=tax_included, inclusive_tax=inclusive_tax)


GST_RATES = tuple(Decimal(r) for r in ("0.25", "1.5", "3", "5", "6", "12", "18", "28", "40"))
"""The GST slabs a goods or service row is charged at."""


def _inclusive_tax(tokens: list[_Token], numbers: list[int], rate_at: int, amount_at: int,
                   amount: Decimal) -> Decimal | None:
    """The GST inside a row's amount if its rate was printed with tax: a figure after the rate that is a GST
    slab of the rest of the amount (Vyapar's "₹ 360.00 (18%)"), else the row's own GST %."""
    for at in numbers:
        tax = tokens[at].value
        if rate_at < at < amount_at and tax is not None and 0 < tax < amount and _money_like(tokens[at]):
            if any(abs((amount - tax) * rate / 100 - tax) <= Decimal("0.05") for rate in GST_RATES):
                return tax
    slabs = [Decimal(m.group(0)) for t in tokens if t.percent and (m := re.match(r"\d+(?:\.\d+)?", t.text))]
    slabs = [rate for rate in slabs if rate in GST_RATES]
    if len(set(slabs)) == 1:
        return amount - (amount * 100 / (100 + slabs[0])).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return None


def _with_tax(numbers: list[int], tokens: list[_Token], amount: Decimal) -> tuple[tuple[int, int, Decimal] | None, Decimal]:
    """A row whose amount includes the tax printed before it: quantity x rate + tax = amount."""
    for at in reversed(numbers):
        tax = tokens[at].value
        if tax is None or not _money_like(tokens[at]) or not 0 < tax <= amount / 3:
            continue
        if (pair := _pair([i for i in numbers if i < at], tokens, amount - tax)) is not None:
            return pair, tax
    return None, Decimal(0)


_WIDE = re.compile(r"\s{5,}")


def right_figure(line: str) -> str | None:
    """A figure printed at the right of a line whose left holds something else (Marg prints its totals beside
    the GST class table): the label and amount after the last wide gaps, when the label is a figure's."""
    parts = _WIDE.split(line.strip())
    if len(parts) < 3 or not all(t.value is not None for t in _tokens(parts[-1])) or not _tokens(parts[-1]):
        return None
    tail = f"{parts[-2]} {parts[-1]}"
    return tail if re.search(r"[A-Za-z]", parts[-2]) and is_figure_label(tail) else None


_CARRIED = re.compile(r"^\s*(?:total\s+)?(?:continued|contd\b\.?|carried\s+(?:forward|fwd|over)|brought\s+(?:forward|fwd|over)"
                      r"|b\s*/\s*f\b|c\s*/\s*f\b|balance\s+(?:b|c)\s*/\s*f\b)", re.IGNORECASE)


def is_carried(line: str) -> bool:
    """A page's running total carried to the next page or brought from the last ("continued to page 2",
    "Brought forward", "Total c/f"): neither an item nor a figure of the invoice, and the table goes on."""
    return bool(_CARRIED.match(line))


def is_header(line: str) -> bool:
    return bool(_HEADER.search(line)) and bool(_HEADER_FIGURES.search(line)) and last_amount(line) is None


def _round_sign(line: str) -> int:
    lowered = line.lower()
    if "(-)" in lowered or re.search(r"\bless\b", lowered) or re.search(r"(?<![\w.])-\s*\d", lowered):
        return -1
    return 1


def read_figure(line: str, figures: Figures) -> bool:
    """Read a subtotal, tax, round-off or total line into the figures; True when the line was one."""
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
    for slack in (Decimal("0.005"), Decimal("1.00")):
        for _, (_, value) in ranked:
            if abs(value - expected) <= slack:
                return value
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
