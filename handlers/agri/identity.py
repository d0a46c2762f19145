"""One identity per farmer: a name as officers say it, resolved to the register's farmer.

Officers name a farmer by first name only, surname first or last, with an honorific ("Anjaiah garu", "Lachya
anna", "రాములమ్మ గారు"), with the village first ("Nadigudem Anjaiah garu"), by initials ("V. Anjaiah"), in
either script and sometimes misspelt. Each word said is compared with the words of each registered name by
sound key (handlers.agri.translit), so "Anjaiah", "Anjayya" and "అంజయ్య" are one word; a farmer fits when every
word said is one of his name's words (in any order) and every initial is the first letter of another of them.
Exact fits win over near (misspelt) ones; a village said, the officer's villages and the crop named narrow
the fits. The caller decides: one fit is the farmer, several are asked about, none is a new farmer, shown with
the registered farmers whose names are close.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from handlers.agri.models import Farmer
from handlers.agri.register import FieldBook
from handlers.agri.translit import sound_key

HONORIFICS = frozenset({
    "garu", "gaaru", "gari", "gaari", "gariki", "garini", "garitho", "gaariki", "anna", "annayya", "anayya",
    "akka", "amma", "bava", "baava", "mama", "maama", "thatha", "tatha", "ayya", "sir", "ji", "saab", "saheb",
    "sri", "shri", "smt", "mr", "mrs", "srimathi", "shrimati", "farmer", "rythu", "raithu", "raitu", "ryot",
    "గారు", "గారి", "గారికి", "గారిని", "గారితో", "అన్న", "అన్నయ్య", "అక్క", "అమ్మ", "బావ", "మామ", "తాత",
    "అయ్య", "శ్రీ", "శ్రీమతి", "రైతు"})
"""Words said around a name that are not part of it."""
_CASE_ENDINGS = ("garu", "gaaru", "gari", "gaari", "gariki", "ki", "ku", "ni", "nu", "tho", "ke", "s")
_TE_CASE_ENDINGS = ("గారికి", "గారిని", "గారితో", "గారు", "గారి", "కి", "కు", "ని", "ను", "తో", "ది")
_WORD = re.compile(r"[A-Za-z\u0c00-\u0c7f\u200c\u200d]+\.?")
NEAR = 80.0
"""rapidfuzz ratio of two sound keys above which a word said is taken as a misspelling of a name's word."""
CLOSE = 70.0
"""Lower: a registered name this close to a new one is named beside it ("close to Vemula Anjaiah")."""
MIN_NEAR_CHARS = 4


def _key(word: str) -> str:
    return sound_key(word).replace(" ", "")


def _case_forms(word: str) -> list[str]:
    """The word and the word without a case ending ("Lachyaki" -> "Lachya", "రాములుకి" -> "రాములు")."""
    lowered = word.lower().rstrip(".")
    forms = [lowered]
    forms += [lowered[:-len(e)] for e in (*_CASE_ENDINGS, *_TE_CASE_ENDINGS)
              if lowered.endswith(e) and len(lowered) - len(e) >= 3]
    forms = [re.sub(r"['’]$", "", f) for f in forms]
    return list(dict.fromkeys(f for f in forms if f))


def word_fit(said: str, name_word: str) -> float:
    """How a said word fits a name's word: 2 for the same sound, 1 for a near spelling, 0 otherwise."""
    name_key = _key(name_word)
    if not name_key:
        return 0.0
    best = 0.0
    for form in _case_forms(said):
        key = _key(form)
        if not key:
            continue
        if key == name_key:
            return 2.0
        if min(len(key), len(name_key)) >= MIN_NEAR_CHARS and abs(len(key) - len(name_key)) <= 2 \
                and fuzz.ratio(key, name_key) >= NEAR:
            best = 1.0
    return best


def _is_initial(word: str) -> bool:
    bare = word.rstrip(".")
    if len(bare) == 1 and bare.isalpha():
        return True
    # A Telugu initial is one letter with its vowel sign ("వి.", "కె"), written with a dot.
    return word.endswith(".") and len(_key(bare)) <= 2 and not bare.isascii()


def _initial_fits(initial: str, name_word: str) -> bool:
    bare = initial.rstrip(".").lower()
    key, name_key = _key(bare), _key(name_word)
    return bool(name_key) and (name_word.lower()[:1] == bare[:1] or (bool(key) and key[:1] == name_key[:1]))


def _name_words(farmer: Farmer) -> list[list[str]]:
    """The farmer's name as words, once per script."""
    return [n.split() for n in (farmer.name, farmer.name_te) if n.strip()]


def fit(words: list[str], farmer: Farmer) -> float:
    """How well the said words (names and initials, nothing else) fit this farmer: 0 when one does not."""
    initials = [w for w in words if _is_initial(w)]
    named = [w for w in words if not _is_initial(w)]
    if not named:
        return 0.0
    best = 0.0
    for name in _name_words(farmer):
        free = list(range(len(name)))
        total = 0.0
        for said in named:
            scored = [(word_fit(said, name[i]), i) for i in free]
            score, index = max(scored, default=(0.0, -1))
            if score == 0.0:
                total = 0.0
                break
            free.remove(index)
            total += score
        if total == 0.0:
            continue
        for initial in initials:
            index = next((i for i in free if _initial_fits(initial, name[i])), None)
            if index is None:
                total = 0.0
                break
            free.remove(index)
            total += 0.5
        best = max(best, total)
    return best


@dataclass
class Resolution:
    """What a name resolved to: `farmers` are the fits (one: the farmer; several: ask which)."""

    farmers: list[Farmer] = field(default_factory=list)
    close: list[Farmer] = field(default_factory=list)
    """When nothing fits: registered farmers whose names are close, to name beside a new farmer."""

    @property
    def one(self) -> Farmer | None:
        return self.farmers[0] if len(self.farmers) == 1 else None


