"""People at scale: the running bot reads a person through the table's indexes, never the whole table.

On main before this change /help took 3.5 s with 2,000 people and 69 s with 10,000 (every person's channels were
matched against every other's on each reload, and a sender was found by scanning everyone).
"""

import time
import uuid
from pathlib import Path

import pytest

from bot.core.app import App, open_database
from bot.core.messages import Incoming
from bot.core.registry import Registry, User
from bot.settings import Settings
from bot.store.people import PeopleRegistry, import_people, load_people

pytestmark = pytest.mark.own_registers  # the suite would import seed registers into all 40 tenants

PEOPLE = 20_000


def crowd(count: int) -> list[User]:
    return [User(user_id=f"p{i:06d}", name=f"Person {i}", role="officer", pack="agri", tenant=f"t{i % 40}",
                 officer_id=f"O{i}", territories=["chevella", "moinabad"], telegram_ids=[7_000_000 + i],
                 whatsapp_numbers=[f"+9170{i:08d}"]) for i in range(count)]


@pytest.fixture(scope="module")
def crowded_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("crowd")
    database = open_database(Settings(data_dir=home))
    started = time.monotonic()
    import_people(database, crowd(PEOPLE))
    assert time.monotonic() - started < 60, "people import in batches, not a row object at a time"
    database.dispose()
    return home


@pytest.mark.hindsight
async def test_help_with_20000_people_starts_and_answers_in_under_a_second(crowded_home: Path,
                                                                            hindsight_url: str) -> None:
    settings = Settings(data_dir=crowded_home, hindsight_url=hindsight_url, bank_prefix=f"t{uuid.uuid4().hex[:8]}")
    started = time.monotonic()
    app = await App.start(settings, pack_names=["agri"])
    try:
        assert time.monotonic() - started < 5.0  # start-up (migrations checked, packs loaded) is not per person
        for sender in (str(7_000_000 + PEOPLE - 1), str(7_000_000 + PEOPLE // 2)):
            asked = time.monotonic()
            [reply] = await app.conversation.handle(Incoming(transport="telegram", sender=sender,
                                                             delivery_id=uuid.uuid4().hex, text="/help"))
            assert time.monotonic() - asked < 1.0 and "/help" in reply.text
        asked = time.monotonic()
        stranger = await app.conversation.handle(Incoming(transport="whatsapp", sender="whatsapp:+15550001111",
                                                          delivery_id=uuid.uuid4().hex, text="/help"))
        assert time.monotonic() - asked < 1.0 and "only for registered users" in stranger[0].text
    finally:
        await app.aclose()


def test_the_database_registry_answers_as_the_whole_list_would(crowded_home: Path) -> None:
    database = open_database(Settings(data_dir=crowded_home))
    try:
        registry = PeopleRegistry(database)
        sample = [0, 1, 777, PEOPLE // 3, PEOPLE - 1]
        whole = Registry(load_people(database, person_ids=[f"p{i:06d}" for i in sample]))
        for i in sample:
            for transport, sender in (("telegram", str(7_000_000 + i)), ("whatsapp", f"whatsapp:+9170{i:08d}"),
                                      ("console", f"p{i:06d}")):
                assert registry.lookup(transport, sender) == whole.lookup(transport, sender)  # type: ignore[arg-type]
        assert registry.lookup("telegram", "99") is None and registry.by_id("nobody") is None
        assert {u.tenant for u in registry.users_of("t7")} == {"t7"} and len(registry.users_of("t7")) == PEOPLE // 40
        first = registry.first_for_pack("agri", "t3")
        assert first is not None and first.tenant == "t3"
    finally:
        database.dispose()


@pytest.mark.hindsight
async def test_telegram_starts_without_setting_thousands_of_chat_menus_first(tmp_path: Path,
                                                                           hindsight_url: str) -> None:
    from PIL import Image

    from tests.transports.test_telegram import FakeTelegram, start_bot, stop_bot, telegram_settings

    png_image = tmp_path / "echo.png"
    Image.new("RGB", (8, 8), "white").save(png_image)
    fake = FakeTelegram()
    settings = telegram_settings(tmp_path, hindsight_url, f"t{uuid.uuid4().hex[:8]}", fake)
    database = open_database(settings)
    import_people(database, crowd(2_000))
    database.dispose()
    started = time.monotonic()
    bot = await start_bot(settings, fake, png_image)
    try:
        took = time.monotonic() - started
        chat_menus = [c for c in fake.sent("setMyCommands") if c.params["scope"]["type"] == "chat"]
        assert len(chat_menus) < 2_000 and took < 30, (len(chat_menus), took)
        assert any(c.params["scope"]["type"] == "default" for c in fake.sent("setMyCommands"))
    finally:
        await stop_bot(bot)
        fake.close()
