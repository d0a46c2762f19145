"""A farmer a visit note names who is not in the register, proposed on the card with the visit.

A note names a person the way people speak of one: with an honorific after the name ("Ramulu garu",
"రాములు గారి పొలం"), a title before it ("farmer Y", "rythu Y", "Sri Y"), as the owner of a field ("Y's plot",
"Y polam", "Y పొలంలో"), as "Y of Z village", or after "visited"/"met". Words the registers, the catalogue or
the lexicon know (villages, crops, products, problems), function words, place-like words ("-pally", "-pet")
and the officer's own name are never a farmer's name. Nothing here writes anything: the card shows the proposal
and only Save adds the farmer.
"""

import re
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from pydantic import BaseModel

from handlers.agri.extract import FieldReader
from handlers.agri.models import Visit
from handlers.agri.textmatch import normalise
from handlers.agri.translit import is_telugu, latin_to_telugu, sound_key, to_latin_name

_TOKEN = re.compile(r"[A-Za-z][A-Za-z.]*(?:['’]s)?|[\u0c00-\u0c7f\u200c]+|\d+|[^\sA-Za-z\d\u0c00-\u0c7f]")
_HONORIFIC_AFTER = {"garu", "gaaru", "gari", "gaari", "gariki", "garini", "garitho", "anna", "annayya", "akka",
                    "bava", "mama", "sir", "ji", "saab", "saheb", "గారు", "గారి", "గారికి", "గారిని", "గారితో",
                    "గారింట్లో", "గారిది", "అన్న", "అన్నయ్య", "అక్క", "బావ", "మామ"}
_FIELD_AFTER = {"polam", "polamlo", "polamu", "polaniki", "chenu", "chenulo", "thota", "thotalo", "tota",
                "పొలం", "పొలంలో", "పొలాన్ని", "పొలానికి", "పొలము", "చేను", "చేనులో", "తోట", "తోటలో"}
_FIELD_OWNED = {"field", "fields", "farm", "plot", "land", "crop", "acre", "acres", "garden", "orchard"}
_TITLE_BEFORE = {"farmer", "rythu", "raithu", "raitu", "ryot", "grower", "kisan", "mr", "mr.", "sri", "sri.",
                 "shri", "shri.", "smt", "smt.", "srimathi", "shrimati", "రైతు", "శ్రీ", "శ్రీమతి"}
_NAMED = {"named", "called", "by", "name", "namely", "పేరు"}
_ANE = {"ane", "anu", "అనే"}
_VISIT_BEFORE = {"visited", "met", "meet", "meeting", "visit", "visiting", "spoke", "talked", "called"}
_JOIN = {"to", "with", "on"}
_OF_FROM = {"of", "from"}
# What a person does in a note ("Ganta Srinu called me", "Y asked for ..."): its subject is a person.
_PERSON_VERBS = {"called", "asked", "said", "told", "wants", "wanted", "complained", "agreed", "refused",
                 "bought", "purchased", "showed", "requested", "phoned", "enquired", "inquired"}
_VILLAGE_WORDS = {"village", "gramam", "gramamlo", "gaon", "ooru", "oorlo", "గ్రామం", "గ్రామంలో", "ఊరు", "ఊర్లో",
                  "ఊరిలో"}
