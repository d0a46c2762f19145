"""Recalled memories read back as the visits and outcomes they were written from (via their metadata)."""

from dataclasses import dataclass, field
from datetime import date

from memory import MemoryItem, Recalled
from memory.asof import IST


def _ids(value: str | None) -> list[str]:
    return [v for v in (value or "").split(",") if v]


@dataclass(frozen=True)
class VisitFact:
    day: date
    document_id: str
    visit_id: str
    farmer_id: str
    village: str
    crop: str
    issue: str
    severity_pct: int | None
    accepted: list[str]
    rejected: list[str]
    undecided: list[str]
    objections: dict[str, str]
    neighbour: bool
    problems: list[str] = field(default_factory=list)
    """Every problem seen on the visit, the main one first."""
    postponed: list[str] = field(default_factory=list)
    """Products the farmer will take later ("next week konta")."""
    problem_crops: dict[str, str] = field(default_factory=dict)
    """A problem seen on another of the farmer's crops than `crop` -> that crop."""

    def problems_on(self, crop: str) -> list[str]:
        """The problems this visit saw on one crop."""
        return [p for p in (self.problems or [self.issue]) if p and self.problem_crops.get(p, self.crop) == crop]


@dataclass(frozen=True)
class OutcomeFact:
    day: date
    document_id: str
    visit_id: str
    farmer_id: str
    village: str
    crop: str
    issue: str
    result: str
    applied: list[str]
    note: str
    source: str = "ours"
    """Whose product was used: "dealer", "neighbour" or "other" never counts for or against ours."""


@dataclass
class Facts:
    """The structured content of a set of memories; memories without our metadata are counted, not read."""

    visits: list[VisitFact] = field(default_factory=list)
    outcomes: list[OutcomeFact] = field(default_factory=list)
    unreadable: int = 0

    @property
    def dates(self) -> set[date]:
        return {f.day for f in self.visits} | {f.day for f in self.outcomes}


def read_facts(memories: list[Recalled]) -> Facts:
    """Return the visits and outcomes behind recalled memories, one per document, in date order."""
    facts = Facts()
    seen: set[str] = set()
    for memory in memories:
        meta = memory.metadata
        doc = memory.document_id or ""
        if memory.event_date is None or not doc or doc in seen or meta.get("kind") not in ("visit", "outcome"):
            facts.unreadable += 0 if doc in seen else 1
            continue
        seen.add(doc)
        common = {"day": memory.event_date, "document_id": doc, "visit_id": meta.get("visit_id", ""),
                  "farmer_id": meta.get("farmer_id", ""), "village": meta.get("village", ""),
                  "crop": meta.get("crop", ""), "issue": meta.get("issue", "")}
        if meta["kind"] == "visit":
            pct = meta.get("severity_pct", "")
            objections = dict(pair.split("=", 1) for pair in _ids(meta.get("objections")) if "=" in pair)
            facts.visits.append(VisitFact(
                **common, severity_pct=int(pct) if pct.isdigit() else None, accepted=_ids(meta.get("accepted")),
                rejected=_ids(meta.get("rejected")), undecided=_ids(meta.get("undecided")),
                objections=objections, neighbour=meta.get("neighbour") == "yes",
                problems=_ids(meta.get("problems")) or _ids(meta.get("issue")),
                postponed=_ids(meta.get("postponed")),
                problem_crops=dict(pair.split("=", 1) for pair in _ids(meta.get("problem_crops")) if "=" in pair),
            ))
        else:
            facts.outcomes.append(OutcomeFact(**common, result=meta.get("result", ""),
                                              applied=_ids(meta.get("applied")), note=meta.get("note", ""),
                                              source=meta.get("source") or "ours"))
    facts.visits.sort(key=lambda f: f.day)
    facts.outcomes.sort(key=lambda f: f.day)
    return facts


def as_recalled(items: list[MemoryItem]) -> list[Recalled]:
    """Memories built from records, read as recall would return them (the record's exact facts)."""
    return [Recalled(text=i.content, event_date=i.event_time.astimezone(IST).date(), document_id=i.document_id,
                     tags=list(i.tags), metadata=dict(i.metadata), type="record") for i in items]


def with_records(recorded: list[MemoryItem], recalled: list[Recalled]) -> list[Recalled]:
    """The records' memories first (exact: nothing depends on a recall's ranking), then what recall adds."""
    exact = as_recalled(recorded)
    have = {r.document_id for r in exact}
    return exact + [r for r in recalled if r.document_id not in have]
