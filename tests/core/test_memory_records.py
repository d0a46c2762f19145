"""The records/memory contract: `smriti memory check` compares a tenant's bank with what its packs' records
say it holds (by document id, both ways), and `smriti memory rebuild` re-derives the bank from the records,
idempotently. Run through the real command line on the real local Hindsight, with a tiny pack of records and
with the agri pack's saved visits."""

import uuid
from datetime import date
from pathlib import Path

import pytest

from bot.cli.smriti import main
from bot.core.app import App
from bot.core.memory_records import check_pack, rebuild_pack
from bot.core.pack import PackCatalog, PackEntry
from bot.core.registry import Registry
from bot.settings import Settings
from memory import RecallRequest, bank_id
from tests.agri.conftest import CAPTURE_TENANT, agri_users, button, say
from tests.core import records_pack
from tests.core.notes_pack import NotesPack

pytestmark = pytest.mark.hindsight

CATALOG = PackCatalog((PackEntry("notes", "tests.core.records_pack"),))


@pytest.fixture
def cli_env(tmp_path: Path, hindsight_url: str, bank_prefix: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("SMRITI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SMRITI_HINDSIGHT_URL", hindsight_url)
    monkeypatch.setenv("SMRITI_BANK_PREFIX", bank_prefix)
    tenant = f"rec{uuid.uuid4().hex[:6]}"
    records_pack.RECORDS[tenant] = {
        "n1": (date(2026, 6, 2), "thrips on the onions at the north plot"),
        "n2": (date(2026, 6, 9), "drip line repaired, flow even again"),
        "n3": (date(2026, 7, 1), "second picking weighed 40 kg"),
    }
    return tenant


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv), CATALOG)
    return code, capsys.readouterr().out


async def _documents(hindsight_url: str, bank: str) -> list[str]:
    from memory import MemoryClient

    async with MemoryClient(hindsight_url) as memory:
        return sorted(d.document_id for d in await memory.list_documents(bank))


@pytest.mark.own_registers  # the tiny pack's catalogue has no register tables to seed
def test_check_finds_records_without_memory_and_rebuild_writes_them_once(
        cli_env: str, hindsight_url: str, bank_prefix: str, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    tenant, bank = cli_env, bank_id(cli_env, "notes", prefix=bank_prefix)
    code, out = run(capsys, "memory", "check", "--tenant", tenant)
    assert code == 1 and "3 records without memory, 0 memories without records" in out
    assert "note:n1, note:n2, note:n3" in out

    code, out = run(capsys, "memory", "rebuild", "--tenant", tenant)
    assert code == 0 and f"3 memories written from the records into {bank}" in out
    code, out = run(capsys, "memory", "check", "--tenant", tenant)
    assert code == 0 and "memory agrees with the records" in out

    run(capsys, "memory", "rebuild", "--tenant", tenant)  # again: replaces, never duplicates
    assert asyncio.run(_documents(hindsight_url, bank)) == ["note:n1", "note:n2", "note:n3"]

    del records_pack.RECORDS[tenant]["n2"]  # the record is gone (forgotten), its memory is still there
    code, out = run(capsys, "memory", "check", "--tenant", tenant)
    assert code == 1 and "0 records without memory, 1 memories without records" in out and "note:n2" in out


@pytest.mark.own_registers
def test_check_and_rebuild_need_a_tenant(cli_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "check"], CATALOG) == 2
    assert "needs --tenant" in capsys.readouterr().err


async def test_a_pack_that_keeps_no_records_is_left_alone(tmp_path: Path, hindsight_url: str,
                                                         bank_prefix: str) -> None:
    settings = Settings(data_dir=tmp_path, hindsight_url=hindsight_url, bank_prefix=bank_prefix)
    app = await App.start(settings, registry=Registry([]), pack_names=[])
    try:
        pack = NotesPack(app.services)
        tenant = f"none{uuid.uuid4().hex[:6]}"
        checked = await check_pack(pack, app.services, tenant)
        assert not checked.keeps_records and checked.agrees
        rebuilt = await rebuild_pack(pack, app.services, tenant)
        assert not rebuilt.keeps_records and rebuilt.retained == 0
        assert app.services.bank_of(tenant, pack.name) not in await app.services.memory.bank_ids()
    finally:
        await app.aclose()


async def test_agri_visits_saved_then_bank_deleted_are_rebuilt_from_their_records(
        tmp_path: Path, hindsight_url: str, bank_prefix: str) -> None:
    tenant = f"agrirec{uuid.uuid4().hex[:6]}"
    users = [u.model_copy(update={"tenant": tenant}) for u in agri_users() if u.tenant == CAPTURE_TENANT]
    settings = Settings(data_dir=tmp_path, hindsight_url=hindsight_url, bank_prefix=bank_prefix)
    app = await App.start(settings, registry=Registry(users), pack_names=["agri"])
    try:
        pack, memory = app.packs["agri"], app.services.memory
        for note in ("Raju Yadav cotton whitefly 30 percent, advised Proclaim, farmer accepted",
                     "Yadagiri cotton pink bollworm 20 percent, advised Profex, he will think"):
            [card] = await app.conversation.handle(say("ravi", note))
            await app.conversation.handle(say("ravi", callback=button(card, "Save")))
        checked = await check_pack(pack, app.services, tenant)
        assert checked.keeps_records and checked.records == 2 and checked.agrees
        bank = app.services.bank_of(tenant, "agri")
        question = RecallRequest(query="cotton whitefly advice", tags=["kind:visit"])
        before = sorted((m.document_id, m.text) for m in await memory.recall(bank, question))

        await memory.delete_bank(bank)
        gone = await check_pack(pack, app.services, tenant)
        assert len(gone.records_without_memory) == 2 and not gone.memory_without_records
        assert (await rebuild_pack(pack, app.services, tenant)).retained == 2
        assert (await check_pack(pack, app.services, tenant)).agrees
        assert sorted((m.document_id, m.text) for m in await memory.recall(bank, question)) == before
        await memory.delete_bank(bank)
    finally:
        await app.aclose()
