"""Which product a reaction or objection is about, and what it says once negation is read: "did not buy X",
"X konaledu" (refused), "no product taken"; a cue said of a list ("Tilt, Kavach rendu ...") holds for all of it."""

import re

from handlers.agri.models import Advice
from handlers.agri.textmatch import Hit

_SENTENCE_END = re.compile(r"[.!?।\n;]")
# A reaction belongs to the product of its own clause: "Coragen too costly, she took Proclaim".
# "aithe" is "but" after a verb ("cheppanu aithe konaledu") and "if it is" after a noun or adjective ("dhara
# takkuva aithe teesukuntanu": if the price is less), where it is a condition inside the clause.
_BUT_AITHE = r"(?<=nu|du|di|ru|mu)\s(?:aithe|ayithe)\s"
_CLAUSE_END = re.compile(rf"[.!?।\n;,]|\s(?:but|then|kani|kaani|కానీ|తర్వాత)\s|{_BUT_AITHE}")
# "did not / didn't / never / no product" just before an acceptance word turns it into a refusal.
_NEGATED = re.compile(r"(?:\bnot|n't|\bdidnt|\bnever|\bno(?:\s+\w+)?|\bledu|లేదు)\s+(?:\w+\s+)?$")
# Products joined by a list ("Tilt, Kavach rendu", "Actara and Tilt both") share a cue said of the list.
_LIST_JOIN = re.compile(r"^\s*(?:,|\+|&|/|and|or|mariyu|మరియు)?\s*$")
# An acceptance under a condition is not yet one: "credit lo istey teeskuntanu", "డబ్బులు వస్తే కొంటా",
# "will buy if the dealer gives credit". Telugu conditionals end in -తే (ఇస్తే, వస్తే, ఉంటే, దొరికితే).
# In Latin letters the same ending is "-te" / "-the" after the verb's stem ("vaana aagithe": if the rain stops,
# "padithe", "taggite", "raakapothe"); English words with that ending are not conditions.
_CONDITIONAL = re.compile(r"(?<![a-z])(?:if|unless|provided|in\s+case|as\s+long\s+as|istey|iste|isthe|ichhte|ichte|"
                          r"vaste|vastey|vasthe|unte|untey|cheste|chesthe|aithe|ayite|ayithe)(?![a-z])|"
                          r"(?<![a-z])(?!(?:white|quite|write|site|kite|bite|unite|invite|elite|suite|termite|favourite|"
                          r"definite|opposite|granite|waste|paste|taste|haste|caste|chaste|ante|anthe)(?![a-z]))"
                          r"[a-z]{2,}(?:ithe|ithey|isthe|asthe|esthe|usthe|osthe|pothe|ite|itey|iste|istey|aste|"
                          r"este|uste|oste|unte|untey)(?![a-z])|"
                          r"(?<![\u0c00-\u0c7f])(?!అంటే)[\u0c00-\u0c7f]+తే(?![\u0c00-\u0c7f])")
# English puts the condition after the verb too: "will buy it only if the dealer gives credit".
_CONDITION_AFTER = re.compile(r"(?<![a-z])(?:if|unless|provided|in\s+case|as\s+long\s+as)(?![a-z])")
# What a condition or a put-off waits for, when it names it: the price, money (a loan, a payment, credit), stock.
_REASONS = (("price", re.compile(r"(?<![a-z])(?:price|prices|rate|rates|dhara|dara|cost|cheaper|discount|"
                                 r"khareedu|kharidu)(?![a-z])|ధర|రేటు|ఖరీదు")),
            ("money", re.compile(r"(?<![a-z])(?:money|cash|loan|credit|payment|paid|salary|bonus|dabbul\w*|dabbu|"
                                 r"paisa\w*|appu|runam|bank)(?![a-z])|డబ్బు|అప్పు|రుణం|క్రెడిట్|బ్యాంకు")),
            ("availability", re.compile(r"(?<![a-z])(?:stock|available|availability|supply|dorik\w*|dorak\w*)(?![a-z])|"
                                        r"స్టాక్|దొరి|దొరక")))
