"""Fixtures for the language checks: a real OGG voice note (Telugu speech from espeak-ng, Opus from ffmpeg),
a fresh tenant per test module, and the recording of everything the bot sends."""

from pathlib import Path

import pytest

from handlers.agri.register import FieldBook
from tests.registers import seed_book
from tests.voice import spoken_ogg, voice_tools_missing


@pytest.fixture(scope="session")
def telugu_voice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real OGG/Opus voice note as a phone records it (the words come from the scripted Whisper answer)."""
    if voice_tools_missing():
        pytest.fail("espeak-ng and ffmpeg are needed to make a voice note")
    ogg = spoken_ogg(tmp_path_factory.mktemp("te-voice"), "రమేష్ గౌడ్ మిరప తోటలో ఆకు ఎండు తెగులు", voice="te")
    assert ogg.read_bytes()[:4] == b"OggS"
    return ogg


@pytest.fixture(scope="session")
def book() -> FieldBook:
    return seed_book()
