"""The deterministic reader on English, Telugu-script and mixed (transliterated) notes."""

from datetime import date

import pytest

from handlers.agri.narrative import visit_narrative
from handlers.agri.extract import FieldReader
from handlers.agri.models import Visit
from tests.registers import seed_book

TODAY = date(2026, 9, 30)
SRINIVAS = ["chevella", "moinabad", "shankarpally"]
LAKSHMI = ["chevella", "vikarabad", "tandur"]

# (note, territories, expected fields); products are (id, reaction, objection).
CASES: list[tuple[str, list[str], dict[str, object]]] = [
    ("Visited Ramesh Goud in Chevella. Chilli has leaf blight on about 15% of plants. Offered Amistar Top but he "
     "said too expensive, will wait and see.", SRINIVAS,
     {"farmer_id": "F001", "village": "chevella", "crop": "chilli", "issue": "leaf-blight", "severity_pct": 15,
      "severity": "medium", "products": [("P006", "rejected", "price")]}),
    ("Ramesh chilli blight 40 percent. Showed him the neighbour's result with Blitox and he agreed.", SRINIVAS,
     {"farmer_id": "F001", "crop": "chilli", "severity": "high", "neighbour_evidence": True,
      "products": [("P001", "accepted", None)]}),
    ("F014 cotton pink bollworm, farmer does not believe traps help. Pheromone trap rejected.", SRINIVAS,
     {"farmer_id": "F014", "village": "moinabad", "crop": "cotton", "issue": "pink-bollworm",
      "products": [("P009", "rejected", "doubt")]}),
    ("Raju Yadav cotton flowering, rosette flowers with pink bollworm. Proclaim accepted, will spray tomorrow. "
     "Next visit in 10 days.", SRINIVAS,
     {"farmer_id": "F011", "stage": "flowering", "issue": "pink-bollworm", "products": [("P007", "accepted", None)],
      "next_step": "Next visit in 10 days"}),
    ("Saritha tomato fruit borer, heavy damage. Coragen too costly, she took Proclaim.", SRINIVAS,
     {"farmer_id": "F021", "crop": "tomato", "issue": "fruit-borer", "severity": "high",
      "products": [("P004", "rejected", "price"), ("P007", "accepted", None)]}),
    ("Ramulu paddy blast at vegetative stage. Beam accepted.", SRINIVAS,
     {"farmer_id": "F020", "crop": "paddy", "issue": "blast", "stage": "vegetative",
      "products": [("P014", "accepted", None)]}),
    ("Yesterday visited Padma, tomato leaf blight 20%. Kavach she refused, price is high.", SRINIVAS,
     {"farmer_id": "F009", "date": date(2026, 9, 29), "products": [("P011", "rejected", "price")]}),
    ("Visit on 21 Apr: Ramesh chilli blight, accepted copper fungicide after seeing a neighbour's field.", SRINIVAS,
     {"farmer_id": "F001", "date": date(2026, 4, 21), "neighbour_evidence": True,
      "products": [("P001", "accepted", None)]}),
    ("Srisailam cotton zinc deficiency, zinc sulphate out of stock at the dealer.", SRINIVAS,
     {"farmer_id": "F012", "issue": "zinc-deficiency", "products": [("P010", "undecided", "availability")]}),
    # Telugu script
    ("రమేష్ గౌడ్ మిరప తోటలో ఆకు ఎండు తెగులు 40 శాతం. బ్లైటాక్స్ సరే అన్నాడు, పక్క పొలం ఫలితం చూపించాను.", SRINIVAS,
     {"farmer_id": "F001", "crop": "chilli", "issue": "leaf-blight", "severity_pct": 40, "neighbour_evidence": True,
      "products": [("P001", "accepted", None)]}),
    ("వెంకటేష్ యాదవ్ మిరపలో తెగులు. అమిస్టార్ ఎక్కువ ధర అన్నాడు.", LAKSHMI,
     {"farmer_id": "F002", "crop": "chilli", "issue": None, "products": [("P006", "rejected", "price")]}),
    ("శంకర్ మిరప ఆకు ముడత, కాన్ఫిడార్ తీసుకుంటాను అన్నాడు.", LAKSHMI,
     {"farmer_id": "F030", "village": "vikarabad", "issue": "leaf-curl", "products": [("P005", "accepted", None)]}),
    ("మంగమ్మ మిరపలో తామర పురుగు. డెలిగేట్ వద్దు అంది, రీజెంట్ కొంటాను అంది.", LAKSHMI,
     {"farmer_id": "F033", "issue": "thrips", "products": [("P015", "rejected", None), ("P016", "accepted", None)]}),
    ("రవి కుమార్ పత్తి పూత దశ, పచ్చ దోమ ఎక్కువగా ఉంది. ఉలాలా ధర ఎక్కువ అన్నాడు.", LAKSHMI,
     {"farmer_id": "F032", "crop": "cotton", "stage": "flowering", "issue": "sucking-pests", "severity": "high",
      "products": [("P002", "rejected", "price")]}),
    ("అనిత వరిలో కాండం తొలుచు పురుగు. రీజెంట్ ఆలోచిస్తాను అంది.", LAKSHMI,
     {"farmer_id": "F029", "crop": "paddy", "issue": "stem-borer", "products": [("P016", "undecided", None)]}),
    ("నిన్న హన్మంత్ వరి నారులో అగ్గి తెగులు చూశాను. బీమ్ ఒప్పుకున్నాడు.", LAKSHMI,
     {"farmer_id": "F031", "date": date(2026, 9, 29), "stage": "nursery", "issue": "blast",
      "products": [("P014", "accepted", None)]}),
    # Mixed / transliterated
    ("Ramesh mirapa lo aaku endu tegulu undi. Amistar ekkuva dhara annadu, Blitox teesukuntanu annadu.", SRINIVAS,
     {"farmer_id": "F001", "crop": "chilli", "issue": "leaf-blight",
      "products": [("P006", "rejected", "price"), ("P001", "accepted", None)]}),
    ("Bhaskar Rao patti lo gulabi rangu purugu konchem undi, pheromone trap sare annadu.", SRINIVAS,
     {"farmer_id": "F013", "crop": "cotton", "issue": "pink-bollworm", "severity": "low",
      "products": [("P009", "accepted", None)]}),
    ("Laxmamma pattilo pink bollworm 25%, Proclaim chala dhara, Profex teesukunnadu.", SRINIVAS,
     {"farmer_id": "F014", "crop": "cotton", "severity_pct": 25,
      "products": [("P007", "rejected", "price"), ("P008", "accepted", None)]}),
    ("Krishna Reddy cotton lo zinc lopam, zinc vaddu annadu.", SRINIVAS,
     {"farmer_id": "F010", "issue": "zinc-deficiency", "products": [("P010", "rejected", None)]}),
    ("Mallesh tamata kaya tolichu purugu, Proclaim konnadu, pakka polam result chupinchanu.", SRINIVAS,
     {"farmer_id": "F004", "crop": "tomato", "issue": "fruit-borer", "neighbour_evidence": True,
      "products": [("P007", "accepted", None)]}),
    ("Ramesh patti pacha dooma, neem oil chuddam annadu. Malli vachhe vaaram vastanu.", SRINIVAS,
     {"farmer_id": "F001", "crop": "cotton", "issue": "sucking-pests", "products": [("P012", "undecided", "wait")],
      "next_step": "Malli vachhe vaaram vastanu"}),
    ("Prabhakar tomato ki M-45 cheppanu, nammakam ledu annadu.", SRINIVAS,
     {"farmer_id": "F019", "crop": "tomato", "products": [("P003", "rejected", "doubt")]}),
]


