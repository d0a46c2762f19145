"""The line table and the figures under it, whatever columns the billing program printed.

A goods row is found by its arithmetic, not by its column order: among the numbers printed on the row, the
quantity and rate are the pair whose product is the row's amount, so HSN/SAC codes, GST% and MRP columns,
units (Nos, Kgs, Mtr, Bags) and "per" columns fall away on their own. Rows that do not multiply out are still
read inside the table (by the usual column order), so a vendor's wrong arithmetic stays visible to the match.
The figures under the table are textfigures'; a rate printed with GST in it is noted on its row (textvalues).
"""

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from handlers.ap.textamounts import amount_of, is_currency, is_sign, last_amount
from handlers.ap.textfigures import is_figure_label

UNITS = {
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
    for at, text in enumerate(raw):
        bare = text.strip(",;:")
        lowered = bare.lower().rstrip(".")
        if bare == "%" and tokens and tokens[-1].value is not None:
            # A rate ("18 %"); after a larger figure, or before another amount ("59.00 % 360.00"), it is a
            # scan's ₹ in front of the next figure.
            following = raw[at + 1].strip(",;:") if at + 1 < len(raw) else ""
            if abs(tokens[-1].value) < 100 and not re.fullmatch(r"[\d,]+\.\d{2}", following):
                tokens[-1].percent, tokens[-1].value = True, None
            continue
        if bare.strip("()").endswith("%"):
            tokens.append(_Token(bare.strip("()"), percent=True))
            continue
        if is_currency(bare) or is_sign(bare) or bare in ("-", "x", "X", "*"):
            continue
        per_unit = re.fullmatch(r"@?(\d[\d,]*(?:\.\d+)?)\s*/-?\s*(?:per\s*)?([A-Za-z]{1,6})\.?", bare)
        if per_unit and per_unit.group(2).lower() in UNITS:
            tokens.append(_Token(text, value=amount_of(per_unit.group(1))))  # a rate: "56.40/Kg"
            continue
        glued = re.fullmatch(r"(\d[\d,]*(?:\.\d+)?)([A-Za-z]{1,6})\.?", bare)
        if glued and glued.group(2).lower() in UNITS:
            tokens.append(_Token(text, value=amount_of(glued.group(1)), has_unit=True))
            continue
        if lowered in UNITS and tokens and tokens[-1].value is not None:
            tokens[-1].has_unit = True
            tokens.append(_Token(text, unit=True))
            continue
        if lowered in UNITS:
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
        if rate_at < at < amount_at and tax is not None and 0 < tax < amount and _money_like(tokens[at]) \
                and any(abs((amount - tax) * rate / 100 - tax) <= Decimal("0.05") for rate in GST_RATES):
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




def is_header(line: str) -> bool:
    return bool(_HEADER.search(line)) and bool(_HEADER_FIGURES.search(line)) and last_amount(line) is None
