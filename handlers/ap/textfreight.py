"""A transporter's freight bill laid out as a table of consignments: one row per lorry receipt (LR, GR, C/N,
docket), each with its own freight. Each row is a line to pay: one trip at the freight printed in its last column.
"""

import re
from decimal import Decimal
from typing import Any

_HEADER = re.compile(r"\b(?:l\.?\s?r|g\.?\s?r|c\s?/\s?n|consignment|docket|bilty)\b\.?\s*(?:no|number|#)?",
                     re.IGNORECASE)
_FREIGHT = re.compile(r"\b(?:freight|amount|charges)\b", re.IGNORECASE)
_ROW = re.compile(r"^\s*(\d{1,3})[.)]?\s+(\S.*?)\s+((?:\d{1,3}(?:,\d{2})*,)?\d{1,3}(?:,\d{3})*\.\d{2})\s*$")
_MAX_ROWS = 200


def freight_rows(lines: list[str]) -> list[dict[str, Any]]:
    """The consignment rows under a header naming lorry receipts and their freight, in order; each row starts
    with its serial number and ends with its freight (with paise). The table ends at the first line of
    another shape (its total)."""
    for index, line in enumerate(lines):
        if _HEADER.search(line) and _FREIGHT.search(line):
            return _rows_below(lines[index + 1:])
    return []


def _rows_below(lines: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    expected = 1
    for line in lines:
        if not line.strip() and not rows:
            continue
        match = _ROW.match(line)
        if match is None or int(match.group(1)) != expected or len(rows) >= _MAX_ROWS:
            break
        amount = Decimal(match.group(3).replace(",", ""))
        description = re.sub(r"\s{2,}", " ", match.group(2)).strip()
        rows.append({"description": f"Freight, {description}"[:200], "quantity": Decimal(1), "unit_price": amount,
                     "amount": amount})
        expected += 1
    return rows