# "not now" is later: "ippudu konanu", "ఇప్పుడు కొనను" defer rather than refuse ("ippudu emi veyanu" refuses).
_NOW = re.compile(r"(?:(?<![a-z])(?:now|ippudu|ipudu|ippatiki|for now)|ఇప్పుడు|ఇప్పటికి)\s+$")
# English says it after the verb: "won't spray now", "not buying it for now".
_NOW_AFTER = re.compile(r"^\s*(?:it\s+|them\s+)?(?:now|for\s+now|right\s+now|just\s+now)(?![a-z])")
# A cue said of an earlier season or spray is history, not the answer to this advice: "Pegasus mundu kottadu",
# "last time vesina", "ఇంతకు ముందు వాడలేదు".
_PAST = re.compile(r"(?<![a-z])(?:mundu|last\s+(?:time|year|season|sari|saari)|previous\s+(?:time|year|season)|"
                   r"poyina\s+(?:sari|saari|edadi|season|pantalo))(?![a-z])|ముందు|పోయిన\s+సారి|గతంలో|గత\s")
# "used neem oil instead": a cue about something put in the product's place is not about the product.
_INSTEAD = re.compile(r"(?<![a-z])(?:instead|badulu|badhulu)(?![a-z])|బదులు")
_POSITIVE_RESULTS = {"controlled", "partial"}
# "vesindi already", "ఇప్పటికే కొన్నాడు": taken before the officer spoke, a reason more than an answer.
_ALREADY = re.compile(r"(?<![a-z])(?:already|ippatike|ippatiki\s+ee)(?![a-z])|ఇప్పటికే")
# "He took Delegate only": the other products of the list were not taken.
_ONLY = re.compile(r"(?<![a-z])(?:only|matrame|matrame|okkate)(?![a-z])|మాత్రమే|ఒక్కటే")
# "ippudu avasaram ledu" is a refusal still: not needing it is no deferral.
_NEED = re.compile(r"need|avasaram|అవసరం")
# A yes put off is a postponement: "will buy after Dasara", "tarvata konta"; "next week konta" is one when a
# reason is given with it ("dabbulu levu, next week konta"), else a plan to buy ("konta annadi next week").
_DEFER = re.compile(r"(?<![a-z])(?:later|tarvata|taruvata|after\s+(?:the\s+)?(?:[a-z]+\s+)?(?:harvest\w*|dasara|dussehra|"
                     r"diwali|deepavali|sankranti|pongal|ugadi|festival|money|payment|pay\s+day|sale|selling|picking|"
                     r"rains?|showers?|loan|credit|bonus)|next\s+time|(?:once|when|till|until|as\s+soon\s+as)\s+(?:the\s+|his\s+|her\s+)?"
                     r"(?:[a-z]+\s+){1,3}?(?:stops?|ends?|comes?|is\s+over|dries|clears?|arrives?|is\s+paid|"
                     r"is\s+sanctioned|gets?\s+paid))(?![a-z])|తర్వాత|తరువాత|"
                     # The Telugu "after doing" form: "varsham taggaka", "panta ammaka", "vachaka"; వర్షం తగ్గాక.
                     r"(?<![a-z])[a-z]*(?:gg|yy|mm|chh?|g|ll)aa?ka(?![a-z])|(?<![\u0c00-\u0c7f])[\u0c00-\u0c7f]+ాక(?![\u0c00-\u0c7f])|"
                     # "as soon as it comes" ("raagane", "padagane"; రాగానే) and "having waited" ("aagi", ఆగి).
                     r"(?<![a-z])[a-z]{2,}(?:agane|aagane)(?![a-z])|(?<![\u0c00-\u0c7f])[\u0c00-\u0c7f]+గానే(?![\u0c00-\u0c7f])|"
                     r"(?<![a-z])aa?gi(?![a-z])|(?<![\u0c00-\u0c7f])ఆగి(?![\u0c00-\u0c7f])")
# The clause a put-off is read in: "after the sale, then" (తర్వాత) joins it rather than cutting it.
_OUTER_CLAUSE = re.compile(rf"[.!?।\n;,]|\s(?:but|kani|kaani|కానీ)\s|{_BUT_AITHE}")
_NEXT_SPAN = re.compile(r"(?<![a-z])(?:next\s+(?:week|month)|coming\s+week|vach+h?e+y?\s+(?:va+ra?m|nela)|"
                        r"\d+\s*(?:days?|rojula|rojulu)\s*(?:lo|tarvata|after))(?![a-z])|వచ్చే\s+(?:వారం|నెల)")


