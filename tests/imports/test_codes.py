"""Codes as the organisation writes them: any printable code of reasonable length, kept as written, folded for
matching; names in Telugu script only; every refusal in plain words (never a pattern)."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli.registers import all_kinds
from bot.services.registers.codes import RegisterIndex, code_problem, fold_code, safe_key
from bot.services.registers.importer import import_file
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.agri.extract import FieldReader
from handlers.agri.textmatch import normalise
from handlers.agri.registers import FieldBooks
from handlers.ap.registers import Ledgers
from handlers.legal.registers import CaseRegisters

KINDS = all_kinds(INSTALLED.packages())
_REGEX_SIGNS = ("^", "$", "\\d", "[A-Z", "pattern", "String should")


@pytest.fixture
def database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'codes.db'}")
    upgrade(db, INSTALLED.migrations())
    return db


def load(database: Database, tmp_path: Path, tenant: str, kind: str, body: str) -> list[str]:
    path = tmp_path / f"{kind}.csv"
    path.write_text(body, encoding="utf-8")
    report = import_file(database, KINDS, kind, tenant, path, apply=True)
    for rejected in report.rejected:
        assert not any(sign in rejected.reason for sign in _REGEX_SIGNS), rejected.reason
    return [r.reason for r in report.rejected]


def test_folding_ignores_case_spaces_and_separators() -> None:
    assert fold_code("KV-INS-01") == fold_code("kv ins 01") == fold_code("KV/INS/01") == "kvins01"
    assert fold_code("GF/0012") == "gf0012" and fold_code("రాము-12") == "రాము12"
    index = RegisterIndex({"GF/0012": "a", "GF/0013": "b", "X1": "c"},
                          lambda row: {"a": ["Ramu Naik"], "b": ["Ramu Naik"], "c": ["సీత"]}[row])
    assert index.key("gf 0012") == "GF/0012" and index.key("gf-0013") == "GF/0013"
    assert index.key("ramu naik") is None, "a name two rows share names neither"
    assert index.key("సీత") == "X1" and index.key("nobody") is None
    assert safe_key("GF/0012") == "GF-0012" and safe_key("రాము").startswith("x")


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=80))
def test_any_code_is_either_kept_or_refused_in_plain_words(written: str) -> None:
    problem = code_problem(written)
    if problem is None:
        assert fold_code(written) and len(written.strip()) <= 60
    else:
        assert problem.startswith("the code") and problem.endswith(
            ("is empty", "characters", "cannot be printed", "has no letter or digit")), problem


def test_agri_codes_and_telugu_only_names(database: Database, tmp_path: Path) -> None:
    assert load(database, tmp_path, "kodad", "villages", "Village ID,Village,Telugu Name\nKDD-07,Kodad,కోదాడ\n") == []
    assert load(database, tmp_path, "kodad", "issues", "Issue,Issue (Telugu),Crops\nWhitefly,తెల్ల దోమ,cotton\n") == []
    assert load(database, tmp_path, "kodad", "catalogue",
                "SKU,Product,Type,Tier,MRP,Pack,Target,Dose\n"
                "KV-INS-01,Kavach Neem,insecticide,budget,\"Rs 1,250\",1 l,Whitefly,cotton: 1 l/acre\n"
                "KV INS 01,Copy,insecticide,budget,10,1 l,Whitefly,\n"
                "KV-FUN-02,,fungicide,budget,10,1 l,,\n") == [
        "KV INS 01 is already on row 2 with other values", "missing Product"]
    assert load(database, tmp_path, "kodad", "farmers",
                "Farmer ID,Farmer Name,Village,Crops\nGF/0012,Ramulu,KDD-07,cotton\n,రాములమ్మ,Kodad,cotton\n") == []
    book = FieldBooks(database).for_tenant("kodad")
    assert "KV-INS-01" in book.products and book.find_product("kv ins 01") is book.products["KV-INS-01"]
    assert book.find_farmer("gf 0012") is book.farmers["GF/0012"]
    telugu = [f for f in book.farmers.values() if f.name == "రాములమ్మ"]
    assert telugu and book.find_farmer(telugu[0].name) is telugu[0]
    reader = FieldReader(book)
    assert reader.farmer_in("GF-0012") is book.farmers["GF/0012"]
    assert reader.village_in("kdd 07") == "kdd-07" and reader.village_in("కోదాడ") == "kdd-07"
    advice = reader.advice_in(normalise("Ramulu cotton lo tella doma, KV-INS-01 vesukunnadu"))
    assert [a.product_id for a in advice] == ["KV-INS-01"]


def test_legal_case_ids_as_the_practice_writes_them(database: Database, tmp_path: Path) -> None:
    assert load(database, tmp_path, "chambers", "cases",
                "Case ID,Case No,Title,Court\n"
                "HX-OS-311-2024,HX-OS-311-2024,Hanumaiah v Kistamma,Huzurnagar\n"
                "OS-45-2025,O.S. 45/2025,Venkanna v Mallaiah,Kodad\n"
                ",,రామయ్య వర్సెస్ సీతమ్మ,Kodad\n") == []
    register = CaseRegisters(database).for_tenant("chambers")
    assert {c.code for c in register.cases} == {"HX-OS-311-2024", "OS-45-2025", ""}
    hx = register.only("hearing today in hx os 311 2024, adjourned")
    assert hx is not None and register.get(hx.case_id).code == "HX-OS-311-2024"  # type: ignore[union-attr]
    os45 = register.only("OS 45/2025 called, adjourned")
    assert os45 is not None and register.get(os45.case_id).code == "OS-45-2025"  # type: ignore[union-attr]
    assert register.only("nothing about any case") is None


def test_ap_vendor_named_only_in_telugu_is_kept(database: Database, tmp_path: Path) -> None:
    assert load(database, tmp_path, "pumps", "vendors",
                "Vendor Name,GSTIN,Bank Account Number,IFSC Code\n"
                "శ్రీ లక్ష్మి ట్రేడర్స్,36ABCPS1234K1Z9,123456789012,HDFC0000001\n"
                "Bad Gst Traders,36-XYZ,223344556677,HDFC0000001\n") == ["GSTIN '36-XYZ' is not written the way a GSTIN is"]
    vendors = Ledgers(database).for_tenant("pumps").ledger.vendors
    assert [v.name for v in vendors] == ["శ్రీ లక్ష్మి ట్రేడర్స్"]
