"""A note about two crops of one farmer ("chilli has thrips, paddy has blast") is one card that keeps each problem
on its own crop: the card, the narrative and the memory's metadata say which crop each problem was seen on, a
dose is checked against the label for the crop the product was advised for, and a brief's problems on a crop
are only those seen on it."""

from datetime import date

import pytest

from bench.agri_corpus import corpus_book
from handlers.agri.cards import VisitCard
from handlers.agri.extract import FieldReader
from handlers.agri.facts import read_facts
from handlers.agri.narrative import visit_metadata, visit_narrative
from memory import Recalled

BOOK = corpus_book("walk")
READER = FieldReader(BOOK)
TODAY = date(2026, 10, 20)
MINE = ["thipparthi", "kattangur"]

NOTES = [
    "Ramesh Goud: chilli has thrips, paddy has blast. Told Tamaraguard 180 ml per acre for the chilli and "
    "Blastnil 400 g per acre for the paddy, he will buy both.",
    "Ramesh Goud mirchi lo tamara purugu, vari lo aggi tegulu. Tamaraguard 180 ml ekaraniki, Blastnil 400 g "
    "ekaraniki cheppanu, rendu teesukuntanu annadu.",
    "రమేష్ గౌడ్ మిరపలో తామర పురుగు, వరిలో అగ్గి తెగులు. తామరగార్డ్ ఎకరానికి 180 మి.లీ, బ్లాస్ట్‌నిల్ ఎకరానికి 400 గ్రా "
    "చెప్పాను, రెండూ కొంటానన్నాడు.",
]


@pytest.mark.parametrize("note", NOTES)
def test_each_problem_keeps_the_crop_it_was_seen_on(note: str) -> None:
    visit = READER.read_visit(note, "KSA-FO-01", TODAY, MINE)
    assert visit.crop == "chilli" and set(visit.problems) == {"tamara-purugu", "aggi-tegulu"}
    assert visit.problem_crops == {"aggi-tegulu": "paddy"}
    assert visit.crop_of("tamara-purugu") == "chilli" and visit.crop_of("aggi-tegulu") == "paddy"
    # Blastnil's label is for paddy (120 g/acre): 400 g is above it, though the visit's crop is chilli.
    blastnil = next(a for a in visit.products if a.product_id == "KSA-FUN-02")
    assert (blastnil.label_dose, blastnil.above_label) == ("120 g/acre", True)


def test_the_card_and_the_narrative_say_which_crop_had_which_problem() -> None:
    visit = READER.read_visit(NOTES[0], "KSA-FO-01", TODAY, MINE)
    payload = {"visit": visit.model_dump(mode="json"), "territories": MINE, "lang": "en",
               "today": TODAY.isoformat()}
    card = VisitCard(READER).render("en", payload)
    assert "blast (aggi tegulu) (paddy)" in card and "thrips (tamara purugu) (" not in card
    story = visit_narrative(BOOK, visit)
    assert "Also seen: blast (aggi tegulu) (paddy)." in story
    assert "label dose 120 g/acre for paddy" in story and "above the label dose (120 g/acre for paddy)" in story


def test_memory_keeps_the_problem_crops_and_a_crop_shows_only_its_own_problems() -> None:
    visit = READER.read_visit(NOTES[1], "KSA-FO-01", TODAY, MINE)
    meta = visit_metadata(visit)
    assert meta["problem_crops"] == "aggi-tegulu=paddy"
    [fact] = read_facts([Recalled(text="", event_date=TODAY, document_id=visit.id, tags=[], metadata=meta,
                                  type="record")]).visits
    assert fact.problems_on("chilli") == ["tamara-purugu"] and fact.problems_on("paddy") == ["aggi-tegulu"]


def test_a_note_about_one_crop_keeps_every_problem_on_it() -> None:
    visit = READER.read_visit("Ramesh Goud chilli, thrips and leaf curl. Tamaraguard accepted.", "KSA-FO-01",
                              TODAY, MINE)
    assert visit.problem_crops == {} and visit.crop_of("muda") == "chilli"
