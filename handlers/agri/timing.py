"""When the officer says to come back: "revisit in 10 days", "10 rojulu tarvata", "next week", "2 వారాల తర్వాత",
"vachey vaaram", "next Monday" / "వచ్చే సోమవారం", "ellundi", or a bare "1 week." at the end of a terse note."""

import re
from datetime import date
from functools import cache

from handlers.agri.lexicon import load_lexicon

_COUNT_WORDS = {"one": 1, "a": 1, "okka": 1, "two": 2, "rendu": 2, "రెండు": 2, "three": 3, "moodu": 3, "మూడు": 3,
                "four": 4, "nalugu": 4, "నాలుగు": 4, "five": 5, "aidu": 5, "ఐదు": 5, "seven": 7, "edu": 7,
                "ఏడు": 7, "ten": 10, "padi": 10, "పది": 10, "fifteen": 15, "padihenu": 15, "పదిహేను": 15}
_COUNT = r"(?P<n>\d{1,3}|" + "|".join(sorted(map(re.escape, _COUNT_WORDS), key=len, reverse=True)) + ")"
_END = r"(?![a-z\u0c00-\u0c7f])"
_SPANS = [
    (re.compile(rf"(?<![\w]){_COUNT}\s*(?:days?|rojulu|rojula|rojuki|roju|రోజులు|రోజుల|రోజు)"), 1),
    (re.compile(rf"(?<![\w]){_COUNT}\s*(?:weeks?|wks?|varalu|varala|vaaralu|vaarala|వారాలు|వారాల|వారం)"), 7),
    (re.compile(rf"(?<![\w]){_COUNT}\s*(?:months?|nelalu|nela|నెలలు|నెల)"), 30),
]
# "next week" in its spellings: vachhe / vache / vachey / vachche varam / vaaram, వచ్చే వారం.
_COMING = r"(?:next|coming|vach+h?e+y?|వచ్చే)\s+"
_NEXT = [(re.compile(rf"{_COMING}(?:week|va+ra?m|వారం){_END}"), 7),
         (re.compile(rf"{_COMING}(?:month|nela|నెల){_END}"), 30)]
# A unit with no count, then "after": "వారం తర్వాత చూస్తా", "vaaram tarvata", "a week later" (one of it).
_AFTER = r"\s*(?:tarvata|taruvata|తర్వాత|తరువాత|later|after)(?![a-z\u0c00-\u0c7f])"
_ONE_UNIT = [(re.compile(rf"(?<![a-z0-9\u0c00-\u0c7f])(?:week|va+ra?m|వారం){_AFTER}"), 7),
             (re.compile(rf"(?<![a-z0-9\u0c00-\u0c7f])(?:month|nela|నెల){_AFTER}"), 30)]
_WEEKDAYS = [
    ["monday", "somavaram", "somavaaram", "సోమవారం"], ["tuesday", "mangalavaram", "mangalavaaram", "మంగళవారం"],
    ["wednesday", "budhavaram", "budavaram", "బుధవారం"], ["thursday", "guruvaram", "guruvaaram", "గురువారం"],
    ["friday", "sukravaram", "shukravaram", "శుక్రవారం"], ["saturday", "shanivaram", "sanivaram", "శనివారం"],
    ["sunday", "adivaram", "aadivaram", "ఆదివారం"],
]
_WEEKDAY = re.compile(r"(?<![a-z\u0c00-\u0c7f])(?P<day>" + "|".join(w for names in _WEEKDAYS for w in names) + ")" + _END)
_WEEKDAY_OF = {w: i for i, names in enumerate(_WEEKDAYS) for w in names}
_RELATIVE = [(re.compile(r"(?<![a-z])(?:ellundi|elundi|day after tomorrow)(?![a-z])|ఎల్లుండి"), 2),
             (re.compile(r"(?<![a-z])(?:repu|tomorrow)(?![a-z])|రేపు"), 1)]
_FUTURE = re.compile(r"(?:\bin\b|after|within|tarvata|taruvata|తర్వాత|తరువాత|revisit|visit|follow|check|come back|"
                     r"malli|మళ్ళీ|మళ్లీ|chust|చూస్త|vasta|vastha|వస్తా|\blo\b|next|call|phone|ఫోన్|"
                     r"veltanu|veltha|వెళ్తా|adugut|అడుగుతా)")
# A weekday or "tomorrow" is the follow-up only with a coming-back word: "will buy on Saturday" is not one.
_COMEBACK = re.compile(r"(?:revisit|visit|follow|check|come back|malli|మళ్ళీ|మళ్లీ|chust|చూస్త|vasta|vastha|వస్తా|call|"
                       r"phone|ఫోన్|veltanu|veltha|వెళ్తా|adugut|అడుగుతా)")