def _bounds(text: str, position: int, pattern: re.Pattern[str]) -> tuple[int, int]:
    starts = [m.end() for m in pattern.finditer(text) if m.end() <= position]
    ends = [m.start() for m in pattern.finditer(text) if m.start() >= position]
    return (starts[-1] if starts else 0, ends[0] if ends else len(text))


def _nearest(text: str, products: list[Hit], cue: Hit) -> tuple[str | None, bool]:
    """Return the product a cue is about and whether it is in the cue's own clause: in its clause first, else
    the last one named before it, else the first one named after it in its sentence."""
    low, high = _bounds(text, cue.start, _CLAUSE_END)
    same = [p for p in products if low <= p.start < high]
    before = [p for p in same if p.start < cue.start]
    if before:
        return before[-1].key, True
    if same:
        return same[0].key, True
    earlier = [p for p in products if p.start < cue.start]
    if earlier:
        return earlier[-1].key, False
    low, high = _bounds(text, cue.start, _SENTENCE_END)
    later = [p for p in products if low <= p.start < high]
    return (later[0].key if later else None), False


def _lists(text: str, products: list[Hit]) -> list[list[str]]:
    groups: list[list[Hit]] = []
    for hit in products:
        if groups and _LIST_JOIN.match(text[groups[-1][-1].end:hit.start]):
            groups[-1].append(hit)
        else:
            groups.append([hit])
    return [[h.key for h in g] for g in groups if len(g) > 1]


NOT_DONE = "not_done"
"""A note's "did not spray / kottaledu" said of a product: a no, unless the clause tells of earlier advice ("did
not spray the Delegate I told last time")."""
_REPORTED = re.compile(r"^\s*(?:ann|అన్న|ani\b|antu|అంటు|said)")
_OFFICER_WAIT = {"wait", "undecided", "postponed"}
# "Siddipet nunchi teppistanu annanu" (I said I would get it brought): a verb the officer reports of himself.
_SAID_BY_ME = re.compile(r"^\s*(?:annanu|annamu|ani\s+cheppanu|ani\s+chepanu|అన్నాను|అని\s+చెప్పాను|i\s+said)(?![a-z])")
# "will buy next week" in a sentence that also times the visit is still the farmer's: the officer buys nothing.
_BUYING = re.compile(r"buy|purchase|kont|konu|teesk|teesuk|తీసుకుం|కొంట|కొను")


_LIGHT_VERB = re.compile(r"(?:chest|chesth|chey|will do|he will do|she will do|చేస్త|చేయ)")
# A doubt said as a hedge ("he is doubtful", "not sure", "అనుమానం") leaves the answer open; disbelief refuses.
_HEDGE = re.compile(r"doubtful|not sure|unsure|hesitant|anumana|అనుమాన|sandeha|సందేహ")


def farmer_cues(text: str, cues: list[Hit], plans: list[tuple[int, int]]) -> list[Hit]:
    """Drop "will see" said by the officer about the next visit ("10 rojula tarvata chustanu"): in a sentence
    giving follow-up timing, a wait cue is the farmer's only when reported ("chustanu annadu"). A "do" verb
    right after a reason is that reason's verb ("wait chestanu": will wait), never a yes."""
    kept = []
    for cue in cues:
        if cue.category == "reaction" and cue.key == "accepted" and _LIGHT_VERB.match(text[cue.start:cue.end]) and any(
                o.category == "objection" and o.end <= cue.start and not text[o.end:cue.start].strip()
                for o in cues):
            continue
        if cue.category == "reaction" and _SAID_BY_ME.match(text[cue.end:cue.end + 16]):
            continue
        in_plan = any(a <= cue.start < b for a, b in plans)
        reported = _REPORTED.match(text[cue.end:cue.end + 12]) or re.search("ann|అన్న", text[cue.start:cue.end])
        buys = cue.key == "postponed" and _BUYING.search(text[cue.start:cue.end])
        if cue.key in _OFFICER_WAIT and in_plan and not reported and not buys:
            continue
        kept.append(cue)
    return kept


