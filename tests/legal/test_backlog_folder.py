"""A backlog folder as a practice has one: files only (no cases.json, no manifest.csv), read against the tenant's
register and dated by the files' times; in a terminal each entry is asked about."""

import os
from datetime import datetime
from pathlib import Path

import pytest

from bot.core.app import App
from handlers.legal.review import TerminalReviewer
from handlers.legal.entries import EntryStore
from handlers.legal.ingest import BacklogError, load_backlog_dir
from handlers.legal.pack import LegalPack
from memory.asof import IST
from handlers.legal.models import ProposedEntry
from tests.legal.kinds_corpus import CASES, upload

TENANT = "folder"


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "backlog"
    folder.mkdir(parents=True)
    written = datetime(2026, 11, 30, 19, 5, tzinfo=IST).timestamp()
    for name, text in (("diary_30nov.txt", "Today: Pendyala suit - DW1 chief in part, N.D. 14/12"),
                       ("durga_note.txt", "28/11 Durga cheque case - complainant cross over. N.D. 11/12"),
                       (".DS_Store", "")):
        (folder / name).write_text(text, encoding="utf-8")
        os.utime(folder / name, (written, written))
    return folder


def test_a_folder_without_register_or_manifest_lists_its_files_by_their_times(tmp_path: Path) -> None:
    register, backlog = load_backlog_dir(_folder(tmp_path), author="ramya")
    assert register is None
    assert [(r.file, r.author, r.uploaded_at.date().isoformat()) for r in backlog.rows] == [
        ("diary_30nov.txt", "ramya", "2026-11-30"), ("durga_note.txt", "ramya", "2026-11-30")]
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(BacklogError, match="no files"):
        load_backlog_dir(empty)


@pytest.mark.hindsight
async def test_a_folder_of_files_is_filed_against_the_tenants_register(app: App, tmp_path: Path) -> None:
    pack = app.packs["legal"]
    assert isinstance(pack, LegalPack)
    with pytest.raises(BacklogError, match="no cases"):
        await pack.ingest_dir("nocases", _folder(tmp_path / "a"), yes=True)
    pack.registers.add(TENANT, CASES)
    report = await pack.ingest_dir(TENANT, _folder(tmp_path / "b"), yes=True, author="ramya")
    assert not report.errors and len(report.stored_ids) == 2
    records = {r.case_id: r for r in EntryStore(app.services.database).all(TENANT)}
    assert records["os-231-2024"].hearing_date.isoformat() == "2026-11-30"  # "Today" in a file of 30 Nov
    assert records["cc-77-2025"].next_date is not None and records["cc-77-2025"].author_id == "ramya"


async def test_in_a_terminal_enter_saves_an_entry_and_d_discards_it(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = ProposedEntry(case_id="os-231-2024", hearing_date=datetime(2026, 11, 30).date(), date_source="text",
                          text="DW1 chief in part", confidence=0.85)
    answers = iter(["", "d"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    reviewer = TerminalReviewer()
    assert await reviewer.review(upload("2026-11-30T19:05"), entry, "confirm") == entry
    assert await reviewer.review(upload("2026-11-30T19:05"), entry, "confirm") is None
