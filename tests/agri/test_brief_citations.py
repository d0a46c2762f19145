"""Briefs speak of people by name and visits by date (issue 28): a claim cites "12 Oct 2026 · visit to Ramesh
Goud", never a record id; no pronoun the register does not give; a brief for a farmer whose last problem was on a
crop no longer in the register composes (it crashed with an IndexError in the composer)."""

import re
from datetime import date

from handlers.agri.brief_models import Brief, Claim, FarmerRef, RecalledCounts
from handlers.agri.compose import Composer
from handlers.agri.facts import Facts, VisitFact
from handlers.agri.register import FieldBook
from handlers.agri.render import brief_text, cited

RAW_ID = re.compile(r"\b(?:visit|outcome):[A-Za-z0-9-]+")


def test_a_claim_cites_the_visit_by_date_and_farmer_name(book: FieldBook) -> None:
    brief = Brief(farmer=FarmerRef(id="F001", name="Ramesh Goud", village="chevella", crops=["chilli"]),
                  as_of=date(2026, 11, 1), memory="on", claims=[
                      Claim(text="Blight 30%", source_date=date(2026, 10, 12), document_id="visit:F001-20261012-ab12cd"),
                      Claim(text="Controlled", source_date=date(2026, 10, 30),
                            document_id="outcome:F002-20261012-ab12cd"),
                      Claim(text="Elsewhere", source_date=date(2026, 10, 2), document_id="note:xyz")],
                  products=[], avoid=[], checks=[], confidence="medium", recalled=RecalledCounts(farmer=1, similar=1),
                  unverified=[], composer="template", notes=[])
    for lang in ("en", "te"):
        shown = brief_text(book, brief, lang)
        assert not RAW_ID.search(shown), shown
    shown = brief_text(book, brief, "en")
    assert "visit to Ramesh Goud" in shown and "follow-up of Venkatesh Yadav" in shown and "a record" in shown
    assert cited(book, "visit:ZZ9-20261012-ab12cd", "en") == "a visit"


def test_no_default_pronoun_in_brief_lines(book: FieldBook) -> None:
    for key in ("pitch_own", "avoid_failed"):
        from bot.services.i18n import catalogue
        assert not re.search(r"\b(?:his|him|he)\b", catalogue("en")[f"agri.{key}"]), key


def test_a_brief_whose_current_problem_is_on_a_crop_the_farmer_no_longer_grows_composes(book: FieldBook) -> None:
    farmer = book.farmers["F007"]  # cotton only in the register
    seen = VisitFact(day=date(2026, 9, 1), document_id="visit:F007-20260901-aaaaaa", visit_id="F007-20260901-aaaaaa",
                     farmer_id="F007", village=farmer.village, crop="paddy", issue="blast", severity_pct=20,
                     accepted=[], rejected=[], undecided=[], objections={}, neighbour=False, problems=["blast"])
    draft = Composer(book, "en", farmer, Facts(visits=[seen]), Facts(), date(2026, 10, 1)).draft()
    assert draft.products  # Beam or Nativo for the paddy blast, pitched without crashing


def test_the_command_line_takes_an_as_of_date_as_offices_write_it() -> None:
    import argparse

    import pytest

    from handlers.agri.cli import as_of_day
    assert as_of_day("2026-12-04") == as_of_day("04-12-2026") == as_of_day("4/12/2026") == date(2026, 12, 4)
    with pytest.raises(argparse.ArgumentTypeError):
        as_of_day("sometime")
