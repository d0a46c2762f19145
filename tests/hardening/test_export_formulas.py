"""Exports never carry a live formula: names beginning = + - @, tab or CR are neutralised in CSV and .xlsx.

On the main branch before this change `=HYPERLINK(...)` was exported to .xlsx as a formula and to CSV unescaped.
"""

import csv
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from bot.cli.registers import all_kinds
from bot.services.cells import TRIGGERS, neutralised, restored, without_controls
from bot.services.registers.exporter import export_kind
from bot.services.registers.importer import import_file
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.agri.registers import FieldBooks

KINDS = all_kinds(INSTALLED.packages())
HOSTILE = ['=HYPERLINK("http://e.x","go")', "+91 cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
           "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]


@pytest.fixture
def database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'export.db'}")
    upgrade(db, INSTALLED.migrations())
    return db


def seed_hostile_farmers(database: Database, tmp_path: Path) -> None:
    villages = tmp_path / "villages.csv"
    villages.write_text("Village,Mandal\nKothur,Kothur\n", encoding="utf-8")
    import_file(database, KINDS, "villages", "kisan", villages, apply=True)
    farmers = tmp_path / "farmers.csv"
    with farmers.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Farmer Name", "Village", "Crops", "Acres"])
        for n, name in enumerate(HOSTILE):
            writer.writerow([f"{name} {n}", "Kothur", "paddy", "2"])
    report = import_file(database, KINDS, "farmers", "kisan", farmers, apply=True)
    assert len(report.added) >= 4, report.rejected


def test_names_beginning_with_formula_characters_are_exported_as_text_not_formulas(
        database: Database, tmp_path: Path) -> None:
    seed_hostile_farmers(database, tmp_path)
    names = {f.name for f in FieldBooks(database).for_tenant("kisan").farmers.values()}
    assert any(n.startswith("=HYPERLINK") for n in names)
    out = tmp_path / "farmers.xlsx"
    export_kind(database, KINDS["farmers"], "kisan", "xlsx", out)
    sheet = load_workbook(out).active
    cells = [cell for row in sheet.iter_rows() for cell in row]
    assert all(cell.data_type != "f" for cell in cells), "no formula cell"
    written = [str(cell.value) for cell in cells if cell.value is not None]
    assert not any(value.startswith(TRIGGERS) for value in written)
    assert any(value.startswith("'=HYPERLINK") for value in written)

    out_csv = tmp_path / "farmers.csv"
    export_kind(database, KINDS["farmers"], "kisan", "csv", out_csv)
    with out_csv.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert not any(cell.startswith(TRIGGERS) for row in rows for cell in row)
    assert any(cell.startswith("'=HYPERLINK") for row in rows for cell in row)


def test_a_neutralised_export_imports_back_unchanged(database: Database, tmp_path: Path) -> None:
    seed_hostile_farmers(database, tmp_path)
    for fmt in ("csv", "xlsx"):
        out = tmp_path / f"again.{fmt}"
        export_kind(database, KINDS["farmers"], "kisan", fmt, out)
        again = import_file(database, KINDS, "farmers", "kisan", out, apply=True)
        assert (again.added, again.updated, again.rejected) == ([], [], []), fmt


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_no_neutralised_cell_starts_like_a_formula_and_restoring_gives_it_back(value: str) -> None:
    cell = neutralised(value)
    value = without_controls(value)  # no spreadsheet cell may hold them; an export drops them
    numeric = value.lstrip("-").replace(".", "", 1).isdigit() and value.isascii()
    assert not cell.startswith(TRIGGERS) or numeric
    assert restored(cell) == value or (value.startswith("'") and value[1:].startswith(TRIGGERS))
