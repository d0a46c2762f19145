"""Which column of a visit log a header is, as offices write headers: the names VISIT_LOG_COLUMNS lists (case,
punctuation and short forms folded), else a header made of one column's word and words that only qualify it
("Product Given", "Products Recommended", "Follow up", "Farmer's Reaction", "Crop Result", "మందు ఇచ్చినది").
A header naming something else as well ("Crop Stage", "Area (acres)") is no column: the import lists it as
not used rather than reading it into the wrong field."""

from functools import cache

from bot.services.registers.table import header_key
from handlers.agri.registers import VISIT_LOG_COLUMNS

# The word that says which column a header is, by field; earlier fields win when a header has two
# ("Farmer Reaction" is the reaction, "Next Visit Date" the next step, "Crop Result" the outcome).
_CUES: tuple[tuple[str, frozenset[str]], ...] = (
    ("next_step", frozenset({"next", "follow", "followup", "తదుపరి"})),
    ("outcome", frozenset({"outcome", "outcomes", "result", "results", "effect", "ఫలితం", "ఫలితాలు"})),
    ("objection", frozenset({"objection", "objections", "concern", "concerns", "అభ్యంతరం", "అభ్యంతరాలు"})),
    ("reaction", frozenset({"reaction", "reactions", "response", "responses", "feedback", "స్పందన"})),
    ("dose", frozenset({"dose", "doses", "dosage", "dosages", "మోతాదు"})),
    ("products", frozenset({"product", "products", "input", "inputs", "medicine", "medicines", "chemical",
                            "chemicals", "recommendation", "recommendations", "మందు", "మందులు", "ఉత్పత్తి"})),
    ("problem", frozenset({"problem", "problems", "pest", "pests", "disease", "diseases", "issue", "issues",
                           "సమస్య", "సమస్యలు", "పురుగు", "తెగులు"})),
    ("notes", frozenset({"remark", "remarks", "note", "notes", "comment", "comments", "observation",
                         "observations", "వ్యాఖ్యలు", "వ్యాఖ్య", "గమనిక", "గమనికలు"})),
    ("crop", frozenset({"crop", "crops", "పంట"})),
    ("village", frozenset({"village", "గ్రామం", "ఊరు"})),
    ("farmer", frozenset({"farmer", "farmers", "grower", "రైతు"})),
    ("officer", frozenset({"officer", "staff", "fo", "అధికారి"})),
    ("date", frozenset({"date", "day", "తేదీ"})),
)
# Words that only qualify a column's word: who gave it, to whom, what kind of record it is.
_QUALIFIERS = frozenset({
    "given", "recommended", "advised", "suggested", "used", "applied", "sold", "seen", "observed", "noticed",
    "reported", "by", "to", "of", "the", "a", "and", "if", "any", "on", "for", "in", "s", "farmer", "farmers",
    "officer", "officers", "field", "visit", "visits", "name", "names", "step", "steps", "up", "action", "actions",
    "plan", "details", "detail", "number", "id", "code", "crop", "main", "other", "general", "final", "pitch",
    "taken", "said", "with", "per", "what", "was", "is", "ఇచ్చిన", "ఇచ్చినది", "సూచించిన", "పేరు", "చర్య", "వివరాలు",
})

# The next step's column may say when ("Next Visit Date", "Follow up on").
_WHEN = frozenset({"date", "day", "when", "తేదీ"})


@cache
def _aliases() -> dict[str, str]:
    found: dict[str, str] = {}
    for column in VISIT_LOG_COLUMNS:
        for name in (column.field, column.header, *column.aliases):
            found.setdefault(header_key(name), column.field)
    return found


def known_headers() -> list[str]:
    """Every header the log's columns are listed by (to find the header row below title rows)."""
    return list(_aliases())


def column_of(header: str) -> str | None:
    """The visit log field a header is, or None when it is none of them (the import lists it as not used)."""
    key = header_key(header)
    if key in _aliases():
        return _aliases()[key]
    words = key.split()
    for field, cues in _CUES:
        allowed = _QUALIFIERS | _WHEN if field == "next_step" else _QUALIFIERS
        if any(w in cues for w in words) and all(w in cues or w in allowed for w in words):
            return field
    return None


def header_of(field: str) -> str:
    """The header the log's column is written under in our own files ("Dose", "Next Step")."""
    return next(c.header for c in VISIT_LOG_COLUMNS if c.field == field)
