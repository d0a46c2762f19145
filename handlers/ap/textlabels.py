"""The labelled fields at the head and foot of a printed invoice: its number, date, buyer's order, seller, bank.

Billing programs label the same field many ways (Tally's "Inv. No. ... Dated", Zoho's "Invoice#" / "P.O.#",
Busy's "Bill No.", a hand-made "Document No."). A label's value is what follows it on its line, up to the next
label; when a row holds only labels (Tally prints a box of labels with the values on the row beneath) the
values are read from the next row, by column where the spacing survived and from the right otherwise.
A bare "Dated" belongs to the label before it: after the invoice number it is the invoice date, after the
buyer's order it is the order's date.
"""

import re
from dataclasses import dataclass, field
from datetime import date

from handlers.ap.textamounts import find_date

Field = str
"""number, date, po, po_date, other, other_date, account, ifsc, bank_name."""

_NO = r"(?:no\b\.?|number\b|num\b\.?|#|sl\.?\s*no\b\.?)"
_LABELS: list[tuple[Field, re.Pattern[str]]] = [(name, re.compile(pattern, re.IGNORECASE)) for name, pattern in [
    ("other_date", r"\b(?:due|p\.?\s?o\.?|order|delivery(?:\s+note)?|supply|challan|e-?\s?way\s*bill|lr|rr|ack\.?"
                   r"|despatch|dispatch|payment|ref(?:erence)?\.?|grn|receipt|irn)\s*(?:date|dt\b\.?)"),
    ("other_date", r"\bdate\s+of\s+(?:supply|delivery|removal|despatch|dispatch)"),
    ("date", r"\b(?:tax\s+)?(?:invoice|inv\.?|bill|voucher|document|doc\.?)\s*(?:date|dt\b\.?)"),
    ("date", r"\bdate\s+of\s+(?:invoice|issue)"),
    ("number", rf"\b(?:tax\s+|gst\s+)?invoice\s*{_NO}(?:\s*(?:&|and)\s*date)?"),
    ("number", rf"\binv\.?\s*{_NO}"),
    ("number", r"\binvoice\s+ref(?:erence)?\b\.?(?:\s*no\b\.?)?"),
    ("number", r"\binvoice\b(?=\s*:\s*[A-Za-z/\-]*\d)"),
    ("number", rf"\b(?:bill|voucher|doc(?:ument)?\.?)\s*{_NO}"),
    # "Against PO/SW/26-27/043", "Against P.O. No. 4500012345", "against your order 4500012345": the order the
    # goods were supplied against; a number that itself begins with PO keeps its letters.
    ("po", rf"\bagainst\s+(?:(?:our|your|the)\s+)?(?:purchase\s+order|order|p\.?\s?o\.?)\s*"
           rf"(?:{_NO}|ref(?:erence)?\b\.?)?(?=[\s:#]|$)"),
    ("po", r"\bagainst\b(?=\s+p\.?\s?o\s*[/\-_])"),
    ("po", r"\byour\s+ref(?:erence)?\b\.?(?:\s*no\b\.?)?"),
    ("po", rf"\bbuyer'?s?\s*(?:order|p\.?\s?o\.?)\s*(?:{_NO}|ref\b\.?)?"),
    ("po", rf"\bpurchase\s+order\s*(?:{_NO}|ref\b\.?)?"),
    ("po", rf"\bp\.?\s?[o0]{{1,2}}\.?\s*(?:{_NO}|ref(?:erence)?\b\.?)"),
    ("po", r"\bp\.?\s?o\b\.?(?=\s*[:#])"),
    ("po", rf"\b(?:your\s+)?order\s*(?:ref(?:erence)?\b\.?|{_NO})"),
    ("po", r"\byour\s+(?:order|p\.?\s?o\.?)\b"),
    ("po", rf"\b(?:cust(?:omer)?\.?\s*|buyer'?s?\s*)?ord\.?\s*{_NO}"),
    ("account", rf"\b(?:current\s+|savings\s+|ca\s+)?(?:a/?c|acc(?:oun)?t|account)\.?\s*{_NO}"),
    ("account", r"\b(?:a/c|account)\b\.?(?=\s*[:\-]?\s*(?:[A-Za-z][A-Za-z&.' ]{1,40}?\s*[-–,:]\s*)?\d{6})"),
    ("account", rf"\b(?:s\.?b|c\.?a|c\.?c|o\.?d)\.?(?:\s*/\s*(?:s\.?b|c\.?a|c\.?c|o\.?d)\.?)*\s*(?:a/?c\.?\s*)?{_NO}"),
    ("ifsc", r"\b(?:branch\s*(?:&|and)\s*)?ifs(?:c)?\.?\s*(?:code)?"),
    ("bank_name", r"\bbank(?:'?s)?\s*name\b|\bbank\s*(?=:)"),
    ("other", rf"\b(?:sales\s+order|delivery\s+note|(?:dis|des)patch\s+doc(?:ument)?\.?|challan|e-?\s?way\s*bill"
              rf"|vehicle|lr|rr|ack\.?|grn|gr)\b\.?\s*{_NO}?"),
    ("other", r"\b(?:mode\s*/\s*)?terms\s+of\s+(?:payment|delivery)|\bplace\s+of\s+supply|\bsupplier'?s?\s+ref\.?"
              r"|\bother\s+references?(?:\(s\))?|\breference\s*(?:no\b\.?|#)|\bdestination\b|\bdespatched\s+through"
              r"|\breverse\s+charge|\bstate\s+(?:name|code)|\bpayment\s+terms|\bdue\s+date|\birn\b|\bpan\b"),
    ("date", r"\bdated\b|\bdate\b|\bdt\b\.?"),
]]
_SEPARATORS = " :;-–.#|\t"
_IDENTIFIER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9/_.\-]*$")
_ACCOUNT = re.compile(r"\d[\d ]{7,22}\d")
_IFSC = re.compile(r"\b([A-Z]{4})[0OQ]{1,2}([A-Z0-9]{6})\b")
_IFSC_ZERO_MISREAD = re.compile(r"\b([A-Z]{4})[DEU@]([0-9O]{6})\b")
"""An IFSC's fifth place is always a zero; a photo reads a round 0 as D, E or U. Only with a branch of digits."""


