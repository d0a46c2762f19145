"""The deterministic reader: a field note (English, Telugu or a mix) -> a draft visit or outcome, using only
the catalogue, the farmer and village registers and the lexicon. It is the keyless default path."""

import re
from datetime import date, timedelta
from itertools import pairwise

from handlers.agri.doses import above_label, find_doses
from handlers.agri.identity import FarmerIdentity, Resolution
from handlers.agri.models import Advice, Farmer, Outcome, Visit, crop_advised
from handlers.agri.reactions import NOT_DONE, advice_from, farmer_cues, refused
from handlers.agri.register import FieldBook
from handlers.agri.results import product_source, result_of
from handlers.agri.textmatch import Hit, TermMatcher, absent, find_dates, normalise
from handlers.agri.timing import followup_days, says_followup
from handlers.agri.unlisted import unlisted_products
from handlers.agri.verbs import verb_cues
from bot.services.registers.codes import fold_code
from memory.ids import content_digest

_SENTENCE_END = re.compile(r"[.!?।\n;]")
_PERCENT = re.compile(r"(\d{1,3})\s*(?:%|percent|per cent|శాతం|shatam|satam|saatam)")
_FARMER_ID = re.compile(r"(?<![a-z0-9])f(\d{3})(?![0-9])")
_PRODUCT_ID = re.compile(r"(?<![a-z0-9])p(\d{3})(?![0-9])")
_MAX_NOTE = 400
# The clauses a note gives each crop's problems in: "chilli has thrips, cotton has pink bollworm".
_CROP_CLAUSE = re.compile(r"[.!?।\n;,]|\s(?:but|kani|kaani|కానీ)\s")
_OTHERS_RESULT = re.compile(r"result|yield|plot|field|polam|photo|video|ఫలితం|దిగుబడి|పొలం|ఫోటో|వీడియో")


def _id_part(farmer_id: str | None) -> str:
    """A farmer id as written ("GF/0012") folded into an id part ("GF-0012")."""
    return "-".join(re.findall(r"[A-Za-z0-9]+", farmer_id or "")) or "F000"


def visit_id(farmer_id: str | None, day: date, text: str) -> str:
    """Return a deterministic id for a captured visit: the same note sent twice is the same visit."""
    return f"{_id_part(farmer_id)}-{day:%Y%m%d}-{content_digest(text, 6)}"


def farmer_of_visit_id(book: FieldBook, visit_key: str) -> str | None:
    """The farmer a visit id (or a seeded visit's key) is about, or None."""
    owners = [f.id for f in book.farmers.values() if visit_key.startswith(f"{_id_part(f.id)}-")]
    if owners:
        return max(owners, key=lambda f: len(_id_part(f)))
    return next((v.farmer_id for v in book.season.visits if v.id == visit_key), None)


_DATED_ID = re.compile(r"^(?P<rest>.+)-(?P<day>\d{8})-(?P<digest>[0-9a-f]{6})$")


def dated_id(visit: Visit) -> str:
    """The visit's id for its farmer and date as they are now (after edits): the id follows the saved date,
    the note's digest stays. An id not made by `visit_id` (a seeded "V001") is kept."""
    found = _DATED_ID.match(visit.id)
    if found is None:
        return visit.id
    return f"{_id_part(visit.farmer_id)}-{visit.date:%Y%m%d}-{found['digest']}"


def severity_of(pct: int) -> str:
    return "low" if pct < 15 else "medium" if pct < 30 else "high"


def _code_words(code: str) -> list[str]:
    """A code a note may name: only one with a letter and a digit, so "10" or "Ramu" is never read as a code."""
    folded = fold_code(code)
    if len(folded) < 3 or not any(c.isdigit() for c in folded) or not any(c.isalpha() for c in folded):
        return []
    return list(dict.fromkeys([code, " ".join(re.split(r"[^0-9A-Za-z\u0c00-\u0c7f]+", code)).strip()]))


