"""Reactions, outcomes and timing read as officers phrase them (issue 28 B): a postponement with its reason, whose
product was used, results from percentages and "still there", crop age never the follow-up, and Edit fields that
accept the words the reader does. Notes are written here for these tests, in three scripts."""

from datetime import date

import pytest

from bench.agri_corpus import CORPUS
from handlers.agri.card_edits import edit_applied, edit_products, edit_result
from handlers.agri.extract import FieldReader
from handlers.agri.facts import read_facts
from handlers.agri.insights import Aggregator
from handlers.agri.models import Advice, Visit
from handlers.agri.narrative import outcome_memory, visit_memory
from handlers.agri.register import FieldBook
from handlers.agri.textmatch import normalise
from handlers.agri.timing import followup_days
from memory import Recalled

BOOK = FieldBook.from_folder(CORPUS)
READER = FieldReader(BOOK)
TODAY = date(2026, 11, 20)
VISIT = Visit(id="F101-20261020-abcdef", date=date(2026, 10, 20), officer_id="O101", farmer_id="F101",
              village="devarakonda", crop="cotton", issue="sucking-pests",
              products=[Advice(product_id="P102", reaction="accepted")])


@pytest.mark.parametrize("note", [
    "Ramulu Naik cotton, whitefly. Pegasus cheppanu, dabbulu levu, next week konta annadu.",
    "Ramulu Naik patti, tella doma. Pegasus - no money now, will buy after harvest.",
    "రాములు నాయక్ పత్తి, తెల్ల దోమ. పెగాసస్ చెప్పాను, డబ్బులు లేవు, వచ్చే వారం కొంటా అన్నాడు.",
    "Ramulu Naik cotton whitefly. Pegasus: cash ledu, dabbulu vachaka konta annadu.",
])
def test_a_postponement_keeps_its_reason(note: str) -> None:
    [advice] = READER.read_visit(note, "O101", TODAY).products
    assert (advice.reaction, advice.objection) == ("postponed", "money"), note


def test_a_price_objection_is_not_money() -> None:
    [advice] = READER.read_visit("Ramulu Naik cotton. Pegasus chala costly, vaddu annadu.", "O101", TODAY).products
    assert (advice.reaction, advice.objection) == ("rejected", "price")


@pytest.mark.parametrize(("answer", "result"), [
    ("90% control", "controlled"), ("Pegasus kottadu, 85 percent taggindi", "controlled"),
    ("about 50% control only", "partial"), ("still whitefly is there", "no_effect"),
    ("half the field still affected", "partial"), ("crop got damaged", "worse"), ("no use", "no_effect"),
    ("it worked", "controlled"), ("ఇంకా తెల్ల దోమ ఉంది", "no_effect"), ("పంట దెబ్బతింది", "worse"),
    ("ఏమీ ఉపయోగం లేదు", "no_effect"), ("పని చేసింది", "controlled"), ("upayogam ledu", "no_effect"),
    ("sagam polam lo inka undi", "partial"), ("panta debba tindi", "worse"), ("baga pani chesindi", "controlled"),
])
def test_results_as_officers_say_them(answer: str, result: str) -> None:
    assert READER.read_outcome(answer, VISIT, "O101", TODAY).result == result, answer


@pytest.mark.parametrize(("answer", "source"), [
    ("used the dealer's product, it got worse", "dealer"),
    ("dealer icchina mandu kottadu, taggaledu", "dealer"),
    ("డీలర్ ఇచ్చిన మందు కొట్టాడు, పెరిగింది", "dealer"),
    ("pakkanodi mandu vadadu, no use", "neighbour"),
    ("vere company mandu kottadu, 50% taggindi", "other"),
])
def test_someone_elses_product_is_not_ours(answer: str, source: str) -> None:
    outcome = READER.read_outcome(answer, VISIT, "O101", TODAY)
    assert (outcome.source, outcome.products) == (source, []), answer


def test_insights_do_not_count_the_dealers_product_against_ours() -> None:
    theirs = READER.read_outcome("used the dealer's product, it got worse", VISIT, "O101", TODAY)
    ours = READER.read_outcome("Pegasus kottadu, it got worse", VISIT, "O101", date(2026, 11, 21))
    assert ours.products == ["P102"] and ours.result == "worse"
    items = [visit_memory(BOOK, VISIT), outcome_memory(BOOK, theirs, VISIT.date)]
    recalled = [Recalled(text=i.content, event_date=i.event_time.date(), document_id=f"{i.document_id}-{n}",
                         tags=list(i.tags), metadata=dict(i.metadata), type="world") for n, i in enumerate(items)]
    facts = read_facts(recalled)
    assert facts.outcomes[0].source == "dealer"
    lines = Aggregator(BOOK, facts, "en", TODAY).works()
    assert not any("Pegasus" in line for line in lines), lines
    assert "dealer's product" in items[1].content


