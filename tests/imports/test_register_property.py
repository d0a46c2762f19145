"""A property: for any registers the import accepts (crop, issue, product, village, farmer, case and vendor names
in Latin and Telugu script, codes as an organisation writes them), every command that lists or reads them answers
in English and Telugu without an exception, and names the register's words."""

import csv
import io
import itertools
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.registers import all_kinds
from bot.core.app import App
from bot.core.messages import Incoming, Reply
from bot.core.registry import User
from bot.services.registers.codes import fold_code
from bot.services.registers.importer import import_file
from bot.settings import Settings
from bot.store.people import import_people
from handlers import INSTALLED

pytestmark = [pytest.mark.own_registers, pytest.mark.hindsight]
KINDS = all_kinds(INSTALLED.packages())
_TENANTS = itertools.count()

_LATIN = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), min_size=3, max_size=9)
_TELUGU = st.text(st.sampled_from("కగచటతపమరలవసనదబయ"), min_size=2, max_size=5).map(lambda w: w + "ం")
_WORD = st.one_of(_LATIN.map(str.title), _TELUGU)
_NAME = st.lists(_WORD, min_size=1, max_size=2).map(" ".join)
_CODE = st.tuples(st.text(st.sampled_from("ABCDEFGHKMNPRSTVXZ"), min_size=1, max_size=3),
                  st.sampled_from(["-", "/", " ", ".", ""]), st.integers(0, 9999)).map(
    lambda t: f"{t[0]}{t[1]}{t[2]:0{len(str(t[2]))}d}")


def _csv(header: list[str], rows: list[list[str]], title: str) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([title])  # a title row above the header, as offices write them
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


@st.composite
def registers(draw: st.DrawFn) -> dict[str, str]:
    # Every name apart from every other once folded: a word two rows share is not one row's name.
    words = draw(st.lists(_NAME, min_size=8, max_size=8, unique_by=fold_code))
    telugu = draw(st.lists(_TELUGU, min_size=2, max_size=2, unique_by=fold_code).filter(
        lambda t: not {fold_code(w) for w in t} & {fold_code(w) for w in words}))
    crops, issues, aliases, villages = words[0:2], words[2:4], words[4:6], words[6:8]
    codes = draw(st.lists(_CODE, min_size=6, max_size=6, unique_by=fold_code))
    farmer = draw(_NAME)
    # The catalogue names its target as the issue register writes it: by its Telugu name, an alias or its name.
    target = draw(st.sampled_from([telugu[0], aliases[0], issues[0]]))
    # The farmer list names the crops by an alias or a Telugu name, and the village by its code or its name.
    grown = draw(st.sampled_from([f"{crops[0]}; {telugu[1]}", f"{crops[0]}; {crops[1]}; {crops[0].upper()}"]))
    village = draw(st.sampled_from([codes[4], villages[0]]))
    return {
        "crops": _csv(["Crop", "Crop (Telugu)"], [[crops[0], ""], [crops[1], telugu[1]]], "Crops"),
        "issues": _csv(["Issue", "Issue (Telugu)", "Crops", "Also Called"],
                       [[issues[0], telugu[0], crops[0], aliases[0]], [issues[1], "", crops[1], aliases[1]]],
                       "Pests and diseases"),
        "villages": _csv(["Vill. Code", "Village"], [[codes[4], villages[0]], [codes[5], villages[1]]], "Villages"),
        "catalogue": _csv(["SKU", "Product", "Tier", "MRP", "Target", "Dose"],
                          [[codes[0], f"{draw(_LATIN).title()} 50", "budget", "Rs 1,200", target,
                            f"{crops[0]}: 200 ml/acre"]], "Price list"),
        "farmers": _csv(["Farmer Code", "Farmer Name", "Village", "Crops", "Area"],
                        [[codes[1], draw(st.sampled_from(["", "Sri ", "Smt. "])) + farmer, village, grown, "3 ac"]],
                        "Farmers"),
        "cases": _csv(["Case No", "Petitioner", "Respondent"], [[codes[2], farmer, draw(_NAME) + " Traders"]],
                      "Case register"),
        "vendors": _csv(["Vendor Code", "Vendor Name", "GSTIN", "Bank A/c No", "IFSC"],
                        [[codes[3], farmer, "36AAFCK1234M1Z5", "50100223344", "HDFC0001234"]], "Vendor master"),
    }


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[App]:
    running = await App.start(settings)
    yield running
    await running.aclose()


