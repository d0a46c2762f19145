"""Fixtures for the language checks: a real OGG voice note (Telugu speech from espeak-ng, Opus from ffmpeg),
a fresh tenant per test module, and the recording of everything the bot sends."""

import shutil
import subprocess
from pathlib import Path

import pytest

from handlers.agri.register import FieldBook


@pytest.fixture(scope="session")
def telugu_voice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real OGG/Opus voice note as a phone records it (the words come from the scripted Whisper answer)."""
    if not (shutil.which("espeak-ng") and shutil.which("ffmpeg")):
        pytest.fail("espeak-ng and ffmpeg are needed to make a voice note")
    folder = tmp_path_factory.mktemp("te-voice")
    wav, ogg = folder / "note.wav", folder / "note.ogg"
    subprocess.run(["espeak-ng", "-v", "te", "-w", str(wav), "రమేష్ గౌడ్ మిరప తోటలో ఆకు ఎండు తెగులు"], check=True,
                   capture_output=True)
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(wav), "-c:a", "libopus", str(ogg)], check=True,
                   capture_output=True)
    assert ogg.read_bytes()[:4] == b"OggS"
    return ogg


@pytest.fixture(scope="session")
def book() -> FieldBook:
    return FieldBook()