@pytest.mark.parametrize(("note", "days"), [
    ("Ramulu Naik cotton 70 days, pink bollworm. Delegate suggested, will check after 10 days", 10),
    ("Ramulu Naik cotton 70 days, pink bollworm. Delegate suggested. visit done", None),
    ("70 rojula panta, malli 10 rojulu tarvata vastanu", 10),
    ("పంట 60 రోజులు, 10 రోజుల తర్వాత మళ్ళీ వస్తాను", 10),
    ("45 days old crop, phone after 5 days", 5),
    ("paddy 30 days after transplanting, visit in 7 days", 7),
    ("cotton 70 days check", None),
])
def test_crop_age_is_never_the_followup(note: str, days: int | None) -> None:
    assert followup_days(normalise(note), TODAY) == days, note


@pytest.mark.parametrize(("note", "day"), [
    ("20/11 visit Ramulu Naik cotton whitefly", date(2026, 11, 20)),
    ("22-6-2026 Ramulu Naik cotton whitefly", date(2026, 6, 22)),
    ("8/7/26 Ramulu Naik cotton whitefly", date(2026, 7, 8)),
    ("17/7 Ramulu Naik cotton whitefly", date(2026, 7, 17)),
    ("12 November Ramulu Naik cotton whitefly", date(2026, 11, 12)),
    ("12 నవంబర్ రాములు నాయక్ పత్తి తెల్ల దోమ", date(2026, 11, 12)),
])
def test_a_date_at_the_start_is_the_visit_date(note: str, day: date) -> None:
    assert READER.read_visit(note, "O101", TODAY).date == day


def test_editing_a_reaction_to_postponed_keeps_the_objection() -> None:
    visit = VISIT.model_copy(update={"products": [Advice(product_id="P102", reaction="accepted", objection="money",
                                                         dose="240 g/acre")]})
    [bare] = edit_products(READER, visit, normalise("postponed"))
    [named] = edit_products(READER, visit, normalise("Pegasus postponed"))
    for advice in (bare, named):
        assert (advice.reaction, advice.objection) == ("postponed", "money")
    assert named.dose == "240 g/acre"


def test_the_result_field_accepts_what_the_reader_reads() -> None:
    assert edit_result(READER, normalise("worked"), "sucking-pests") == "controlled"
    assert edit_result(READER, normalise("90% control"), None) == "controlled"
    assert edit_result(READER, normalise("partial"), None) == "partial"
    with pytest.raises(ValueError):
        edit_result(READER, normalise("Ramulu"), None)
    assert edit_applied(READER, normalise("dealer's product")) == {"products": [], "source": "dealer"}


def test_a_crop_renamed_by_the_register_is_named_so_in_narratives() -> None:
    from handlers.agri.models import Crop, Outcome

    renamed = FieldBook(list(BOOK.products.values()), BOOK.issue_book, list(BOOK.villages.values()),
                        list(BOOK.farmers.values()), list(BOOK.officers.values()),
                        crops=[Crop(id="cotton", name="Kapas (BT cotton)", name_te="పత్తి")])
    visit = VISIT.model_copy(update={"products": [Advice(product_id="P102", reaction="accepted", dose="900 g/acre",
                                                         label_dose="240 g/acre", above_label=True)]})
    text = visit_memory(renamed, visit).content
    assert "Crop: Kapas (BT cotton)" in text and "for Kapas (BT cotton))" in text
    outcome = Outcome(visit_id=VISIT.id, date=TODAY, officer_id="O101", farmer_id="F101", village="devarakonda",
                      crop="cotton", issue="sucking-pests", products=["P102"], result="controlled")
    assert "The Kapas (BT cotton) " in outcome_memory(renamed, outcome, VISIT.date).content


def test_a_register_problem_is_read_as_officers_shorten_it_and_a_telugu_gram_dose() -> None:
    from handlers.agri.models import Issue, IssueBook

    issues = [Issue(id="murda", name="Leaf curl (murda)", name_te="ఆకు ముడత తెగులు", crops=["chilli"]),
              Issue(id="tikka", name="Tikka leaf spot", name_te="టిక్కా ఆకుమచ్చ తెగులు", crops=["groundnut"])]
    book = FieldBook(list(BOOK.products.values()), IssueBook(issues=[*BOOK.issue_book.issues, *issues]), list(BOOK.villages.values()),
                     list(BOOK.farmers.values()), list(BOOK.officers.values()))
    reader = FieldReader(book)
    assert "murda" in reader.read_visit("Ramulu Naik chilli, leaf curl on one side", "O101", TODAY).problems
    assert reader.read_visit("Ramulu Naik mirchi lo murda", "O101", TODAY).problems == ["murda"]
    assert reader.read_visit("రాములు నాయక్ వేరుశనగ లో టిక్కా ఆకుమచ్చ", "O101", TODAY).problems == ["tikka"]
    [advice] = READER.read_visit("రాములు నాయక్ పత్తి, డెలిగేట్ 60 గ్రా ఎకరానికి తీసుకున్నాడు", "O101", TODAY).products
    assert advice.dose == "60 g/acre"