def ifsc_in(text: str) -> str | None:
    """The IFSC in the text: 4 letters, a zero, 6 branch characters; a scan's O/Q for the zero, or the zero read
    twice ("CNRB0Q001234"), is put right."""
    match = _IFSC.search(text.upper())
    if not match:
        zero = _IFSC_ZERO_MISREAD.search(text.upper())
        return None if zero is None else zero.group(1) + "0" + zero.group(2).replace("O", "0")
    code = match.group(1) + "0" + match.group(2)
    branch = code[5:]
    if re.fullmatch(r"[0-9OQ]{6}", branch):
        branch = branch.replace("O", "0").replace("Q", "0")
    elif len(re.findall(r"\d", branch)) >= 2:
        # A scan's Q or O for a zero in a branch code of digits and a letter ("IDIB0Q0V047", "IDIB0OOGO12");
        # a branch of letters ("BARB0METODA") keeps its O.
        branch = branch.replace("Q", "0").replace("O", "0")
    elif re.search(r"\d", branch):
        branch = branch.replace("Q", "0")
    return code[:4] + "0" + branch
_GAP = re.compile(r"\S+(?:\s\S+)*")
_DATED_AFTER = {"number": "date", "po": "po_date", "other": "other_date", "date": "date", "po_date": "po_date",
                "other_date": "other_date"}


@dataclass
class Label:
    field: Field
    start: int
    end: int
    value: str


@dataclass
class HeadFields:
    """What the labels said, and which lines they used (the rest are the invoice's other text)."""

    values: dict[Field, str] = field(default_factory=dict)
    dates: dict[Field, date] = field(default_factory=dict)
    used: set[int] = field(default_factory=set)


