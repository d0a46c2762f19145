"""The officer's dose with its unit ("200 g per acre", "2 ml/litre", "అర లీటరు", "18 g per 15 litre tank",
"half litre for two acres", "2 caps per pump"), read from a note and checked against the catalogue's label dose
for the crop: a dose above the label is flagged, never dropped. A dose that cannot be put per acre (a cap, a
tank of unknown size) is kept as said and never flagged."""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from handlers.agri.models import Product

SPRAY_LITRES_PER_ACRE = 200
"""A knapsack spray volume per acre, to compare a per-litre dose with a per-acre label."""

_WORD_NUMBERS = {"half": 0.5, "ardha": 0.5, "arda": 0.5, "అర": 0.5, "pavu": 0.25, "paavu": 0.25, "పావు": 0.25,
                 "vanda": 100.0, "వంద": 100.0, "nooru": 100.0, "nuru": 100.0, "నూరు": 100.0, "nuta": 100.0,
                 "noota": 100.0, "నూట": 100.0, "hundred": 100.0}
# Number words in English, Latin-letter Telugu and Telugu script, by value; compounds ("నూట యాభై" 150,
# "rendu vandala" 200, "twenty five") are read by _number.
for _value, _words in {
        1: "one okka okati ఒక ఒకటి", 2: "two rendu రెండు", 3: "three moodu mudu మూడు", 4: "four nalugu నాలుగు",
        5: "five aidu ayidu ainthu ఐదు అయిదు", 6: "six aaru aru ఆరు", 7: "seven edu yedu ఏడు",
        8: "eight enimidi ఎనిమిది", 9: "nine tommidi తొమ్మిది", 10: "ten padi పది", 15: "fifteen padihenu పదిహేను",
        20: "twenty iravai eravai ఇరవై", 25: "iravai aidu", 30: "thirty muppai muppayi ముప్పై ముప్పయి",
        40: "forty nalabhai nalabai నలభై నలబై", 50: "fifty yabhai yabai ebhai యాభై యాబై",
        60: "sixty aravai అరవై", 70: "seventy debbai డెబ్బై", 80: "eighty enabhai enabai ఎనభై ఎనబై",
        90: "ninety tombhai tombai తొంభై తొంబై"}.items():
    for _word in _words.split():
        _WORD_NUMBERS.setdefault(_word, float(_value))
_HUNDREDS = {"vandala", "vandalu", "వందల", "వందలు", "hundred", "hundreds"}


def _alternatives(words: Iterable[str]) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))


_WORD_RX = f"(?:{_alternatives([*_WORD_NUMBERS, *_HUNDREDS])})(?![a-z\u0c00-\u0c7f])"
_NUM_RX = rf"\d+(?:\.\d+)?|{_WORD_RX}(?:\s+{_WORD_RX}){{0,3}}"
_NUM = f"(?P<num>{_NUM_RX})"
_UNITS = {
    "kg": ["kgs", "kg", "kilos", "kilolu", "kilo", "కిలోలు", "కిలో"],
    "g": ["grams", "gram", "grms", "grm", "gms", "gm", "g", "గ్రాములు", "గ్రాము", "గ్రా.", "గ్రా"],
    "ml": ["mls", "ml", "మి.లీ.", "మి.లీ", "మిల్లీలీటర్లు", "మిల్లీ", "ఎం.ఎల్"],
    "l": ["litres", "litre", "liters", "liter", "ltrs", "ltr", "lit", "l", "లీటర్లు", "లీటరు", "లీటర్"],
    # A bottle cap: not a fixed measure, kept as said.
    "cap": ["caps", "cap", "capfuls", "capful", "moothalu", "mootalu", "mootha", "moota", "muthalu", "mutalu",
            "mutha", "మూతలు", "మూత"],
}
_UNIT_OF = {word: unit for unit, words in _UNITS.items() for word in words}
_UNIT = f"(?P<unit>{_alternatives(_UNIT_OF)})"
_END = r"(?![a-z\u0c00-\u0c7f])"
_ACRE = r"(?:acres|acre|ac|ekaram|ekaraniki|ekaraku|ekaraki|ekaralaki|ఎకరానికి|ఎకరాకు|ఎకరాకి|ఎకరం|ఎకరాలకు)"
_LITRE = r"(?:litres|litre|liters|liter|ltrs|ltr|lit|l|లీటరుకు|లీటర్‌కు|లీటర్లకు|లీటర్ల|లీటరు|లీటర్)"
_TANK = r"(?:tank|pump|sprayer|drum|ట్యాంకుకు|ట్యాంకు|ట్యాంక్|పంపుకు|పంపు)"
_WATER = r"(?:\s*(?:of\s+water|water|neetiki|neellaku|నీళ్ళకు|నీళ్లకు|నీటికి))?"
# What a dose is per: (a number of) acres, (a number of) litres, or a tank / pump, optionally "N litre tank".
_PER_ONE_ACRE = r"(?:ఎకరానికి|ఎకరాకు|ఎకరాకి|ekaraniki|ekaraku|ekaraki)"
_BASIS = (rf"(?:(?P<count>{_NUM_RX})\s*(?!{_PER_ONE_ACRE}))?(?P<basis>{_ACRE}|{_LITRE}{_WATER}(?:\s*{_TANK})?|{_TANK}){_WATER}"
          r"(?:\s*(?:ki|ku|ke))?")