_STOP = {
    "i", "we", "me", "my", "our", "he", "she", "his", "her", "him", "they", "their", "them", "the", "a", "an",
    "and", "or", "but", "with", "to", "at", "in", "on", "of", "from", "for", "by", "is", "was", "were", "are",
    "has", "had", "have", "this", "that", "these", "there", "here", "today", "yesterday", "morning", "evening",
    "visited", "met", "saw", "went", "said", "told", "says", "asked", "advised", "recommended", "suggested",
    "sprayed", "applied", "gave", "checked", "found", "new", "old", "young", "small", "big", "good", "bad",
    "farmer", "farmers", "field", "farm", "plot", "crop", "village", "visit", "note", "sir", "madam",
    "mr", "sri", "smt", "rythu", "raithu", "garu", "gari", "polam", "chenu", "kharif", "rabi", "season",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "next", "last", "week",
    "also", "again", "very", "not", "no", "yes", "ok", "okay", "mandal", "district", "near", "beside",
    "eeroju", "ninna", "ivala", "nenu", "memu", "maa", "mana", "aa", "ee", "oka", "kotha", "ఈ", "ఆ",
    "ఈరోజు", "ఇవాళ", "నిన్న", "నేను", "మేము", "మా", "మన", "ఒక", "కొత్త", "రైతు", "గ్రామం", "పొలం",
    "మండలం", "వెళ్ళాను", "వెళ్లాను", "చూశాను", "కలిశాను", "అనే", "గారు", "గారి", "తో", "లో",
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "acre", "acres", "percent", "kg", "ml", "litre", "liter", "gram", "grams"}
# How Telangana places end (Kothapally, Narayanpet, Ibrahimguda, Ramapuram, Nizamabad): not a person's name.
_PLACE_ENDINGS = ("pally", "palli", "palle", "pet", "peta", "pettai", "guda", "gudem", "puram", "pur", "abad",
                  "nagar", "wada", "wadi", "konda", "cheruvu", "thanda", "tanda", "kunta", "gunta", "valasa",
                  "పల్లి", "పల్లె", "పేట", "పేట్", "గూడ", "గూడెం", "పురం", "పూర్", "బాద్", "నగర్", "వాడ",
                  "కొండ", "చెరువు", "తండా", "కుంట")
_MAX_NAME_WORDS = 3


class NewFarmer(BaseModel):
    """A farmer proposed on the visit card, added to the register only on Save."""

    name: str
    """As the note (or the officer's edit) wrote it, in its own script."""
    other_script: str
    """The same name spelt in the other script, so it is found written either way."""
    village: str | None = None
    """A village of the register (its slug)."""
    village_written: str | None = None
    """A village the note names that the register does not know: shown, and Save is refused until edited."""
    close_to: list[str] = []
    """Registered farmers (ids) whose names are close to this one: named on the card, so a misspelling of a
    registered farmer is caught before Save adds a second one."""


@dataclass(frozen=True)
class _Token:
    text: str
    start: int

    @property
    def bare(self) -> str:
        return re.sub(r"['’]s$", "", self.text).rstrip(".")

    @property
    def folded(self) -> str:
        return self.bare.lower().replace("\u200c", "")

    @property
    def possessive(self) -> bool:
        return bool(re.search(r"['’]s$", self.text))


@dataclass(frozen=True)
class _Candidate:
    words: tuple[_Token, ...]
    strength: int


def other_script_of(name: str) -> str:
    return to_latin_name(name) if is_telugu(name) else latin_to_telugu(name)


_Sounds = tuple[frozenset[str], frozenset[str], frozenset[str]]
# Sound keys of every registered name, per reader: a reader lives as long as its tenant's registers, and
# computing them for each note cost more than reading the note.
_SOUNDS: "WeakKeyDictionary[FieldReader, _Sounds]" = WeakKeyDictionary()


def _register_sounds(reader: FieldReader) -> _Sounds:
    """The sound keys of the register's full and first names, and the neighbour words, of a reader's book."""
    found = _SOUNDS.get(reader)
    if found is None:
        book = reader.book
        found = (frozenset(sound_key(n) for f in book.farmers.values() for n in (f.name, f.name_te)),
                 frozenset(sound_key(n.split()[0]) for f in book.farmers.values() for n in (f.name, f.name_te) if n),
                 frozenset(normalise(w) for w in book.lexicon.neighbour))
        _SOUNDS[reader] = found
    return found


