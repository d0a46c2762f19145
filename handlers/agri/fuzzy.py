"""Near matches for names a speech model mishears: "litox 50" for Blitox 50, "Ramesh Gowd" for Ramesh Goud.

A name is also found written in the other script ("రాములు" for Ramulu) or spelt another way, by comparing sound
keys (handlers.agri.translit). Only names (products, farmers' full names) are matched this way, only where no exact term was found, and the
card still shows what was matched for the officer to confirm. Short words are left alone: one letter changes
too much of them.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from handlers.agri.translit import sound_key

FUZZY_CATEGORIES = frozenset({"product", "farmer", "issue"})
MIN_SCORE = 85.0
"""rapidfuzz ratio (0-100): one dropped or added letter in a 6-letter name passes, a changed one does not."""
MIN_CHARS = 5

_WORD = re.compile("[a-z0-9\u0c00-\u0c7f]+")
# Spellings of one sound in Latin-letter Telugu and English: Bavisteen/Bavistin, Takumy/Takumi, Kavatch/Kavach,
# Acttara/Actara. Both sides are folded before they are compared.
_SOUNDS = [("tch", "ch"), ("ph", "f"), ("ck", "k"), ("q", "k"), ("ee", "i"), ("oo", "u"), ("y", "i"), ("w", "v"),
           ("th", "t"), ("dh", "d"), ("kh", "k"), ("bh", "b"), ("gh", "g"), ("sh", "s")]
_DOUBLED = re.compile(r"([a-z])\1+")
_VOWELS = set("aeiou")


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Return a Latin spelling with sound-alike letter groups made one and doubled letters single."""
    for said, sound in _SOUNDS:
        text = text.replace(said, sound)
    return _DOUBLED.sub(r"\1", text)


def _one_inner_vowel(said: str, term: str) -> bool:
    """Oberan for Oberon: one vowel inside a long name heard as another (not the last letter: native/nativo)."""
    if len(said) != len(term) or len(term) < 6:
        return False
    diff = [i for i, (a, b) in enumerate(zip(said, term, strict=True)) if a != b]
    return len(diff) == 1 and 0 < diff[0] < len(term) - 1 and {said[diff[0]], term[diff[0]]} <= _VOWELS


_SKELETON = [("c", "k"), ("q", "k"), ("z", "s"), ("w", "v"), ("m", "n"), ("h", "")]
MIN_SKELETON = 4


@lru_cache(maxsize=1 << 16)
def skeleton(word: str) -> str:
    """A word as heard: its consonants in order, sound-alikes made one (c/k, m/n at a word's end or before a
    consonant alike), vowels dropped after the first letter: Praclaine and Proclaim are both "prkln"."""
    folded = fold(word)
    out = folded[:1] + "".join(c for c in folded[1:] if c not in "aeiouy")
    for said, sound in _SKELETON:
        out = out[:1] + out[1:].replace(said, sound)
    return _DOUBLED.sub(r"\1", out)


def same_sound(said: str, term: str) -> bool:
    """Return True when two spellings sound alike by their consonants (each word; both long enough)."""
    said_words, term_words = said.split(), term.split()
    if len(said_words) != len(term_words):
        return False
    keys = [(skeleton(a), skeleton(b)) for a, b in zip(said_words, term_words, strict=True)]
    return all(a == b for a, b in keys) and sum(len(b) for _, b in keys) >= MIN_SKELETON


SOUND_CATEGORIES = frozenset({"product", "issue"})
"""Matched by consonants too: a catalogue's brand names and problems. Not people: Narsamma is not Narsimha."""


def closeness(said: str, term: str, by_sound: bool = False) -> float:
    """Return how near a said run of words is to a name (0-100), spelling variants and one inner vowel forgiven,
    and, `by_sound`, a name that sounds the same by its consonants ("Praclaine" for Proclaim)."""
    score = max(fuzz.ratio(said, term), fuzz.ratio(fold(said), fold(term)))
    if _one_inner_vowel(fold(said), fold(term)) or (by_sound and same_sound(said, term)):
        return max(score, MIN_SCORE)
    return score


@dataclass(frozen=True)
class NearTerm:
    category: str
    key: str
    text: str
    """Normalised: lowercase words joined by single spaces."""
    sound: str = ""
    """The name's sound key, the same in either script."""

    @property
    def words(self) -> int:
        return len(self.text.split())


@dataclass(frozen=True)
class NearHit:
    category: str
    key: str
    start: int
    end: int
    score: float


def near_hits(text: str, terms: list[NearTerm], taken: list[tuple[int, int]]) -> list[NearHit]:
    """Return the best near match for each run of words in `text` (normalised) that no exact hit covers."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    best: dict[tuple[int, int], NearHit] = {}
    keys: dict[str, str] = {}
    # Every term of n words looks at the same runs of n words: each run's text (None where an exact hit covers
    # it) is worked out once, not once per term.
    runs: dict[int, list[str | None]] = {}
    for term in terms:
        if len(term.text.replace(" ", "")) < MIN_CHARS:
            continue
        n = term.words
        if n not in runs:
            runs[n] = [None if any(words[i][0] < t_end and words[i + n - 1][1] > t_start for t_start, t_end in taken)
                       else " ".join(text[s:e] for s, e in words[i:i + n]) for i in range(len(words) - n + 1)]
        for i, said in enumerate(runs[n]):
            if said is None:
                continue
            start, end = words[i][0], words[i + n - 1][1]
            by_sound = term.category in SOUND_CATEGORIES
            score = closeness(said, term.text, by_sound) if abs(len(said) - len(term.text)) <= 2 else 0.0
            if term.sound and score < MIN_SCORE:
                said_key = keys.get(said)
                if said_key is None:
                    said_key = keys[said] = sound_key(said)
                if abs(len(said_key) - len(term.sound)) <= 2:
                    score = max(score, fuzz.ratio(said_key, term.sound))
                if score < MIN_SCORE and by_sound and same_sound(said_key, term.sound):
                    score = MIN_SCORE
            if score >= MIN_SCORE and score > best.get((start, end), NearHit("", "", 0, 0, 0.0)).score:
                best[(start, end)] = NearHit(term.category, term.key, start, end, score)
    return sorted(best.values(), key=lambda h: (-h.score, h.start))