class FarmerIdentity:
    """Resolves names as officers say them against one book's farmers."""

    def __init__(self, book: FieldBook, is_other_term: Callable[[str], bool] | None = None) -> None:
        self.book = book
        self._other = is_other_term or (lambda _word: False)
        self._village_keys = {v.slug: {_key(n) for n in (v.name, v.name_te, v.slug) if _key(n)}
                              for v in book.villages.values()}
        self._by_word: dict[str, set[str]] = {}
        for farmer in book.farmers.values():
            for name in _name_words(farmer):
                for word in name:
                    self._by_word.setdefault(word, set()).add(farmer.id)
        self._seen: dict[str, set[str]] = {}

    def _farmers_of(self, word: str) -> set[str]:
        """Ids of the farmers one of whose name words this said word fits."""
        found = self._seen.get(word)
        if found is None:
            found = self._seen[word] = {i for name_word, ids in self._by_word.items()
                                        if word_fit(word, name_word) for i in ids}
        return found

    def _scored(self, words: list[str]) -> list[tuple[float, Farmer]]:
        named = [w for w in words if not _is_initial(w)]
        if not named:
            return []
        ids = set.intersection(*(self._farmers_of(w) for w in named))
        scored = [(fit(words, self.book.farmers[i]), self.book.farmers[i]) for i in sorted(ids)]
        return [(s, f) for s, f in scored if s > 0]

    def _village_of(self, word: str) -> str | None:
        keys = {_key(f) for f in _case_forms(word)}
        return next((slug for slug, known in self._village_keys.items() if keys & known), None)

    def name_words(self, said: str) -> tuple[list[str], set[str]]:
        """The words of a said name that may be the farmer's, and the villages said with it."""
        words, villages = [], set()
        for match in _WORD.finditer(said):
            word = match.group()
            folded = word.lower().rstrip(".")
            if folded in HONORIFICS:
                continue
            village = self._village_of(word) if not _is_initial(word) else None
            if village is not None:
                villages.add(village)
                continue
            words.append(word)
        return words, villages

    def resolve(self, said: str, territories: Iterable[str] | None = None, crops: Iterable[str] = ()) -> Resolution:
        """The farmers a said name (the whole text is the name) fits, narrowed as the module says."""
        words, villages = self.name_words(said)
        return self._narrowed(words, villages, territories, set(crops))

    def _narrowed(self, words: list[str], villages: set[str], territories: Iterable[str] | None,
                  crops: set[str]) -> Resolution:
        if not words:
            return Resolution()
        scored = self._scored(words)
        if not scored:
            return Resolution(close=self.close_to(words))
        top = max(s for s, _ in scored)
        fits = [f for s, f in scored if s == top]
        allowed = set(territories or ()) or set(self.book.villages)
        fits = [f for f in fits if f.village in allowed] or fits
        if villages:
            fits = [f for f in fits if f.village in villages] or fits
        if crops:
            fits = [f for f in fits if crops & set(f.crops)] or fits
        return Resolution(farmers=fits)

    def close_to(self, words: list[str]) -> list[Farmer]:
        """Registered farmers one of whose name words is close to a said word (for a new farmer's card)."""
        said = [_key(w) for w in words if not _is_initial(w) and len(_key(w)) >= 3]
        close = []
        for farmer in self.book.farmers.values():
            keys = [_key(w) for name in _name_words(farmer) for w in name]
            if any(fuzz.ratio(s, k) >= CLOSE for s in said for k in keys if k):
                close.append(farmer)
        return close[:3]

    def in_text(self, text: str, territories: Iterable[str] | None = None, crops: Iterable[str] = (),
                skip: Callable[[int, int], bool] | None = None) -> Resolution:
        """The farmers a free text (a note, a question) names: the longest run of adjacent words that fits a
        registered name, among words that name nothing else (a village, a crop, a product)."""
        tokens = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
        runs: list[list[str]] = []
        villages: set[str] = set()
        current: list[str] = []
        for word, start, end in tokens:
            folded = word.lower().rstrip(".")
            if folded in HONORIFICS:
                if current:
                    runs.append(current)
                current = []
                continue
            village = self._village_of(word) if not _is_initial(word) else None
            if village is not None:
                villages.add(village)
            named = not _is_initial(word) and bool(self._farmers_of(word))
            usable = (skip is None or not skip(start, end)) and village is None and \
                (_is_initial(word) or (named and not self._other(word)))
            if usable:
                current.append(word)
            else:
                if current:
                    runs.append(current)
                current = []
        if current:
            runs.append(current)
        best: tuple[float, list[Farmer]] = (0.0, [])
        for run in runs:
            for size in range(len(run), 0, -1):
                for i in range(len(run) - size + 1):
                    part = run[i:i + size]
                    scored = self._scored(part)
                    top = max((s for s, _ in scored), default=0.0)
                    if top > best[0]:
                        best = (top, [f for s, f in scored if s == top])
                    elif top and top == best[0]:
                        best = (top, [*best[1], *(f for s, f in scored if s == top and f not in best[1])])
        if not best[1]:
            return Resolution()
        fits = best[1]
        allowed = set(territories or ()) or set(self.book.villages)
        fits = [f for f in fits if f.village in allowed] or fits
        if villages:
            fits = [f for f in fits if f.village in villages] or fits
        crop_set = set(crops)
        if crop_set:
            fits = [f for f in fits if crop_set & set(f.crops)] or fits
        return Resolution(farmers=fits)
