"""The tenant's words: the pack's built-in lexicon extended by its registers.

Crops and issues the registers name (with their Telugu names and aliases) are read by the reader and shown as
the register writes them; the built-in lexicon is only a default. A crop a farmer list names that nobody
defined is still a crop: its word is its name. Nothing here raises on a word it does not know.
"""

import re

from bot.services.i18n import catalogue
from handlers.agri.models import Crop, Issue
from handlers.agri.lexicon import Lexicon

_WORD = re.compile(r"[0-9a-z\u0c00-\u0c7f]+")
_TELUGU = re.compile(r"[\u0c00-\u0c7f]")


def fold_word(text: str) -> str:
    """A word for matching: case, spaces, hyphens and punctuation folded ("Red-Gram" -> "red gram")."""
    return " ".join(_WORD.findall(text.replace("\u200c", "").lower()))


def word_slug(text: str) -> str:
    """A key for a word nobody gave an id: "Bengal Gram" -> "bengal-gram" (Telugu letters kept)."""
    return "-".join(_WORD.findall(text.replace("\u200c", "").lower()))


_BRACKETED = re.compile(r"\s*\(([^)]*)\)\s*")
# A problem's generic last word ("tegulu", "disease"): "టిక్కా ఆకుమచ్చ తెగులు" is also said "టిక్కా ఆకుమచ్చ".
_GENERIC_TAIL = re.compile(r"\s+(?:తెగులు|పురుగు|tegulu|purugu|disease|pest)$")


def _said_forms(name: str) -> list[str]:
    """A register's name as officers say it: "Leaf curl (murda)" is "leaf curl" and "murda" too; a name with a
    generic last word is also said without it (when what is left is two words or a long one)."""
    forms = [name]
    inside = _BRACKETED.findall(name)
    outside = _BRACKETED.sub(" ", name).strip()
    forms += [outside, *(word.strip() for part in inside for word in part.split(","))] if inside else []
    for form in list(forms):
        short = _GENERIC_TAIL.sub("", form.strip())
        if short != form.strip() and (len(short.split()) > 1 or len(short) >= 6):
            forms.append(short)
    return [f for f in forms if f.strip()]


def _words_of(key: str, name: str, name_te: str, aliases: list[str]) -> list[str]:
    return list(dict.fromkeys(w for w in (*_said_forms(name), *_said_forms(name_te), *aliases, key.replace("-", " "))
                              if w.strip()))


def _extend(base: dict[str, list[str]], own: dict[str, list[str]]) -> dict[str, list[str]]:
    """The built-in groups plus the register's: a word the register gives one key leaves every other key."""
    taken = {fold_word(w): key for key, words in own.items() for w in words}
    merged = {key: [w for w in words if taken.get(fold_word(w), key) == key] for key, words in base.items()}
    for key, words in own.items():
        merged[key] = list(dict.fromkeys([*merged.get(key, []), *words]))
    return merged


def _with_builtin_words(own: dict[str, list[str]], base: dict[str, list[str]]) -> dict[str, list[str]]:
    """A register's group that shares a word with one built-in group under another key ("gulabi-purugu" named
    "pink bollworm") is that group: it takes the built-in words too ("గులాబీ పురుగు", "pbw"), when it is the only
    register group sharing a word with it."""
    folded = {key: {fold_word(w) for w in words} for key, words in own.items()}
    merged = {key: list(words) for key, words in own.items()}
    for key, words in base.items():
        if key in own:
            continue
        said = {fold_word(w) for w in words}
        sharing = [k for k, mine in folded.items() if mine & said]
        if len(sharing) == 1:
            merged[sharing[0]] = list(dict.fromkeys([*merged[sharing[0]], *words]))
    return merged


def tenant_lexicon(base: Lexicon, crops: list[Crop], issues: list[Issue]) -> Lexicon:
    """The built-in lexicon with the register's crops and issues (names in both scripts, aliases) added."""
    own_crops = {c.id: _words_of(c.id, c.name, c.name_te, c.aliases) for c in crops}
    own_issues = _with_builtin_words({i.id: _words_of(i.id, i.name, i.name_te, i.aliases) for i in issues},
                                     base.issues)
    return base.model_copy(update={"crops": _extend(base.crops, own_crops),
                                   "issues": _extend(base.issues, own_issues)})


def crop_key(word: str, lexicon: Lexicon) -> str | None:
    """The crop a word names (its key, a word of its group, either script), or None when no crop has it."""
    folded = fold_word(word)
    if not folded:
        return None
    # A word a group lists wins over a key spelt the same: a register that lists "redgram" under its own crop
    # takes it from the built-in crop keyed so.
    found = next((key for key, words in lexicon.crops.items() if any(folded == fold_word(w) for w in words)), None)
    return found or next((key for key in lexicon.crops if folded == fold_word(key)), None)


def named_crops(words: list[str], lexicon: Lexicon) -> list[Crop]:
    """Crops written in registers (farmers' crops, label doses, issues' crops) that no group knows yet:
    each becomes a crop of its own, named as written."""
    found: dict[str, Crop] = {}
    for word in words:
        if crop_key(word, lexicon) is None and word_slug(word) and word_slug(word) not in found:
            found[word_slug(word)] = Crop(id=word_slug(word), name=word.strip(),
                                          name_te=word.strip() if _TELUGU.search(word) else "")
    return list(found.values())


def crop_name(key: str, lang: str, crops: dict[str, Crop], lexicon: Lexicon) -> str:
    """A crop as shown: the register's name (its Telugu name in Telugu, when it has one), the catalogue's
    word for a built-in crop, a built-in Telugu word, or else the crop as written."""
    crop = crops.get(key)
    if crop is not None:
        return (crop.name_te or crop.name) if lang == "te" else crop.name
    message = f"agri.crop_{key}"
    if message in catalogue(lang):
        return catalogue(lang)[message]
    words = lexicon.crops.get(key, [])
    if lang == "te":
        telugu = next((w for w in words if _TELUGU.search(w)), None)
        if telugu:
            return telugu
    return next((w for w in words if not _TELUGU.search(w)), key.replace("-", " "))
