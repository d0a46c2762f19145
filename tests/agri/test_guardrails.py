"""Guardrails: catalogue products and doses only, claim dates from memory only, and dates in free text
(pitch, checks, avoid) checked the same way, in English and Telugu script."""

from datetime import date

from handlers.agri.brief_models import BriefDraft, DraftClaim, DraftProduct
from handlers.agri.guardrails import guard_brief, strip_unknown_dates
from handlers.agri.register import FieldBook

KNOWN = {date(2026, 4, 8): ["visit:V002"], date(2026, 5, 2): ["outcome:V007"], date(2026, 4, 21): ["visit:V007"]}
MARK = "[date removed]"


def test_invented_year_in_free_text_pitch_is_stripped_and_listed(book: FieldBook) -> None:
    # The write-up's unfixed lesson: "see 2024-05-02 result", a year the model invented, in the pitch.
    draft = BriefDraft(products=[DraftProduct(id="P001", pitch="Controlled after two sprays, see 2024-05-02 result.")])
    guarded = guard_brief(book, draft, KNOWN, ["chilli", "cotton"], MARK)
    assert "2024" not in guarded.products[0].pitch
    assert guarded.products[0].pitch == f"Controlled after two sprays, see {MARK} result."
    assert guarded.unverified == ["pitch for Blitox 50: 2024-05-02"]


def test_known_dates_in_free_text_survive_in_any_written_form(book: FieldBook) -> None:
    pitch = "It worked on 2 May 2026 (2026-05-02); he said yes on April 21 and on 8 ఏప్రిల్ 2026 he refused."
    result = strip_unknown_dates(pitch, set(KNOWN), MARK)
    assert result.text == pitch and result.removed == []


def test_telugu_and_day_month_dates_not_in_memory_are_stripped(book: FieldBook) -> None:
    draft = BriefDraft(checks=["ఆకు ఎండు తెగులు 15 జూన్ 2026 న కనబడింది", "Check the blight seen on 3 March"],
                       avoid=["Amistar Top: refused on 8 Apr 2026"])
    guarded = guard_brief(book, draft, KNOWN, ["chilli"], MARK)
    assert guarded.checks == [f"ఆకు ఎండు తెగులు {MARK} న కనబడింది", f"Check the blight seen on {MARK}"]
    assert guarded.avoid == ["Amistar Top: refused on 8 Apr 2026"]
    assert guarded.unverified == ["check: 15 జూన్ 2026", "check: 3 March"]


def test_claim_with_a_date_not_recalled_loses_its_date_and_is_flagged(book: FieldBook) -> None:
    draft = BriefDraft(claims=[
        DraftClaim(text="Rejected Amistar Top on price.", source_date=date(2026, 4, 8), document_id="visit:V002"),
        DraftClaim(text="Blight came back in June.", source_date=date(2026, 6, 15), document_id="visit:V099"),
        DraftClaim(text="Blitox controlled blight.", source_date=date(2026, 5, 2), document_id="visit:V123"),
    ])
    guarded = guard_brief(book, draft, KNOWN, ["chilli"], MARK)
    assert [(c.source_date, c.document_id) for c in guarded.claims] == [
        (date(2026, 4, 8), "visit:V002"), (None, None), (date(2026, 5, 2), "outcome:V007")]
    assert guarded.unverified == ["claim: Blight came back in June. (cited 2026-06-15, not in memory)"]


def test_products_outside_the_catalogue_or_label_and_invented_doses_are_removed(book: FieldBook) -> None:
    draft = BriefDraft(products=[
        DraftProduct(id="P999", pitch="A new miracle spray."),
        DraftProduct(id="P014", pitch="Blast fungicide."),  # paddy only; the farmer grows chilli and cotton
        DraftProduct(id="P001", pitch="Cheap and it works.", dosage="2 kg/acre"),
        DraftProduct(id="P002", pitch="For hoppers.", dosage="60 g / acre", crop="cotton"),
        DraftProduct(id="P005", pitch="Cheap."), DraftProduct(id="P012", pitch="Fourth one."),
    ])
    guarded = guard_brief(book, draft, KNOWN, ["chilli", "cotton"], MARK)
    assert [(p.id, p.dosage) for p in guarded.products] == [
        ("P001", "500 g/acre (chilli)"), ("P002", "60 g/acre (cotton)"), ("P005", "40 ml/acre (chilli)")]
    assert guarded.products[0].price == "Rs 420 per 500 g"
    assert guarded.unverified == [
        "product: P999 is not in the catalogue",
        "product: Beam is not labelled for chilli, cotton",
        "dosage: 2 kg/acre for Blitox 50 is not a catalogue dose",
    ]
