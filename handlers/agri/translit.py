"""Names across scripts: Telugu letters to Latin and back, and a sound key that is the same for a name
written either way ("రాములు", "Ramulu", "Raamulu").

Spelling a name in the other script is lossy (Telugu has long vowels and two t's; English spelling has
neither), so the register keeps the name as written and a spelling in the other script, and matching
compares sound keys, which fold away what the two spellings disagree on.
"""

import re

_VIRAMA = "\u0c4d"
# As names are usually spelt in English: long a and e, o as short ones; long i and u as ee and oo.
_VOWELS = {"అ": "a", "ఆ": "a", "ఇ": "i", "ఈ": "ee", "ఉ": "u", "ఊ": "oo", "ఋ": "ri", "ఎ": "e", "ఏ": "e",
           "ఐ": "ai", "ఒ": "o", "ఓ": "o", "ఔ": "ou"}
_SIGNS = {"ా": "a", "ి": "i", "ీ": "ee", "ు": "u", "ూ": "oo", "ృ": "ri", "ె": "e", "ే": "e", "ై": "ai",
          "ొ": "o", "ో": "o", "ౌ": "ou"}
_CONSONANTS = {"క": "k", "ఖ": "kh", "గ": "g", "ఘ": "gh", "ఙ": "n", "చ": "ch", "ఛ": "chh", "జ": "j", "ఝ": "jh",
               "ఞ": "n", "ట": "t", "ఠ": "th", "డ": "d", "ఢ": "dh", "ణ": "n", "త": "t", "థ": "th", "ద": "d",
               "ధ": "dh", "న": "n", "ప": "p", "ఫ": "ph", "బ": "b", "భ": "bh", "మ": "m", "య": "y", "ర": "r",
               "ఱ": "r", "ల": "l", "ళ": "l", "వ": "v", "శ": "sh", "ష": "sh", "స": "s", "హ": "h"}
_ANUSVARA, _VISARGA, _CANDRABINDU = "ం", "ః", "ఁ"

# Latin -> Telugu: longest spellings first.
_L_CONSONANTS = [("chh", "ఛ"), ("sh", "ష"), ("ch", "చ"), ("th", "త"), ("dh", "ధ"), ("bh", "భ"), ("kh", "ఖ"),
                 ("gh", "ఘ"), ("ph", "ఫ"), ("jh", "ఝ"), ("k", "క"), ("g", "గ"), ("c", "క"), ("j", "జ"),
                 ("t", "ట"), ("d", "ద"), ("n", "న"), ("p", "ప"), ("b", "బ"), ("m", "మ"), ("y", "య"),
                 ("r", "ర"), ("l", "ల"), ("v", "వ"), ("w", "వ"), ("s", "స"), ("h", "హ"), ("z", "జ"),
                 ("f", "ఫ"), ("q", "క"), ("x", "క్స")]
_L_VOWELS = [("aa", "ఆ", "ా"), ("ai", "ఐ", "ై"), ("au", "ఔ", "ౌ"), ("ou", "ఔ", "ౌ"), ("ow", "ఔ", "ౌ"), ("ee", "ఈ", "ీ"), ("ii", "ఈ", "ీ"),
             ("oo", "ఊ", "ూ"), ("uu", "ఊ", "ూ"), ("a", "అ", ""), ("i", "ఇ", "ి"), ("u", "ఉ", "ు"),
             ("e", "ఏ", "ే"), ("o", "ఓ", "ో")]
_NASAL_BEFORE = "kgcjtdpbs"
# "-aiah" is how English spells the Telugu ending -ayya (Anjaiah, అంజయ్య).
_ENDINGS = [(re.compile(r"aiah\b"), "ayya"), (re.compile(r"iah\b"), "iyya")]
_TELUGU = re.compile("[\u0c00-\u0c7f]")


def is_telugu(text: str) -> bool:
    return bool(_TELUGU.search(text))


