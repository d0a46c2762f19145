"""`smriti people add|list|remove|invite|import --tenant T`, through the real parser, on a database of its own."""

import asyncio
import json
import re
from pathlib import Path

import pytest

from bot.core.app import open_database
from bot.cli.smriti import build_parser
from bot.store.invites import InviteStore
from bot.store.people import load_people
from bot.settings import Settings


def smriti(settings: Settings, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    args = build_parser().parse_args(list(argv))
    code = asyncio.run(args.handler(args, settings))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def home(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, telegram_bot_username="KisanSevaBot",
                    twilio_whatsapp_from="whatsapp:+14155550123")


def test_add_list_and_remove_people_of_one_tenant(home: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = smriti(home, capsys, "people", "add", "padma", "--tenant", "kisan-seva", "--name", "Padma Rani",
                          "--role", "officer", "--territories", "kothur, yacharam", "--telegram", "660011",
                          "--whatsapp", "+919700012345", "--language", "te")
    assert code == 0 and "padma" in out and "agri" in out
    code, _, _ = smriti(home, capsys, "people", "add", "sunil", "--tenant", "kisan-seva", "--name", "Sunil",
                        "--role", "admin", "--pack", "agri")
    assert code == 0
    code, _, err = smriti(home, capsys, "people", "add", "gowri", "--tenant", "nyaya", "--name", "Gowri",
                          "--role", "lawyer", "--telegram", "660011")
    assert code == 2 and "already belongs" in err
    code, _, err = smriti(home, capsys, "people", "add", "padma", "--tenant", "nyaya", "--name", "Padma",
                          "--role", "lawyer")
    assert code == 2 and "another tenant" in err, "an id of another tenant's person is not taken over"
    code, _, err = smriti(home, capsys, "people", "add", "boss", "--tenant", "nyaya", "--name", "Boss",
                          "--role", "admin")
    assert code == 2 and "--pack" in err

    code, out, _ = smriti(home, capsys, "people", "list", "--tenant", "kisan-seva")
    assert code == 0 and "People of tenant kisan-seva: 2" in out
    assert "telegram 660011, whatsapp +919700012345" in out and "kothur, yacharam" in out

    code, _, err = smriti(home, capsys, "people", "remove", "--tenant", "nyaya", "padma")
    assert code == 2 and "No person padma in tenant nyaya" in err
    code, out, _ = smriti(home, capsys, "people", "remove", "--tenant", "kisan-seva", "padma")
    assert code == 0
    database = open_database(home)
    try:
        assert [u.user_id for u in load_people(database)] == ["sunil"]
    finally:
        database.dispose()


def test_invite_prints_the_code_once_with_the_telegram_link_and_the_whatsapp_text(
        home: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = smriti(home, capsys, "people", "invite", "--tenant", "nyaya", "--role", "lawyer",
                          "--name", "Gowri Shankar", "--hours", "24")
    assert code == 0
    [invite_code] = re.findall(r"Code: ([a-z2-9]{10})", out)
    assert f"https://t.me/KisanSevaBot?start={invite_code}" in out
    assert f"join {invite_code}" in out and f"https://wa.me/14155550123?text=join%20{invite_code}" in out
    database = open_database(home)
    try:
        invite = InviteStore(database).find(invite_code)
        assert invite is not None and (invite.tenant, invite.role, invite.pack) == ("nyaya", "lawyer", "legal")
    finally:
        database.dispose()
    code, out, _ = smriti(home, capsys, "people", "list", "--tenant", "nyaya", "--lang", "te")
    assert code == 0 and invite.ref in out and invite_code not in out, "a list never shows a code"
    code, _, err = smriti(home, capsys, "people", "invite", "--tenant", "nyaya", "--role", "admin")
    assert code == 2 and "--pack" in err


def test_import_puts_a_registry_file_into_the_tenant(home: Settings, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "team.json"
    path.write_text(json.dumps({"users": [
        {"user_id": "ravi-k", "name": "Ravi Kumar", "role": "clerk", "pack": "ap", "tenant": "ignored",
         "whatsapp_numbers": ["+919811100000"]}]}), encoding="utf-8")
    code, out, _ = smriti(home, capsys, "people", "import", "--tenant", "dhan-books", str(path))
    assert code == 0 and "1 person added" in out
    database = open_database(home)
    try:
        [ravi] = load_people(database)
        assert ravi.tenant == "dhan-books" and ravi.whatsapp_numbers == ["+919811100000"]
    finally:
        database.dispose()


def test_import_a_messy_people_sheet_row_by_row(home: Settings, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    smriti(home, capsys, "people", "add", "gowri", "--tenant", "nyaya", "--name", "Gowri", "--role", "lawyer",
           "--whatsapp", "+919866600000")
    path = tmp_path / "staff.csv"
    path.write_bytes(("\ufeffEmployee Name,Designation,Mobile,Telegram ID,Villages,Language,Emp ID\n"
                      "Bhavani Prasad,Officer,98480 22110,5501; 5502,Kothur; Yacharam,Telugu,\n"
                      ",,,,,,\n"
                      "Sunitha,admin,,,,English,\n"
                      "Nagaraju,clerk,+91 98666 00000,,,,\n"
                      "Bhavani Prasad,officer,98480 22110,,,,\n"
                      "వెంకటమ్మ,officer,,,,తెలుగు,\n"
                      "Hemalatha,lawyer,12345,,,,\n"
                      "Gowri,lawyer,,,,,gowri\n"
                      "Ramesh Babu,Officer,+1 (555) 010-2000,,,english,RB-7\n").encode("utf-8"))
    code, out, _ = smriti(home, capsys, "people", "import", "--tenant", "kisan-seva", str(path))
    # A person named only in Telugu script is taken, with an id made for them.
    assert code == 0 and "3 people added or updated in tenant kisan-seva" in out
    rows = re.findall(r"row (\d+): (.*)", out)
    assert [int(r) for r, _ in rows] == [4, 5, 6, 8, 9]
    reasons = dict((int(r), reason) for r, reason in rows)
    assert "admin" in reasons[4] and "already belongs to someone else" in reasons[5]
    assert reasons[6] == "bhavani-prasad is already on row 2"
    assert "country code" in reasons[8] and reasons[9] == "gowri is another tenant's id"
    database = open_database(home)
    try:
        people = {u.user_id: u for u in load_people(database) if u.tenant == "kisan-seva"}
    finally:
        database.dispose()
    bhavani, ramesh = people["bhavani-prasad"], people["rb-7"]
    assert [u.name for u in people.values() if u.user_id.startswith("x")] == ["వెంకటమ్మ"]
    assert (bhavani.role, bhavani.pack, bhavani.lang, bhavani.telegram_ids, bhavani.whatsapp_numbers,
            bhavani.territories) == ("officer", "agri", "te", [5501, 5502], ["+919848022110"], ["kothur", "yacharam"])
    assert ramesh.whatsapp_numbers == ["+15550102000"] and ramesh.lang == "en"


def test_changing_a_persons_role_keeps_their_channels_language_and_villages(
        home: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    """`people add` with a known id changes that person: what the command does not name is kept (a role change
    once dropped the WhatsApp number and language, so the person became a stranger to the bot)."""
    code, _, _ = smriti(home, capsys, "people", "add", "vijaya", "--tenant", "chambers", "--name", "B. Vijaya",
                        "--role", "lawyer", "--whatsapp", "098480 12345", "--telegram", "770022", "--language", "te")
    assert code == 0
    code, _, _ = smriti(home, capsys, "people", "add", "vijaya", "--tenant", "chambers", "--name", "B. Vijaya",
                        "--role", "admin", "--pack", "legal")
    assert code == 0
    database = open_database(home)
    try:
        [vijaya] = load_people(database, "chambers")
    finally:
        database.dispose()
    assert vijaya.role == "admin" and vijaya.lang == "te"
    assert vijaya.whatsapp_numbers == ["+919848012345"] and vijaya.telegram_ids == [770022]