def reaction_of(text: str, cue: Hit, reason: bool = False) -> str:
    """Return what a reaction cue says once the words before it in its clause are read: a negation refuses
    ("did not buy"), a condition leaves it open ("istey teeskuntanu"), "now" defers a refusal ("ippudu konanu")."""
    low, high = _bounds(text, cue.start, _CLAUSE_END)
    before = text[max(0, cue.start - 24):cue.start]
    key = "accepted" if cue.key == "own" else "rejected" if cue.key == NOT_DONE else cue.key
    if key == "accepted" and _NEGATED.search(before):
        return "rejected"
    if key == "accepted" and (_CONDITIONAL.search(text[low:cue.start]) or _CONDITION_AFTER.search(text[cue.end:high])):
        return "undecided"
    outer_low, _ = _bounds(text, cue.start, _OUTER_CLAUSE)
    if key == "accepted" and cue.category == "reaction" and (
            _DEFER.search(text[outer_low:high]) or (reason and _NEXT_SPAN.search(text[low:high]))):
        return "postponed"
    now_after = _NOW_AFTER.match(text[cue.end:cue.end + 24])
    if key == "rejected" and (_NOW.search(before) or now_after) and not _NEED.search(text[cue.start:cue.end]):
        return "postponed"
    return key


def waits_for(text: str, cue: Hit) -> str | None:
    """The objection a condition or put-off said with an acceptance names ("if the price comes down": price; "once
    the loan comes", "dabbulu padagane": money; "stock raagane": availability), or None when it names none."""
    low, high = _bounds(text, cue.start, _OUTER_CLAUSE)
    named = [(m.start(), name) for name, rx in _REASONS if (m := rx.search(text[low:high]))]
    return min(named)[1] if named else None


def _history(text: str, cue: Hit, products: list[Hit]) -> bool:
    """Return True when a cue tells of an earlier season or spray, or of something outside the catalogue used in
    the product's place ("used neem oil instead")."""
    low, high = _bounds(text, cue.start, _CLAUSE_END)
    named = any(low <= p.start < high for p in products)
    said_before = text[low:high] if cue.key == NOT_DONE else text[low:cue.start]
    return bool(_PAST.search(said_before) or (_INSTEAD.search(text[low:high]) and not named))


# "instead of Delegate", "Delegate ki badulu", "డెలిగేట్ కి బదులు": the product named is the one not taken.
_REPLACED_BEFORE = re.compile(r"(?<![a-z])(?:instead of|in place of)\s+$")
_REPLACED_AFTER = re.compile(r"^\s*(?:(?:ki|ku|కి|కు)\s*)?(?:badulu|badhulu|బదులు)")


def _replaced(text: str, products: list[Hit]) -> set[str]:
    return {p.key for p in products if _REPLACED_BEFORE.search(text[max(0, p.start - 16):p.start])
            or _REPLACED_AFTER.match(text[p.end:p.end + 14])}


