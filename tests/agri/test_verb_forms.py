"""The keyless reader reads a farmer's answer from the form of the verb, over generated notes: Telugu verbs with
the reflexive and causative between root and ending (both scripts), English modals and pasts of getting a
product, negated spraying; a condition leaves the answer open and gives the objection it names; a put-off until
money or stock comes is postponed for that reason; a follow-up answer with a negated verb form applied nothing."""

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.agri_corpus import CORPUS
from handlers.agri.extract import FieldReader
from handlers.agri.models import Advice, Product, Visit
from handlers.agri.register import FieldBook

BOOK = FieldBook.from_folder(CORPUS)
READER = FieldReader(BOOK)
TODAY = date(2026, 10, 14)
_PRODUCTS = [p for p in BOOK.products.values() if p.dosage]


def _advice(product: Product, answer: str) -> Advice:
    crop = next(iter(product.dosage))
    farmer = next(f for f in BOOK.farmers.values() if crop in f.crops)
    note = f"{farmer.name} {crop}. {product.name} cheppanu. {answer}"
    [advice] = [a for a in READER.read_visit(note, "O101", TODAY, None).products if a.product_id == product.id]
    return advice


_LATIN_ROOTS = ["ves", "vaad", "tech", "kottinch", "teppinch"]
_PERSONS = ["nu", "du", "di", "ru"]


@settings(max_examples=40, deadline=None)
@given(product=st.sampled_from(_PRODUCTS), root=st.sampled_from(_LATIN_ROOTS), person=st.sampled_from(_PERSONS),
       said=st.sampled_from(["{v}", "{v} annadu", "repu {v}"]))
def test_a_reflexive_future_in_latin_letters_is_an_acceptance(product, root, person, said) -> None:  # type: ignore[no-untyped-def]
    verb = f"{root}ukunta{person}"  # vesukuntadu, techukuntanu, teppinchukuntaru: will get / apply it himself
    assert _advice(product, said.format(v=verb)).reaction == "accepted", verb


@settings(max_examples=40, deadline=None)
@given(product=st.sampled_from(_PRODUCTS),
       verb=st.sampled_from(["kottistanu", "kottistadu", "teppistadu", "konukkuntadu", "kottinchadu",
                             "vesukunnadu", "techukundi", "వేసుకుంటాడు", "తెచ్చుకుంటాను", "కొట్టిస్తాడు",
                             "కొట్టించుకుంటారు", "వాడుకుంటాను", "కొట్టించాడు", "తెచ్చుకున్నాడు", "వేసుకుంది"]))
def test_causative_and_reflexive_forms_in_both_scripts_are_an_acceptance(product, verb) -> None:  # type: ignore[no-untyped-def]
    assert _advice(product, f"{verb} annadu.").reaction == "accepted", verb


@settings(max_examples=40, deadline=None)
@given(product=st.sampled_from(_PRODUCTS),
       verb=st.sampled_from(["veyyaledu", "vesukoledu", "kottinchaledu", "teppinchaledu", "techukoledu",
                             "kottinchukoledu", "pichikari cheyyaledu", "teesukonu antunnadu", "vesukodu",
                             "వేసుకోలేదు", "కొట్టించలేదు", "తెప్పించలేదు", "కొట్టడు", "వేయడు"]))
def test_negated_forms_in_both_scripts_are_a_refusal(product, verb) -> None:  # type: ignore[no-untyped-def]
    assert _advice(product, f"Aayana {verb}.").reaction == "rejected", verb


@settings(max_examples=40, deadline=None)
@given(product=st.sampled_from(_PRODUCTS),
       modal=st.sampled_from(["He will", "She'll", "He is going to", "She plans to", "He promised to"]),
       verb=st.sampled_from(["get it", "pick up two packets", "collect it", "bring it", "fetch a bottle",
                             "order it"]))
def test_an_english_future_of_getting_the_product_is_an_acceptance(product, modal, verb) -> None:  # type: ignore[no-untyped-def]
    assert _advice(product, f"{modal} {verb} from the dealer.").reaction == "accepted", (modal, verb)


@settings(max_examples=30, deadline=None)
@given(product=st.sampled_from(_PRODUCTS),
       said=st.sampled_from(["He won't get it.", "She will not pick it up.", "He did not collect it.",
                             "He is not going to order it.", "She never got {p}."]))
def test_an_english_negated_getting_is_a_refusal(product, said) -> None:  # type: ignore[no-untyped-def]
    assert _advice(product, said.format(p=product.name)).reaction == "rejected", said


