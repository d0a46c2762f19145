"""People live in the database: imported from a registry file, looked up by channel, unique per sender, and a
running bot's registry sees a person added from the command line without a restart."""

import json
from pathlib import Path

import pytest

from bot.store.people import ChannelTaken, PeopleRegistry, import_people, import_people_file, load_people
from bot.core.registry import User
from bot.store import Database
from bot.store.tenants import tenant_ids

ANJALI = User(user_id="anjali", name="Anjali Reddy", role="officer", pack="agri", tenant="greenfield", lang="te",
              officer_id="GF-07", territories=["nandigama", "kothur"], telegram_ids=[8800123],
              whatsapp_numbers=["+919812345678"])
FAROOQ = User(user_id="farooq", name="Farooq Ali", role="lawyer", pack="legal", tenant="alimuddin-law",
              telegram_ids=[8800456])


def test_import_and_lookup_by_each_channel(database: Database) -> None:
    assert import_people(database, [ANJALI, FAROOQ]) == 2
    import_people(database, [ANJALI])  # again: nothing doubles
    registry = PeopleRegistry(database, check_every_s=0)
    assert registry.lookup("telegram", "8800123") == ANJALI
    assert registry.lookup("whatsapp", "whatsapp:+919812345678") == ANJALI
    assert registry.lookup("telegram", "8800456").tenant == "alimuddin-law"  # type: ignore[union-attr]
    assert registry.lookup("telegram", "999") is None and registry.by_id("anjali") == ANJALI
    assert registry.first_for_pack("legal", "alimuddin-law") == FAROOQ
    assert tenant_ids(database) == ["alimuddin-law", "greenfield"]


def test_one_sender_maps_to_one_person(database: Database) -> None:
    import_people(database, [ANJALI])
    thief = FAROOQ.model_copy(update={"telegram_ids": [8800123]})
    with pytest.raises(ChannelTaken):
        import_people(database, [thief])
    assert [u.user_id for u in load_people(database)] == ["anjali"]


def test_a_running_registry_sees_people_added_later(database: Database, tmp_path: Path) -> None:
    registry = PeopleRegistry(database, check_every_s=0)
    assert registry.users == []
    path = tmp_path / "people.json"
    path.write_text(json.dumps({"users": [FAROOQ.model_dump(mode="json")]}), encoding="utf-8")
    import_people_file(database, path, tenant="new-chambers")
    assert registry.lookup("telegram", "8800456").tenant == "new-chambers"  # type: ignore[union-attr]
    import_people(database, [FAROOQ.model_copy(update={"tenant": "new-chambers", "telegram_ids": [8800999]})])
    assert registry.lookup("telegram", "8800456") is None and registry.lookup("telegram", "8800999") is not None