_PER = r"\s*(?:/|per\s+|for\s+|an\s+|a\s+|ki\s+|each\s+)?\s*"
_AFTER = re.compile(rf"(?<![\w.]){_NUM}\s*{_UNIT}{_END}(?:{_PER}{_BASIS}{_END})?")
_BEFORE = re.compile(rf"(?<![a-z0-9\u0c00-\u0c7f.])(?:per\s+)?{_BASIS}{_END}\s+{_NUM}\s*{_UNIT}{_END}")
_LABEL_CUE = re.compile(r"(?:label|లేబుల్|recommended dose)\D{0,12}$")
_BASE = {"kg": ("g", 1000.0), "g": ("g", 1.0), "l": ("ml", 1000.0), "ml": ("ml", 1.0)}


@dataclass(frozen=True)
class Dose:
    """An amount of product per acre, per litre of spray, per N litres or per tank/pump, as the note says."""

    amount: float
    unit: str
    basis: str
    """"acre", "litre", "<N> litre" (a tank of known size), "tank" or "pump"."""
    start: int
    end: int

    def text(self) -> str:
        return f"{self.amount:g} {self.unit}/{self.basis}"

    def per_acre(self) -> tuple[float, str] | None:
        """Return the amount per acre in base units (g or ml), or None when it cannot be known."""
        if self.unit not in _BASE or self.basis in ("tank", "pump"):
            return None
        base, factor = _BASE[self.unit]
        amount = self.amount * factor
        if self.basis == "acre":
            return amount, base
        litres = float(self.basis.split()[0]) if " " in self.basis else 1.0
        return amount / litres * SPRAY_LITRES_PER_ACRE, base


def _number(said: str) -> float:
    """A number as digits or words: "60", "అరవై", "నూట యాభై" (150), "rendu vandala" (200), "twenty five"."""
    if not said[0].isalpha():
        return float(said)
    total = 0.0
    for word in said.split():
        total = (total or 1.0) * 100.0 if word in _HUNDREDS else total + _WORD_NUMBERS[word]
    return total


def _per(match: re.Match[str]) -> tuple[float, str]:
    """Return (how many of the basis the amount is for, the basis) of a matched dose."""
    said, count = match.group("basis"), match.group("count")
    number = _number(count) if count else 1.0
    if not said or re.fullmatch(_ACRE, said):
        return number, "acre"
    if re.match(_LITRE, said):
        return (1.0, "litre") if number == 1.0 else (1.0, f"{number:g} litre")
    return number, "pump" if re.search(r"pump|పంపు", said) else "tank"


def find_doses(norm: str) -> list[Dose]:
    """Return the doses a normalised note gives, leaving out the label dose an officer quotes back."""
    found: list[Dose] = []
    for rx in (_BEFORE, _AFTER):
        for m in rx.finditer(norm):
            if any(m.start() < d.end and m.end() > d.start for d in found):
                continue
            if _LABEL_CUE.search(norm[max(0, m.start() - 20):m.start()]):
                continue
            share, basis = _per(m)
            # "half litre for two acres" is a quarter litre per acre.
            found.append(Dose(_number(m.group("num")) / share, _UNIT_OF[m.group("unit")], basis, m.start(), m.end()))
    return sorted(found, key=lambda d: d.start)


def parse_dose(text: str) -> Dose | None:
    """Return the one dose a short text gives ("200 g/acre", "2 ml per litre"), or None."""
    doses = find_doses(" ".join(text.lower().split()))
    return doses[0] if doses else None


def same_dose(left: str | None, right: str | None) -> bool:
    """Return True when two dose texts are the same amount per acre (500 g/acre == 0.5 kg/acre), or, when one
    cannot be put per acre, the same dose as said."""
    a, b = parse_dose(left or ""), parse_dose(right or "")
    if a is None or b is None:
        return a is b and not left and not right
    pa, pb = a.per_acre(), b.per_acre()
    if pa is None or pb is None:
        return a.text() == b.text()
    (x, ux), (y, uy) = pa, pb
    return ux == uy and abs(x - y) < 1e-6 * max(x, y, 1)


def above_label(dose: Dose, product: Product, crop: str | None) -> tuple[bool, str | None]:
    """Return (is the dose above the label for this crop, the label dose), comparing like with like only."""
    label_text = product.dosage.get(crop or "")
    label = parse_dose(label_text or "")
    given = dose.per_acre()
    allowed = label.per_acre() if label is not None else None
    if label_text is None or given is None or allowed is None:
        return False, label_text
    return given[1] == allowed[1] and given[0] > allowed[0] * 1.05, label_text
