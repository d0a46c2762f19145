"""How the crop responded, read from an answer to a follow-up: the last word on the result is the final state,
the words said of the visit's own problem come first when the answer speaks of two ("nalli taggaledu, kaaya
kullu taggindi" about mites is no effect), and a reduction that is partial says so ("sagam taggindi",
"50% taggindi", "... ఇంకా కొంచెం ఉంది")."""

import re
from typing import cast

from handlers.agri.models import Result
from handlers.agri.textmatch import Hit

_CLAUSE_END = re.compile(r"[.!?।\n;,]|\s(?:but|kani|kaani|కానీ)\s")
# A share of the problem gone, just before "reduced": half, some, a percentage under 100.
_SHARE = re.compile(r"(?:(?<![a-z])(?:half|sagam|konchem|koddiga|some)|సగం|కొంచెం|కొద్దిగా|(?<!\d)[1-9]\d?\s*(?:%|percent|శాతం))"
                    r"\s+(?:\S+\s+)?$")
# Some of it still there after the reduction: "inka konchem undi", "ఇంకా ఉంది", "still some".
_RESIDUE = re.compile(r"(?:(?<![a-z])(?:inka|still)|ఇంకా)\s+(?:\S+\s+){0,3}?"
                      r"(?:undi|unnayi|unnai|there|left|remaining|ఉంది|ఉన్నాయి)(?![a-z])")


def _clause(text: str, position: int) -> tuple[int, int]:
    starts = [m.end() for m in _CLAUSE_END.finditer(text) if m.end() <= position]
    ends = [m.start() for m in _CLAUSE_END.finditer(text) if m.start() >= position]
    return (starts[-1] if starts else 0, ends[0] if ends else len(text))


def result_of(text: str, hits: list[Hit], issue: str | None) -> Result | None:
    """Return controlled / partial / no_effect / worse for a normalised answer, or None when it says none."""
    cues = [h for h in hits if h.category == "result"]
    if not cues:
        return None
    issues = [h for h in hits if h.category == "issue"]

    def said_of(cue: Hit) -> set[str]:
        return {i.key for i in issues if _clause(text, i.start) == _clause(text, cue.start)}

    if issue and any(said_of(c) - {issue} for c in cues):
        # Another problem's result is in the answer: the visit's own problem decides.
        cues = [c for c in cues if issue in said_of(c)] or cues
    last = cues[-1]
    if last.key == "controlled":
        low, _ = _clause(text, last.start)
        if _SHARE.search(text[low:last.start]) or _RESIDUE.search(text[last.end:]):
            return "partial"
    return cast(Result, last.key)
