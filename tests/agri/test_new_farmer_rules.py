"""New farmers, over generated names and the new-farmer corpus: nothing reaches the register before Save, a
farmer added is found again by the name as written (either script), and the corpus is read as the bench says."""

from datetime import date
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.agri_corpus import corpus_book
from bench.new_farmers import score
from bot.core.app import App
from handlers.agri.extract import FieldReader
from handlers.agri.farmer_add import farmer_record
from handlers.agri.newfarmer import NewFarmer, new_farmer_in, other_script_of
from handlers.agri.pack import AgriPack
from handlers.agri.register import FieldBook
from handlers.agri.registers import FieldBooks
from handlers.agri.translit import sound_key
from tests.agri.conftest import CAPTURE_TENANT, say
from tests.registers import seed_book

_LATIN = ["ra", "mu", "lu", "sa", "thai", "ven", "ka", "na", "bo", "du", "gan", "ta", "sri", "nu", "pe", "ddi",
          "ya", "da", "ki", "shor", "ja", "to", "ba", "lam", "vi", "go", "pi", "che", "ru", "mal", "lai", "ah"]
_TELUGU = ["రా", "ము", "లు", "స", "త్త", "య్య", "వెం", "క", "న్న", "బో", "డ", "సో", "మ", "గు", "లో", "భీ", "చె",
           "రు", "మ", "ల్లి", "గో", "పి", "జ", "తో", "బ", "లం", "వి", "కి", "శో", "ర్"]


def _word(syllables: list[str], capital: bool) -> st.SearchStrategy[str]:
    made = st.lists(st.sampled_from(syllables), min_size=2, max_size=4).map("".join)
    return made.map(lambda w: w[:1].upper() + w[1:]) if capital else made


names = st.one_of(
    st.lists(_word(_LATIN, True), min_size=1, max_size=3).map(" ".join),
    st.lists(_word(_TELUGU, False), min_size=1, max_size=2).map(" ".join),
)
BOOK = seed_book()
KNOWN = {sound_key(n) for f in BOOK.farmers.values() for n in (f.name, f.name_te, f.name.split()[0],
                                                                f.name_te.split()[0])}


@cache
def _seed_reader() -> FieldReader:
    return FieldReader(BOOK)


def _usable(name: str) -> bool:
    """A name the card would propose: no register term inside it, not a registered farmer's name."""
    reader = _seed_reader()
    return sound_key(name) not in KNOWN and not any(
        h for h in reader.terms.find(name.lower()) if not h.category.startswith("farmer"))


@settings(max_examples=25, deadline=None)
@given(name=names.filter(_usable), village=st.sampled_from(["chevella", "moinabad", "tandur"]),
       crop=st.sampled_from(["cotton", "chilli", "paddy"]))
def test_a_saved_new_farmer_is_found_again_by_the_name_as_written_and_in_the_other_script(
        name: str, village: str, crop: str) -> None:
    new = NewFarmer(name=name, other_script=other_script_of(name), village=village)
    farmer = farmer_record(BOOK, new, crop)
    book = FieldBook(list(BOOK.products.values()), BOOK.issue_book, list(BOOK.villages.values()),
                     [*BOOK.farmers.values(), farmer], list(BOOK.officers.values()))
    reader = FieldReader(book)
    assert name in (farmer.name, farmer.name_te) and farmer.id.isascii()
    for said in (name, new.other_script):
        assert [f.id for f in reader.farmers_named(said, [village])] == [farmer.id], said


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=names.filter(_usable), template=st.sampled_from([
    "Visited {} garu, cotton pink bollworm 10%", "{} గారి పొలంలో పత్తి, గులాబీ పురుగు",
    "farmer {} of Moinabad, chilli thrips", "{} polam lo mirchi, tamara purugu"]))
async def test_nothing_is_written_to_the_register_before_save(agri_app: App, pack: AgriPack, name: str,
                                                              template: str) -> None:
    books = FieldBooks(agri_app.services.database)
    version = books.store.version(CAPTURE_TENANT)
    farmers = set(pack.book_for(CAPTURE_TENANT).farmers)
    replies = await agri_app.conversation.handle(say("ravi", template.format(name)))
    assert books.store.version(CAPTURE_TENANT) == version
    assert set(pack.book_for(CAPTURE_TENANT).farmers) == farmers
    assert replies and all(r.card_id is None or "Save" in [b.label for b in r.flat_buttons()] for r in replies)


def test_the_new_farmer_corpus_is_read_as_the_bench_reports() -> None:
    report = score()
    assert report.rows >= 40
    assert report.scores["proposed"].accuracy >= 0.9, report.scores["proposed"].misses
    assert report.scores["name"].accuracy >= 0.9, report.scores["name"].misses
    assert report.scores["village"].accuracy >= 0.9, report.scores["village"].misses
    assert report.false_proposals <= 2


def test_a_fuller_name_than_a_registered_first_name_is_someone_new() -> None:
    reader = FieldReader(corpus_book())
    territories = ["miryalaguda", "nakrekal", "devarakonda", "chityal"]
    for note, expected in [("Ramulu Yadav garu, cotton, jassids on lower leaves", "Ramulu Yadav"),
                           ("రాములు యాదవ్ గారి పత్తి చేనులో పేనుబంక", "రాములు యాదవ్"),
                           ("Ramulu garu, cotton, jassids on lower leaves", None),
                           ("Ramulu Naik garu, cotton, jassids", None),
                           ("రాములు నాయక్ గారి పత్తి", None)]:
        visit = reader.read_visit(note, "O101", date(2026, 10, 1), territories)
        new = new_farmer_in(reader, note, visit, territories, "Shiva Prasad")
        assert (new.name if new else None) == expected, note
        assert new is None or visit.farmer_id is None or reader.book.farmers[visit.farmer_id].name != new.name


def test_the_registers_names_are_sounded_once_per_reader_not_once_per_note(monkeypatch: object) -> None:
    """Spotting a new farmer compares the note with every registered name by sound; those keys belong to the
    reader (its registers), so a second note reuses them (issue 30: per-message cost grew with the register)."""
    import handlers.agri.newfarmer as newfarmer
    calls: list[str] = []
    counted = newfarmer.sound_key
    monkeypatch.setattr(newfarmer, "sound_key", lambda s: (calls.append(s), counted(s))[1])  # type: ignore[attr-defined]
    reader = FieldReader(BOOK)
    note = "Visited Bhukya Somla garu in chevella, cotton pink bollworm, Proclaim accepted."
    first = new_farmer_in(reader, note, reader.read_visit(note, "O01", date(2026, 12, 1), ["chevella"]), ["chevella"])
    after_first = len(calls)
    second = new_farmer_in(reader, note, reader.read_visit(note, "O01", date(2026, 12, 1), ["chevella"]), ["chevella"])
    assert first == second
    assert len(calls) - after_first < len(BOOK.farmers)  # only the note's own words, never the register again
    assert after_first >= len(BOOK.farmers)
