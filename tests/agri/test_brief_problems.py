"""The brief recommends for the problems the farmer has now (the latest visit's, unless its outcome says they
were controlled) before what worked in the past; memory orders and pitches them. Facts are built directly, so
this runs without Hindsight, on the corpus's registers (not the seeds)."""

from datetime import date

from bench.agri_corpus import corpus_book
from handlers.agri.compose import Composer
from handlers.agri.facts import Facts, OutcomeFact, VisitFact

BOOK = corpus_book()
FARMER = BOOK.farmers["F113"]  # chilli only


def _visit(day: date, visit_id: str, problems: list[str], accepted: tuple[str, ...] = (),
           rejected: tuple[str, ...] = (), objections: dict[str, str] | None = None) -> VisitFact:
    return VisitFact(day=day, document_id=f"visit-{visit_id}", visit_id=visit_id, farmer_id=FARMER.id,
                     village=FARMER.village, crop="chilli", issue=problems[0], severity_pct=None,
                     accepted=list(accepted), rejected=list(rejected), undecided=[], objections=dict(objections or {}),
                     neighbour=False, problems=problems)


def _outcome(day: date, visit_id: str, result: str, applied: list[str]) -> OutcomeFact:
    return OutcomeFact(day=day, document_id=f"outcome-{visit_id}", visit_id=visit_id, farmer_id=FARMER.id,
                       village=FARMER.village, crop="chilli", issue="anthracnose", result=result, applied=applied,
                       note="")


def _products(own: Facts) -> list[str]:
    return [p.id for p in Composer(BOOK, "en", FARMER, own, Facts(), date(2026, 10, 20)).products()]


def test_thrips_now_puts_the_thrips_product_before_the_fungicide_that_worked_before() -> None:
    own = Facts(visits=[_visit(date(2026, 8, 1), "A", ["anthracnose"], accepted=("P106",)),
                        _visit(date(2026, 10, 1), "B", ["thrips", "mites"])],
                outcomes=[_outcome(date(2026, 8, 20), "A", "controlled", ["P106"])])
    ranked = _products(own)
    assert ranked[0] == "P101"  # Delegate: labelled for chilli thrips, the first problem now
    assert set(ranked[1:]) & {"P102", "P103"} and "P106" not in ranked[:2]


def test_problems_an_outcome_says_are_controlled_are_not_current() -> None:
    own = Facts(visits=[_visit(date(2026, 8, 1), "A", ["anthracnose"], accepted=("P106",)),
                        _visit(date(2026, 9, 1), "B", ["thrips"], accepted=("P101",))],
                outcomes=[_outcome(date(2026, 8, 20), "A", "controlled", ["P106"]),
                          _outcome(date(2026, 9, 20), "B", "controlled", ["P101"])])
    assert _products(own)[:2] == ["P106", "P101"] or _products(own)[:2] == ["P101", "P106"]


def test_a_product_refused_or_failed_is_not_recommended_even_for_the_current_problem() -> None:
    own = Facts(visits=[_visit(date(2026, 10, 1), "B", ["thrips", "mites"], rejected=("P101",),
                               objections={"P101": "price"})])
    ranked = _products(own)
    assert "P101" not in ranked and ranked[0] in {"P102", "P103"}
    pitch = Composer(BOOK, "en", FARMER, own, Facts(), date(2026, 10, 20)).products()[0].pitch
    assert "Rs" in pitch  # a farmer who objected to price is pitched on price
