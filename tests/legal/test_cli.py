"""The command line: `smriti ingest legal`, `smriti ask --pack legal`, `smriti today`, `smriti legal backlog`."""

import json
from pathlib import Path

import pytest

from bot.cli.smriti import main
from tests.databases import seed_people
from tests.legal.helpers import render_subset, shuffle_manifest

pytestmark = pytest.mark.hindsight

FILES = ["IMG_20250618_202600.png", "OS_214_2024_order_sheet_certified.pdf", "note_seabreeze_20260924.txt",
         "Seabreeze_agreement_of_sale_2024.png", "note_prasad_followup.txt", "note_gorle_20260912.txt"]


@pytest.fixture
def cli_env(tmp_path: Path, hindsight_url: str, bank_prefix: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SMRITI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SMRITI_HINDSIGHT_URL", hindsight_url)
    monkeypatch.setenv("SMRITI_BANK_PREFIX", bank_prefix)
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    seed_people(tmp_path / "home")  # as `smriti seed` leaves the database: the demo's people are known
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_ingest_ask_and_today_from_the_command_line(cli_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = cli_env / "backlog"
    expected = render_subset(directory, FILES)
    shuffle_manifest(directory, seed=7)
    code, out = run(capsys, "ingest", "legal", str(directory), "--workers", "5", "--yes", "--json", "--tenant", "cli")
    report = json.loads(out)
    assert code == 0 and report["uploads"] == len(FILES) and report["errors"] == []
    assert set(report["stored"]) == expected.document_ids
    assert [h["file"] for h in report["held"]] == ["note_prasad_followup.txt"]

    code, out = run(capsys, "ingest", "legal", str(directory), "--yes", "--json", "--tenant", "cli")
    assert set(json.loads(out)["stored"]) == expected.document_ids  # a re-run stores the same ids

    code, out = run(capsys, "ask", "--pack", "legal", "what happened last time in Seabreeze?", "--json",
                    "--tenant", "cli")
    answer = json.loads(out)
    assert code == 0 and set(answer) == {"answer", "case_id", "citations", "confidence"}
    assert answer["case_id"] == "seabreeze" and 0 < answer["confidence"] <= 1
    [citation] = answer["citations"]
    assert citation["hearing_date"] == "2026-09-24" and citation["source_file"] == "note_seabreeze_20260924.txt"
    assert citation["author"] == "Divya" and citation["document_id"].endswith(":seabreeze:2026-09-24")

    code, out = run(capsys, "ask", "--pack", "legal", "what happened last time in Seabreeze?", "--as-of",
                    "2026-07-01", "--json", "--tenant", "cli")
    assert {c["hearing_date"] for c in json.loads(out)["citations"]} == {"2026-06-22"}

    code, out = run(capsys, "ask", "--pack", "legal", "what happened last time in Sunrise?", "--tenant", "cli")
    assert code == 3 and "Sunrise" in out

    code, out = run(capsys, "today", "--date", "2026-10-15", "--json", "--tenant", "cli")
    listing = json.loads(out)
    assert listing["day"] == "2026-10-15"
    assert {i["case_id"] for i in listing["items"]} == {"seabreeze", "gorle"}
    assert {i["previous"]["hearing_date"] for i in listing["items"]} == {"2026-09-24", "2026-09-12"}


def test_bad_backlog_directory_is_refused(cli_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (cli_env / "empty").mkdir()
    assert main(["ingest", "legal", str(cli_env / "empty"), "--yes", "--tenant", "cli"]) == 2
    assert "has no files to read" in capsys.readouterr().err  # cases.json and manifest.csv are optional


def test_seed_backlog_is_written_as_files(cli_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "legal", "backlog", str(cli_env / "seed"))
    assert code == 0 and "seabreeze: 24 Sep 2026" in out
    files = {p.name for p in (cli_env / "seed").iterdir()}
    assert {"cases.json", "manifest.csv"} <= files and len(files) == 84
