"""How the crop responded, read from an answer to a follow-up: the last word on the result is the final state,
the words said of the visit's own problem come first when the answer speaks of two ("nalli taggaledu, kaaya
kullu taggindi" about mites is no effect), and a reduction that is partial says so ("sagam taggindi",
"50% taggindi", "... ఇంకా కొంచెం ఉంది")."""

import re
from typing import cast

from handlers.agri.models import ProductSource, Result
from handlers.agri.textmatch import Hit, absent

_CLAUSE_END = re.compile(r"[.!?।\n;,]|\s(?:but|kani|kaani|కానీ)\s")
# A share of the problem gone, just before "reduced": half, some, a percentage under 100.
_SHARE = re.compile(r"(?:(?<![a-z])(?:half|sagam|konchem|koddiga|some|partial\w*|partly|pa+kshikanga)|సగం|కొంచెం|కొద్దిగా|పాక్షిక\S*|(?<!\d)[1-9]\d?\s*(?:%|percent|శాతం))"
                    r"\s+(?:\S+\s+)?$")
# Some of it still there after the reduction: "inka konchem undi", "ఇంకా ఉంది", "still some".
_RESIDUE = re.compile(r"(?:(?<![a-z])(?:inka|still)|ఇంకా)\s+(?:\S+\s+){0,3}?"
                      r"(?:undi|unnayi|unnai|there|left|remaining|ఉంది|ఉన్నాయి)(?![a-z])")


# "90% control", "80 percent taggindi", "70% reduced": the share controlled decides.
_DONE = r"(?:control\w*|reduc\w*|tagg\w*|తగ్గ\S*|kill\w*|effect\w*|better|clean|adupu\w*|అదుపు\S*|improv\w*|result|down)"
_PERCENT_RESULT = re.compile(rf"(?<!\d)(?P<pct>\d{{1,3}})\s*(?:%|percent|per cent|శాతం|shatam|satam)\s*(?:\S+\s+)?{_DONE}|"
                             rf"{_DONE}\s+(?:by\s+|about\s+|around\s+|nearly\s+)*(?P<after>\d{{1,3}})\s*(?:%|percent)")
# "still whitefly is there", "inka purugu undi", "ఇంకా తెల్లదోమ ఉంది": the problem is still there; so it is when
# it is "as it was" ("alaage unnayi", "అలాగే ఉన్నాయి", "అలానే ఉంది") in any number.
_STILL = re.compile(r"(?:(?<![a-z])(?:still|inka|inkaa|alage|alaage|alane|alaane)|ఇంకా|అలాగే|అలానే)\s+(?:\S+\s+){0,4}?"
                    r"(?:undi|unnayi|unnai|there|present|seen|affected|ఉంది|ఉన్నాయి|కనిపిస్తుంది)(?![a-z])")
_HALF = re.compile(r"(?<![a-z])(?:half|sagam)(?![a-z])|సగం")


def _percent_result(pct: int) -> Result:
    return "controlled" if pct >= 80 else "partial" if pct >= 25 else "no_effect"


def _clause(text: str, position: int) -> tuple[int, int]:
    starts = [m.end() for m in _CLAUSE_END.finditer(text) if m.end() <= position]
    ends = [m.start() for m in _CLAUSE_END.finditer(text) if m.start() >= position]
    return (starts[-1] if starts else 0, ends[0] if ends else len(text))


def result_of(text: str, hits: list[Hit], issue: str | None) -> Result | None:
    """Return controlled / partial / no_effect / worse for a normalised answer, or None when it says none."""
    # "kotta nashtam ledu", "no new damage": a worse said as absent is no result.
    cues = [h for h in hits if h.category == "result" and not (h.key == "worse" and absent(text, h.start, h.end))]
    percent = _PERCENT_RESULT.search(text)
    if percent is not None and not any(c.start > percent.end() and c.key == "worse" for c in cues):
        found = _percent_result(min(int(percent["pct"] or percent["after"]), 100))
        later = any(c.start > percent.end() for c in cues) or _STILL.search(text[percent.end():])
        return "partial" if found == "controlled" and later else found
    still = _STILL.search(text)
    if not cues and still is not None:
        return "partial" if _HALF.search(text) else "no_effect"
    if not cues:
        return None
    issues = [h for h in hits if h.category == "issue"]

    def said_of(cue: Hit) -> set[str]:
        return {i.key for i in issues if _clause(text, i.start) == _clause(text, cue.start)}

    if issue and any(said_of(c) - {issue} for c in cues):
        # Another problem's result is in the answer: the visit's own problem decides.
        cues = [c for c in cues if issue in said_of(c)] or cues
    last = cues[-1]
    if last.key == "no_effect" and _HALF.search(text) and _STILL.search(text):
        return "partial"
    if last.key == "controlled":
        low, _ = _clause(text, last.start)
        if _SHARE.search(text[low:last.start]) or _RESIDUE.search(text[last.end:]):
            return "partial"
    return cast(Result, last.key)


_SOURCES: list[tuple[ProductSource, re.Pattern[str]]] = [
    ("dealer", re.compile(r"(?<![a-z])(?:dealer|shop|shopkeeper|dukanam|dukan|kottu)\S*\s+(?:\S+\s+)?"
                          r"(?:product|mandu|spray|chemical|medicine|icchina|ichina|ichhina|cheppina|gave|given|"
                          r"suggested|recommended|own)|డీలర్\S*\s+(?:\S+\s+)?(?:మందు|ఇచ్చిన|చెప్పిన)|"
                          r"(?:షాపు|దుకాణం)\S*\s+(?:\S+\s+)?(?:మందు|ఇచ్చిన)")),
    ("neighbour", re.compile(r"(?<![a-z])(?:neighbou?r|pakkanodi|pakkinti|pakka\s+(?:rythu|raithu|polam))\S*\s+"
                             r"(?:\S+\s+)?(?:product|mandu|spray|chemical|medicine|icchina|ichina|cheppina|gave|"
                             r"given|suggested)|(?:పక్కింటి|పక్క\s+రైతు|పక్కనోడి)\S*\s+(?:\S+\s+)?(?:మందు|ఇచ్చిన|చెప్పిన)")),
    ("other", re.compile(r"(?<![a-z])(?:another|other|vere|different)\s+(?:company|brand|product|mandu|chemical)|"
                         r"వేరే\s+(?:కంపెనీ|మందు)")),
]


def product_source(text: str) -> ProductSource:
    """Whose product an outcome answer says was used: "used the dealer's product, it got worse" is the dealer's,
    "pakkanodi mandu kottadu" a neighbour's; ours unless the answer says otherwise."""
    for source, pattern in _SOURCES:
        if pattern.search(text):
            return source
    return "ours"
