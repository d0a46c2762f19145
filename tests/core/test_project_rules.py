"""Rules of the codebase that a test can hold: one module talks to Hindsight, every message exists in both
languages with the same placeholders, prompts fail loudly on missing values, dependencies point one way
(packs -> core -> memory), and start-up loads only what it uses."""

import ast
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bot.services import i18n
from bot.services.prompts import PromptError, render

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


# Dependencies point one way: packs (handlers/) import the core; the core, its transports and services (bot/)
# never import a pack, and the memory layer (memory/) imports neither. Every import counts, even one inside a
# function or under TYPE_CHECKING: a lazy import is still a dependency.
def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports, by absolute name; `from a import b` counts as a and as a.b."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def modules_under(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def offenders(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(f"{p.relative_to(ROOT)} imports {name}" for p in modules_under(folder)
                  for name in imported_modules(p) if name.split(".")[0] in forbidden)


def test_the_core_never_imports_a_pack() -> None:
    assert modules_under("bot")
    assert offenders("bot", ("handlers",)) == []


def test_the_memory_layer_imports_neither_the_bot_nor_a_pack() -> None:
    assert modules_under("memory")
    assert offenders("memory", ("bot", "handlers")) == []


def test_the_core_names_no_pack_module_in_its_code() -> None:
    """No importlib by name either: the only place the core names the packs' package is the setting that says
    which catalogue to serve (SMRITI_PACKS), so the packs are handed to it, never looked up by it."""
    named = sorted(
        f"{p.relative_to(ROOT)}:{node.lineno} {node.value!r}"
        for p in modules_under("bot")
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and re.fullmatch(r"handlers(\.\w+)*", node.value)
    )
    assert named == ["bot/settings.py:" + str(_packs_setting_line()) + " 'handlers'"]


def _packs_setting_line() -> int:
    lines = (ROOT / "bot" / "settings.py").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip().startswith("packs_package: str"))


def test_the_rule_sees_every_kind_of_import(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("import handlers.agri\nfrom handlers import legal\ndef f() -> None:\n"
                      "    from handlers.legal.pack import LegalPack\nfrom . import sibling\n")
    assert imported_modules(source) == {"handlers.agri", "handlers", "handlers.legal", "handlers.legal.pack",
                                        "handlers.legal.pack.LegalPack"}


HEAVY = ("hindsight_client", "telegram", "twilio", "matplotlib", "faster_whisper", "ctranslate2", "openpyxl",
         "pytesseract", "pypdf", "groq", "sqlalchemy", "alembic", "apscheduler")


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running `code` with this checkout on its path."""
    probe = f"{code}\nimport sys\nprint(' '.join(sys.modules))"
    done = subprocess.run([sys.executable, "-P", "-c", probe], cwd=tempfile.gettempdir(), capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    return set(done.stdout.split())


def _heavy(modules: set[str]) -> list[str]:
    return sorted({m.split(".")[0] for m in modules} & set(HEAVY))


def test_smriti_help_loads_no_sdk_no_database_no_pack() -> None:
    loaded = _loaded_after("import contextlib, io\nfrom handlers import main\n"
                           "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
                           "    main(['--help'])")
    assert "bot.cli.smriti" in loaded
    assert _heavy(loaded) == []
    assert sorted(m for m in loaded if m.endswith(".pack") and m.startswith("handlers.")) == []


def test_the_console_and_the_packs_load_no_chat_transport_sdk_and_nothing_used_later() -> None:
    """What `smriti chat` imports before its first reply: the database (not Alembic: an
    up-to-date schema is not checked by it, see bot/store/migrate.py; nor the Hindsight client, made at the
    first memory call, see memory/client.py), the scheduler and
    the local speech runtime (loaded at start-up on purpose, see bot/services/speech/local.py); never the Telegram or
    Twilio SDKs, matplotlib, Tesseract, openpyxl, or Groq without a key."""
    code = ("import bot.core.app, bot.transports.console.session, bot.core.worker, bot.services.speech.local\n"
            "import handlers.agri.pack, handlers.legal.pack, handlers.ap.pack")
    assert _heavy(_loaded_after(code)) == ["apscheduler", "ctranslate2", "sqlalchemy"]
