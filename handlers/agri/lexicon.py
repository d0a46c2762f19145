"""The pack's built-in words (handlers/agri/data/lexicon.json): crops, issues, reactions, in Telugu and English.
A tenant's registers extend them (handlers/agri/vocabulary.py); they are defaults, never a closed list."""

from functools import cache
from pathlib import Path

from pydantic import BaseModel

PACK_DATA = Path(__file__).resolve().parent / "data"


class Lexicon(BaseModel):
    """Telugu, transliterated and English words for the things a field note talks about."""

    crops: dict[str, list[str]]
    issues: dict[str, list[str]]
    generic_disease: list[str]
    generic_pest: list[str]
    objections: dict[str, list[str]]
    reactions: dict[str, list[str]]
    neighbour: list[str]
    shown_result: list[str] = []
    """Words saying a result was shown ("result chupinchanu", "showed"): a neighbour named with one is evidence."""
    severity: dict[str, list[str]]
    stages: dict[str, list[str]]
    results: dict[str, list[str]]
    no_spray: list[str]
    next_step_cues: list[str]
    yesterday: list[str]
    today: list[str]


@cache
def load_lexicon() -> Lexicon:
    """The pack's own words (not a tenant's register): crops, issues, reactions in Telugu and English."""
    return Lexicon.model_validate_json((PACK_DATA / "lexicon.json").read_text(encoding="utf-8"))