@settings(max_examples=50, deadline=None)
@given(product=st.sampled_from(_PRODUCTS),
       condition=st.sampled_from([("rate taggithe", "price"), ("dhara thakkuva aithe", "price"),
                                  ("ధర తగ్గితే", "price"), ("if the price comes down", "price"),
                                  ("loan vasthe", "money"), ("if the bank gives a loan", "money"),
                                  ("అప్పు దొరికితే", "money"), ("stock unte", "availability"),
                                  ("if stock arrives at the shop", "availability"), ("vaana aagithe", None),
                                  ("if the rain stops", None)]),
       verb=st.sampled_from(["kontanu annadu", "vesukuntadu", "he will buy it", "కొంటాడు"]))
def test_a_condition_leaves_the_answer_open_with_the_objection_it_names(product, condition, verb) -> None:  # type: ignore[no-untyped-def]
    said, reason = condition
    answer = f"{verb} {said}." if verb.startswith("he ") and said.startswith("if") else f"{said} {verb}."
    advice = _advice(product, answer)
    assert advice.reaction == "undecided", answer
    assert advice.objection == reason, answer


@settings(max_examples=40, deadline=None)
@given(product=st.sampled_from(_PRODUCTS),
       put_off=st.sampled_from([("Once the paddy sale money comes he will buy it.", "money"),
                                ("When his crop loan is sanctioned he will buy it.", "money"),
                                ("Bonus dabbulu padagane konukkuntadu.", "money"),
                                ("Stock raagane techukuntanu annadu.", "availability"),
                                ("స్టాక్ రాగానే కొంటాడు.", "availability"),
                                ("Vaaram aagi vesukuntadu.", "wait")]))
def test_a_put_off_until_something_comes_is_postponed_for_it(product, put_off) -> None:  # type: ignore[no-untyped-def]
    said, reason = put_off
    advice = _advice(product, said)
    assert advice.reaction == "postponed", said
    assert advice.objection == reason, said


def test_distrust_said_with_a_negated_verb_is_a_doubt() -> None:
    product = _PRODUCTS[0]
    for said in ("Aayanaku nammakam kudaraledu, vaddu annadu.", "ఆయనకు నమ్మకం కుదరలేదు, వద్దన్నాడు."):
        advice = _advice(product, said)
        assert (advice.reaction, advice.objection) == ("rejected", "doubt"), said


def test_a_verb_the_officer_reports_of_himself_is_not_the_farmers_answer() -> None:
    product = _PRODUCTS[0]
    advice = _advice(product, "Shop lo stock ledu, town nunchi teppistanu annanu.")
    assert advice.reaction == "undecided" and advice.objection == "availability"


@settings(max_examples=30, deadline=None)
@given(product=st.sampled_from(_PRODUCTS),
       said=st.sampled_from(["{p} veyyaledu", "{p} kottinchukoledu", "{p} vesukoledu", "{p} వేసుకోలేదు",
                             "{p} కొట్టించలేదు", "he never got {p}"]),
       result=st.sampled_from(["purugu alaage undi", "అలాగే ఉన్నాయి", "still there"]))
def test_an_outcome_with_a_negated_verb_applied_nothing_and_the_pest_as_it_was_is_no_effect(product, said, result) -> None:  # type: ignore[no-untyped-def]
    crop = next(iter(product.dosage))
    farmer = next(f for f in BOOK.farmers.values() if crop in f.crops)
    subject = Visit(id="F101-20260901-abc123", date=date(2026, 9, 1), officer_id="O101", farmer_id=farmer.id,
                    village=farmer.village, crop=crop, products=[Advice(product_id=product.id, reaction="accepted")])
    outcome = READER.read_outcome(f"{said.format(p=product.name)}, {result}.", subject, "O101", TODAY)
    assert product.id not in outcome.products, said
    assert outcome.result == "no_effect", result


@settings(max_examples=20, deadline=None)
@given(product=st.sampled_from(_PRODUCTS),
       said=st.sampled_from(["He won't buy it now.", "She will not spray it right now.", "He is not buying for now."]))
def test_an_english_refusal_for_now_is_a_put_off(product, said) -> None:  # type: ignore[no-untyped-def]
    assert _advice(product, said).reaction == "postponed", said
    assert _advice(product, "He doesn't need it now.").reaction == "rejected"


@settings(max_examples=20, deadline=None)
@given(product=st.sampled_from(_PRODUCTS),
       said=st.sampled_from(["I will bring it on the next visit.", "I'll get it from the depot.",
                             "We collected leaf samples.", "The crop got a fungal attack last week."]))
def test_the_officers_own_getting_or_a_crop_that_got_something_is_no_answer(product, said) -> None:  # type: ignore[no-untyped-def]
    assert _advice(product, said).reaction == "undecided", said
