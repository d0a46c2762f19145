"""Two tenants with different farmers, catalogues, cases and vendors, served by one process: each person sees
only their own tenant's records, in chat and on the command line. A new tenant reads as empty, never a crash."""

from pathlib import Path

import pytest

from bot.cli import smriti as cli
from bot.core.app import App
from bot.cli.registers import all_kinds
from bot.services.registers.importer import import_file
from bot.core.registry import Registry, User
from bot.settings import load_settings
from handlers import INSTALLED
from tests.conftest import make_settings
from tests.isolation.conftest import say

pytestmark = pytest.mark.own_registers
KINDS = all_kinds(INSTALLED.packages())


def _user(user_id: str, pack: str, tenant: str, role: str, **extra: object) -> User:
    return User(user_id=user_id, name=user_id.title(), role=role, pack=pack, tenant=tenant, lang="en", **extra)


def _write(tmp_path: Path, tenant: str, kind: str, text: str, app: App) -> None:
    path = tmp_path / f"{tenant}-{kind}.csv"
    path.write_text(text, encoding="utf-8")
    report = import_file(app.services.database, KINDS, kind, tenant, path, apply=True)
    assert report.added and not report.rejected, report.render()


@pytest.fixture
async def two_tenants(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> App:
    users = [
        _user("anil", "agri", "alpha", "officer", officer_id="A1", territories=["kothur"]),
        _user("bala", "agri", "beta", "officer", officer_id="B1", territories=["kothur"]),
        _user("chitra", "legal", "alpha", "lawyer"), _user("deepa", "legal", "beta", "lawyer"),
        _user("eshwar", "ap", "alpha", "clerk"), _user("farida", "ap", "beta", "clerk"),
    ]
    app = await App.start(make_settings(tmp_path, hindsight_url, bank_prefix), registry=Registry(users))
    for tenant, farmer, case, vendor, gstin in (
            ("alpha", "Bhaskar Naik", "Pendyala v Kommineni", "Deccan Pipes", "36AAFCD4321K1Z2"),
            ("beta", "Yadamma Goud", "State v Boya Ramulu", "Kaveri Paper Mills", "36AAGCK9876P1ZQ")):
        _write(tmp_path, tenant, "villages", "Village,Mandal\nKothur,Kothur\n", app)
        _write(tmp_path, tenant, "farmers", f"Farmer Name,Village,Crops,Acres\n{farmer},Kothur,cotton,2\n", app)
        _write(tmp_path, tenant, "cases", f"Title,Case Number\n{case},O.S. {len(case)}/2024\n", app)
        _write(tmp_path, tenant, "vendors", "Vendor Name,GSTIN,Bank Account Number\n"
                                            f"{vendor},{gstin},{len(vendor)}0012345678\n", app)
    yield app  # type: ignore[misc]
    await app.aclose()


async def test_each_person_sees_only_their_tenants_records_in_chat(two_tenants: App) -> None:
    handle = two_tenants.conversation.handle
    [anil] = await handle(say("anil", "/farmers"))
    [bala] = await handle(say("bala", "/farmers"))
    assert "Bhaskar Naik" in anil.text and "Yadamma" not in anil.text
    assert "Yadamma Goud" in bala.text and "Bhaskar" not in bala.text
    [chitra] = await handle(say("chitra", "/cases"))
    [deepa] = await handle(say("deepa", "/cases"))
    assert "Pendyala" in chitra.text and "Boya" not in chitra.text
    assert "Boya Ramulu" in deepa.text and "Pendyala" not in deepa.text
    [eshwar] = await handle(say("eshwar", "/vendors"))
    [farida] = await handle(say("farida", "/vendors"))
    assert "Deccan Pipes" in eshwar.text and "Kaveri" not in eshwar.text
    assert "Kaveri Paper Mills" in farida.text and "Deccan" not in farida.text
    [unknown] = await handle(say("anil", "/brief Yadamma"))
    assert "Yadamma" in unknown.text and "Kothur" not in unknown.text, "another tenant's farmer is unknown here"


async def _cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], home: Path,
               hindsight_url: str, bank_prefix: str, *argv: str) -> str:
    monkeypatch.setenv("SMRITI_HOME", str(home))
    monkeypatch.setenv("SMRITI_HINDSIGHT_URL", hindsight_url)
    monkeypatch.setenv("SMRITI_BANK_PREFIX", bank_prefix)
    args = cli.build_parser().parse_args(list(argv))
    code = await args.handler(args, load_settings())
    out = capsys.readouterr()
    return f"{code}\n{out.out}{out.err}"


async def test_each_tenants_records_on_the_command_line(two_tenants: App, tmp_path: Path, hindsight_url: str,
                                                         bank_prefix: str, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    home = two_tenants.settings.data_dir
    for tenant, own, other in (("alpha", "Bhaskar", "Yadamma"), ("beta", "Yadamma", "Bhaskar")):
        out = tmp_path / f"{tenant}.csv"
        said = await _cli(monkeypatch, capsys, home, hindsight_url, bank_prefix,
                          "export", "--tenant", tenant, "farmers", str(out))
        assert said.startswith("0\n") and own in out.read_text(encoding="utf-8")
        assert other not in out.read_text(encoding="utf-8")
        brief = await _cli(monkeypatch, capsys, home, hindsight_url, bank_prefix,
                           "brief", "--tenant", tenant, "--farmer", other)
        assert "No farmer" in brief


async def test_read_commands_on_a_tenant_with_no_memory_say_nothing_yet(
        two_tenants: App, hindsight_url: str, bank_prefix: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    home = two_tenants.settings.data_dir
    for argv in (("today", "--tenant", "alpha"), ("ask", "--pack", "legal", "--tenant", "beta", "what happened in O.S. 19/2024"),
                 ("brief", "--tenant", "alpha", "--farmer", "Bhaskar Naik"),
                 ("insights", "--tenant", "beta", "--village", "Kothur"), ("ap", "audit", "--tenant", "alpha")):
        said = await _cli(monkeypatch, capsys, home, hindsight_url, bank_prefix, *argv)
        assert "Traceback" not in said and "404" not in said, argv
        assert said.startswith("0\n"), (argv, said)
    [today] = await two_tenants.conversation.handle(say("chitra", "/today"))
    assert "Nothing is listed" in today.text