# "next week konta" is when the farmer buys: the officer's own "come back" said elsewhere in the note wins.
_BUYS = re.compile(r"(?<![a-z])(?:buy|buys|purchase|konta|kontanu|kontadu|teeskunta|teeskuntanu|teesukuntanu)(?![a-z])|"
                   r"కొంటా|తీసుకుంటా")
_PAST = re.compile(r"(?:\bago\b|kritam|క్రితం|\bsince\b|\bfor the last\b|back then)")
_SENTENCE = re.compile(r"[^.!?।\n;]+")
# A sentence that is only a span of time ("1 week.", "after 10 days") is when to come back.
_BARE = re.compile(r"^\s*(?:in|after|within)?\s*$")


_AGE_WORDS = ["crop", "crops", "panta", "pairu", "age", "aged", "vayasu", "old", "sowing", "sown", "sowed",
              "planting", "transplanting", "das", "dat", "ayyindi", "aindi", "ayyayi", "ayindi", "పంట", "పైరు",
              "వయసు", "అయింది", "అయ్యింది"]


@cache
def _age_rules() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A count of days said of the crop ("cotton 70 days", "70 rojula panta", "crop age 45 days", "45 days old")
    is its age, never when to come back: a crop word or an age word right before or right after the span."""
    crops = [w.lower() for words in load_lexicon().crops.values() for w in words]
    words = "|".join(sorted(map(re.escape, set(_AGE_WORDS + crops)), key=len, reverse=True))
    before = re.compile(rf"(?<![a-z\u0c00-\u0c7f])(?:{words})\s+(?:\S+\s+)?$")
    after = re.compile(rf"^\s*(?:{words}){_END}")
    return before, after


def _is_age(part: str, start: int, end: int) -> bool:
    before, after = _age_rules()
    lead = part[max(0, start - 30):start]
    if re.search(r"(?:\bin|after|within|tarvata|taruvata|తర్వాత|\blo)\s*$", lead):
        return False
    return bool(before.search(lead) or after.match(part[end:end + 30]))


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _COUNT_WORDS[word]


COUNT = _COUNT
"""A count as officers say it (digits or a number word in either script), as the regex group `n`."""


def count_of(word: str) -> int:
    """The number a COUNT match says."""
    return _count(word)


def weekday_of(word: str) -> int | None:
    """Monday = 0 for a weekday's name in any script ("friday", "sukravaram", "శుక్రవారం"), else None."""
    return _WEEKDAY_OF.get(word)


def _days_in(part: str, today: date | None) -> int | None:
    """Return the follow-up days one sentence gives, or None."""
    if _PAST.search(part):
        return None
    for rx, days in _NEXT:
        if rx.search(part):
            return days
    for rx, days in _ONE_UNIT:
        m = rx.search(part)
        # A count before it is the span's own ("2 వారాల తర్వాత" is read below): only a bare unit is one.
        if m and not re.search(rf"{_COUNT}\s*$", part[:m.start()]) and _COMEBACK.search(part):
            return days
    for rx, unit in _SPANS:
        for m in rx.finditer(part):
            if _is_age(part, m.start(), m.end()):
                continue
            rest = part[:m.start()] + part[m.end():]
            if _FUTURE.search(rest) or (_BARE.match(part[:m.start()]) and not part[m.end():].strip()):
                count = _count(m.group("n")) * unit
                if 0 < count <= 120:
                    return count
    if not _COMEBACK.search(part):
        return None
    weekday = _WEEKDAY.search(part)
    if weekday and today is not None:
        # "next Monday" said on a Monday is a week away; on a Thursday it is the coming Monday.
        return (_WEEKDAY_OF[weekday.group("day")] - today.weekday() - 1) % 7 + 1
    for rx, days in _RELATIVE:
        if rx.search(part):
            return days
    return None


def followup_days(norm: str, today: date | None = None) -> int | None:
    """Return the days until the next visit the officer names, or None when the note gives none. A weekday
    needs `today` to count from. When the farmer will buy ("next week konta", "వచ్చే వారం తీసుకుంటా") is never
    when the officer comes back."""
    for sentence in _SENTENCE.finditer(norm):
        part = sentence.group(0)
        days = _days_in(part, today)
        if days is not None and not (_BUYS.search(part) and not _COMEBACK.search(part)):
            return days
    return None


def says_followup(norm: str) -> bool:
    """Return True when a text names when the officer comes back, a weekday included."""
    return followup_days(norm, date(2000, 1, 3)) is not None
