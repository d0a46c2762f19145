"""One identity per farmer (issue 28): a name as officers say it resolves to the registered farmer when exactly
one fits in the officer's villages, asks which when several fit, and proposes a new farmer only when none does,
saying who it is close to. The register here is written for this test (not from seeds/)."""

from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.app import App
from handlers.agri.pack import AgriPack
from tests.agri.conftest import CAPTURE_TENANT, say

from handlers.agri.extract import FieldReader
from handlers.agri.models import Farmer, Village
from handlers.agri.newfarmer import new_farmer_in
from handlers.agri.register import FieldBook
from handlers.agri.translit import latin_to_telugu
from tests.registers import seed_book

TODAY = date(2026, 11, 20)
VILLAGES = [Village(slug="nadigudem", name="Nadigudem", name_te="నడిగూడెం", mandal="Nadigudem"),
            Village(slug="munagala", name="Munagala", name_te="మునగాల", mandal="Munagala"),
            Village(slug="kodad", name="Kodad", name_te="కోదాడ", mandal="Kodad")]
FARMERS = [
    Farmer(id="NF01", name="Vemula Anjaiah", name_te="వేముల అంజయ్య", village="nadigudem", crops=["chilli"]),
    Farmer(id="NF02", name="Erra Ramulamma", name_te="ఎర్ర రాములమ్మ", village="munagala", crops=["cotton"]),
    Farmer(id="NF03", name="Banoth Lachya", name_te="బానోత్ లచ్యా", village="kodad", crops=["paddy"]),
    Farmer(id="NF04", name="Gaddam Anjaiah", name_te="గడ్డం అంజయ్య", village="munagala", crops=["cotton"]),
    Farmer(id="NF05", name="Vemula Sattemma", name_te="వేముల సత్తెమ్మ", village="nadigudem", crops=["paddy"]),
]
ALL = ["nadigudem", "munagala", "kodad"]


def _book(farmers: list[Farmer] = FARMERS, villages: list[Village] = VILLAGES) -> FieldBook:
    seed = seed_book()
    return FieldBook(list(seed.products.values()), seed.issue_book, villages, farmers, [])


READER = FieldReader(_book())


def _ids(names: list[Farmer]) -> list[str]:
    return sorted(f.id for f in names)


def test_a_name_as_officers_say_it_resolves_to_the_one_farmer() -> None:
    for said, farmer in [("Ramulamma", "NF02"), ("ramulamma garu", "NF02"), ("Ramulamma Erra", "NF02"),
                         ("Erra Ramulamma gaaru", "NF02"), ("E. Ramulamma", "NF02"), ("రాములమ్మ గారు", "NF02"),
                         ("Ramulama", "NF02"), ("Lachya anna", "NF03"), ("Lachiya", "NF03"),
                         ("Nadigudem Anjaiah garu", "NF01"), ("V. Anjaiah", "NF01"), ("Anjayya Vemula", "NF01"),
                         ("Sattemma akka", "NF05"), ("Munagala Anjaiah", "NF04"), ("G Anjaiah", "NF04")]:
        assert _ids(READER.farmers_named(said, ALL)) == [farmer], said


def test_a_name_that_fits_several_returns_them_all_and_territory_narrows() -> None:
    assert _ids(READER.farmers_named("Anjaiah garu", ALL)) == ["NF01", "NF04"]
    assert _ids(READER.farmers_named("Vemula", ALL)) == ["NF01", "NF05"]
    # The officer's villages decide: only one Anjaiah is in Nadigudem.
    assert _ids(READER.farmers_named("Anjaiah", ["nadigudem"])) == ["NF01"]
    # A farmer outside the officer's villages is not found at all (never named in a refusal).
    assert READER.farmers_named("Lachya", ["nadigudem"]) == []


def test_no_fit_is_nobody_and_a_different_surname_is_someone_else() -> None:
    assert READER.farmers_named("Pedda Somaiah", ALL) == []
    assert READER.farmers_named("Anjaiah Reddy", ALL) == []  # Anjaiah, but neither registered Anjaiah
    assert READER.farmers_named("K. Anjaiah", ALL) == []  # an initial that is neither's surname


