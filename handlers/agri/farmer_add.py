"""The new farmer on a visit card: how it is shown, edited and checked, and the register row Save writes.

Officers add farmers only in villages of their own territories (grants included); a village the register
does not know, or one outside the territory, is refused on the card with the villages the officer may use.
"""

import re
from typing import Any

from bot.services.i18n import text
from handlers.agri.extract import FieldReader, visit_id
from handlers.agri.models import Farmer, Visit
from handlers.agri.newfarmer import NewFarmer, other_script_of
from handlers.agri.register import FieldBook
from handlers.agri.textmatch import normalise
from handlers.agri.translit import is_telugu

NEW_FARMER = "new_farmer"
_MAX_NAME_WORDS = 4
_ID_CHARS = 25
"""A visit id (farmer id, date, digest) and its follow-up id (48 characters at most) must fit."""


def new_farmer_of(payload: dict[str, Any]) -> NewFarmer | None:
    found = payload.get(NEW_FARMER)
    return NewFarmer.model_validate(found) if found else None


def farmer_line(lang: str, new: NewFarmer, book: FieldBook | None = None) -> str:
    line = text(lang, "agri.card_new_farmer", name=new.name, other=new.other_script)
    close = [book.farmer_name(f, lang) for f in new.close_to if f in book.farmers] if book else []
    return line + (text(lang, "agri.card_close_to", names=", ".join(close)) if close else "")


def village_line(book: FieldBook, lang: str, new: NewFarmer) -> str | None:
    if new.village_written:
        return text(lang, "agri.card_new_village_written", village=new.village_written)
    return book.village_name(new.village, lang) if new.village else None


def _villages(book: FieldBook, territories: list[str], lang: str) -> str:
    return ", ".join(book.village_name(v, lang) for v in territories) or "-"


def new_farmer_blocked(book: FieldBook, payload: dict[str, Any], new: NewFarmer, lang: str) -> str | None:
    """Why Save must wait for this new farmer (an unknown or foreign village), or None."""
    territories: list[str] = payload.get("territories", [])
    if new.village_written:
        return text(lang, "agri.new_farmer_unknown_village", village=new.village_written, name=new.name,
                    villages=_villages(book, territories, lang))
    if new.village and (new.village not in book.villages or (territories and new.village not in territories)):
        return text(lang, "agri.new_farmer_foreign_village", village=book.village_name(new.village, lang),
                    name=new.name, villages=_villages(book, territories, lang))
    return None


def name_edit(reader: FieldReader, payload: dict[str, Any], value: str) -> dict[str, Any]:
    """The officer typed a farmer the register does not know: propose that name as a new farmer."""
    words = value.split()
    if not words or len(words) > _MAX_NAME_WORDS or not re.search(r"[A-Za-z\u0c00-\u0c7f]", value):
        raise ValueError("agri.edit_unknown_farmer")
    if any(not h.category.startswith("farmer") for h in reader.terms.find(normalise(value))):
        raise ValueError("agri.edit_not_a_name")
    visit = Visit.model_validate(payload["visit"])
    territories: list[str] = payload.get("territories", [])
    previous = new_farmer_of(payload)
    village = visit.village or (territories[0] if len(territories) == 1 else None)
    close = [f.id for f in reader.identity.close_to(reader.identity.name_words(value)[0])]
    new = NewFarmer(name=" ".join(words), other_script=other_script_of(" ".join(words)), village=village,
                    village_written=previous.village_written if previous and not visit.village else None,
                    close_to=close)
    return {**payload, NEW_FARMER: new.model_dump(), "visit": {**payload["visit"], "farmer_id": None}}


def village_edit(book: FieldBook, payload: dict[str, Any], found: str | None, value: str, lang: str) -> dict[str, Any]:
    """Set the new farmer's village; one the register does not know, or outside the territory, is refused."""
    new = new_farmer_of(payload)
    assert new is not None
    territories: list[str] = payload.get("territories", [])
    if found is None or (territories and found not in territories):
        shown = book.village_name(found, lang) if found else value.strip()
        raise ValueError(text(lang, "agri.edit_village_not_yours", village=shown,
                              villages=_villages(book, territories, lang)))
    updated = new.model_copy(update={"village": found, "village_written": None})
    return {**payload, NEW_FARMER: updated.model_dump(), "visit": {**payload["visit"], "village": found}}


def _ascii_slug(value: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", value.lower()))


def farmer_record(book: FieldBook, new: NewFarmer, crop: str) -> Farmer:
    """The register row for a confirmed new farmer: the name as written and in the other script, an id from
    the name and village (the same farmer saved twice is one row; another farmer of that name gets -2)."""
    latin, telugu = (new.other_script, new.name) if is_telugu(new.name) else (new.name, new.other_script)
    assert new.village is not None
    base = f"{(_ascii_slug(latin) or 'farmer')[:16].strip('-')}-{new.village[:8]}".strip("-")
    candidate, n = base, 1
    while True:
        existing = book.farmers.get(candidate) or next(
            (f for f in book.farmers.values() if f.id.upper() == candidate.upper()), None)
        if existing is None or (existing.name, existing.name_te, existing.village) == (latin, telugu, new.village):
            crops = list(dict.fromkeys([*(existing.crops if existing else []), crop]))
            return Farmer(id=candidate, name=latin, name_te=telugu, village=new.village, crops=crops,
                          acres=existing.acres if existing else None, phone=existing.phone if existing else None)
        n += 1
        candidate = f"{base[:_ID_CHARS - 3]}-{n}"


def visit_of_new_farmer(visit: Visit, farmer: Farmer, note: str) -> Visit:
    """The visit filed under the farmer just added, with the id a re-sent note would get from now on."""
    return visit.model_copy(update={"farmer_id": farmer.id, "village": farmer.village,
                                    "id": visit_id(farmer.id, visit.date, normalise(note))})
