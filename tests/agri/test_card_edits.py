"""The Edit menu covers every field on the visit card, objection, dose and follow-up included; a partial name
that fits two farmers asks which; a value of the field's kind is applied, a whole note is not a value."""

from datetime import date, timedelta
from typing import Any

import pytest

from handlers.agri.cards import VISIT_FIELDS, VisitCard
from handlers.agri.extract import FieldReader
from handlers.agri.register import FieldBook

TODAY = date(2026, 9, 30)
TERRITORIES = ["chevella", "moinabad", "shankarpally", "vikarabad"]


@pytest.fixture(scope="module")
def card(book: FieldBook) -> VisitCard:
    return VisitCard(FieldReader(book))


def _payload(card: VisitCard, note: str) -> dict[str, Any]:
    visit = card.reader.read_visit(note, "O01", TODAY, TERRITORIES)
    return {"visit": visit.model_dump(mode="json"), "territories": TERRITORIES, "lang": "en",
            "today": TODAY.isoformat()}


def test_every_row_on_the_card_has_an_edit_field(card: VisitCard) -> None:
    payload = _payload(card, "Ramesh Goud chilli leaf blight 20%, Blitox 500 g per acre accepted")
    rows = [line.split(":")[0] for line in card.render("en", payload).splitlines()[1:]]
    # The objection is shown beside its product on the Products row, and is a field of its own in Edit.
    assert rows == [card.field_label("en", f) for f in VISIT_FIELDS if f != "objection"]
    assert "objection" in card.fields(payload) and "dose" in card.fields(payload)


def test_a_partial_name_fitting_two_farmers_asks_which(card: VisitCard) -> None:
    payload = _payload(card, "chilli leaf blight, Blitox accepted")
    with pytest.raises(ValueError) as asked:
        card.apply_edit(payload, "farmer", "ramesh")
    assert "Ramesh Goud (F001)" in str(asked.value) and "Ramesh Naik (F027)" in str(asked.value)
    edited = card.apply_edit(payload, "farmer", "ramesh goud")
    assert edited["visit"]["farmer_id"] == "F001"


def test_objection_dose_problems_and_followup_are_editable(card: VisitCard) -> None:
    payload = _payload(card, "Ramesh Goud chilli, Ulala and Blitox, both accepted")
    payload = card.apply_edit(payload, "objection", "Ulala dabbulu levu")
    products = {a["product_id"]: a for a in payload["visit"]["products"]}
    assert products["P002"]["objection"] == "money" and products["P001"]["objection"] is None
    payload = card.apply_edit(payload, "dose", "Ulala 200 g per acre")
    products = {a["product_id"]: a for a in payload["visit"]["products"]}
    assert (products["P002"]["dose"], products["P002"]["above_label"]) == ("200 g/acre", True)
    assert "60 g/acre" in card.render("en", payload) and "ABOVE" in card.render("en", payload)
    payload = card.apply_edit(payload, "dose", "Ulala 60 g/acre")
    assert not {a["product_id"]: a for a in payload["visit"]["products"]}["P002"]["above_label"]
    payload = card.apply_edit(payload, "issue", "leaf curl and thrips")
    assert payload["visit"]["problems"] == ["leaf-curl", "thrips"] and payload["visit"]["issue"] == "leaf-curl"
    assert card.apply_edit(payload, "followup", "10 days")["visit"]["followup_days"] == 10
    assert card.apply_edit(payload, "followup", "vachhe varam")["visit"]["followup_days"] == 7
    with pytest.raises(ValueError):
        card.apply_edit(payload, "dose", "a lot")


def test_a_whole_note_is_not_a_value_but_a_value_is(card: VisitCard) -> None:
    payload = _payload(card, "Ramesh Goud chilli leaf blight, Blitox accepted")
    note = "Venkatesh Yadav mirapa lo tamara purugu, Blitox vaddu annadu"
    for field in ("crop", "farmer", "issue", "products", "dose", "objection", "village"):
        assert not card.accepts_value(payload, field, note), field
    assert card.accepts_value(payload, "crop", "mirapa")
    assert card.accepts_value(payload, "farmer", "Ramesh Goud chilli")
    assert card.accepts_value(payload, "products", "Blitox accepted, Ulala rejected price")
    assert card.accepts_value(payload, "note", note)  # free text takes anything


@pytest.mark.parametrize(("said", "severity"), [
    ("high", "high"), ("Very High!", "high"), ("severe", "high"), ("Mild", "low"), ("low", "low"),
    ("medium", "medium"), ("ఎక్కువ", "high"), ("మధ్యస్థం", "medium"), ("తీవ్రంగా ఉంది", "high")])
def test_severity_takes_the_words_officers_use(card: VisitCard, said: str, severity: str) -> None:
    """Walk step (issue 28): the Severity field refused "high", the very word the card shows."""
    payload = _payload(card, "Ramesh Goud chilli leaf blight, Blitox accepted")
    assert card.apply_edit(payload, "severity", said)["visit"]["severity"] == severity


def test_a_refused_severity_lists_the_scale_in_the_users_language(card: VisitCard) -> None:
    payload = _payload(card, "Ramesh Goud chilli leaf blight, Blitox accepted")
    with pytest.raises(ValueError) as refused:
        card.apply_edit(payload, "severity", "purple")
    assert str(refused.value) == "agri.edit_bad_severity"
    from bot.services.i18n import text

    for lang, words in (("en", ("low", "medium", "high")), ("te", ("తక్కువ", "మధ్యస్థం", "ఎక్కువ"))):
        assert all(w in text(lang, "agri.edit_bad_severity") for w in words)


@pytest.mark.parametrize(("said", "back"), [
    ("today", 0), ("Yesterday", 1), ("ninna", 1), ("day before yesterday", 2), ("మొన్న", 2), ("4 days ago", 4),
    ("two days back", 2), ("3 rojula kritam", 3), ("1 week ago", 7),
    # TODAY is a Wednesday: a weekday is the most recent one, "last" one before today.
    ("Monday", 2), ("wednesday", 0), ("last Wednesday", 7), ("శుక్రవారం", 5), ("28-09-2026", 2), ("26 Sep", 4)])
def test_the_date_field_takes_days_as_officers_say_them(card: VisitCard, said: str, back: int) -> None:
    """Walk step (issue 28): the Date field refused "yesterday"."""
    payload = _payload(card, "Ramesh Goud chilli leaf blight, Blitox accepted")
    edited = card.apply_edit(payload, "date", said)
    assert date.fromisoformat(edited["visit"]["date"]) == TODAY - timedelta(days=back)
    assert f"-{TODAY - timedelta(days=back):%Y%m%d}-" in edited["visit"]["id"]


@pytest.mark.parametrize(("said", "reason"), [("tomorrow", "agri.edit_future_date"),
                                               ("05-10-2026", "agri.edit_future_date"),
                                               ("sometime", "agri.edit_bad_date")])
def test_a_visit_date_is_never_ahead_of_today(card: VisitCard, said: str, reason: str) -> None:
    payload = _payload(card, "Ramesh Goud chilli leaf blight, Blitox accepted")
    with pytest.raises(ValueError) as refused:
        card.apply_edit(payload, "date", said)
    assert str(refused.value) == reason
