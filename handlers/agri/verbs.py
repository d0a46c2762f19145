"""A farmer's answer (or his waiting: "aagudam", ఆగుదాం) read from the form of a verb of taking up a product, in
either script, where no listed word says it.

Telugu verbs of taking, buying, bringing, spraying, using and applying ("tees-", "kon-", "tech-" / "tepp-",
"kott-" / "kod-", "vaad-", "ves-" / "vey-"; తీసు-, కొన-, తెచ్చ- / తెప్ప-, కొట్ట- / కొడ-, వాడ-, వేస- / వేయ-) are read by
their endings, with what may stand between root and ending: the causative "-inch-" / "-is-" (have it sprayed:
"kottinchadu", "kottistanu", కొట్టించాడు) and the reflexive "-(u)kun-" (do it for oneself: "vesukuntadu",
"konukkuntanu", "techukuntanu", వేసుకుంటాడు). A future ending ("-tanu", "-tadu"; -టాను, -తాడు) or a past one
("-nnadu", "-ndi"; -న్నాడు, -ాడు, -ింది) is an acceptance; the negative "-ledu" (-లేదు: "veyyaledu",
"vesukoledu", కొట్టించలేదు), the reflexive's negative future "-konu" / "-kodu" ("teesukonu") and, in Telugu
script, the negative future -డు / -ను on the bare root (కొట్టడు, వేయను) a refusal. Endings that are the same in
Latin letters for "sprayed" and "won't spray" ("kottadu") are left to the listed words.

English says the same with a modal before a verb of getting or using ("will get", "he'll pick up", "is going to
spray": an acceptance; "won't get", "did not pick up": a refusal) or its past ("picked up", "collected",
"got it"). Distrust ("nammakam kudaraledu", నమ్మకం కుదరలేదు: trust did not come) is a doubt.
"""

import re

from handlers.agri.textmatch import Hit

_BASE = r"(?:t(?:h)?(?:ee|e|i)s|kon|kott|kod|v(?:aa|a)d|ve(?:s|y{1,2})|te(?:cc?h|pp))"
_CAUSE = r"(?:inch|ich|is)?"
_REFLEXIVE = r"(?:kk?(?:u|o))?"
_FUTURE = r"(?:t|th)(?:aa|a)(?:nu|du|di|ru|mu|m)?"
_PAST = r"nn(?:adu|adi|aru|amu|anu|a)|ndi"
_LATIN_YES = re.compile(rf"(?<![a-z]){_BASE}{_CAUSE}(?:a|u|i|o|oo)?{_REFLEXIVE}n?(?:{_FUTURE}|{_PAST})(?![a-z])")
# The causative's past has one form only ("kottinchadu": had it sprayed; "won't" is "kottinchadu" too rarely).
_LATIN_CAUSED = re.compile(rf"(?<![a-z]){_BASE}(?:inch|ich|ipp)(?:adu|aru|indi|ina|anu|amu)(?![a-z])")
_LATIN_NO = re.compile(rf"(?<![a-z]){_BASE}{_CAUSE}(?:a|u|i|o|oo)?{_REFLEXIVE}(?:ledu|ledhu)(?![a-z])|"
                       # The reflexive's negative future: "teesukonu" (won't take), "vesukodu" (won't apply).
                       rf"(?<![a-z]){_BASE}{_CAUSE}(?:u|i)?kk?o(?:nu|du|ru|mu|di)(?![a-z])|"
                       # "pichikari cheyyaledu", "spray cheyaledu": the light verb of a spraying noun, negated.
                       r"(?<![a-z])(?:spray|pichikari|pichikaari|mandu)\s+chey{1,2}a?ledu(?![a-z])")
_TE = "\u0c00-\u0c7f"
_TE_ROOTS = "(?:తీసుక|తీసు|తీస|కొన|కొం|కొట్ట|కొడ|వాడ|వేస|వేయ|వెయ్య|తెచ్చ|తెప్ప)"
# What may stand between root and ending: the causative (-ించ-, -ిస్-), the reflexive (-ుకు-, -ుక్కు-, -ుకో-),
# "take away" (-ెళ్ళ-).
_TE_MIDDLE = "(?:ించుకు|ించుకో|ించ|ిస్|ుక్కు|ుకు|ుకో|ెళ్ళ|ు|ి|ో)?"
_TE_YES = re.compile(rf"(?<![{_TE}]){_TE_ROOTS}{_TE_MIDDLE}(?:ం?(?:టా|తా)(?:ను|డు|రు|ం|ము|ది|మ)?|"
                     rf"న్నా(?:డు|రు|ను|ము|ం)|న్నది|్నా(?:డు|రు|ను|ము|ం)|్నది|ంది|ాడు|ారు|ింది|ాను|ాము)(?![{_TE}])")
