"""Items printed as labelled lines rather than a table: a hand-made bill or a spreadsheet's single item.

    Item: Nursery Pot 6 inch
    Qty: 1,200 Nos
    Rate: Rs. 9.40 per No.
    Amount: Rs. 11,280.00

An item is taken only when quantity x rate is its amount, the same test a table row passes.
"""

import re
from decimal import Decimal

from handlers.ap.textamounts import amount_of, is_currency
from handlers.ap.texttable import Row

_ITEM_KEYS = [(name, re.compile(rf"^\s*(?:{pattern})\.?\s*[:=-]\s*(.+)$", re.IGNORECASE)) for name, pattern in [
    ("description", r"item(?:\s+name)?|description|product|particulars|goods"),
    ("quantity", r"qty|quantity"), ("unit_price", r"rate|price|unit\s+price"), ("amount", r"amount|value|line\s+total")]]


def _first_number(text: str) -> Decimal | None:
    for token in text.replace("@", " ").split():
        bare = token.strip(",;:")
        if is_currency(bare):
            continue
        if (value := amount_of(re.sub(r"(?<=\d)[A-Za-z]+\.?$", "", bare))) is not None:
            return value
    return None


def _close(product: Decimal, amount: Decimal) -> bool:
    return abs(product - amount) <= max(Decimal("0.05"), amount * Decimal("0.0005"))


def labelled_items(lines: list[str]) -> list[Row]:
    """The items printed as labelled lines, in order; a description opens each, its amount closes it."""
    rows: list[Row] = []
    item: dict[str, object] = {}
    for line in lines:
        for name, pattern in _ITEM_KEYS:
            if not (match := pattern.match(line)):
                continue
            if name == "description":
                item = {"description": match.group(1).strip()}
            elif item:
                item[name] = _first_number(match.group(1))
            break
        q, r, a = item.get("quantity"), item.get("unit_price"), item.get("amount")
        if isinstance(q, Decimal) and isinstance(r, Decimal) and isinstance(a, Decimal):
            if q > 0 and _close(q * r, a):
                quantity = q.quantize(Decimal(1)) if q == q.to_integral() else q
                rows.append(Row(description=str(item["description"])[:200], quantity=quantity, unit_price=r,
                                amount=a))
            item = {}
    return rows