def advice_from(text: str, products: list[Hit], cues: list[Hit]) -> list[Advice]:
    """Return one Advice per product named, with the reaction and objection said about it."""
    if not products:
        return []
    order = list(dict.fromkeys(h.key for h in products))
    reaction: dict[str, str] = {}
    objection: dict[str, str] = {}
    own: set[str] = set()
    only: set[str] = set()
    hedged: set[str] = set()
    until: set[str] = set()
    waited: dict[str, str | None] = {}
    replaced = _replaced(text, products)
    # Where each reaction came from: a reason (own stock), a cue further off (its sentence), or its own clause.
    source: dict[str, tuple[str, int]] = {}
    # "panta ayyaka konta annadu", "will buy after Dasara": an acceptance put off in its own clause is not yet one.
    put_off = {_bounds(text, c.start, _CLAUSE_END): c.key for c in cues
               if c.category == "reaction" and c.key in ("undecided", "postponed")}
    for cue in cues:
        target, close = _nearest(text, products, cue)
        if target is None:
            continue
        if cue.category in ("result", "reaction") and _history(text, cue, products):
            continue
        if target in replaced or (target in own and cue.key in _OFFICER_WAIT):
            # Said beside a product put aside, or "will see" beside one he has already: it is about another.
            others = [p for p in products if p.start < cue.start and p.key not in replaced | own]
            in_clause = [p for p in products if p.key not in replaced and abs(p.start - cue.start) < 40
                         and _bounds(text, p.start, _CLAUSE_END) == _bounds(text, cue.start, _CLAUSE_END)]
            if target in replaced and in_clause:
                target, close = in_clause[0].key, True
            elif others:
                target, close = others[-1].key, False
            else:
                continue
        if cue.category == "result":
            # "control ayyindi Takumi tho": a product said to have worked was applied ("did not work" is doubt).
            if close and target not in reaction and cue.key in _POSITIVE_RESULTS:
                reaction[target] = "accepted"
            continue
        low, high = _bounds(text, cue.start, _CLAUSE_END)
        if cue.category == "reaction" and (cue.key == "own" or (
                cue.key == "accepted" and _ALREADY.search(text[low:high]))):
            # Having it at home is a reason, weaker than an answer: "zinc no need, already applied zinc".
            own.add(target)
            if target not in reaction:
                reaction[target], source[target] = "accepted", ("reason", 0)
            continue
        if cue.category == "objection":
            # A reason (price, doubt, stock) says more than "will wait" said beside it.
            if target not in objection or (objection[target] == "wait" and cue.key != "wait"):
                objection[target] = cue.key
                if _HEDGE.search(text[cue.start:cue.end]):
                    hedged.add(target)
            continue
        sentence = _bounds(text, cue.start, _SENTENCE_END)[0]
        kind, where = source.get(target, ("none", -1))
        # A reaction said in the product's own clause wins; of those said further off, the nearest does, unless
        # the same sentence goes on ("teeskoledu, tarvata chusukuntanu"): its last word is the answer.
        if close or kind in ("none", "reason") or (kind == "far" and where == sentence):
            answer = reaction_of(text, cue, any(
                c.category == "objection" and _bounds(text, c.start, _SENTENCE_END)[0] == sentence for c in cues))
            put_off_here = answer == "accepted" and (low, high) in put_off
            reaction[target] = put_off[(low, high)] if put_off_here else answer
            if reaction[target] == "postponed" and _DEFER.search(text[_bounds(text, cue.start, _OUTER_CLAUSE)[0]:high]):
                until.add(target)
            if cue.key == "accepted" and reaction[target] in ("undecided", "postponed"):
                waited[target] = waits_for(text, cue)
            source[target] = ("close", 0) if close else ("far", sentence)
            if reaction[target] == "accepted" and _ONLY.search(text[low:high]):
                only.add(target)
    # The latest list a product is in is the one a later cue was said of ("Oberon and Nativo later").
    for group in reversed(_lists(text, products)):
        said = [pid for pid in group if pid in reaction or pid in objection]
        for pid in group:
            if said and pid not in said and any(p in only for p in said):
                reaction[pid] = "rejected"
            elif said and pid not in said:
                if said[0] in reaction:
                    reaction[pid] = reaction[said[0]]
                if said[0] in objection:
                    objection[pid] = objection[said[0]]
    _collective(text, products, cues, replaced, reaction)
    _took_another(text, products, order, reaction, objection, source)
    for pid in replaced:
        reaction.setdefault(pid, "rejected")
    if own:
        # "already has Actara at home": the officer's product he gave no answer on is not taken.
        for pid in order:
            if pid not in own and pid not in reaction and pid not in objection:
                reaction[pid] = "rejected"
    advice = []
    for pid in order:
        said_of = reaction.get(pid)
        if said_of is None and pid in objection:
            # Waiting, not finding it or a hedged doubt is not yet a no: price, money or disbelief refuses.
            said_of = "undecided" if objection[pid] in ("wait", "availability") or pid in hedged else "rejected"
        if said_of in ("undecided", "postponed") and waited.get(pid) and pid not in objection:
            objection[pid] = waited[pid]  # type: ignore[assignment]  # the condition names what it waits for
        if said_of == "postponed" and pid in until and pid not in objection:
            objection[pid] = "wait"  # put off until something named ("once the rain stops"): he waits for it
        advice.append(Advice(product_id=pid, reaction=said_of or "undecided",  # type: ignore[arg-type]
                             objection=objection.get(pid)))  # type: ignore[arg-type]
    return advice


