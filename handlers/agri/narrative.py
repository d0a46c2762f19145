"""Visits and outcomes as memories: a plain-English narrative a person would write, four-way tags, the
real event date, and structured metadata so briefs can be composed from what recall returns."""

from datetime import date, datetime, time

from handlers.agri.models import Outcome, Visit
from handlers.agri.register import FieldBook
from handlers.agri.textmatch import has_telugu
from memory import MemoryItem, ids, tags
from memory.asof import IST

_OBJECTION_TEXT = {
    "price": "price too high",
    "money": "no money now (waiting for money or credit)",
    "doubt": "doubts that it works",
    "wait": "wants to wait and see",
    "availability": "not available locally",
}
_RESULT_TEXT = {
    "controlled": "was controlled",
    "partial": "was partly controlled",
    "no_effect": "did not respond",
    "worse": "got worse",
}

_SOURCE_TEXT = {"dealer": "the dealer's product", "neighbour": "a neighbour's product", "other": "another company's product"}


def event_time(day: date) -> datetime:
    """Return the time a field event is stamped with: mid-morning in India on its real date."""
    return datetime.combine(day, time(10, 0), IST)


def visit_tags(visit: Visit, kind: str = "visit") -> list[str]:
    assert visit.farmer_id and visit.village and visit.crop
    return [tags.farmer(visit.farmer_id), tags.village(visit.village), tags.crop(visit.crop),
            tags.officer(visit.officer_id), tags.kind(kind)]


def _product_phrase(book: FieldBook, product_id: str, crop: str) -> str:
    product = book.products[product_id]
    dose = product.dosage.get(crop)
    dose_text = f", label dose {dose} for {book.crop_name(crop)}" if dose else ""
    return f"{product.name} ({product.id}, {product.tier} tier, {product.price_text()}{dose_text})"


def visit_narrative(book: FieldBook, visit: Visit, with_note: bool = True) -> str:
    """Return the visit as a short report in plain English; `with_note` False leaves the officer's own words
    (Telugu in Latin letters, from a Telugu-setting officer) to the card and the metadata."""
    farmer = book.farmers[visit.farmer_id or ""]
    village = book.villages[visit.village or ""]
    crop = visit.crop or "crop"
    parts = [f"Field visit on {visit.date.isoformat()} to {farmer.name} ({farmer.id}) in {village.name} "
             f"by officer {book.officer_name(visit.officer_id)} ({visit.officer_id})."]
    stage = f", at the {visit.stage} stage" if visit.stage else ""
    # The crop as the tenant's register names it (a register may rename a built-in crop); the slug is in tags.
    parts.append(f"Crop: {book.crop_name(visit.crop) or 'not given'}{stage}.")
    if visit.issue:
        extent = f", about {visit.severity_pct}% of plants affected" if visit.severity_pct is not None else ""
        severity = f" ({visit.severity})" if visit.severity else ""
        parts.append(f"Problem: {book.problems_seen([visit.issue], visit.problem_crops, visit.crop)}{severity}{extent}.")
        if len(visit.problems) > 1:
            parts.append(f"Also seen: {book.problems_seen(visit.problems[1:], visit.problem_crops, visit.crop)}.")
    if visit.objection_unnamed and not visit.products:
        parts.append(f"No product advised; farmer objected: {_OBJECTION_TEXT[visit.objection_unnamed]}.")
    for advice in visit.products:
        advised_for = visit.crop_for(book.products[advice.product_id]) or crop
        parts.append(f"Advised {_product_phrase(book, advice.product_id, advised_for)}.")
        if advice.dose:
            parts.append(f"Dose given by the officer: {advice.dose}.")
        if advice.above_label:
            parts.append(f"WARNING: that dose is above the label dose ({advice.label_dose} for "
                         f"{book.crop_name(advised_for)}).")
        if advice.objection:
            parts.append(f"Farmer objected: {_OBJECTION_TEXT[advice.objection]}.")
        if advice.reaction == "accepted":
            parts.append(f"Farmer accepted {book.products[advice.product_id].name}.")
        elif advice.reaction == "postponed":
            parts.append(f"Farmer put off buying {book.products[advice.product_id].name} to later.")
        elif advice.reaction == "rejected":
            parts.append(f"Farmer rejected {book.products[advice.product_id].name}.")
        else:
            parts.append(f"Farmer has not decided on {book.products[advice.product_id].name}.")
    if visit.neighbour_evidence:
        parts.append("The pitch came with a neighbour's result.")
    if with_note and visit.note and not has_telugu(visit.note):
        # A note in Telugu script stays on the card and in metadata; the narrative is plain English.
        parts.append(f"Note: {visit.note.rstrip('.')}.")
    if visit.next_step:
        parts.append(f"Next step: {visit.next_step.rstrip('.')}.")
    return " ".join(parts)


