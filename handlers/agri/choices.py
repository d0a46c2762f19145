"""A value of a closed scale (severity, objection, reaction) as people type it into a field or a sheet's column:
the reader's words for it, else the scale's own names and the labels the cards show for them in any language
("high", "ఎక్కువ", "price", "ధర ఎక్కువ"). The scale's names count only where a field asks for that scale: in a
note, "high" or "price" alone may be about anything."""

import re

from bot.services.i18n import LANGUAGES, catalogue, text
from handlers.agri.extract import FieldReader
from handlers.agri.textmatch import normalise


def _words(norm: str) -> list[str]:
    return re.findall(r"[0-9a-z\u0c00-\u0c7f]+", norm.lower())


def choice_in(reader: FieldReader, written: str, category: str, choices: tuple[str, ...]) -> str | None:
    """The choice of `choices` a field's value names, or None. The reader's own words first (the last one said
    wins: "mild at first, now severe"), then a choice's name or its label, longest first."""
    norm = normalise(written)
    said = [h.key for h in reader.terms.find(norm) if h.category == category and h.key in choices]
    if said:
        return said[-1]
    padded = f" {' '.join(_words(norm))} "
    named = [(len(label), choice) for choice in choices for label in _labels(category, choice)
             if f" {label} " in padded]
    return max(named)[1] if named else None


def _labels(category: str, choice: str) -> list[str]:
    labels = {" ".join(_words(choice))}
    for lang in LANGUAGES:
        shown = catalogue(lang).get(f"agri.{category}_{choice}")
        if shown:
            labels.add(" ".join(_words(normalise(shown))))
    return [label for label in labels if label]


def choices_shown(lang: str, category: str, choices: tuple[str, ...]) -> str:
    """The choices as the user's language names them, to say what a field accepts: "low, medium, high"."""
    return ", ".join(text(lang, f"agri.{category}_{choice}") for choice in choices)
