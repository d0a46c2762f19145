"""A transporter's freight bill laid out as a table of consignments: one row per lorry receipt (LR, GR, C/N,
docket), each with its own freight. Each row is a line to pay: one trip at the freight printed in its last column.
A bill with no table prints each service once, with its one amount at the line's end: that line is the service.
"""

import re
from decimal import Decimal
from collections.abc import Callable
from typing import Any

_HEADER = re.compile(r"\b(?:l\.?\s?r|g\.?\s?r|c\s?/\s?n|consignment|docket|bilty)\b\.?\s*(?:no|number|#)?",
                     re.IGNORECASE)
_FREIGHT = re.compile(r"\b(?:freight|amount|charges)\b", re.IGNORECASE)
_PAISE_AMOUNT = r"(?:\d{1,3}(?:,\d{2})*,)?\d{1,3}(?:,\d{3})*\.\d{2}"
"""An amount with paise, in Indian or international grouping: 1,23,456.00 or 123,456.00."""
_ROW = re.compile(rf"^\s*(\d{{1,3}})[.)]?\s+(\S.*?)\s+({_PAISE_AMOUNT})\s*$")
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


_SERVICE = re.compile(r"\b(?:freight|transport(?:ation)?|cartage|carriage|lorry|truck|tempo|trailer|container|trip"
                      r"|l\.?\s?r|g\.?\s?r|c\s?/\s?n|consignment|docket|bilty|hire|hiring|loading|unloading|detention"
                      r"|halting|service|services|labour|job\s*work)\b", re.IGNORECASE)
_LAST_AMOUNT = re.compile(rf"^(\S.*?)\s+(?:rs\.?\s*|₹\s*|inr\s*)?({_PAISE_AMOUNT}|\d+\.\d{{2}})"
                          r"\s*(?:/-)?$", re.IGNORECASE)
_NOT_SERVICE = re.compile(r"\b(?:total|sub\s*-?\s*total|round(?:ed|ing)?\s*off|balance|advance|paid|received|tds|gst|cgst"
                          r"|sgst|igst|a/?c|account|ifsc)\b", re.IGNORECASE)
"""A figure or a payment line that names a service ("Freight total", "Advance paid for the trip")."""
_COUNT = re.compile(r"\b(\d{1,3})\s*(?:trips?|loads?|vehicles?|trucks?|lorr(?:y|ies)|containers?|nos?\.?)\s*$",
                    re.IGNORECASE)


def service_lines(lines: list[str], used: set[int], is_figure: Callable[[str], bool]) -> list[dict[str, Any]]:
    """A transporter's or service provider's bill that prints each service once with one amount ("Freight
    Ahmedabad to Surat (truck) 1 Trip 18,000.00", "LR 4471 Vapi-Pune 6.2 MT 12,400.00"): each such line, not a
    figure or a line already read, is one service to pay, at the amount at its end."""
    rows: list[dict[str, Any]] = []
    for index, line in enumerate(lines):
        flat = " ".join(line.replace("|", " ").split())
        if index in used or not flat or is_figure(flat) or not _SERVICE.search(flat) or _NOT_SERVICE.search(flat):
            continue
        match = _LAST_AMOUNT.match(flat)
        if match is None or len(rows) >= _MAX_ROWS:
            continue
        amount = Decimal(match.group(2).replace(",", ""))
        description = match.group(1).strip(" :-|")
        if amount <= 0 or len(re.findall(r"[A-Za-z]", description)) < 3:
            continue
        count = _COUNT.search(description)
        quantity = Decimal(count.group(1)) if count and int(count.group(1)) > 0 else Decimal(1)
        if (amount / quantity).quantize(Decimal("0.01")) * quantity != amount:
            quantity = Decimal(1)
        rows.append({"description": description[:200], "quantity": quantity,
                     "unit_price": (amount / quantity).quantize(Decimal("0.01")), "amount": amount})
    return rows
