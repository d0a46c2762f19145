"""A tenant's register that keys problems its own way reads them with every built-in word for the same problem,
and a note that names no crop of a farmer with several is about the crop its problem (or product) fits; Bengal
gram is a crop the pack knows in both scripts."""

from datetime import date

import pytest

from handlers.agri.extract import FieldReader
from handlers.agri.models import Farmer, Issue, IssueBook, Officer, Product, Village
from handlers.agri.register import FieldBook

TODAY = date(2026, 11, 2)


def _book() -> FieldBook:
    issues = IssueBook(issues=[
        Issue(id="gp", name="pink bollworm", name_te="గులాబీ రంగు పురుగు", crops=["cotton"]),
        Issue(id="tella-doma", name="whitefly", name_te="తెల్ల దోమ", crops=["cotton", "chilli"]),
        Issue(id="pk", name="pod borer", name_te="కాయ తొలుచు పురుగు", crops=["redgram", "bengal gram", "cotton"]),
    ])
    products = [Product(id="X-1", name="Boltin", active_ingredient="emamectin", kind="insecticide", tier="standard",
                        price_rs=400, pack_size="100 g", dosage={"cotton": "90 g/acre"}, problems=["gp"])]
    villages = [Village(slug="ravulapalem", name="Ravulapalem", name_te="రావులపాలెం", mandal="Ravulapalem")]
    farmers = [Farmer(id="X-F1", name="Ganta Bhaskar", name_te="గంట భాస్కర్", village="ravulapalem",
                      crops=["cotton", "redgram"]),
               Farmer(id="X-F2", name="Pilli Suramma", name_te="పిల్లి సూరమ్మ", village="ravulapalem",
                      crops=["Bengal gram", "maize"])]
    return FieldBook(products, issues, villages, farmers, [Officer(id="X-O", name="Ravi", territories=["ravulapalem"])])


READER = FieldReader(_book())


@pytest.mark.parametrize("note, problem", [
    ("Ganta Bhaskar garu polam lo gulabi purugu ekkuva, traps lo 20 rekkala purugulu.", "gp"),
    ("గంట భాస్కర్ గారి చేనులో గులాబీ పురుగు కనిపించింది.", "gp"),
    ("Ganta Bhaskar, PBW rosette flowers seen.", "gp"),
    ("Ganta Bhaskar garu, pacha doma ekkuva undi.", "tella-doma"),
])
def test_a_register_problem_is_read_by_the_builtin_words_for_it_and_gives_the_crop(note: str, problem: str) -> None:
    visit = READER.read_visit(note, "X-O", TODAY, ["ravulapalem"])
    assert visit.farmer_id == "X-F1"
    assert problem in visit.problems, visit.problems
    if problem == "gp":
        # Pink bollworm is a cotton problem: of his cotton and redgram, the note is about his cotton.
        assert visit.crop == "cotton"


def test_a_product_labelled_for_one_of_his_crops_gives_the_crop() -> None:
    visit = READER.read_visit("Ganta Bhaskar ki Boltin cheppanu, teesukunnadu.", "X-O", TODAY, ["ravulapalem"])
    assert visit.crop == "cotton"


def test_a_problem_of_two_of_his_crops_leaves_the_crop_to_the_officer() -> None:
    visit = READER.read_visit("Ganta Bhaskar polam lo kaya tolichu purugu.", "X-O", TODAY, ["ravulapalem"])
    assert visit.crop is None  # pod borer: both his cotton and his redgram may have it
    visit = READER.read_visit("Ganta Bhaskar, no problem seen today.", "X-O", TODAY, ["ravulapalem"])
    assert visit.crop is None


@pytest.mark.parametrize("note", ["Pilli Suramma senagalu lo pod borer.", "పిల్లి సూరమ్మ శనగలో కాయ తొలుచు పురుగు.",
                                  "Pilli Suramma chickpea, pod borer."])
def test_bengal_gram_is_known_in_both_scripts(note: str) -> None:
    visit = READER.read_visit(note, "X-O", TODAY, ["ravulapalem"])
    assert visit.crop == "bengal-gram" and visit.problems == ["pk"]