def test_notes_name_the_registered_farmer_and_never_propose_a_new_one() -> None:
    for note, farmer in [("Nadigudem Anjaiah garu mirchi thota lo thrips ekkuva, actara cheppanu", "NF01"),
                         ("Ramulamma garu patti lo pink bollworm 10%", "NF02"),
                         ("Lachya ki vari lo dompa purugu, spray cheyamani cheppanu", "NF03"),
                         ("రాములమ్మ గారి పత్తి పొలంలో గులాబీ పురుగు", "NF02"),
                         ("Visited V. Anjaiah, chilli leaf curl", "NF01")]:
        visit = READER.read_visit(note, "O1", TODAY, ALL)
        assert visit.farmer_id == farmer, note
        assert new_farmer_in(READER, note, visit, ALL) is None, note


def test_a_note_naming_a_shared_first_name_leaves_the_choice_to_the_officer() -> None:
    note = "Anjaiah garu polam chusanu, aakulu pasupu"
    visit = READER.read_visit(note, "O1", TODAY, ALL)
    assert visit.farmer_id is None
    assert new_farmer_in(READER, note, visit, ALL) is None
    assert _ids(READER.farmer_choices(note, ALL)) == ["NF01", "NF04"]
    # The crop the note names picks the Anjaiah who grows it.
    assert READER.read_visit("Anjaiah garu mirchi lo thrips", "O1", TODAY, ALL).farmer_id == "NF01"


def test_a_new_farmer_is_proposed_with_the_registered_names_close_to_it() -> None:
    note = "Visited Ramulamma Gaddi garu, cotton pink bollworm"
    visit = READER.read_visit(note, "O1", TODAY, ["munagala"])
    new = new_farmer_in(READER, note, visit, ["munagala"])
    assert new is not None and new.name == "Ramulamma Gaddi"
    assert "NF02" in new.close_to


def test_a_neighbour_named_in_a_note_is_not_the_visit_farmer() -> None:
    visit = READER.read_visit("Sattemma vari polam, pakkana Lachya polam lo kuda dompa purugu", "O1", TODAY, ALL)
    assert visit.farmer_id == "NF05"


# --- property: a generated name variant of a registered farmer never creates a new farmer -----------------

_SYLLABLES = [["ra", "mu", "lu"], ["ven", "ka", "tes"], ["pul", "lam", "ma"], ["nar", "si", "mha"],
              ["bik", "sha", "pa"], ["dur", "ga", "mma"], ["yel", "lai", "ah"], ["so", "ma", "iah"]]
_SURNAMES = ["Vemula", "Gaddam", "Banoth", "Erra", "Kota", "Pedda"]
_HONORIFIC = ["", " garu", " gaaru", " anna", " akka", " amma", " bava", " గారు"]


@st.composite
def _register_and_variant(draw: st.DrawFn) -> tuple[list[Farmer], Farmer, str]:
    count = draw(st.integers(min_value=2, max_value=6))
    given = [f"{''.join(s).capitalize()}" for s in _SYLLABLES[:count]]
    farmers = []
    for i, name in enumerate(given):
        surname = draw(st.sampled_from(_SURNAMES))
        full = f"{surname} {name}"
        farmers.append(Farmer(id=f"G{i:02d}", name=full, name_te=latin_to_telugu(full),
                              village=VILLAGES[i % 3].slug, crops=["paddy"]))
    target = draw(st.sampled_from(farmers))
    surname, name = target.name.split()
    te_surname, te_name = target.name_te.split()
    form = draw(st.sampled_from(["first", "surname_first", "given_first", "initial", "village", "telugu",
                                 "misspelt"]))
    if form == "first":
        said = name
    elif form == "surname_first":
        said = f"{surname} {name}"
    elif form == "given_first":
        said = f"{name} {surname}"
    elif form == "initial":
        said = f"{surname[0]}. {name}"
    elif form == "village":
        said = f"{next(v.name for v in VILLAGES if v.slug == target.village)} {name}"
    elif form == "telugu":
        said = te_name if draw(st.booleans()) else f"{te_surname} {te_name}"
    else:
        at = draw(st.integers(min_value=1, max_value=len(name) - 2))
        said = name[:at] + name[at] * 2 + name[at + 1:]  # one doubled letter, as typed in a hurry
    said += draw(st.sampled_from(_HONORIFIC))
    return farmers, target, said


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_register_and_variant())
def test_a_name_variant_of_a_registered_farmer_never_creates_a_new_farmer(
        case: tuple[list[Farmer], Farmer, str]) -> None:
    farmers, target, said = case
    reader = FieldReader(_book(farmers))
    # Exactly one registered farmer fits by construction (given names are distinct).
    assert [f.id for f in reader.farmers_named(said, ALL)] == [target.id], said
    note = f"{said} vari polam chusanu, dompa purugu, spray cheyamani cheppanu"
    visit = reader.read_visit(note, "O1", TODAY, ALL)
    assert new_farmer_in(reader, note, visit, ALL, "Officer") is None, note
    assert visit.farmer_id == target.id, note


