"""A product the note names that is not in the catalogue ("Coragen 60 ml acre ki cheppanu" where the company does
not sell Coragen) is shown on the card as written, marked not in the catalogue, never dropped without a word.
It is recognised by the dose it is given: the name-like words just before a dose that name nothing the reader
knows (a catalogue product, crop, problem, village, farmer) and are no advice verb or unit."""

import re

from handlers.agri.doses import find_doses
from handlers.agri.textmatch import Hit

_WORD = re.compile(r"[a-z][a-z0-9\-]*|\d+")
# Words said around a dose that are no product's name: verbs of advising and spraying, units, connectives.
_NOT_A_NAME = frozenset("""
spray sprayed spraying use used apply applied advised advise recommended recommend suggested suggest gave give given
told tell with of and or the a an at in on per dose dosage drench drenching mix mixed mixing add added put
cheppanu cheppamu cheppa icchanu ichanu ichamu ivvandi kottandi kottamani kottali vesaru veyandi veyali
kalipi kuda kooda tho lo ki ku ni mandu mandulu kani then also only just about around approx approximately
ml g gm gms gram grams kg litre liter litres liters lit l acre acres ekaram ekaraniki tank pump water neellu
""".split())


def unlisted_products(text: str, norm: str, hits: list[Hit]) -> list[str]:
    """The names of products outside the catalogue a note gives doses for, as the note writes them."""
    found: list[str] = []
    for dose in find_doses(norm):
        if any(h.category == "product" and 0 <= dose.start - h.end <= 12 for h in hits):
            continue
        words = list(_WORD.finditer(norm[max(0, dose.start - 40):dose.start]))
        offset = max(0, dose.start - 40)
        name: list[str] = []
        after = dose.start
        for match in reversed(words):
            start, end = offset + match.start(), offset + match.end()
            taken = any(h.start < end and start < h.end for h in hits)
            if taken or match.group() in _NOT_A_NAME or (match.group().isdigit() and not name) \
                    or re.search(r"[.,;:!?]", norm[end:after]):
                break
            name.insert(0, match.group())
            after = start
            if len(name) == 3:
                break
        while name and name[-1].isdigit():
            name.pop()
        if name and len(name[0]) >= 3 and not name[0].isdigit():
            found.append(_as_written(text, " ".join(name)))
    return list(dict.fromkeys(found))


def _as_written(text: str, name: str) -> str:
    pattern = r"\s+".join(re.escape(w) for w in name.split())
    match = re.search(pattern, text, re.IGNORECASE)
    return match.group() if match else name
