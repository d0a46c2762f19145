"""The season benchmark's judge of a brief: it finds the last visit, a foreign citation and an invented date."""

from datetime import date

from bench.season_agri import Truth, judge_brief
from handlers.agri.models import Farmer

FARMER = Farmer(id="SZN-101", name="Bhadraiah Kummari", name_te="భద్రయ్య కుమ్మరి", village="chevella",
                crops=["chilli"])
NAMES = {"SZN-101": "Bhadraiah Kummari", "SZN-102": "Chinnamma Boya"}
TRUTHS = [Truth("n", "SZN-101", date(2026, 6, 15), "chilli", None, {}, None, None),
          Truth("n", "SZN-101", date(2026, 11, 19), "chilli", None, {}, None, None),
          Truth("n", "SZN-102", date(2026, 9, 24), "cotton", None, {}, None, None)]


def test_a_right_brief_scores_clean() -> None:
    text = ("• chilli thrips. [19 Nov 2026 · visit to Bhadraiah Kummari]\n"
            "• Chinnamma Boya: cotton controlled. [24 Sep 2026 · visit to Chinnamma Boya]")
    assert judge_brief(text, FARMER, TRUTHS, NAMES) == (True, 0, 0)


def test_foreign_citations_and_invented_dates_are_counted() -> None:
    text = ("• chilli thrips. [15 Jun 2026 · visit to Bhadraiah Kummari]\n"
            "• cotton pests. [24 Sep 2026 · visit to Chinnamma Boya]\n"
            "• chilli seen. [24 Sep 2026 · visit to Bhadraiah Kummari]\n"
            "• blight on 3 Mar 2026.")
    assert judge_brief(text, FARMER, TRUTHS, NAMES) == (False, 2, 1)