def find_labels(line: str) -> list[Label]:
    """Return the labels on a line, left to right, each with the text up to the next label as its value."""
    spans: list[tuple[int, int, Field]] = []
    for name, pattern in _LABELS:
        for match in pattern.finditer(line):
            if match.end() > match.start():
                spans.append((match.start(), match.end(), name))
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    chosen: list[tuple[int, int, Field]] = []
    for start, end, name in spans:
        if chosen and start < chosen[-1][1]:
            continue
        chosen.append((start, end, name))
    labels: list[Label] = []
    for i, (start, end, name) in enumerate(chosen):
        stop = chosen[i + 1][0] if i + 1 < len(chosen) else len(line)
        labels.append(Label(field=name, start=start, end=end, value=line[end:stop].strip(_SEPARATORS)))
    # A bare "Dated" takes its meaning from the label before it on the same line.
    for before, label in zip(labels, labels[1:]):
        if label.field == "date" and re.fullmatch(r"dated|date|dt\.?", line[label.start:label.end].strip(), re.IGNORECASE):
            label.field = _DATED_AFTER.get(before.field, label.field)
    return labels


def _joined(tokens: list[str]) -> list[str]:
    """Tokens with an OCR-split number put back together ("SLG/26 -27/0070", "KAI -PO- 2609-228"), and a number
    printed with spaces round its separators read whole ("SVC / 26-27 / 187"); a date after a lone separator
    is the number's date ("BHT-262 / 14-05-2026"), not part of it."""
    out: list[str] = []
    for index, token in enumerate(tokens):
        after = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token in ("/", "-") and out and out[-1][-1:].isalnum() and after[:1].isalnum() and not _is_date(after):
            out[-1] += token
        elif out and (token[:1] in "-/" and len(token) > 1 and out[-1][-1:].isalnum()
                      or out[-1][-1:] in "-/" and len(out[-1]) > 1 and token[:1].isalnum()):
            out[-1] += token
        else:
            out.append(token)
    return out


def _is_date(token: str) -> bool:
    found = find_date(token)
    return found is not None and found[1] == 0 and found[2] == len(token)


def _spaced_number(value: str) -> str | None:
    """A number printed in groups with single spaces ("gac 2627 120", "INV 26 0007"): a series in letters or
    digits, then groups of digits, up to a wider gap."""
    chunk = re.split(r"\s{2,}|\|", value.strip())[0].strip(" :;,")
    parts = chunk.split()
    if not 2 <= len(parts) <= 4 or not all(_IDENTIFIER.match(p) for p in parts):
        return None
    if not all(any(c.isdigit() for c in p) for p in parts[1:]) or any(_is_date(p) for p in parts):
        return None
    if not (parts[0].isalpha() or any(c.isdigit() for c in parts[0])):
        return None
    return " ".join(parts)


def identifier(value: str) -> str | None:
    """Return the first token of a value that reads as a document number (has a digit, is not a date).

    A short series prefix printed apart from its digits ("BHT 219") stays part of the number.
    """
    tokens = _joined(value.replace("|", " ").split())
    spaced = _spaced_number(value)
    if spaced is not None:
        return spaced
    for index, raw in enumerate(tokens):
        token = raw.strip(":;,()[]")
        if raw.endswith(",") or not any(c.isdigit() for c in token) or not _IDENTIFIER.match(token):
            continue
        found = find_date(token)
        if found and found[1] == 0 and found[2] == len(token):
            continue
        if index == 1 and re.fullmatch(r"[A-Z]{2,6}", tokens[0]) and token[0].isdigit():
            return f"{tokens[0]} {token.rstrip('.-/')}"
        return token.rstrip(".-/")
    return None


def _letters_read_as_zero(number: str) -> str:
    """A scan reads the O of a PO number's letter series as a zero ("KAI/P0/0114"): a short part between
    separators that is letters but for one 0 is letters."""
    return re.sub(r"(?<![A-Za-z0-9])([A-Za-z]{1,3})0(?![A-Za-z0-9])",
                  lambda m: m.group(1) + ("O" if m.group(1).isupper() else "o"), number)


