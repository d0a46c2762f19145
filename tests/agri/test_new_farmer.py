"""The field adds to the register: a visit to a farmer the register does not know proposes the farmer on the
card, Save adds both (the farmer through the register store, the visit into the real local Hindsight), and
/brief then finds the farmer by name in English and in Telugu script and gives the visit back. Officers add
farmers only in their own villages. Names and villages here are not from seeds/."""

import pytest

from bot.core.app import App
from bot.core.messages import Reply
from bot.store import Database
from handlers.agri.pack import AgriPack
from handlers.agri.registers import FieldBooks
from tests.agri.conftest import CAPTURE_TENANT, button, say

pytestmark = pytest.mark.hindsight


async def _edit(app: App, user: str, card: Reply, edit: str, field: str, value: str) -> list[Reply]:
    """Edit -> field -> value on a card, as a person taps and types it; the replies to the value."""
    [choose] = await app.conversation.handle(say(user, callback=button(card, edit)))
    await app.conversation.handle(say(user, callback=button(choose, field)))
    return await app.conversation.handle(say(user, value))


def _farmers_named(pack: AgriPack, name: str) -> list[str]:
    return [f.id for f in pack.book_for(CAPTURE_TENANT).farmers.values() if name in (f.name, f.name_te)]


async def test_officer_saves_a_visit_to_a_new_farmer_then_briefs_them_by_name_in_both_scripts(
        agri_app: App, pack: AgriPack) -> None:
    conv = agri_app.conversation
    before = set(pack.book_for(CAPTURE_TENANT).farmers)
    [card] = await conv.handle(say("ravi", "Visited Bommu Sathaiah garu in Moinabad on 2026-09-18, cotton pink "
                                           "bollworm 15%. Profex accepted."))
    assert "Bommu Sathaiah" in card.text and "new" in card.text and "Moinabad" in card.text
    assert "Profex Super (P008): accepted" in card.text
    assert set(pack.book_for(CAPTURE_TENANT).farmers) == before  # nothing is added before Save

    replies = await conv.handle(say("ravi", callback=button(card, "Save")))
    assert "Saved to memory" in replies[0].text
    assert any("is now in the register" in r.text and "Bommu Sathaiah" in r.text for r in replies)
    [added] = _farmers_named(pack, "Bommu Sathaiah")
    farmer = pack.book_for(CAPTURE_TENANT).farmers[added]
    assert (farmer.village, farmer.crops, farmer.acres) == ("moinabad", ["cotton"], None)
    assert farmer.name_te and farmer.name_te != farmer.name

    # Another process (another connection to the same database) sees the new row at once.
    other = FieldBooks(Database(agri_app.services.settings.database_url))
    assert added in other.for_tenant(CAPTURE_TENANT).farmers

    for query in ("Bommu Sathaiah", "బొమ్ము సత్తయ్య", farmer.name_te):
        [brief] = await conv.handle(say("ravi", f"/brief {query}"))
        assert f"({added})" in brief.text, query
        assert "18 Sep 2026 · visit to Bommu Sathaiah" in brief.text, query  # the visit saved above, by date and name

    # Saving a second visit to the same farmer by the name as written files it under the same row.
    [again] = await conv.handle(say("ravi", "Bommu Sathaiah garu cotton, bollworm down to 5%"))
    assert f"({added})" in again.text and "new" not in again.text