# "Rendu teesukunnadu", "took both", "bought all three", "రెండూ కొన్నది": one answer said of several products.
_COLLECTIVE_BEFORE = re.compile(r"(?:(?<![a-z])(?P<w>both|all(?:\s+(?:the\s+)?(?:two|three|four))?|rendu|rendoo|"
                                r"rendu\s+kuda|moodu|mudu|moodoo|anni|annee|anni\s+kuda)|(?P<t>రెండూ|రెండు|మూడూ|"
                                r"మూడు|అన్నీ|అన్ని))\s*$")
_COLLECTIVE_AFTER = re.compile(r"^\s*(?P<w>both|all(?:\s+(?:the\s+)?(?:two|three|four))?|the\s+two|the\s+three|"
                               r"them\s+all)(?![a-z])")
_HOW_MANY = {"both": 2, "two": 2, "rendu": 2, "rendoo": 2, "రెండూ": 2, "రెండు": 2, "three": 3, "moodu": 3, "mudu": 3,
             "moodoo": 3, "మూడూ": 3, "మూడు": 3, "four": 4}


def _collective(text: str, products: list[Hit], cues: list[Hit], replaced: set[str],
                reaction: dict[str, str]) -> None:
    """Give an answer said of "both" / "all three" / "rendu" to as many of the products named before it."""
    for cue in cues:
        if cue.category != "reaction" or cue.key == "own":
            continue
        said = _COLLECTIVE_BEFORE.search(text[max(0, cue.start - 20):cue.start]) or _COLLECTIVE_AFTER.match(
            text[cue.end:cue.end + 24])
        if said is None:
            continue
        word = (said.group("w") or said.groupdict().get("t") or "").split()
        named = list(dict.fromkeys(p.key for p in products if p.start < cue.start and p.key not in replaced))
        count = next((_HOW_MANY[w] for w in reversed(word) if w in _HOW_MANY), len(named))
        if len(named) < 2:
            continue
        answer = reaction_of(text, cue)
        for pid in named[-count:]:
            reaction[pid] = answer


# "Told Kavach, but he took Tilt": the product advised and given no answer of its own was not taken; taken
# because the other is cheaper, it was refused for its price.
_CHEAPER = re.compile(r"cheaper|less price|lower price|takkuva\s+(?:dhara|dara|rate|reta)|తక్కువ\s+(?:ధర|రేటు)")
_CONTRAST = re.compile(r"(?<![a-z])(?:but|kani|kaani|aithe|instead|badulu)(?![a-z])|కానీ|బదులు")


def _took_another(text: str, products: list[Hit], order: list[str], reaction: dict[str, str],
                  objection: dict[str, str], source: dict[str, tuple[str, int]]) -> None:
    taken = [p for p in products if reaction.get(p.key) == "accepted" and source.get(p.key, ("", 0))[0] == "close"]
    for pid in order:
        if pid in reaction or pid in objection:
            continue
        first = next(p for p in products if p.key == pid)
        other = next((t for t in taken if t.key != pid and t.start > first.end
                      and _CONTRAST.search(text[first.end:t.start])), None)
        if other is not None:
            reaction[pid] = "rejected"
            if _CHEAPER.search(text[other.start:_bounds(text, other.start, _SENTENCE_END)[1]]):
                objection[pid] = "price"


_NOT_BEFORE = re.compile(r"(?<![a-z])(?:no|not|without|never|minus)\s+$")


def refused(text: str, products: list[Hit], cues: list[Hit]) -> set[str]:
    """Return the products an outcome answer says were not bought or not applied: refused, not sprayed, not to
    be had ("Nativo dorakaledu"), or named with a negation ("no Pegasus")."""
    out: set[str] = {p.key for p in products if _NOT_BEFORE.search(text[max(0, p.start - 10):p.start])}
    for cue in cues:
        said_no = cue.category == "no_spray" or (cue.category == "reaction" and reaction_of(text, cue) == "rejected")
        if said_no or (cue.category == "objection" and cue.key == "availability"):
            target, _ = _nearest(text, products, cue)
            if target is not None:
                out.add(target)
    return out