class FarmerSpotter:
    """Finds the person a note names as the visit's farmer when the register does not know them."""

    def __init__(self, reader: FieldReader) -> None:
        self.reader = reader
        self._known, self._first, self._neighbour = _register_sounds(reader)

    def _known_term(self, word: str) -> bool:
        hits = self.reader.terms.find(normalise(word))
        return any(not h.category.startswith("farmer") for h in hits)

    def _name_word(self, token: _Token, lowercase_ok: bool, place_ok: bool = False) -> bool:
        word = token.folded
        if len(word) < 2 or not re.search(r"[a-z\u0c00-\u0c7f]", word) or word in _STOP:
            return False
        if word in _HONORIFIC_AFTER | _FIELD_AFTER | _TITLE_BEFORE | _VILLAGE_WORDS | _ANE:
            return False
        # Surnames are often village names (Kothapalli Yadaiah): a place-like word is a name only beside one.
        if (word.endswith(_PLACE_ENDINGS) and not place_ok) or self._known_term(token.bare):
            return False
        return is_telugu(word) or token.bare[:1].isupper() or lowercase_ok

    def _run_before(self, tokens: list[_Token], end: int, lowercase: int) -> tuple[_Token, ...]:
        """The name words just before tokens[end]: up to three capitalised (or Telugu) words, or up to
        `lowercase` words where the note is written in lowercase."""
        words: list[_Token] = []
        i, lower = end - 1, 0
        while i >= 0 and len(words) < _MAX_NAME_WORDS and self._name_word(tokens[i], lowercase > 0, bool(words)):
            if words and tokens[i].possessive:
                break  # "Ravi's brother Somu garu": the owner is another person
            latin_lower = not is_telugu(tokens[i].text) and not tokens[i].bare[:1].isupper()
            if latin_lower and (lower >= lowercase or (words and not words[0].bare[:1].islower())):
                break
            words.insert(0, tokens[i])
            lower += int(latin_lower)
            i -= 1
        return tuple(words)

    def _run_after(self, tokens: list[_Token], start: int, lowercase: int) -> tuple[_Token, ...]:
        words: list[_Token] = []
        i, lower = start, 0
        while i < len(tokens) and tokens[i].folded in _NAMED:
            i += 1
        while i < len(tokens) and len(words) < _MAX_NAME_WORDS and self._name_word(tokens[i], lowercase > 0, True):
            latin_lower = not is_telugu(tokens[i].text) and not tokens[i].bare[:1].isupper()
            if latin_lower and (lower >= lowercase or (words and words[0].bare[:1].isupper())):
                break
            words.append(tokens[i])
            lower += int(latin_lower)
            if tokens[i].possessive:
                break
            i += 1
        while words and words[-1].folded.endswith(_PLACE_ENDINGS):
            words.pop()
        return tuple(words)

    def _candidates(self, text: str) -> list[_Candidate]:
        tokens = [_Token(m.group(), m.start()) for m in _TOKEN.finditer(text)]
        lowered = text == text.lower()
        found: list[_Candidate] = []
        for i, token in enumerate(tokens):
            word = token.folded
            if word in _HONORIFIC_AFTER or word in _ANE:
                found.append(_Candidate(self._run_before(tokens, i, 2), 3))
            elif word in _FIELD_AFTER:
                found.append(_Candidate(self._run_before(tokens, i, 2), 2))
            elif word in _TITLE_BEFORE:
                found.append(_Candidate(self._run_after(tokens, i + 1, 2), 3))
            elif word in _VISIT_BEFORE:
                j = i + 1 + int(i + 1 < len(tokens) and tokens[i + 1].folded in _JOIN)
                found.append(_Candidate(self._run_after(tokens, j, 1 if lowered else 0), 1))
            elif word in _OF_FROM and i + 1 < len(tokens) and self._village_after(tokens, i + 1):
                found.append(_Candidate(self._run_before(tokens, i, 1 if lowered else 0), 2))
            if word in _OF_FROM | _PERSON_VERBS and i + 1 < len(tokens) and not lowered:
                # "Muthyam Reddy from Maripeda", "Ganta Srinu called me": a capitalised name as the subject.
                found.append(_Candidate(self._run_before(tokens, i, 0), 1))
            if token.possessive and i + 1 < len(tokens) and self._owned(tokens[i + 1]):
                found.append(_Candidate(self._run_before(tokens, i + 1, 2 if lowered else 0), 2))
        return [c for c in found if c.words and not self._beside_neighbour(text, c)]

    def _owned(self, token: _Token) -> bool:
        """A field word or a crop after a possessive name: "Y's plot", "Y's chilli"."""
        return token.folded in _FIELD_OWNED or any(h.category == "crop" for h in
                                                  self.reader.terms.find(normalise(token.bare)))

    def _village_after(self, tokens: list[_Token], i: int) -> bool:
        following = tokens[i + 1].folded if i + 1 < len(tokens) else ""
        return following in _VILLAGE_WORDS or self.reader.village_in(tokens[i].bare) is not None

    def _beside_neighbour(self, text: str, candidate: _Candidate) -> bool:
        before = normalise(text[max(0, candidate.words[0].start - 24):candidate.words[0].start])
        return before.endswith(tuple(self._neighbour))

    def spot(self, text: str, officer_name: str = "") -> str | None:
        """Return the name (as written) of the person the note visits who is not in the register, or None."""
        officer = {sound_key(officer_name), *(sound_key(w) for w in officer_name.split())} - {""}
        ranked = sorted(self._candidates(text), key=lambda c: (-c.strength, c.words[0].start))
        for candidate in ranked:
            name = " ".join(w.bare for w in candidate.words)
            key = sound_key(name)
            if not key or key in officer:
                continue
            if key in self._known or (len(candidate.words) == 1 and key in self._first):
                return None  # a farmer of the register: the reader names them, or refuses them
            if self.reader.identity.resolve(name).farmers:
                return None  # a registered farmer as officers name them ("Anjaiah garu" for Vemula Anjaiah)
            if name.islower():
                name = " ".join(w[:1].upper() + w[1:] for w in name.split())
            return name
        return None


