"""When the officer says to come back: "revisit in 10 days", "10 rojulu tarvata", "next week", "2 వారాల తర్వాత"."""

import re

_COUNT_WORDS = {"one": 1, "a": 1, "okka": 1, "two": 2, "rendu": 2, "రెండు": 2, "three": 3, "moodu": 3, "మూడు": 3,
                "four": 4, "nalugu": 4, "నాలుగు": 4, "ten": 10, "padi": 10, "పది": 10}
_COUNT = r"(?P<n>\d{1,3}|" + "|".join(sorted(map(re.escape, _COUNT_WORDS), key=len, reverse=True)) + ")"
_END = r"(?![a-z\u0c00-\u0c7f])"
_SPANS = [
    (re.compile(rf"(?<![\w]){_COUNT}\s*(?:days?|rojulu|rojula|rojuki|roju|రోజులు|రోజుల|రోజు)"), 1),
    (re.compile(rf"(?<![\w]){_COUNT}\s*(?:weeks?|wks?|varalu|varala|vaaralu|వారాలు|వారాల|వారం)"), 7),
    (re.compile(rf"(?<![\w]){_COUNT}\s*(?:months?|nelalu|nela|నెలలు|నెల)"), 30),
]
_NEXT = [(re.compile(r"next\s+week|vachhe\s+varam|vache\s+varam|vachche\s+varam|వచ్చే\s+వారం"), 7),
         (re.compile(r"next\s+month|vachhe\s+nela|వచ్చే\s+నెల"), 30)]
_FUTURE = re.compile(r"(?:\bin\b|after|within|tarvata|taruvata|తర్వాత|తరువాత|revisit|visit|follow|check|come back|"
                     r"malli|మళ్ళీ|మళ్లీ|chust|చూస్త|vasta|vastha|వస్తా|\blo\b|next)")
_PAST = re.compile(r"(?:\bago\b|kritam|క్రితం|\bsince\b|\bfor the last\b|back then)")
_SENTENCE = re.compile(r"[^.!?।\n;]+")


def followup_days(norm: str) -> int | None:
    """Return the days until the next visit the officer names, or None when the note gives none."""
    for sentence in _SENTENCE.finditer(norm):
        part = sentence.group(0)
        if _PAST.search(part):
            continue
        for rx, days in _NEXT:
            if rx.search(part):
                return days
        if not _FUTURE.search(part):
            continue
        for rx, unit in _SPANS:
            m = rx.search(part)
            if m:
                word = m.group("n")
                count = int(word) if word.isdigit() else _COUNT_WORDS[word]
                if 0 < count * unit <= 120:
                    return count * unit
    return None
