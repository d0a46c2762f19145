"""What the words around a date say it is: a next date, a date that is not a hearing, or a plain date.

Indian district courts write the next date in many ways: N.D., NDOH, adjd./adj./adjourned to, next, posted
to, call on, list on, for orders on, reserved for judgment / pronouncement on, stands over to, to argue on,
to come up (for ...) on, and in Telugu వాయిదా / తదుపరి తేదీ, often AFTER the date ("16.12.2026 కు వాయిదా",
"25/11 ki vaayida", "26.11.2026 (N.D.)"). Dates after "filed on", "by" (a deadline), "P.D." (the previous
date) and the like are neither the hearing nor the next date. The marker nearest the date decides.
"""

import re

LOOKBEHIND = 64
LOOKAHEAD = 32

# A word in a purpose phrase ("for P.W.1 evidence on", "for 313 examination on"): never a date itself.
_W = r"(?:[A-Za-z][\w.'’/\-]*|\d{1,3}(?![./\-]\d))"

_NEXT_BEFORE = [
    r"\bn\.?\s?d\.?(?:\s?o\.?\s?h\.?)?",            # N.D., ND, N.D.O.H.
    r"\bndoh\b\.?", r"\bndh\b",
    r"\bnext(?:\s+(?:date|dt\.?|hearing|posting|date\s+of\s+hearing|hearing\s+date))?(?:\s+(?:is|fixed))?",
    r"\bnxt\.?(?:\s+dt\.?)?",
    r"\badj(?:d|n|rd|ourned|ourns?)?\b\.?(?:(?:\s+" + _W + r"){0,5}?\s+(?:to|till|until|for))?",
    r"\bpost(?:ed|s)?\b(?:(?:\s+" + _W + r"){0,5}?\s+(?:to|on|till|for))?",
    r"\bcall(?:\s+" + _W + r"){0,3}?\s+on", r"\bcall\b", r"\bc/o\b",
    r"\b(?:re-?)?list(?:ed)?(?:\s+" + _W + r"){0,3}?\s+(?:on|to)", r"\bto\s+be\s+listed\b",
    r"\bst(?:an)?ds?\.?\s+over\s+(?:to|till)", r"\bstood\s+over\s+to", r"\bs/o\s+to", r"\bs\s?/\s?o\b\.?",
    r"\bp\s?/\s?t\b\.?(?:\s+to)?",                                # p/t: posted to
    r"\bl\s?/\s?o\b\.?", r"\blast\s+(?:chance|opportunity)\b\.?",  # the last chance is given till the next date
    r"\breserved(?:\s+" + _W + r"){0,3}?(?:\s+(?:on|to|till))?",
    r"\b(?:judg(?:e)?ment|orders?|pronouncement|award|verdict)(?:\s+(?:is|posted|fixed))?\s+(?:on|to)",
    r"\breturnable(?:\s+(?:on|by))?", r"\br\s?/\s?(?:by|on)\b\.?",      # summons R/by: the day it comes back
    r"\b(?:further|balance)\s+(?:chief|cross|cross-examination|hearing|arguments|args|evidence|enquiry|trial)\b",
    r"\bfixed\s+(?:on|to|for)", r"\bfurther\s+hearing(?:\s+on)?",
    r"\bfurther(?:\s+" + _W + r"){1,3}?\s+(?:on|to)",      # further chief / cross / arguments on
    r"\bfor\s+(?:further\s+)?hearing(?:\s+on)?",            # beats the label "hearing on"
    r"\br\s?/\s?j\b\.?",                                     # R/J: reserved for judgment
    r"(?<!heard\s)\b(?:args|arguments|cross|chief)\.?\s+on",  # "args on 2/2"; "arguments heard on" is a label
    r"\bjudg(?:e)?ment(?:\s+(?:is\s+)?(?:now\s+)?expected)?(?:\s+on)?",
    (r"\b(?:accused|respondents?|petitioners?|plaintiffs?|defendants?|complainants?|appellants?|claimants?|"
     r"defence|dh|jd)(?:['’]s?)?\s+(?:args|arguments|evidence)\b"),   # "accused args 20/1"
    r"(?:->|→|=>|>>)",
    r"(?:^|[.;:])\s*to",                                    # "Terms settled. To 13.11.2026 for publication."
    r"వాయిదా", r"తదుపరి(?:\s+(?:తేదీ|విచారణ|వాయిదా))*", r"వచ్చే\s+వాయిదా",
    r"\bva+y[iy]?da\b", r"\b(?:taruvati|tarvata|tadupari)\s+(?:tedi|tedhi|vicharana)\b",
]
# A purpose phrase before a date ("for orders on", "to argue on", "to come up for reply on"): a next date
# unless a more specific word (filed on, dt.) stands nearer.
_GENERIC_NEXT_BEFORE = [
    r"\bfor(?:\s+" + _W + r"){0,5}?\s+on", r"\bfor(?:\s+" + _W + r"){1,4}?",
    r"\bto(?:\s+" + _W + r"){1,6}?\s+on", r"\bto\s+come\s+up(?:\s+" + _W + r"){0,4}?",
]
_OTHER_BEFORE = [
    (r"\b(?:filed|presented|instituted|registered|executed|issued|applied|delivered|born|served|received|"
     r"deposited|paid|sent|made\s+ready)(?:(?:\s+(?:again|already|afresh|once\s+more|only))?\s+on)?(?:\s+this)?"
     r"(?:\s+the)?"),
    r"\bcopy(?:\s+\w+)?\s+on", r"\bdated\b", r"\b(?:order|judge?ment|decree|award)\s+dt\.?",
    r"\b(?:closed|concluded|completed)(?:\s+on)?",  # "evidence closed on 05-11-2026": an earlier event r"\bsince\b", r"\bfrom\b", r"\bw\.?e\.?f\.?",
    r"(?<!/)(?<!returnable\s)\bby\b", r"\bbefore\b", r"\bon\s+or\s+before\b", r"\bon\s+or\s+after\b", r"\bwithin\b", r"\b(?:extended|valid)\s+(?:till|up\s*to|until)",
    r"\bp\.\s?d\.?(?:\s+was)?", r"\bl\.\s?d\.?(?:\s+was)?", r"\bprev(?:ious|\.)?\s+(?:date|hearing)(?:\s+was)?",
    r"\blast\s+(?:date|hearing)(?:\s+(?:was|of\s+hearing))?", r"\bearlier\s+on",
    r"\blast\s+date\s+(?:for|to)(?:\s+" + _W + r"){1,3}?(?:\s+(?:is|on|was))?", r"\bdue(?:\s+(?:date|on|by|before))?",
]
# Words that only label the date they stand before ("Dt.", "Date of hearing:", "heard on"): it is plain.
_LABEL_BEFORE = [
    r"\bdt\b\.?", r"\bdate(?:\s+of\s+hearing)?", r"\bheard(?:\s+\w+){0,4}?\s+on", r"\bhearing\s+on", r"తేదీ",
]
# An order's own date: the day it is pronounced (a judgment "heard on" one day is dated the day it is delivered).
_PRONOUNCED_BEFORE = [
    r"\b(?:pronounced|delivered)(?:,?\s+(?:in\s+(?:the\s+)?open\s+court|by\s+me)){0,2}(?:[\s,]+(?:on|this))?(?:\s+this)?",
    r"\bdated\s+this", r"\bdate\s+of\s+(?:order|judge?ment|pronouncement)\s*:?",
    # "Given under my hand and the seal of the court, this the 28th day of ...": a decree's or order's own date.
    r"\bgiven\s+under\s+my\s+hand(?:\s+and\s+(?:the\s+)?seal(?:\s+of\s+(?:the|this)\s+court)?)?,?\s+(?:on\s+)?this",
    r"(?:^|[,;]\s*)(?:on\s+)?this\s+the",
    r"\b(?:proceedings|daily\s+order|docket\s+order)\s+(?:dated|dt\.?|of|on)\s*:?",  # the sitting's own record
]
# "adjourned to the 3rd of February", "adjourned to Monday, 4 January 2027"
_TAIL = r"(?:\s+the)?(?:\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day)?[\s:;,\-–—(]*$"