async def _ask(app: App, user: str, text: str) -> list[Reply]:
    replies = await app.conversation.handle(Incoming(transport="console", sender=user,
                                                     delivery_id=uuid.uuid4().hex, text=text))
    assert replies, text
    for reply in replies:
        assert "Traceback" not in reply.text and "KeyError" not in reply.text, reply.text
    return replies


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sheets=registers())
async def test_every_listing_command_answers_for_any_accepted_register(app: App, tmp_path: Path,
                                                                       sheets: dict[str, str]) -> None:
    tenant = f"org-{next(_TENANTS)}"
    database = app.services.database
    accepted: dict[str, list[str]] = {}
    for kind, body in sheets.items():
        path = tmp_path / f"{tenant}-{kind}.csv"
        path.write_text(body, encoding="utf-8")
        report = import_file(database, KINDS, kind, tenant, path, apply=True)
        accepted[kind] = report.added
    agri = app.packs["agri"].book_for(tenant)  # type: ignore[attr-defined]
    people = [User(user_id=f"{tenant}-{role}-{lang}", name="Tester", role=role, pack=pack, tenant=tenant,
                   lang=lang, officer_id="T1" if pack == "agri" else None, territories=list(agri.villages))
              for role, pack in (("officer", "agri"), ("lawyer", "legal"), ("clerk", "ap")) for lang in ("en", "te")]
    import_people(database, people)
    app.services.registry.refresh()
    farmer = next(iter(agri.farmers.values()), None)
    village = next(iter(agri.villages.values()), None)
    for lang in ("en", "te"):
        officer, lawyer, clerk = (f"{tenant}-{r}-{lang}" for r in ("officer", "lawyer", "clerk"))
        [listing] = await _ask(app, officer, "/farmers")
        if farmer is not None:
            assert all(agri.crop_name(c, lang) in listing.text for c in farmer.crops)
            await _ask(app, officer, f"/brief {farmer.id}")
            await _ask(app, officer, f"/brief {farmer.name}")
            await _ask(app, officer, f"{farmer.name} {agri.crop_name(farmer.crops[0], lang)} lo "
                                     f"{next(iter(agri.issues.values())).name} undi")
        if village is not None:
            await _ask(app, officer, f"/insights {village.name}")
        await _ask(app, officer, "/followups")
        [cases] = await _ask(app, lawyer, "/cases")
        for case in app.packs["legal"].register_for(tenant).cases:  # type: ignore[attr-defined]
            assert case.title in cases.text
            await _ask(app, lawyer, f"/history {case.code or case.title}")
        await _ask(app, lawyer, "/today")
        [vendors] = await _ask(app, clerk, "/vendors")
        for vendor in app.packs["ap"].ledger_for(tenant).vendors:  # type: ignore[attr-defined]
            assert vendor.name in vendors.text
    assert all(accepted[k] for k in ("catalogue", "farmers", "cases", "vendors")), accepted
    assert len(agri.villages) == 2 and all(v.code for v in agri.villages.values()), "no village made from a code"
    [grower] = agri.farmers.values()
    assert len(grower.crops) == len(set(grower.crops)) and set(grower.crops) <= set(agri.crops), grower
    [product] = agri.products.values()
    [target] = product.problems
    assert agri.issues[target].crops == list(product.dosage), "the first issue (the one of the dosed crop)"