def account_number(value: str) -> str | None:
    match = _ACCOUNT.search(value)
    if not match:
        return None
    digits = re.sub(r"\D", "", match.group(0))
    return digits if 9 <= len(digits) <= 18 else None


def _fits(name: Field, value: str) -> bool:
    if name in ("date", "po_date", "other_date"):
        return find_date(value) is not None
    if name == "account":
        return account_number(value) is not None
    if name == "ifsc":
        return ifsc_in(value) is not None
    return identifier(value) is not None


def _by_column(labels: list[Label], pending: list[int], below: str) -> dict[int, str]:
    """Values on the row beneath a row of labels, each given to the waiting label it starts nearest to.

    Where a scan lost the row's indentation, the values keep their order: they are matched from the right."""
    chunks = list(re.finditer(r"\S+(?:\s\S+)*", below.replace("|", " ")))  # a table's rules part its columns
    found: dict[int, str] = {}
    for chunk in chunks:
        nearest = min(pending, key=lambda i: abs(labels[i].start - chunk.start()))
        if abs(labels[nearest].start - chunk.start()) <= 12 and nearest not in found:
            found[nearest] = chunk.group(0)
    if len(found) < min(len(chunks), len(pending)):
        return {pending[-1 - n]: chunk.group(0) for n, chunk in enumerate(reversed(chunks[-len(pending):]))}
    return found


def _from_the_right(labels: list[Label], below: str) -> dict[int, str]:
    """Values on the row beneath, read from the right: the row may start with the seller's address."""
    tokens = below.split()
    found: dict[int, str] = {}
    for index in range(len(labels) - 1, -1, -1):
        name = labels[index].field
        for width in (3, 2, 1) if name.endswith("date") else (1,):
            window = " ".join(tokens[-width:])
            whole = find_date(window)
            if name.endswith("date") and (whole is None or whole[1] != 0 or whole[2] != len(window)):
                continue
            if len(tokens) >= width and _fits(name, window):
                found[index] = " ".join(tokens[-width:])
                del tokens[-width:]
                break
    return found


def _spaced(line: str) -> bool:
    return "  " in line.strip()


def _take(head: HeadFields, name: Field, value: str, strong: bool) -> bool:
    """Record a value for a field; the first wins, except that a strong date label beats a weak one."""
    if name in ("date", "po_date", "other_date"):
        found = find_date(value)
        if found is None:
            return False
        if name not in head.dates or (strong and name == "date" and "date_strong" not in head.values):
            head.dates[name] = found[0]
            if strong and name == "date":
                head.values["date_strong"] = "1"
        return True
    if name == "account":
        number = account_number(value)
        if number and name not in head.values:
            head.values[name] = number
        return number is not None
    if name == "ifsc":
        code = ifsc_in(value)
        if code and name not in head.values:
            head.values[name] = code
        return code is not None
    if name == "bank_name":
        cleaned = re.split(r"\s{2,}|\b(?:a/?c|account|ifsc|branch)\b", value, flags=re.IGNORECASE)[0].strip(" ,:-")
        if len(cleaned) >= 3 and name not in head.values:
            head.values[name] = cleaned[:60]
        return len(cleaned) >= 3
    if name in ("number", "po"):
        token = identifier(value)
        if token and name == "po":
            token = _letters_read_as_zero(token)
        if token and name not in head.values:
            head.values[name] = token
        if name == "number" and token:
            # "Invoice No. & Date: TS/245 dt. 22-04-2026" carries the date in the same value.
            rest = value[value.find(token) + len(token):]
            if find_date(rest):
                _take(head, "date", rest, strong=True)
        return token is not None
    return False


def _number_and_date(labels: list[Label]) -> None:
    """ "Bill No./Date : BHT-262 / 14-05-2026", "PO No. & Date: 4500012345 dt 12.04.2026": the number's label
    is empty and the date label after it holds both."""
    for before, label in zip(labels, labels[1:], strict=False):
        if before.field in ("number", "po") and not before.value.strip("/&, ") and label.value \
                and label.field in ("date", "po_date"):
            found = find_date(label.value)
            head_part = label.value[:found[1]] if found else label.value
            if identifier(head_part):
                before.value = head_part.strip(" /-:")
                label.value = label.value[found[1]:] if found else ""
                if not found:
                    label.field = "other"  # its date is printed after the next label ("... dt 12.04.2026")


