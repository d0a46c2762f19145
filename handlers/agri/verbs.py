"""A farmer's answer (or his waiting: "aagudam", ఆగుదాం) read from the form of a Telugu verb of taking up a product, in either script, where no
listed word says it: the verbs of taking, buying, spraying, using and applying ("teesuk-", "kon-", "kott-" /
"kod-", "vaad-", "ves-" / "vey-"; తీసుకు-, కొన-, కొట్ట- / కొడ-, వాడ-, వేయ-) with a future ending ("teesukunta",
"kodatha", "తీసుకుంటా", "కొడతా": will take, will spray) or a past one ("teesukunnadu") are an acceptance; with
the negative "-ledu" ("kottaledu", "vaadaledu", "తీసుకోలేదు") a refusal. Endings that are the same in Latin
letters for "sprayed" and "won't spray" ("kottadu") are left to the listed words."""

import re

from handlers.agri.textmatch import Hit

_STEMS = r"(?:t(?:h)?(?:ee|e|i)s(?:u|oo)?k(?:u|o)?|kon(?:u(?:kk)?)?|kott|kod|v(?:aa|a)d|ve(?:s|yy?))"
_FUTURE = r"(?:t|th)(?:aa|a)(?:nu|du|di|ru|mu|m)?"
_PAST = r"nn(?:adu|adi|aru|amu|anu|a)|ndi"
_LATIN_YES = re.compile(rf"(?<![a-z]){_STEMS}(?:a|u|i|o|oo)?n?(?:{_FUTURE}|{_PAST})(?![a-z])")
_LATIN_NO = re.compile(rf"(?<![a-z]){_STEMS}(?:a|u|i|o|oo)?(?:ledu|ledhu)(?![a-z])")
_TE = "\u0c00-\u0c7f"
_TE_STEMS = "(?:తీసుకు|తీసుకో|కొను|కొన|కొం|కొనుక్కు|కొట్ట|కొడ|వాడ|వేస|వేయ)"
_TE_YES = re.compile(rf"(?<![{_TE}]){_TE_STEMS}(?:ం|్)?(?:టా|తా)(?:ను|డు|రు|ం|ము)?(?![{_TE}])")
_TE_NO = re.compile(rf"(?<![{_TE}]){_TE_STEMS}లేదు(?![{_TE}])")
# Waiting is the verb "aagu" (ఆగు) in any person: "aagudam" (let us wait), "aagutha", "aagali"; ఆగుదాం, ఆగాలి.
_LATIN_WAIT = re.compile(r"(?<![a-z])aa?g(?:u|a)(?:dam|dham|tha|ta|tanu|thanu|tham|tam|ali|andi|taru|tadu)(?![a-z])")
_TE_WAIT = re.compile(rf"(?<![{_TE}])ఆగ(?:ుదాం|ుతా|ుతాను|ుతాం|ుతారు|ుతాడు|ాలి|ండి)(?![{_TE}])")


def verb_cues(norm: str, known: list[Hit]) -> list[Hit]:
    """Return the reaction a verb form gives, for each such verb no listed word already covers."""
    found = []
    forms = ((_LATIN_YES, "reaction", "accepted"), (_TE_YES, "reaction", "accepted"),
             (_LATIN_NO, "reaction", "rejected"), (_TE_NO, "reaction", "rejected"),
             (_LATIN_WAIT, "objection", "wait"), (_TE_WAIT, "objection", "wait"))
    for rx, category, key in forms:
        for m in rx.finditer(norm):
            if not any(h.start < m.end() and m.start() < h.end for h in known):
                found.append(Hit(category, key, m.start(), m.end()))
    return sorted(found, key=lambda h: h.start)