@pytest.fixture(scope="module")
def reader() -> FieldReader:
    return FieldReader(seed_book())


def _products(visit: Visit) -> list[tuple[str, str, str | None]]:
    return [(a.product_id, a.reaction, a.objection) for a in visit.products]


def test_there_are_enough_cases_in_each_language() -> None:
    telugu = [c for c in CASES if any("\u0c00" <= ch <= "\u0c7f" for ch in c[0])]
    assert len(CASES) >= 20 and len(telugu) >= 6


@pytest.mark.parametrize(("note", "territories", "expected"), CASES, ids=[c[0][:30] for c in CASES])
def test_reads_visit(reader: FieldReader, note: str, territories: list[str], expected: dict[str, object]) -> None:
    visit = reader.read_visit(note, "O01", TODAY, territories)
    for field, value in expected.items():
        got = _products(visit) if field == "products" else getattr(visit, field)
        if field == "next_step":
            assert got is not None and str(value) in got
        else:
            assert got == value, f"{field}: {got!r} != {value!r}"
    if "date" not in expected:
        assert visit.date == TODAY


def test_same_name_in_two_villages_resolves_by_territory(reader: FieldReader) -> None:
    assert reader.read_visit("Ramesh cotton jassids", "O01", TODAY, SRINIVAS).farmer_id == "F001"
    assert reader.read_visit("Ramesh cotton jassids", "O02", TODAY, ["vikarabad"]).farmer_id == "F027"


