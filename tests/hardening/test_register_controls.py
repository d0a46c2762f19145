"""Register cells carry no control characters: a NUL, a terminal escape or a bidi override typed into an office
sheet is dropped at import, so the export to .xlsx works (openpyxl refused the cell: a traceback in the CLI, a 500
on the office page) and a name cannot disguise itself ("Ramu\u202egnp.exe" showed as "Ramuexe.png").
A CSV that Excel saved in the Windows code page (not UTF-8) is read, not refused with a codec error.
Both found by the adversary walk of issue 31."""

import csv
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from bot.cli.registers import all_kinds
from bot.services.cells import CONTROLS
from bot.services.registers.exporter import export_kind
from bot.services.registers.importer import import_file
from bot.services.registers.table import cell_text
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.agri.registers import FieldBooks

KINDS = all_kinds(INSTALLED.packages())


@pytest.fixture
def database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'controls.db'}")
    upgrade(db, INSTALLED.migrations())
    villages = tmp_path / "villages.csv"
    villages.write_text("Village,Mandal\nKothur,Kothur\n", encoding="utf-8")
    import_file(db, KINDS, "villages", "kisan", villages, apply=True)
    return db


def test_control_characters_in_a_sheet_never_reach_the_register_or_break_the_export(
        database: Database, tmp_path: Path) -> None:
    farmers = tmp_path / "farmers.csv"
    with farmers.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Farmer Name", "Village", "Crops", "Acres"])
        writer.writerow(["Sita\x00\x1b[31mDevi", "Kothur", "paddy", "2"])
        writer.writerow(["Ramu\u202egnp.exe", "Kothur", "paddy", "3"])
        writer.writerow(["శ్రీ\u200cనివాస్", "Kothur", "paddy", "1"])
    report = import_file(database, KINDS, "farmers", "kisan", farmers, apply=True)
    assert len(report.added) == 3, report.rejected
    names = {f.name for f in FieldBooks(database).for_tenant("kisan").farmers.values()}
    assert names == {"Sita[31mDevi", "Ramugnp.exe", "శ్రీ\u200cనివాస్"}, "controls gone; Telugu's ZWNJ kept"
    out = tmp_path / "farmers.xlsx"
    export_kind(database, KINDS["farmers"], "kisan", "xlsx", out)
    written = {str(c.value) for row in load_workbook(out).active.iter_rows() for c in row if c.value is not None}
    assert {"Sita[31mDevi", "Ramugnp.exe"} <= written


def test_a_csv_saved_by_excel_in_the_windows_code_page_is_read(database: Database, tmp_path: Path) -> None:
    farmers = tmp_path / "farmers.csv"
    farmers.write_bytes("Farmer Name,Village,Crops,Acres\nD\u2019Souza Ramesh,Kothur,paddy,2\n".encode("cp1252"))
    report = import_file(database, KINDS, "farmers", "kisan", farmers, apply=True)
    assert len(report.added) == 1, report.rejected
    [farmer] = FieldBooks(database).for_tenant("kisan").farmers.values()
    assert farmer.name == "D\u2019Souza Ramesh"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_no_cell_read_from_a_sheet_holds_a_control_character(value: str) -> None:
    assert not CONTROLS.search(cell_text(value))
