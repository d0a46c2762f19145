"""Fixtures for the transports: a real OGG voice note, a PNG, and an App whose pack is the echo pack."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from bot.core.app import App
from bot.core.conversation import Conversation
from tests.transports.echo_pack import EchoPack
from tests.voice import spoken_ogg, voice_tools_missing


@pytest.fixture(scope="session")
def voice_ogg(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A real OGG/Opus voice note, made the way the issue says: espeak-ng then ffmpeg."""
    if voice_tools_missing():
        pytest.fail("espeak-ng and ffmpeg are needed to make a voice note")
    return spoken_ogg(tmp_path_factory.mktemp("voice"), "Ramesh Goud rejected Amistar Top, too expensive").read_bytes()


@pytest.fixture(scope="session")
def png_image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("img") / "chart.png"
    Image.new("RGB", (64, 48), (200, 120, 40)).save(path)
    return path


def use_echo_pack(app: App, image: Path) -> EchoPack:
    """Swap the App's packs for the echo pack (as agri), the way tests/core does with the notes pack."""
    pack = EchoPack(app.services, image)
    app.packs = {"agri": pack}
    app.conversation = Conversation(app.services, app.packs)
    return pack


@pytest.fixture
async def started_apps() -> AsyncIterator[list[App]]:
    """Apps a test starts itself (with its own settings); closed at the end."""
    apps: list[App] = []
    yield apps
    for app in apps:
        await app.aclose()