def test_same_note_gives_same_visit_id(reader: FieldReader) -> None:
    note = "Ramesh chilli blight, Blitox accepted"
    assert reader.read_visit(note, "O01", TODAY).id == reader.read_visit(note, "O01", TODAY).id
    assert reader.read_visit(note, "O01", TODAY).id != reader.read_visit(note + ".", "O01", TODAY).id


def test_telugu_note_is_kept_as_written_but_not_in_the_english_narrative(reader: FieldReader) -> None:
    note = "రమేష్ మిరపలో తెగులు, బ్లైటాక్స్ సరే"
    visit = reader.read_visit(note, "O01", TODAY, SRINIVAS)
    assert visit.note == note and visit.products[0].product_id == "P001"
    assert "తెగులు" not in visit_narrative(reader.book, visit)


@pytest.mark.parametrize(("answer", "result", "applied"), [
    ("Blitox worked, blight controlled after two sprays", "controlled", ["P001"]),
    ("మిరపలో తెగులు తగ్గింది", "controlled", ["P001"]),
    ("konchem taggindi, still some spots", "partial", ["P001"]),
    ("he did not spray, blight spread to half the field", "worse", []),
    ("sprayed M-45 instead, pani cheyaledu", "no_effect", ["P003"]),
])
def test_reads_outcome(reader: FieldReader, answer: str, result: str, applied: list[str]) -> None:
    subject = reader.read_visit("Ramesh chilli blight, Blitox accepted", "O01", date(2026, 9, 1), SRINIVAS)
    outcome = reader.read_outcome(answer, subject, "O01", TODAY)
    assert (outcome.result, outcome.products) == (result, applied)
    assert outcome.visit_id == subject.id and outcome.farmer_id == "F001"


@pytest.mark.parametrize(("note", "reaction", "objection"), [
    ("Venkatesh Yadav chilli thrips, Delegate thisukunnaru", "accepted", None),
    ("వెంకటేష్ యాదవ్ మిరప, డెలిగేట్ తీసుకుంటాడు", "accepted", None),
    ("Venkatesh Yadav mirchi, Delegate oddu annadu", "rejected", None),
    ("Venkatesh Yadav mirchi, Delegate chustadu", "undecided", "wait"),
    ("వెంకటేష్ యాదవ్ మిరప, డెలిగేట్ చూస్తాడు", "undecided", "wait"),
    ("Venkatesh Yadav chilli, Delegate - dabbu ledu", "rejected", "money"),
    ("Venkatesh Yadav chilli, he has not bought Delegate", "rejected", None),
])
def test_telugu_verbs_and_negation_in_both_scripts(reader: FieldReader, note: str, reaction: str,
                                                    objection: str | None) -> None:
    [advice] = reader.read_visit(note, "O01", TODAY, SRINIVAS).products
    assert (advice.reaction, advice.objection) == (reaction, objection)


@pytest.mark.parametrize("answer", ["he did not use Delegate, thrips same as before", "Delegate vaadaledu, no change",
                                    "డెలిగేట్ వాడలేదు, తగ్గలేదు", "never bought Delegate. no change"])
def test_an_answer_saying_not_used_records_nothing_applied(reader: FieldReader, answer: str) -> None:
    subject = reader.read_visit("Venkatesh Yadav chilli thrips, Delegate accepted", "O01", date(2026, 9, 1), SRINIVAS)
    outcome = reader.read_outcome(answer, subject, "O01", TODAY)
    assert outcome.products == [] and outcome.result == "no_effect"