async def test_a_new_farmer_in_a_village_outside_the_territory_is_refused_on_the_card(
        agri_app: App, pack: AgriPack) -> None:
    conv = agri_app.conversation
    before = set(pack.book_for(CAPTURE_TENANT).farmers)
    [card] = await conv.handle(say("ravi", "Met farmer Gundala Yellamma of Tandur, paddy blast seen, Beam advised"))
    assert "Gundala Yellamma" in card.text
    [refused] = await conv.handle(say("ravi", callback=button(card, "Save")))
    assert "not one of your villages" in refused.text and "Tandur" in refused.text and "Moinabad" in refused.text
    [bad] = await _edit(agri_app, "ravi", card, "Edit", "Village", "Tandur")
    assert "not one of your villages" in bad.text
    assert set(pack.book_for(CAPTURE_TENANT).farmers) == before
    [mine] = await conv.handle(say("ravi", "Chevella"))
    replies = await conv.handle(say("ravi", callback=button(mine, "Save")))
    assert "Saved to memory" in replies[0].text
    [added] = _farmers_named(pack, "Gundala Yellamma")
    assert pack.book_for(CAPTURE_TENANT).farmers[added].village == "chevella"

    # A village the register does not know at all is refused too, with the villages the officer may use.
    [unknown] = await conv.handle(say("ravi", "Visited Pittala Narsamma garu of Gollaguda village, tomato "
                                              "leaf curl"))
    assert "Pittala Narsamma" in unknown.text and "Gollaguda" in unknown.text
    [refused] = await conv.handle(say("ravi", callback=button(unknown, "Save")))
    assert "not in the village register" in refused.text and "Shankarpally" in refused.text
    [fixed] = await _edit(agri_app, "ravi", unknown, "Edit", "Village", "Shankarpally")
    assert "Village: Shankarpally\n" in fixed.text
    replies = await conv.handle(say("ravi", callback=button(fixed, "Save")))
    assert "Saved to memory" in replies[0].text
    [added] = _farmers_named(pack, "Pittala Narsamma")
    assert pack.book_for(CAPTURE_TENANT).farmers[added].village == "shankarpally"


async def test_telugu_note_proposes_a_new_farmer_and_edit_changes_name_and_village(
        agri_app: App, pack: AgriPack) -> None:
    conv = agri_app.conversation
    [card] = await conv.handle(say("sita", "ఈరోజు కొమ్మిరెడ్డి యాదమ్మ గారి పొలంలో మిరపకు తామర పురుగు ఎక్కువగా ఉంది"))
    assert "కొమ్మిరెడ్డి యాదమ్మ" in card.text
    [blocked] = await conv.handle(say("sita", callback=button(card, "సేవ్")))
    assert "గ్రామం" in blocked.text  # three villages: she must choose one
    [renamed] = await _edit(agri_app, "sita", card, "మార్చు", "రైతు", "కొమ్మిరెడ్డి యాదమ్మ దేవి")
    assert "కొమ్మిరెడ్డి యాదమ్మ దేవి" in renamed.text
    [placed] = await _edit(agri_app, "sita", renamed, "మార్చు", "గ్రామం", "వికారాబాద్")
    replies = await conv.handle(say("sita", callback=button(placed, "సేవ్")))
    assert "రిజిస్టర్‌లో ఉన్నారు" in replies[1].text
    [added] = _farmers_named(pack, "కొమ్మిరెడ్డి యాదమ్మ దేవి")
    farmer = pack.book_for(CAPTURE_TENANT).farmers[added]
    assert farmer.village == "vikarabad" and farmer.crops == ["chilli"] and farmer.name.isascii()
    [brief] = await conv.handle(say("sita", "/brief Kommireddy Yadamma Devi"))
    assert f"({added})" in brief.text


async def test_a_granted_village_is_the_officers_own_for_adding_farmers(agri_app: App, pack: AgriPack) -> None:
    from bot.store.grants import TerritoryGrants

    note = "Visited Maloth Bhaskar Naik garu of Tandur, paddy, blast on leaves"
    [card] = await agri_app.conversation.handle(say("ravi", note))
    [refused] = await agri_app.conversation.handle(say("ravi", callback=button(card, "Save")))
    assert "not one of your villages" in refused.text
    TerritoryGrants(agri_app.services.database).grant("ravi", "tandur")
    card, notice, refused_again = await agri_app.conversation.handle(say("ravi", note))
    assert "not saved yet" in notice.text and refused_again.card_id != card.card_id  # the refused card stays open
    replies = await agri_app.conversation.handle(say("ravi", callback=button(card, "Save")))
    assert "Saved to memory" in replies[0].text
    [added] = _farmers_named(pack, "Maloth Bhaskar Naik")
    assert pack.book_for(CAPTURE_TENANT).farmers[added].village == "tandur"