def visit_metadata(visit: Visit) -> dict[str, str]:
    """Return the structured facts of a visit as string metadata (composition reads these back)."""

    def ids_with(reaction: str) -> str:
        return ",".join(a.product_id for a in visit.products if a.reaction == reaction)

    return {
        "kind": "visit",
        "visit_id": visit.id,
        "farmer_id": visit.farmer_id or "",
        "village": visit.village or "",
        "crop": visit.crop or "",
        "officer_id": visit.officer_id,
        "issue": visit.issue or "",
        "problems": ",".join(visit.problems),
        "problem_crops": ",".join(f"{p}={c}" for p, c in visit.problem_crops.items() if p in visit.problems),
        "doses": ",".join(f"{a.product_id}={a.dose}" for a in visit.products if a.dose),
        "above_label": ",".join(a.product_id for a in visit.products if a.above_label),
        "severity": visit.severity or "",
        "severity_pct": "" if visit.severity_pct is None else str(visit.severity_pct),
        "accepted": ids_with("accepted"),
        "rejected": ids_with("rejected"),
        "undecided": ids_with("undecided"),
        "postponed": ids_with("postponed"),
        "objections": ",".join(f"{a.product_id}={a.objection}" for a in visit.products if a.objection),
        "neighbour": "yes" if visit.neighbour_evidence else "no",
    }


def _with_transcript(metadata: dict[str, str], transcript: str | None) -> dict[str, str]:
    # The officer's own words (any language or script) are kept for audit; the narrative stays English.
    return {**metadata, "transcript": transcript} if transcript else metadata


def note_in_narrative(lang: str, extractor: str) -> bool:
    """A Telugu-setting officer's note is Telugu (in either script; the card keeps the officer's own words
    whichever reader filled it): it stays on the card and in metadata, out of the English narrative."""
    return lang == "en"


def visit_memory(book: FieldBook, visit: Visit, transcript: str | None = None, with_note: bool = True) -> MemoryItem:
    """Return the memory Save retains for a confirmed visit, with the original note or transcript in metadata."""
    return MemoryItem(
        content=visit_narrative(book, visit, with_note),
        event_time=event_time(visit.date),
        context="field visit",
        document_id=ids.visit(visit.id),
        tags=visit_tags(visit),
        metadata=_with_transcript(visit_metadata(visit), transcript),
        observation_scopes="per_tag",
    )


def outcome_narrative(book: FieldBook, outcome: Outcome, visit_date: date | None, with_note: bool = True) -> str:
    farmer = book.farmers[outcome.farmer_id]
    village = book.villages[outcome.village]
    if outcome.result is None:
        raise ValueError("an outcome needs a result before it is retained")
    when = f"the {visit_date.isoformat()} visit" if visit_date else "the visit"
    problem = book.issue_name(outcome.issue) if outcome.issue else "problem"
    crop = book.crop_name(outcome.crop) or "crop"
    parts = [f"Crop outcome on {outcome.date.isoformat()} for {farmer.name} ({farmer.id}) in {village.name}, "
             f"following up {when} ({outcome.visit_id}); recorded by officer "
             f"{book.officer_name(outcome.officer_id)} ({outcome.officer_id})."]
    if outcome.source != "ours":
        parts.append(f"The farmer used {_SOURCE_TEXT[outcome.source]}, not ours; the {crop} {problem} "
                     f"{_RESULT_TEXT[outcome.result]}.")
    elif outcome.products:
        used = ", ".join(f"{book.products[p].name} ({p})" for p in outcome.products)
        parts.append(f"The {crop} {problem} {_RESULT_TEXT[outcome.result]} after {used}.")
    else:
        parts.append(f"Nothing advised was applied; the {crop} {problem} {_RESULT_TEXT[outcome.result]}.")
    if with_note and outcome.note and not has_telugu(outcome.note):
        parts.append(f"Result: {outcome.note.rstrip('.')}.")
    return " ".join(parts)


def outcome_memory(book: FieldBook, outcome: Outcome, visit_date: date | None = None,
                   transcript: str | None = None, with_note: bool = True) -> MemoryItem:
    """Return the memory of an outcome, linked to its visit by id, with the officer's answer in metadata."""
    return MemoryItem(
        content=outcome_narrative(book, outcome, visit_date, with_note),
        event_time=event_time(outcome.date),
        context="crop outcome",
        document_id=ids.outcome(outcome.visit_id),
        tags=[tags.farmer(outcome.farmer_id), tags.village(outcome.village), tags.crop(outcome.crop),
              tags.officer(outcome.officer_id), tags.kind("outcome")],
        metadata=_with_transcript({
            "kind": "outcome",
            "visit_id": outcome.visit_id,
            "visit_date": visit_date.isoformat() if visit_date else "",
            "farmer_id": outcome.farmer_id,
            "village": outcome.village,
            "crop": outcome.crop,
            "officer_id": outcome.officer_id,
            "issue": outcome.issue or "",
            "result": outcome.result or "",
            "applied": ",".join(outcome.products),
            "note": outcome.note or "",
            "source": outcome.source,
        }, transcript),
        observation_scopes="per_tag",
    )


def season_memories(book: FieldBook) -> list[MemoryItem]:
    """Return every seeded visit and outcome as memories, in date order."""
    season = book.season
    dates = {v.id: v.date for v in season.visits}
    items = [visit_memory(book, v) for v in season.visits]
    items += [outcome_memory(book, o, dates.get(o.visit_id)) for o in season.outcomes]
    return sorted(items, key=lambda i: i.event_time)