class FieldReader:
    """Reads notes against one FieldBook; build once, use for every note."""

    def __init__(self, book: FieldBook) -> None:
        self.book = book
        lex = book.lexicon
        self.terms = TermMatcher()
        for crop, words in lex.crops.items():
            self.terms.add("crop", crop, words)
        for issue, words in lex.issues.items():
            if issue in book.issues:
                self.terms.add("issue", issue, words)
        self.terms.add("disease", "generic", lex.generic_disease + lex.generic_pest)
        for name, words in lex.objections.items():
            self.terms.add("objection", name, words)
        for name, words in lex.reactions.items():
            self.terms.add("reaction", name, words)
        self.terms.add("neighbour", "yes", lex.neighbour)
        self.terms.add("shown", "yes", lex.shown_result)
        for name, words in lex.severity.items():
            self.terms.add("severity", name, words)
        for name, words in lex.stages.items():
            self.terms.add("stage", name, words)
        for name, words in lex.results.items():
            self.terms.add("result", name, words)
        self.terms.add("no_spray", "yes", lex.no_spray)
        self.terms.add("next", "yes", lex.next_step_cues)
        self.terms.add("yesterday", "yes", lex.yesterday)
        firsts = [p.name.split()[0].lower() for p in book.products.values()]
        for product in book.products.values():
            # "zinc matram teeskunnadu": a product called by its first word, when that word names nothing else.
            first = product.name.split()[0].lower()
            short = [first] if (len(product.name.split()) > 1 and first.isalpha() and len(first) >= 4
                                and firsts.count(first) == 1 and not self.terms.find(first)) else []
            self.terms.add("product", product.id, [product.name, *product.aliases, *short])
        for village in book.villages.values():
            self.terms.add("village", village.slug, [village.name, village.name_te])
        # Codes as the organisation writes them ("KV-INS-01", "GF/0012"), named in a note: exact, never fuzzy.
        for product_id in book.products:
            self.terms.add("product_code", product_id, _code_words(product_id))
        for farmer_id in book.farmers:
            self.terms.add("farmer_code", farmer_id, _code_words(farmer_id))
        for farmer in book.farmers.values():
            first_en, first_te = farmer.name.split()[0], farmer.name_te.split()[0]
            self.terms.add("farmer", farmer.id, [farmer.name, farmer.name_te])
            self.terms.add("farmer_first", farmer.id, [first_en, first_te])
        self.identity = FarmerIdentity(book, self._names_other)

    def _names_other(self, word: str) -> bool:
        """True when a word names something of the registers or the lexicon other than a farmer."""
        return any(not h.category.startswith("farmer") for h in self.terms.find(normalise(word)))

    def _farmer(self, text: str, hits: list[Hit], territories: list[str] | None) -> str | None:
        explicit = [f"F{m.group(1)}" for m in _FARMER_ID.finditer(text) if f"F{m.group(1)}" in self.book.farmers]
        explicit += [h.key for h in hits if h.category == "farmer_code" and h.key not in explicit]
        allowed = set(territories) if territories else set(self.book.villages)
        if explicit:
            named = {h.key for h in hits if h.category == "farmer"}
            # An id that contradicts the full name in the note ("... save this for F011") decides nothing:
            # the officer picks the farmer on the card.
            return explicit[0] if not named or explicit[0] in named else None
        villages = {h.key for h in hits if h.category == "village"}
        crops = {h.key for h in hits if h.category == "crop"}
        # "pakkana Ilaiah polam", "neighbour Balraj": a name right after a neighbour cue is not the visit's farmer.
        beside = {id(h) for i, h in enumerate(hits) if h.category.startswith("farmer")
                  and any(n.category == "neighbour" and 0 <= h.start - n.end <= 2 for n in hits[:i])}
        for category in ("farmer",):
            said = [h for h in hits if h.category == category]
            said = [h for h in said if id(h) not in beside] or said
            candidates = list(dict.fromkeys(h.key for h in said))
            mine = [c for c in candidates if self.book.farmers[c].village in allowed]
            if territories and candidates and not mine and self.named_in(text, hits, territories).one is not None:
                # "Kattangur Ramesh": the full name of a farmer elsewhere, but the first name of one of the
                # officer's own farmers in the village the note names: the officer's farmer is meant.
                break
            candidates = mine or candidates
            elsewhere = villages and candidates and not any(self.book.farmers[c].village in villages
                                                            for c in candidates)
            if elsewhere and (one := self.named_in(text, hits, territories).one) is not None \
                    and one.village in villages:
                # "కట్టంగూర్ సైదులు": the whole name of a Thipparthi farmer, the first name of the Kattangur
                # farmer of the village the note names: that farmer is meant.
                break
            if villages:
                candidates = [c for c in candidates if self.book.farmers[c].village in villages] or candidates
            if crops:
                # Two Rameshes in one territory: the one growing the crop the note names is meant.
                candidates = [c for c in candidates if crops & set(self.book.farmers[c].crops)] or candidates
            if len(candidates) == 1:
                return candidates[0]
            if len(candidates) > 1:
                return candidates[0]
        # No full name: a first name, a surname, initials... fit as officers say names, or nobody (ask which).
        named = self.named_in(text, hits, territories).one
        return named.id if named is not None else None

    def named_in(self, norm: str, hits: list[Hit], territories: list[str] | None) -> Resolution:
        """The registered farmers a note names as officers say names (first name, surname first, garu, the
        village first, initials, a misspelling), a name right after a neighbour cue left out."""
        beside = [h for i, h in enumerate(hits) if any(n.category == "neighbour" and 0 <= h.start - n.end <= 2
                                                          for n in hits[:i])]
        neighbours = [n for n in hits if n.category == "neighbour"]

        def skip(start: int, end: int) -> bool:
            after_cue = any(0 <= start - n.end <= 2 for n in neighbours)
            return after_cue or any(b.start <= start < b.end for b in beside)

        crops = {h.key for h in hits if h.category == "crop"}
        return self.identity.in_text(norm, territories, crops, skip=skip)

    def farmer_in(self, text: str, territories: list[str] | None = None) -> Farmer | None:
        """Return the farmer a text names (id, full or first name, either script), preferring these villages."""
        by_code = self.book.find_farmer(text)
        if by_code is not None:
            return by_code
        norm = normalise(text)
        found = self._farmer(norm, self.terms.find(norm), territories)
        return self.book.farmers.get(found or "")

    def farmer_choices(self, text: str, territories: list[str] | None = None) -> list[Farmer]:
        """Every registered farmer of these villages a note could mean by the name it gives (to ask which)."""
        norm = normalise(text)
        fits = self.named_in(norm, self.terms.find(norm), territories).farmers
        return [f for f in fits if f.village in territories] if territories else fits

    def farmers_named(self, text: str, territories: list[str] | None = None) -> list[Farmer]:
        """Return the farmer a name (the whole text) means, or every farmer it could mean when it fits several
        (handlers.agri.identity); an id as the register writes it is its farmer."""
        by_code = self.book.find_farmer(text)
        if by_code is not None and (not territories or by_code.village in territories):
            return [by_code]
        # A name that is wholly a farmer's elsewhere may be the first name of one of these villages' farmers.
        fits = self.identity.resolve(text, territories).farmers
        return [f for f in fits if f.village in territories] if territories else fits

    def village_in(self, text: str) -> str | None:
        """The village a text names: its id in the register as written (folded), or its name in either script."""
        by_code = self.book.find_village(text)
        if by_code is not None:
            return by_code.slug
        norm = normalise(text)
        return next((h.key for h in self.terms.find(norm) if h.category == "village"), None)

    def percent(self, norm: str) -> int | None:
        match = _PERCENT.search(norm)
        return min(int(match.group(1)), 100) if match else None

    def severity_of(self, pct: int) -> str:
        return severity_of(pct)

    def advice_in(self, norm: str, crop: str | None = None) -> list[Advice]:
        """Return the catalogue products a normalised text names, each with the reaction and dose said of it."""
        return self._dosed(norm, self._advice(norm, self.terms.find(norm)), crop)

    def _day(self, text: str, hits: list[Hit], today: date) -> date:
        if any(h.category == "yesterday" for h in hits):
            return today - timedelta(days=1)
        for mention in find_dates(text):
            try:
                day = date(mention.year or today.year, mention.month, mention.day)
            except ValueError:
                continue
            if day <= today:
                return day
        return today

    def read_visit(self, text: str, officer_id: str, today: date, territories: list[str] | None = None) -> Visit:
        """Return the visit a note describes; fields the note does not give stay empty for the officer to fill."""
        norm = normalise(text)
        hits = self.terms.find(norm)
        farmer_id = self._farmer(norm, hits, territories)
        farmer = self.book.farmers.get(farmer_id or "")
        village = next((h.key for h in hits if h.category == "village"), farmer.village if farmer else None)
        crops = [h.key for h in hits if h.category == "crop"]
        if farmer is not None:
            crops = [c for c in crops if c in farmer.crops] or crops
        problems = list(dict.fromkeys(h.key for h in hits if h.category == "issue" and not absent(norm, h.start, h.end)))
        crop = crops[0] if crops else (farmer.crops[0] if farmer and len(farmer.crops) == 1 else None)
        if crop is None and farmer is not None:
            crop = self._crop_of_problems(farmer, problems, hits)
        pct = self.percent(norm)
        severity = severity_of(pct) if pct is not None else next(
            (h.key for h in hits if h.category == "severity"), None)
        stage = next((h.key for h in hits if h.category == "stage"), None)
        day = self._day(norm, hits, today)
        problem_crops = self._problem_crops(norm, hits, farmer, crop, problems)
        return Visit(
            id=visit_id(farmer_id, day, norm),
            date=day,
            officer_id=officer_id,
            farmer_id=farmer_id,
            village=village,
            crop=crop,
            stage=stage,  # type: ignore[arg-type]
            problems=problems,
            problem_crops=problem_crops,
            severity=severity,  # type: ignore[arg-type]
            severity_pct=pct,
            products=(products := self._dosed(norm, self._advice(norm, hits), crop, problem_crops)),
            objection_unnamed=None if products else self._objection_alone(norm, hits),
            neighbour_evidence=self._neighbour_result(norm, hits, farmer_id),
            next_step=self._next_step(text),
            note=_note(text),
            followup_days=followup_days(norm, day),
            unlisted=unlisted_products(text, norm, hits),
        )

    def _neighbour_result(self, norm: str, hits: list[Hit], farmer_id: str | None = None) -> bool:
        """Return True when a neighbour's result was shown, not merely a neighbour mentioned: a neighbour, or
        another farmer of the register with his field or result ("showed him Pullamma's plot result")."""
        for a, b in _spans(norm):
            inside = [h for h in hits if a <= h.start < b]
            said = {h.category for h in inside}
            other = any(h.category.startswith("farmer") and h.key != farmer_id for h in inside)
            if "shown" in said and ("neighbour" in said or (other and _OTHERS_RESULT.search(norm[a:b]))):
                return True
        return False

    def _crop_of_problems(self, farmer: Farmer, problems: list[str], hits: list[Hit]) -> str | None:
        """A note naming no crop, of a farmer with several: the one crop of his the problems seen occur on (pink
        bollworm: his cotton, not his redgram), else the one crop of his the products named are labelled for."""
        for options in ([set(self.book.issues[p].crops) for p in problems if p in self.book.issues],
                        [set(self.book.products[h.key].dosage) for h in hits if h.category == "product"]):
            fits = [c for c in farmer.crops if options and all(c in o for o in options)]
            if len(fits) == 1:
                return fits[0]
        return None

    def _problem_crops(self, norm: str, hits: list[Hit], farmer: Farmer | None, crop: str | None,
                       problems: list[str]) -> dict[str, str]:
        """Each problem said in a clause naming one other crop of the farmer than the visit's ("chilli has thrips,
        cotton has pink bollworm"; "mirchi lo tamara, patti lo gulabi purugu") -> that crop."""
        crops = [h for h in hits if h.category == "crop" and (farmer is None or h.key in farmer.crops)]
        if len({h.key for h in crops}) < 2:
            return {}
        found: dict[str, str] = {}
        for hit in hits:
            if hit.category != "issue" or hit.key not in problems or hit.key in found:
                continue
            low = max((m.end() for m in _CROP_CLAUSE.finditer(norm) if m.end() <= hit.start), default=0)
            high = min((m.start() for m in _CROP_CLAUSE.finditer(norm) if m.start() >= hit.end), default=len(norm))
            named = {c.key for c in crops if low <= c.start < high}
            if len(named) == 1:
                found[hit.key] = named.pop()
        return {p: c for p, c in found.items() if c != crop}

    def _dosed(self, norm: str, advice: list[Advice], crop: str | None,
               problem_crops: dict[str, str] | None = None) -> list[Advice]:
        """Attach each dose the note gives to the product named just before it (else just after), checked
        against the label dose for the crop it was advised for."""
        products = self._product_hits(norm, self.terms.find(norm))
        doses: dict[str, Advice] = {a.product_id: a for a in advice}
        for dose in find_doses(norm):
            low, high = next(((a, b) for a, b in _spans(norm) if a <= dose.start < b), (0, len(norm)))
            before = [p for p in products if low <= p.start < dose.start]
            after = [p for p in products if dose.end <= p.start < high]
            earlier = [p for p in products if p.start < dose.start]
            target = (before[-1] if before else after[0] if after else earlier[-1] if earlier else None)
            target_id = target.key if target else None
            if target_id is None or target_id not in doses or doses[target_id].dose is not None:
                continue
            product = self.book.products[target_id]
            over, label = above_label(dose, product, crop_advised(product, crop, problem_crops or {}))
            doses[target_id] = doses[target_id].model_copy(update={"dose": dose.text(), "label_dose": label,
                                                             "above_label": over})
        return [doses[a.product_id] for a in advice]

    def _product_hits(self, text: str, hits: list[Hit]) -> list[Hit]:
        found = [h for h in hits if h.category == "product"]
        found += [Hit("product", h.key, h.start, h.end) for h in hits if h.category == "product_code"
                  and not any(f.key == h.key and f.start == h.start for f in found)]
        for m in _PRODUCT_ID.finditer(text):
            pid = f"P{m.group(1)}"
            if pid in self.book.products:
                found.append(Hit("product", pid, m.start(), m.end()))
        return sorted(found, key=lambda h: h.start)

    def _advice(self, text: str, hits: list[Hit]) -> list[Advice]:
        cues = self._cues(text, hits, ("reaction", "objection", "result"))
        plans = [(a, b) for a, b in _spans(text) if says_followup(text[a:b])]
        return advice_from(text, self._product_hits(text, hits), farmer_cues(text, cues, plans))

    def _cues(self, text: str, hits: list[Hit], categories: tuple[str, ...]) -> list[Hit]:
        """The answer cues of a text: listed words, and the verb forms no listed word covers. In a note, "did not
        spray" ("kottaledu", "veyaledu", కొట్టలేదు) said of the advice is a no."""
        found = [h for h in hits if h.category in categories] + verb_cues(text, hits) + [
            Hit("reaction", NOT_DONE, h.start, h.end) for h in hits
            if h.category == "no_spray" and "reaction" in categories]
        return sorted(found, key=lambda h: h.start)

    def _objection_alone(self, text: str, hits: list[Hit]) -> str | None:
        """The farmer's reason when the note names no product ("ippude mandu vaddu, aagudam annadu"); the
        officer's own "will see after a week" is not one."""
        cues = self._cues(text, hits, ("reaction", "objection"))
        plans = [(a, b) for a, b in _spans(text) if says_followup(text[a:b])]
        return next((h.key for h in farmer_cues(text, cues, plans) if h.category == "objection"), None)

    def _next_step(self, text: str) -> str | None:
        for sentence in _sentences(text):
            if any(h.category == "next" for h in self.terms.find(normalise(sentence))):
                return sentence[:200]
        return None

    def read_outcome(self, text: str, subject: Visit, officer_id: str, today: date) -> Outcome:
        """Return the outcome an answer to a follow-up describes, linked to the visit it follows."""
        norm = normalise(text)
        hits = self.terms.find(norm)
        result = result_of(norm, hits, subject.issue)
        product_hits = self._product_hits(norm, hits)
        named = list(dict.fromkeys(h.key for h in product_hits))
        # Verb forms count here too: "Spotcare veyyaledu", "వేసుకోలేదు", "never got Borex" were not applied.
        not_applied = refused(norm, product_hits, [h for h in hits if h.category in ("reaction", "no_spray",
                                                                                     "objection")]
                              + verb_cues(norm, hits))
        applied = [pid for pid in named if pid not in not_applied]
        source = product_source(norm) if not applied else "ours"
        if not named and source == "ours" and not any(h.category == "no_spray" for h in hits):
            applied = [a.product_id for a in subject.products if a.reaction in ("accepted", "postponed")]
        return Outcome(
            visit_id=subject.id, date=self._day(norm, hits, today), officer_id=officer_id,
            farmer_id=subject.farmer_id or "", village=subject.village or "", crop=subject.crop or "",
            issue=subject.issue, products=applied, result=result, note=_note(text), source=source,
        )


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def _spans(text: str) -> list[tuple[int, int]]:
    """Return each sentence's (start, end) in the text."""
    cuts = [0, *(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]
    return [(a, b) for a, b in pairwise(cuts) if b > a]


def _note(text: str) -> str | None:
    """Keep the officer's own words, in whatever script they were written."""
    cleaned = " ".join(text.split())
    return cleaned[:_MAX_NOTE] or None
