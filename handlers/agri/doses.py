"""The officer's dose with its unit ("200 g per acre", "2 ml/litre", "అర లీటరు"), read from a note and checked
against the catalogue's label dose for the crop: a dose above the label is flagged, never dropped."""

import re
from dataclasses import dataclass

from handlers.agri.models import Product

SPRAY_LITRES_PER_ACRE = 200
"""A knapsack spray volume per acre, to compare a per-litre dose with a per-acre label."""

_WORD_NUMBERS = {"half": 0.5, "ardha": 0.5, "arda": 0.5, "అర": 0.5, "వంద": 100.0, "vanda": 100.0,
                 "one": 1.0, "okka": 1.0, "two": 2.0, "rendu": 2.0, "రెండు": 2.0, "ఒక": 1.0}
_NUM = r"(?P<num>\d+(?:\.\d+)?|" + "|".join(sorted(map(re.escape, _WORD_NUMBERS), key=len, reverse=True)) + ")"
_UNITS = {
    "kg": ["kgs", "kg", "kilos", "kilolu", "kilo", "కిలోలు", "కిలో"],
    "g": ["grams", "gram", "grms", "grm", "gms", "gm", "g", "గ్రాములు", "గ్రాము"],
    "ml": ["mls", "ml", "మి.లీ.", "మి.లీ", "మిల్లీలీటర్లు", "మిల్లీ"],
    "l": ["litres", "litre", "liters", "liter", "ltrs", "ltr", "lit", "l", "లీటర్లు", "లీటరు", "లీటర్"],
}
_UNIT_OF = {word: unit for unit, words in _UNITS.items() for word in words}
_UNIT = "(?P<unit>" + "|".join(sorted(map(re.escape, _UNIT_OF), key=len, reverse=True)) + ")"
_END = r"(?![a-z\u0c00-\u0c7f])"
_ACRE = r"(?:acre|acres|ekaram|ekaraniki|ekaraku|ఎకరానికి|ఎకరాకు|ఎకరం)"
_LITRE = r"(?:litre|liter|ltr|lit|l|లీటరుకు|లీటర్‌కు|లీటర్)"
_PER = r"\s*(?:/|per\s+|an\s+|a\s+|ki\s+)?\s*"
_AFTER = re.compile(rf"(?<![\w.]){_NUM}\s*{_UNIT}{_END}(?:{_PER}(?P<basis>{_ACRE}|{_LITRE})(?:\s*(?:ki|ku))?{_END})?")
_BEFORE = re.compile(rf"(?P<basis>{_ACRE}|acre\s+ki|per\s+acre)\s+{_NUM}\s*{_UNIT}{_END}")
_LABEL_CUE = re.compile(r"(?:label|లేబుల్|recommended dose)\D{0,12}$")
_BASE = {"kg": ("g", 1000.0), "g": ("g", 1.0), "l": ("ml", 1000.0), "ml": ("ml", 1.0)}


@dataclass(frozen=True)
class Dose:
    """An amount of product per acre or per litre of spray, where the note says it."""

    amount: float
    unit: str
    basis: str
    start: int
    end: int

    def text(self) -> str:
        return f"{self.amount:g} {self.unit}/{self.basis}"

    def per_acre(self) -> tuple[float, str]:
        """Return the amount per acre in base units (g or ml)."""
        base, factor = _BASE[self.unit]
        amount = self.amount * factor
        return (amount * SPRAY_LITRES_PER_ACRE if self.basis == "litre" else amount), base


def _number(word: str) -> float:
    return _WORD_NUMBERS[word] if word in _WORD_NUMBERS else float(word)


def _basis(word: str | None) -> str:
    return "litre" if word and re.fullmatch(_LITRE, word.split()[0]) else "acre"


def find_doses(norm: str) -> list[Dose]:
    """Return the doses a normalised note gives, leaving out the label dose an officer quotes back."""
    found: list[Dose] = []
    for rx in (_BEFORE, _AFTER):
        for m in rx.finditer(norm):
            if any(m.start() < d.end and m.end() > d.start for d in found):
                continue
            if _LABEL_CUE.search(norm[max(0, m.start() - 20):m.start()]):
                continue
            found.append(Dose(_number(m.group("num")), _UNIT_OF[m.group("unit")], _basis(m.group("basis")),
                              m.start(), m.end()))
    return sorted(found, key=lambda d: d.start)


def parse_dose(text: str) -> Dose | None:
    """Return the one dose a short text gives ("200 g/acre", "2 ml per litre"), or None."""
    doses = find_doses(" ".join(text.lower().split()))
    return doses[0] if doses else None


def same_dose(left: str | None, right: str | None) -> bool:
    """Return True when two dose texts are the same amount per acre (500 g/acre == 0.5 kg/acre)."""
    a, b = parse_dose(left or ""), parse_dose(right or "")
    if a is None or b is None:
        return a is b and not left and not right
    (x, ux), (y, uy) = a.per_acre(), b.per_acre()
    return ux == uy and abs(x - y) < 1e-6 * max(x, y, 1)


def above_label(dose: Dose, product: Product, crop: str | None) -> tuple[bool, str | None]:
    """Return (is the dose above the label for this crop, the label dose), comparing like with like only."""
    label_text = product.dosage.get(crop or "")
    label = parse_dose(label_text or "")
    if label is None or label_text is None:
        return False, label_text
    (given, unit), (allowed, label_unit) = dose.per_acre(), label.per_acre()
    return unit == label_unit and given > allowed * 1.05, label_text
