"""Edits of the visit card's fields that carry a unit or a choice: problems, objection, dose, follow-up, and
whether a message sent while a field waits is a value of that field's kind at all."""

import re
from typing import Any

from handlers.agri.doses import Dose, above_label, find_doses, parse_dose
from handlers.agri.extract import FieldReader
from handlers.agri.models import Advice, Result, Visit
from handlers.agri.results import product_source, result_of
from handlers.agri.textmatch import normalise
from handlers.agri.timing import followup_days

CLEAR = {"-", "none", "ledu", "లేదు"}
FREE_TEXT = {"note", "next_step"}
# What each field's own value may name; anything more (a farmer, a crop and a product...) is a new note.
_OWN = {"farmer": {"farmer", "crop", "village"}, "village": {"village"}, "crop": {"crop"}, "issue": {"issue"},
        "products": {"product"}, "dose": {"product"}, "objection": {"product"}, "result": {"product"}}
_NOTE_PARTS = {"farmer", "village", "crop", "issue", "product"}
_MAX_VALUE_WORDS = 12


def is_value_of(reader: FieldReader, field: str, value: str) -> bool:
    """Return False for a message that reads as a new note rather than a value for `field`."""
    if field in FREE_TEXT:
        return True
    norm = normalise(value)
    found = {"farmer" if h.category.startswith("farmer") else h.category for h in reader.terms.find(norm)}
    foreign = (found & _NOTE_PARTS) - _OWN.get(field, set())
    return len(foreign) < 2 and not (foreign and len(norm.split()) > _MAX_VALUE_WORDS)


def _targets(reader: FieldReader, visit: Visit, norm: str) -> list[str]:
    named = [a.product_id for a in reader.advice_in(norm)]
    ours = [a.product_id for a in visit.products]
    return [p for p in named if p in ours] or ours


def edit_problems(reader: FieldReader, norm: str) -> dict[str, Any]:
    if norm in CLEAR:
        return {"issue": None, "problems": []}
    problems = list(dict.fromkeys(h.key for h in reader.terms.find(norm) if h.category == "issue"))
    if not problems:
        raise ValueError("agri.edit_unknown_value")
    return {"issue": problems[0], "problems": problems}


_REACTION_WORDS = {"accepted": "accepted", "postponed": "postponed", "rejected": "rejected", "undecided": "undecided"}


def edit_products(reader: FieldReader, visit: Visit, norm: str) -> list[Advice]:
    """Read the Products field as the reader reads a note. A product already on the card keeps its objection and
    dose unless the edit says another ("Delegate postponed" keeps "no money"); a reaction with no product
    named ("postponed") is said of every product on the card."""
    named = reader.advice_in(norm, visit.crop)
    before = {a.product_id: a for a in visit.products}
    if not named:
        said = [h.key for h in reader.terms.find(norm) if h.category == "reaction"]
        reaction = said[-1] if said else _REACTION_WORDS.get(norm)
        objection = next((h.key for h in reader.terms.find(norm) if h.category == "objection"), None)
        if reaction is None or not visit.products:
            raise ValueError("agri.edit_bad_products")
        reaction = "accepted" if reaction == "own" else reaction
        return [a.model_copy(update={"reaction": reaction, "objection": objection or a.objection})
                for a in visit.products]
    kept = []
    for advice in named:
        old = before.get(advice.product_id)
        if old is not None:
            advice = advice.model_copy(update={
                "objection": advice.objection or old.objection,
                **({} if advice.dose else {"dose": old.dose, "label_dose": old.label_dose,
                                           "above_label": old.above_label})})
        kept.append(advice)
    return kept


def edit_result(reader: FieldReader, norm: str, issue: str | None) -> Result:
    """The outcome's Result field reads what the reader reads in an answer ("worked", "90% control", "still
    there"), or a result's own name."""
    found = result_of(norm, reader.terms.find(norm), issue)
    if found is None and norm.replace(" ", "_") in ("controlled", "partial", "no_effect", "worse"):
        found = norm.replace(" ", "_")  # type: ignore[assignment]
    if found is None:
        raise ValueError("agri.edit_bad_result")
    return found