def _below_has_labels(line: str, below: str, pending: list[Label]) -> bool:
    """Whether the row beneath holds labels of its own where the waiting labels' values would be.

    Labels under the seller's address on the left ("State Name : ...") do not count when the spacing shows
    the values sit in the columns of the waiting labels."""
    if _spaced(line) and _spaced(below):
        start = max(0, min(p.start for p in pending) - 4)
        return bool(find_labels(below[start:]))
    return any(ln.field in ("number", "po", "date", "account") for ln in find_labels(below))


def read_head(lines: list[str]) -> HeadFields:
    """Read every labelled field of the invoice; the first value of a field wins."""
    head = HeadFields()
    for index, line in enumerate(lines):
        labels = find_labels(line)
        if not labels:
            continue
        _number_and_date(labels)
        pending: list[Label] = []
        for label in labels:
            written = line[label.start:label.end].strip()
            strong = label.field == "date" and not re.fullmatch(r"date|dt\.?", written, re.IGNORECASE)
            if label.value and _take(head, label.field, label.value, strong):
                head.used.add(index)
            elif not label.value.strip("/&, "):
                pending.append(label)
        below_index = index + 1
        while below_index < len(lines) and not lines[below_index].strip():
            below_index += 1
        if not pending or below_index >= len(lines) or _below_has_labels(line, lines[below_index], pending):
            continue
        if any(p.field not in ("other", "other_date") for p in pending):
            head.used.add(index)
            below = lines[below_index]
            waiting = [i for i, label in enumerate(labels) if label in pending]
            values = (_by_column(labels, waiting, below) if _spaced(line) and _spaced(below)
                      else _from_the_right(labels, below))
            for position, value in values.items():
                label = labels[position]
                if label in pending and _take(head, label.field, value, label.field == "date"):
                    head.used.add(below_index)
    return head


_BARE_NUMBER = re.compile(r"(?:^|\s{2,})#\s*([A-Za-z0-9][A-Za-z0-9/_.\-]*)\s*$")
_TITLED_NUMBER = re.compile(r"^\s*(?:(?:tax|gst|sales|retail)\s+)?invoice\s*[:\-]?\s+([A-Za-z0-9][A-Za-z0-9/_.\-]*)\s*$",
                            re.IGNORECASE)
"""ERPNext and Odoo print the number beside the title ("Tax Invoice        ACC-SINV-2026-00231")."""


def bare_number(lines: list[str], head: HeadFields) -> None:
    """The number printed without a label, the last resort when no label named it: Zoho Books' "# INV-000362"
    under the title, or a number standing beside the title itself. A "#" before a door number starts an address
    line and is followed by more."""
    if "number" in head.values:
        return
    for pattern in (_BARE_NUMBER, _TITLED_NUMBER):
        for index, line in enumerate(lines):
            if (match := pattern.search(line)) and (token := identifier(match.group(1))) and not _is_date(token) \
                    and any(c.isdigit() for c in token):
                head.values["number"] = token
                head.used.add(index)
                return


def bank_details(lines: list[str], head: HeadFields) -> dict[str, str]:
    """The seller's bank account printed on the invoice (account number, IFSC, bank name)."""
    bank: dict[str, str] = {}
    if "account" in head.values:
        bank["account_number"] = head.values["account"]
    ifsc = head.values.get("ifsc")
    if ifsc is None:
        for line in lines:
            if re.search(r"ifs|bank", line, re.IGNORECASE) and (code := ifsc_in(line)):
                ifsc = code
                break
    if ifsc:
        bank["ifsc"] = ifsc
    if "bank_name" in head.values:
        bank["bank_name"] = head.values["bank_name"]
    return bank
