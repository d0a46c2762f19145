"""Rules of the codebase that a test can hold: one module talks to Hindsight, every message exists in both
languages with the same placeholders, prompts fail loudly on missing values."""

import re
from pathlib import Path

import pytest

from bot import i18n
from bot.prompts import PromptError, render

ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = ("bot", "handlers", "memory", "bench")


def python_files() -> list[Path]:
    return [p for d in CODE_DIRS for p in (ROOT / d).rglob("*.py")]


def test_only_memory_imports_hindsight_client() -> None:
    offenders = [
        str(p.relative_to(ROOT)) for p in python_files()
        if re.search(r"^\s*(from|import)\s+hindsight_client", p.read_text(encoding="utf-8"), re.M)
        and p.relative_to(ROOT).parts[0] != "memory"
    ]
    assert offenders == []


def test_every_message_exists_in_both_languages_with_the_same_placeholders() -> None:
    english, telugu = i18n.catalogue("en"), i18n.catalogue("te")
    assert sorted(set(english) ^ set(telugu)) == []
    mismatched = [k for k in english if i18n.placeholders(english[k]) != i18n.placeholders(telugu[k])]
    assert mismatched == []
    untranslated = [k for k in english if english[k] == telugu[k] and re.search(r"[A-Za-z]{4,}", english[k])]
    assert untranslated == [], "Telugu catalogue has English text for these keys"


def test_text_refuses_a_missing_placeholder() -> None:
    with pytest.raises(KeyError):
        i18n.text("en", "core.welcome", name="Srinivas")
    assert "Srinivas" in i18n.text("te", "core.welcome", name="Srinivas", pack_name="x")


def test_dates_are_shown_in_the_users_format() -> None:
    from datetime import date
    assert i18n.show_date("en", date(2026, 4, 8)) == "8 Apr 2026"
    assert i18n.show_date("te", date(2026, 4, 8)) == "8 ఏప్రిల్ 2026"


def test_prompt_loader_fails_on_missing_or_unused_values(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "ask.md").write_text("You answer about {{farmer}}.\n---user---\nQuestion: {{question}}\n")
    prompt = render("p", "ask", root=tmp_path, farmer="Ramesh", question="what now?")
    assert prompt.system == "You answer about Ramesh." and prompt.user == "Question: what now?"
    with pytest.raises(PromptError, match="question"):
        render("p", "ask", root=tmp_path, farmer="Ramesh")
    with pytest.raises(PromptError, match="extra"):
        render("p", "ask", root=tmp_path, farmer="R", question="q", extra="x")


def test_no_prompt_text_in_python_files() -> None:
    suspicious = [str(p.relative_to(ROOT)) for p in python_files()
                  if re.search(r"(?i)\byou are (an?|the) [a-z -]*(assistant|agent|extractor|memory)\b",
                               p.read_text(encoding="utf-8"))]
    assert suspicious == []