# --- in chat: the brief and the card find the farmer by the name officers use -----------------------------

@pytest.mark.hindsight
async def test_chat_asks_which_farmer_with_buttons_and_briefs_by_first_name(agri_app: App, pack: AgriPack) -> None:
    pack.books.add_farmer(CAPTURE_TENANT, Farmer(id="F901", name="Vemula Anjaiah", name_te="వేముల అంజయ్య",
                                                 village="moinabad", crops=["cotton"]))
    conv = agri_app.conversation
    # Seeds have Anjaiah Goud (Chevella) too: both are Ravi's, so the card asks which, with a button each.
    [card] = await conv.handle(say("ravi", "Anjaiah garu polam chusanu, aakulu pasupu ga unnayi"))
    assert "new" not in card.text.lower()
    labels = [b.label for b in card.flat_buttons()]
    assert any("Vemula Anjaiah" in label for label in labels) and any("Anjaiah Goud" in label for label in labels)
    chosen = next(b.data for b in card.flat_buttons() if "Vemula Anjaiah" in b.label)
    [shown] = await conv.handle(say("ravi", callback=chosen))
    assert "Vemula Anjaiah (F901)" in shown.text and shown.replaces_card
    # A stale or foreign tap changes nothing.
    [foreign] = await conv.handle(say("sita", callback=chosen))
    assert "Vemula" not in foreign.text
    # /brief by first name with village, by surname-first, and in Telugu: the registered farmer.
    for query in ("Moinabad Anjaiah", "Anjaiah Vemula garu", "వేముల అంజయ్య"):
        [brief] = await conv.handle(say("ravi", f"/brief {query}"))
        assert "Vemula Anjaiah" in brief.text, query
    [several] = await conv.handle(say("ravi", "/brief Anjaiah"))
    assert "Vemula Anjaiah" in several.text and "Anjaiah Goud" in several.text
    # "రాములు" is the whole name of a Shankarpally farmer (not Sita's) and the first name of hers in Chevella.
    pack.books.add_farmer(CAPTURE_TENANT, Farmer(id="F902", name="Bomma Ramulu", name_te="బొమ్మ రాములు",
                                                 village="chevella", crops=["paddy"]))
    [own] = await conv.handle(say("sita", "/brief రాములు"))
    assert "బొమ్మ రాములు" in own.text and "(F902)" in own.text


def test_a_village_and_first_name_of_ones_own_farmer_beats_a_full_name_elsewhere() -> None:
    farmers = [*FARMERS, Farmer(id="NF06", name="Anjaiah", name_te="అంజయ్య", village="kodad", crops=["paddy"])]
    reader = FieldReader(_book(farmers))
    # "Anjaiah" is NF06's whole name, but he is not in this officer's villages; the Nadigudem Anjaiah is.
    question = "Nadigudem Anjaiah mirchi lo thrips ela undi?"
    assert reader.farmer_in(question, ["nadigudem", "munagala"]) == farmers[0]
    assert reader.farmer_in("నడిగూడెం అంజయ్య మిరప", ["nadigudem", "munagala"]) == farmers[0]
    # Both in the officer's villages: the village written first decides, the card never contradicts itself.
    visit = reader.read_visit("నడిగూడెం అంజయ్య మిరప తోటలో తామర పురుగు", "O1", TODAY, ALL)
    assert (visit.farmer_id, visit.village) == ("NF01", "nadigudem")
    assert reader.read_visit("Anjaiah vari polam lo dompa purugu", "O1", TODAY, ALL).farmer_id == "NF06"


def test_a_first_name_that_is_another_villages_whole_name_finds_the_officers_own_farmer() -> None:
    farmers = [*FARMERS, Farmer(id="NF06", name="Anjaiah", name_te="అంజయ్య", village="kodad", crops=["paddy"])]
    reader = FieldReader(_book(farmers))
    assert _ids(reader.farmers_named("అంజయ్య", ["nadigudem"])) == ["NF01"]
    assert _ids(reader.farmers_named("Anjaiah", ["kodad"])) == ["NF06"]
    assert _ids(reader.farmers_named("Anjaiah", ALL)) == ["NF06"]  # the whole name, all villages his officer's