def telugu_to_latin(text: str) -> str:
    """Spell Telugu letters in Latin ("రాములు" -> "raamulu"); other characters pass through."""
    out: list[str] = []
    chars = text.replace("\u200c", "").replace("\u200d", "")
    for i, char in enumerate(chars):
        following = chars[i + 1] if i + 1 < len(chars) else ""
        if char in _CONSONANTS:
            out.append(_CONSONANTS[char])
            if following not in _SIGNS and following != _VIRAMA:
                out.append("a")
        elif char in _SIGNS:
            out.append(_SIGNS[char])
        elif char in _VOWELS:
            out.append(_VOWELS[char])
        elif char == _ANUSVARA:
            nxt = _CONSONANTS.get(following, "")
            out.append("m" if nxt[:1] in ("p", "b", "m") or not nxt else "n")
        elif char in (_VISARGA,):
            out.append("h")
        elif char == _CANDRABINDU:
            out.append("n")
        elif char != _VIRAMA:
            out.append(char)
    return "".join(out)


def _latin_word(word: str) -> str:
    lowered = word.lower()
    for pattern, ending in _ENDINGS:
        lowered = pattern.sub(ending, lowered)
    # A final y after a consonant is the vowel i (Reddy, రెడ్డి); dd and tt are the retroflex pair.
    lowered = re.sub(r"(?<=[^aeiou])y$", "i", lowered).replace("dd", "\1").replace("tt", "\2")
    out: list[str] = []
    i, after_consonant = 0, False
    while i < len(lowered):
        if lowered[i] in "\1\2":
            if after_consonant:
                out.append(_VIRAMA)
            out.append("డ్డ" if lowered[i] == "\1" else "ట్ట")
            i += 1
            after_consonant = True
            continue
        vowel = next((v for v in _L_VOWELS if lowered.startswith(v[0], i)), None)
        if vowel is not None:
            out.append(vowel[2] if after_consonant else vowel[1])
            i += len(vowel[0])
            after_consonant = False
            continue
        consonant = next((c for c in _L_CONSONANTS if lowered.startswith(c[0], i)), None)
        if consonant is None:
            if after_consonant:
                out.append(_VIRAMA)
            out.append(lowered[i])
            i += 1
            after_consonant = False
            continue
        spelled, length = consonant[1], len(consonant[0])
        rest = lowered[i + length:]
        if consonant[0] in ("n", "m") and rest[:1] and rest[0] in _NASAL_BEFORE and not after_consonant:
            # "Narender" -> నరేందర్: a nasal before a consonant is written as the anusvara.
            out.append(_ANUSVARA)
            i += length
            continue
        if after_consonant:
            out.append(_VIRAMA)
        out.append(spelled)
        i += length
        after_consonant = True
    if after_consonant:
        out.append(_VIRAMA)
    return "".join(out)


def latin_to_telugu(text: str) -> str:
    """Spell a Latin-written name in Telugu letters ("Ramesh" -> "రమేష్"); a spelling, not the only one."""
    return " ".join(_latin_word(w) if w.isascii() else w for w in text.split())


def to_latin_name(text: str) -> str:
    """A Telugu-written name in Latin, capitalised as a name is ("రాములు" -> "Raamulu")."""
    latin = telugu_to_latin(text) if is_telugu(text) else text
    return " ".join(w[:1].upper() + w[1:] for w in latin.split())


_FOLDS = [("chh", "\0"), ("ch", "\0"), ("ck", "k"), ("c", "k"), ("\0", "c"), ("aa", "a"), ("ee", "i"),
          ("ii", "i"), ("oo", "u"), ("uu", "u"), ("au", "u"), ("ou", "u"), ("ow", "u"), ("sh", "s"), ("ph", "p"), ("f", "p"), ("kh", "k"), ("gh", "g"),
          ("th", "t"), ("dh", "d"), ("bh", "b"), ("jh", "j"), ("w", "v"), ("z", "j"), ("q", "k"), ("x", "ks")]


def sound_key(text: str) -> str:
    """A key equal for one name in either script and in the usual spellings of it; "" for no letters."""
    latin = telugu_to_latin(text.lower()) if is_telugu(text) else text.lower()
    words = []
    for word in re.findall(r"[a-z]+", latin):
        for pattern, ending in _ENDINGS:
            word = pattern.sub(ending, word)
        for said, folded in _FOLDS:
            word = word.replace(said, folded)
        word = re.sub(r"(?<=[^aeiou])y$", "i", word)
        word = re.sub(r"(.)\1+", r"\1", word)
        word = re.sub(r"m(?=[^aeiou])", "n", word)
        words.append(word)
    return " ".join(words)