_TE_NO = re.compile(rf"(?<![{_TE}]){_TE_ROOTS}{_TE_MIDDLE}లేదు(?![{_TE}])|"
                    # The negative future on the bare root or the causative: కొట్టడు, వేయను, కొట్టించడు.
                    rf"(?<![{_TE}])(?:కొట్ట|కొడ|కొన|వాడ|వేయ|వెయ్య|తెప్పించ|కొట్టించ|తీసుకో|వేసుకో)(?:డు|రు|ను|ము)(?![{_TE}])")
# Waiting is the verb "aagu" (ఆగు) in any person: "aagudam" (let us wait), "aagutha", "aagali"; ఆగుదాం, ఆగాలి.
_LATIN_WAIT = re.compile(r"(?<![a-z])aa?g(?:u|a)(?:dam|dham|tha|ta|tanu|thanu|tham|tam|ali|andi|taru|tadu)(?![a-z])")
_TE_WAIT = re.compile(rf"(?<![{_TE}])ఆగ(?:ుదాం|ుతా|ుతాను|ుతాం|ుతారు|ుతాడు|ాలి|ండి)(?![{_TE}])")
_EN_VERB = r"(?:buy|get|take|pick\s+(?:it\s+|them\s+)?up|collect|bring|fetch|order|spray|apply|use|try|purchase)"
# Said by the officer of himself ("I will bring it next visit", "we collected samples"), it is not the answer.
_NOT_MINE = r"(?<!\bi\s)(?<!\bwe\s)"
_EN_YES = re.compile(rf"(?:{_NOT_MINE}(?<![a-z])(?:will|shall|going\s+to|gonna|plans?\s+to|ready\s+to|promised\s+to)|"
                     r"(?<!\bi)(?<!\bwe)'ll)\s+"
                     rf"(?:\w+ly\s+)?{_EN_VERB}(?![a-z])(?!\s+back)|"
                     rf"{_NOT_MINE}(?<![a-z])(?:picked\s+(?:it\s+|them\s+)?up|collected|brought|fetched|ordered|"
                     r"got\s+(?=it\b|them\b|both\b|one\b|two\b|three\b|\d))")
_EN_NO = re.compile(r"(?<![a-z])(?:won't|wont|will\s+not|not\s+going\s+to|refused\s+to|(?:does|did)\s*n[o']?t\s+want\s+to|"
                    r"did\s+not|didn't|didnt|has\s+not|hasn't|have\s+not|haven't|not\s+yet)\s+(?:\w+ly\s+)?"
                    rf"{_EN_VERB}(?![a-z])")
_GOT = re.compile(r"(?<![a-z])got\s+")
# Trust (nammakam, నమ్మకం) with a negated verb after it: "nammakam kudaraledu", "నమ్మకం రాలేదు" - a doubt.
_DISTRUST = re.compile(rf"(?<![a-z])nammak\w*\s+\w*(?:ledu|ledhu|levu|leka)(?![a-z])|"
                       rf"నమ్మకం\s+(?:[{_TE}]*(?:లేదు|లేవు|లేక))(?![{_TE}])")


def verb_cues(norm: str, known: list[Hit]) -> list[Hit]:
    """Return the reaction a verb form gives, for each such verb no listed word already covers."""
    found = []
    forms = ((_LATIN_YES, "reaction", "accepted"), (_LATIN_CAUSED, "reaction", "accepted"),
             (_TE_YES, "reaction", "accepted"), (_EN_YES, "reaction", "accepted"),
             (_LATIN_NO, "reaction", "rejected"), (_TE_NO, "reaction", "rejected"), (_EN_NO, "reaction", "rejected"),
             (_LATIN_WAIT, "objection", "wait"), (_TE_WAIT, "objection", "wait"), (_DISTRUST, "objection", "doubt"))
    # "never got Borex", "got Thripzap from the shop": "got" is taking only when what it got is a product.
    got = [m for m in _GOT.finditer(norm) if any(h.category == "product" and h.start == m.end() for h in known)]
    found += [Hit("reaction", "accepted", m.start(), m.end() - 1) for m in got]
    for rx, category, key in forms:
        for m in rx.finditer(norm):
            taken = known + found
            if not any(h.start < m.end() and m.start() < h.end for h in taken):
                found.append(Hit(category, key, m.start(), m.end()))
    return sorted(found, key=lambda h: h.start)