def _alternatives(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("(?:" + "|".join(f"(?:{p})" for p in patterns) + ")" + _TAIL, re.I)


_NEXT = _alternatives(_NEXT_BEFORE)
_OTHER = _alternatives(_OTHER_BEFORE)
_LABEL = _alternatives(_LABEL_BEFORE)
_GENERIC = _alternatives(_GENERIC_NEXT_BEFORE)
_PRONOUNCED = _alternatives(_PRONOUNCED_BEFORE)

# After the date: "(N.D.)", "is the next date", "కు వాయిదా", "ki vaayida", "ki posted".
_NEXT_AFTER = re.compile(
    r"^\s*(?:\(\s*(?:n\.?\s?d\.?(?:o\.?h\.?)?|ndoh|next(?:\s+date)?)\s*\)|[-–—,]?\s*(?:is|as|being)\s+(?:the\s+)?"
    r"next\s+(?:date|hearing)|\s*[-–—,]?\s*(?:call\s+on|c/o)\b|\s*(?:కు|కి|కీ)?\s*వాయిదా|"
    r"\s*(?:ki|ku|kii|ke)\s+(?:va+y[iy]?da|adjourn\w*|post\w*|list\w*|వాయిదా))", re.I,
)
# "... 02.01.2021 is the next date" ends with a marker, but one that looks back at its own date.
_AFTER_AT_END = re.compile(r"\d" + _NEXT_AFTER.pattern[1:] + r"[\s.;,]*$", re.I)
_STARTS_WITH_DATE = re.compile(r"^\s*[\(\[]?\s*\d{1,2}\s?[./\-]\s?\d{1,2}")
_LINE_END = re.compile(
    "(?:" + "|".join(f"(?:{p})" for p in _NEXT_BEFORE + _GENERIC_NEXT_BEFORE + _OTHER_BEFORE) + r")[\s:;,\-–—(]*$",
    re.I,
)


# A line cut after a preposition ("... DEFENCE ARGUMENTS ON") goes on in the next one, whatever it starts with.
_OPEN_END = re.compile(r"\b(?:on|to|till|until|by|from|dated|dt\.?|of|the|for|this)\s*[:\-]?\s*$", re.I)


def _window(text: str, start: int) -> str:
    begin = max(0, start - LOOKBEHIND)
    before = text[begin:start]
    if begin > 0:
        # Never start inside a word: "...and 12.10" must not read as "nd 12.10".
        cut = re.search(r"\s", before)
        before = before[cut.end():] if cut else ""
    return before


def role_of(text: str, start: int, end: int) -> str:
    """Return "next", "other", "pronounced" (an order's own date) or "plain" for the date at text[start:end],
    from the nearest marker."""
    before = _window(text, start)
    if _PRONOUNCED.search(before):
        return "pronounced"
    after = text[end:end + LOOKAHEAD]
    match = _NEXT_AFTER.match(after)
    marked_after = match is not None and not _STARTS_WITH_DATE.match(after[match.end():])
    found: list[tuple[int, int, str, bool]] = []
    for rank, (pattern, role) in enumerate(((_OTHER, "other"), (_NEXT, "next"))):
        match = pattern.search(before)
        if match is not None:
            found.append((match.start(), -rank, role, bool(re.search(r"[,;]\s*$", match.group(0)))))
    if found:
        # The marker that starts nearest the date is the one that speaks of it ("for X filed on" is filed on),
        # unless a comma closes it and the date carries its own marker ("counter filed, 16.12 ki vaayida").
        _, _, role, closed = max(found)
        return "next" if role == "other" and closed and marked_after else role
    if _LABEL.search(before):
        return "plain"
    if _GENERIC.search(before):
        return "next"
    return "next" if marked_after else "plain"


def ends_with_marker(line: str) -> bool:
    """Return True when a line ends with "N.D.", "call on", "filed on", "pronounced ... on this"...: a date on
    the next line belongs to it."""
    tail = line[-LOOKBEHIND:]
    if _OPEN_END.search(tail) or _PRONOUNCED.search(tail):
        return True
    return bool(_LINE_END.search(" " + tail)) and not _AFTER_AT_END.search(tail)
