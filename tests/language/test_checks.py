"""The language check itself: it must catch an English catalogue message with its placeholders filled, a stray
English word and a date in another form, and pass a Telugu card whose names, ids and dates stay as they are."""

from datetime import date

from bot.services.i18n import show_date, text
from handlers.agri.register import FieldBook
from tests.language.script import english_leaks, english_messages, is_english, not_telugu

DAY = date(2026, 4, 8)


def test_an_english_message_with_its_placeholders_filled_is_caught(book: FieldBook) -> None:
    sent = text("en", "agri.followup_scheduled", farmer="రమేష్ గౌడ్", date=show_date("te", DAY), days=14)
    assert "agri.followup_scheduled" in english_leaks(sent, book, [])
    assert not_telugu([sent], book, [])
    assert "core.button_save" in english_leaks(f"{text('te', 'core.card_saved')} Save", book, [])


def test_a_telugu_card_with_names_ids_numbers_and_dates_passes(book: FieldBook) -> None:
    card = "\n".join([
        text("te", "agri.visit_card_title", extractor=text("te", "agri.extractor_rules")),
        f"{text('te', 'agri.field_farmer')}: {book.farmer_name('F001', 'te')} (F001)",
        f"{text('te', 'agri.field_products')}: Blitox 50 (P001): {text('te', 'agri.reaction_accepted')}",
        f"{text('te', 'agri.field_severity')}: {text('te', 'agri.severity_high')} (40%)",
        f"{text('te', 'agri.field_date')}: {show_date('te', DAY)} · "
        f"{text('te', 'agri.cited_visit_of', farmer=book.farmer_name('F001', 'te'))}",
    ])
    assert not_telugu([card], book, []) == {}
    assert not is_english(card, book, [])


def test_a_raw_record_id_is_caught(book: FieldBook) -> None:
    cited = f"{text('te', 'core.card_saved')} [{show_date('te', DAY)} · visit:F001-20260408-a954e6]"
    assert not_telugu([cited], book, [])[cited] == ["raw record id: visit:F001-20260408-a954e6"]


def test_stray_english_words_and_dates_in_other_forms_are_caught(book: FieldBook) -> None:
    telugu = text("te", "core.card_saved")
    dose = f"{telugu} 500 g/acre"
    assert not_telugu([dose], book, [])[dose] == ["english message agri.unit_acre", "not Telugu: acre"]
    for other in (DAY.isoformat(), show_date("en", DAY)):
        dated = f"{telugu} {other}"
        assert any(why.startswith("date not in Telugu form") for why in not_telugu([dated], book, [])[dated])
    echoed = f'{text("te", "agri.heard", transcript="Ramesh mirapa tegulu")}'
    assert not_telugu([echoed], book, ["Ramesh mirapa tegulu"]) == {}  # the user's own words stay as said
    assert not_telugu([echoed], book, [])


def test_every_english_message_with_words_becomes_a_pattern() -> None:
    patterns = english_messages()
    assert "core.card_saved" in patterns and "agri.price" in patterns
    assert "agri.claim_visit" not in patterns  # "{crop} {issue}{extent}. {actions}": nothing but placeholders
    assert patterns["agri.price"].search("Rs 1,200 per 1 L")