def edit_applied(reader: FieldReader, norm: str) -> dict[str, Any]:
    """The outcome's Products field: catalogue products applied, or whose product it was ("dealer's product")."""
    if norm in CLEAR:
        return {"products": [], "source": "ours"}
    applied = [a.product_id for a in reader.advice_in(norm)]
    source = product_source(norm) if not applied else "ours"
    if not applied and source == "ours":
        raise ValueError("agri.edit_bad_applied")
    return {"products": applied, "source": source}


def edit_objection(reader: FieldReader, visit: Visit, norm: str) -> dict[str, Any]:
    if norm in CLEAR:
        return {"products": [a.model_copy(update={"objection": None}).model_dump() for a in visit.products],
                "objection_unnamed": None}
    choice = next((h.key for h in reader.terms.find(norm) if h.category == "objection"), None)
    if choice is None:
        choice = next((o for o in ("price", "money", "doubt", "wait", "availability") if o in norm), None)
    if choice is None:
        raise ValueError("agri.edit_bad_objection")
    if not visit.products:
        # No product on the card: the reason is the farmer's answer to spraying at all.
        return {"objection_unnamed": choice}
    targets = _targets(reader, visit, norm)
    return {"products": [(a.model_copy(update={"objection": choice}) if a.product_id in targets else a).model_dump()
                         for a in visit.products]}


# Where one product's dose ends in a Dose edit giving several: "Proclaim 80 g/acre; Coragen 60 ml/acre".
_DOSE_PARTS = re.compile(r"[;\n]|,(?!\d)|\s+(?:and|mariyu|మరియు)\s+")


def edit_dose(reader: FieldReader, visit: Visit, norm: str) -> dict[str, Any]:
    """The Dose field: one dose for the product it names (the first product when it names none), or a dose
    for each of several products ("A 200 ml/acre; B 300 ml/acre"), bare doses going in order to the products
    given none; nothing given is a refusal, never a silent no-op."""
    if not visit.products:
        raise ValueError("agri.edit_no_products")
    if norm in CLEAR:
        return {"products": [a.model_copy(update={"dose": None, "label_dose": None, "above_label": False}).model_dump()
                             for a in visit.products]}
    ours = [a.product_id for a in visit.products]
    given: dict[str, Dose] = {}
    bare: list[Dose] = []
    for part in (p for p in _DOSE_PARTS.split(norm) if p.strip()):
        named = [a.product_id for a in reader.advice_in(part) if a.product_id in ours]
        dose = parse_dose(part) if not named else next(iter(_doses_after_names(reader, part)), None)
        if dose is None:
            continue
        if named and named[0] not in given:
            given[named[0]] = dose
        else:
            bare.append(dose)
    for dose in bare:
        target = next((p for p in ours if p not in given), None)
        if target is not None:
            given[target] = dose
    if not given:
        raise ValueError("agri.edit_bad_dose")
    updated: list[Advice] = []
    for advice in visit.products:
        dose = given.get(advice.product_id)
        if dose is not None:
            product = reader.book.products[advice.product_id]
            over, label = above_label(dose, product, visit.crop_for(product))
            advice = advice.model_copy(update={"dose": dose.text(), "label_dose": label, "above_label": over})
        updated.append(advice)
    return {"products": [a.model_dump() for a in updated]}


def _doses_after_names(reader: FieldReader, part: str) -> list[Dose]:
    """The doses a part gives outside the product names in it ("gallfly kill 30 300 ml/acre": 300, not 30)."""
    names = [h for h in reader.terms.find(part) if h.category == "product"]
    return [d for d in find_doses(part) if not any(h.start < d.end and d.start < h.end for h in names)]


def edit_followup(norm: str) -> dict[str, Any]:
    if norm in CLEAR:
        return {"followup_days": None}
    days = int(norm) if norm.isdigit() else followup_days(f"in {norm}")
    if days is None or not 0 < days <= 120:
        raise ValueError("agri.edit_bad_followup")
    return {"followup_days": days}


def recheck_doses(reader: FieldReader, visit: Visit) -> Visit:
    """Check every dose again against the label for the visit's crop (after the crop or products changed)."""
    products = []
    for advice in visit.products:
        dose = parse_dose(advice.dose or "")
        if dose is not None:
            product = reader.book.products[advice.product_id]
            over, label = above_label(dose, product, visit.crop_for(product))
            advice = advice.model_copy(update={"label_dose": label, "above_label": over})
        products.append(advice)
    return visit.model_copy(update={"products": products})
