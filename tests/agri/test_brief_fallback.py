"""The template brief's products (the fallback when no model drafts the brief) are only products whose label
covers a crop of the farmer for a problem seen on it (issue 28): never a product his history names for a crop
or problem it has no label for, never a budget product picked for the crop alone."""

from datetime import date

from bench.agri_corpus import CORPUS
from handlers.agri.compose import Composer
from handlers.agri.facts import Facts, OutcomeFact, VisitFact
from handlers.agri.register import FieldBook

BOOK = FieldBook.from_folder(CORPUS)
AS_OF = date(2026, 11, 30)


def visit(farmer: str, crop: str, problems: list[str], accepted: list[str], day: date) -> VisitFact:
    farmer_row = BOOK.farmers[farmer]
    return VisitFact(day=day, document_id=f"visit:{farmer}-{day:%Y%m%d}", visit_id=f"{farmer}-{day:%Y%m%d}",
                     farmer_id=farmer, village=farmer_row.village, crop=crop, issue=problems[0] if problems else "",
                     severity_pct=None, accepted=accepted, rejected=[], undecided=[], objections={}, neighbour=False,
                     problems=problems)


def products(farmer: str, own: Facts, similar: Facts | None = None) -> list[str]:
    composer = Composer(BOOK, "en", BOOK.farmers[farmer], own, similar or Facts(), AS_OF)
    drafted = composer.draft().products
    seen = {v.crop: set(v.problems) for v in [*own.visits, *(similar or Facts()).visits]}
    for item in drafted:
        # Each product targets a problem seen on the crop it is pitched for (registered ones when none is seen).
        problems = seen.get(item.crop) or {i.id for i in BOOK.issues.values() if item.crop in i.crops}
        assert covers(item.id, [item.crop], problems), item
    return [p.id for p in drafted]


def covers(pid: str, crops: list[str], problems: set[str]) -> bool:
    product = BOOK.products[pid]
    return any(c in product.dosage for c in crops) and bool(set(product.problems) & problems)


def test_with_no_history_each_product_is_labelled_for_his_crop_and_a_problem_registered_for_it() -> None:
    # Kavitha Reddy (maize, cotton): nothing in memory. Whatever is suggested targets a registered problem of
    # the crop it is pitched for (zinc sulphate for maize zinc deficiency, not a product only "for maize").
    composer = Composer(BOOK, "en", BOOK.farmers["F104"], Facts(), Facts(), AS_OF)
    drafted = composer.draft().products
    assert drafted
    for item in drafted:
        registered = {i.id for i in BOOK.issues.values() if item.crop in i.crops}
        assert covers(item.id, [item.crop], registered), item


def test_a_crop_with_no_problem_known_anywhere_gets_no_product() -> None:
    book = BOOK
    farmer = book.farmers["F104"].model_copy(update={"crops": ["tomato"]})
    assert Composer(book, "en", farmer, Facts(), Facts(), AS_OF).draft().products == []


def test_a_problem_seen_nearby_on_his_crop_gives_a_product_labelled_for_it() -> None:
    nearby = Facts(visits=[visit("F125", "maize", ["fall-armyworm"], [], date(2026, 11, 20))])
    got = products("F104", Facts(), nearby)
    assert got and covers(got[0], ["maize"], {"fall-armyworm"}), got


def test_a_product_his_history_names_without_a_label_for_his_crop_and_problem_is_not_suggested() -> None:
    # Ramulu Naik grows cotton and redgram; Delegate (thrips; chilli, cotton) was accepted on a visit about
    # cotton wilt: its label covers cotton but not wilt, so it is no target of his.
    own = Facts(visits=[visit("F101", "cotton", ["wilt"], ["P101"], date(2026, 10, 2))],
                outcomes=[OutcomeFact(day=date(2026, 10, 20), document_id="outcome:F101-20261002",
                                      visit_id="F101-20261002", farmer_id="F101", village="devarakonda",
                                      crop="cotton", issue="wilt", result="controlled", applied=["P101"], note="")])
    got = products("F101", own)
    assert "P101" not in got
    assert got and covers(got[0], ["cotton"], {"wilt"}), got


def test_a_product_that_worked_for_his_problem_is_still_first() -> None:
    own = Facts(visits=[visit("F101", "redgram", ["fruit-borer"], ["P104"], date(2026, 10, 2))],
                outcomes=[OutcomeFact(day=date(2026, 10, 20), document_id="outcome:F101-20261002b",
                                      visit_id="F101-20261002", farmer_id="F101", village="devarakonda",
                                      crop="redgram", issue="fruit-borer", result="controlled", applied=["P104"],
                                      note="")])
    assert products("F101", own)[0] == "P104"