def written_village(reader: FieldReader, text: str, name: str) -> str | None:
    """A village the note names that the register does not know ("of Kothapally village", "Z గ్రామం")."""
    tokens = [_Token(m.group(), m.start()) for m in _TOKEN.finditer(text)]
    said = {w.lower() for w in name.split()}
    for i, token in enumerate(tokens):
        word = token.folded
        place = None
        if word in _VILLAGE_WORDS and i and re.search(r"[A-Za-z\u0c00-\u0c7f]", tokens[i - 1].text):
            place = tokens[i - 1]
        elif word in _VILLAGE_WORDS and i + 1 < len(tokens):
            j = i + 1 + int(tokens[i + 1].text in (":", "-") and i + 2 < len(tokens))
            place = tokens[j] if tokens[j].bare[:1].isupper() or is_telugu(tokens[j].text) else None
        elif word in _OF_FROM | {"in", "at"} and i + 1 < len(tokens) and tokens[i + 1].bare[:1].isupper():
            following = tokens[i + 2].folded if i + 2 < len(tokens) else ""
            place = tokens[i + 1] if (following in _VILLAGE_WORDS or word in _OF_FROM
                                      or tokens[i + 1].folded.endswith(_PLACE_ENDINGS)) else None
        if place is None or place.folded in said or place.folded in _STOP or len(place.folded) < 3:
            continue
        if not re.search(r"[a-z\u0c00-\u0c7f]", place.folded) or reader.terms.find(normalise(place.bare)):
            continue
        return place.bare
    return None


def propose_farmer(reader: FieldReader, text: str, village: str | None, territories: list[str],
                   officer_name: str = "") -> NewFarmer | None:
    """The new farmer a note names, with the village the note gives (or the officer's only one), or None."""
    name = FarmerSpotter(reader).spot(text, officer_name)
    if name is None:
        return None
    unknown = None if village else written_village(reader, text, name)
    if village is None and unknown is None and len(territories) == 1:
        village = territories[0]
    close = [f.id for f in reader.identity.close_to(reader.identity.name_words(name)[0])]
    return NewFarmer(name=name, other_script=other_script_of(name), village=village, village_written=unknown,
                     close_to=close)


def new_farmer_in(reader: FieldReader, note: str, visit: Visit, territories: list[str],
                  officer_name: str = "") -> NewFarmer | None:
    """The farmer a note visits who is not in the register, or None when the note names a registered farmer
    by the name it gives (a first name alone is theirs: "Ramesh garu"); a fuller name that is not the
    matched farmer's ("Ramesh Naik garu" when the register has Ramesh Goud) is someone new."""
    known = reader.book.farmers.get(visit.farmer_id or "")
    new = propose_farmer(reader, note, visit.village, territories, officer_name)
    if new is None or known is None:
        return new
    said = normalise(note)
    return None if any(normalise(n) in said for n in (known.name, known.name_te)) else new
