"""Limits before work: input over a limit is refused before it is stored, and a voice note's length is read from
its container before anything is decoded; what the header understates is caught by a decode bounded to the limit."""

import json
import subprocess
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.app import App
from bot.services.audio import AudioRejected, _ogg_seconds, prepare_voice, stated_seconds
from bot.transports.console.session import ConsoleSession
from bot.core.conversation import Conversation
from bot.core.messages import Incoming, Media
from bot.settings import Settings
from tests.core.notes_pack import NotesPack, registry_in_tenant

ROOT = Path(__file__).resolve().parents[2]
TENANT = "core-limits"


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", *args], check=True, timeout=120)


def _silence(path: Path, seconds: int) -> Path:
    _ffmpeg("-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono", "-t", str(seconds), "-c:a", "libopus", "-b:a", "6k",
            str(path))
    return path


@pytest.fixture(scope="module")
def hour_of_opus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 60-minute OGG/Opus file (1.3 MB at 6 kbit/s): one encoded minute, its packets copied 60 times."""
    folder = tmp_path_factory.mktemp("long-voice")
    minute = _silence(folder / "minute.ogg", 60)
    hour = folder / "hour.ogg"
    _ffmpeg("-stream_loop", "59", "-i", str(minute), "-c", "copy", str(hour))
    return hour


@pytest.fixture
async def notes_app(settings: Settings) -> AsyncIterator[App]:
    app = await App.start(settings, pack_names=[], registry=registry_in_tenant(TENANT))
    app.packs = {"agri": NotesPack(app.services)}
    app.conversation = Conversation(app.services, app.packs)
    yield app
    await app.aclose()


def files_holding(root: Path, needle: bytes) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and needle in p.read_bytes()]


_MEASURE = """
import json, resource, sys, time
from pathlib import Path
from bot.services.audio import AudioRejected, prepare_voice
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
try:
    prepare_voice(Path(sys.argv[1]), Path(sys.argv[2]), max_bytes=20 * 1024 * 1024, max_seconds=300)
    outcome = "accepted"
except AudioRejected as exc:
    outcome = str(exc)
elapsed = time.perf_counter() - started
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"outcome": outcome, "seconds": elapsed, "extra_kb": after - before, "children_kb": children}))
"""


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.sampled_from([b"OpusHead", b"\x01vorbis", b""]), st.binary(max_size=300),
       st.binary(max_size=40))
def test_the_ogg_header_reader_never_fails_on_any_bytes(head: bytes, codec: bytes, middle: bytes,
                                                        tail: bytes) -> None:
    """Whatever follows a capture pattern, the reader returns a length or None: it is the first thing a
    stranger's bytes meet."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.ogg"
        path.write_bytes(b"OggS\x00" + head + codec + middle + b"OggS\x00" + tail)
        seconds = _ogg_seconds(path)
    assert seconds is None or seconds >= 0.0


def test_the_hour_long_file_is_what_it_claims(hour_of_opus: Path) -> None:
    probed = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                             str(hour_of_opus)], capture_output=True, text=True, check=True)
    assert 3599 < float(probed.stdout) < 3601
    assert stated_seconds(hour_of_opus) == pytest.approx(float(probed.stdout), abs=0.05)


def test_an_hour_of_opus_is_refused_in_under_2_s_and_150_mb(hour_of_opus: Path, tmp_path: Path) -> None:
    """The issue's bound, measured in a process of its own (max RSS of it and of any decoder it started)."""
    run = subprocess.run([sys.executable, "-c", _MEASURE, str(hour_of_opus), str(tmp_path / "out")], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=False,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-2000:]
    measured = json.loads(run.stdout)
    assert measured["outcome"] == "the voice note is 3600 s long; the limit is 300 s"
    assert measured["seconds"] < 2.0
    assert measured["extra_kb"] < 150 * 1024 and measured["children_kb"] < 150 * 1024
    assert not (tmp_path / "out").exists(), "nothing was decoded"


def test_a_header_that_understates_the_length_meets_a_bounded_decode(tmp_path: Path) -> None:
    """Two chained OGG streams: the first (2 s) is all the header accounts for; the decode stops past the limit."""
    chained = tmp_path / "chained.ogg"
    chained.write_bytes(_silence(tmp_path / "a.ogg", 2).read_bytes() + _silence(tmp_path / "b.ogg", 40).read_bytes())
    assert stated_seconds(chained) == pytest.approx(2.0, abs=0.1)
    with pytest.raises(AudioRejected, match="longer than the limit of 10 s"):
        prepare_voice(chained, tmp_path / "out", max_bytes=20 * 1024 * 1024, max_seconds=10)
    assert list((tmp_path / "out").iterdir()) == []
    accepted = prepare_voice(chained, tmp_path / "out", max_bytes=20 * 1024 * 1024, max_seconds=60)
    assert accepted.seconds == pytest.approx(42.0, abs=0.5)


@pytest.mark.hindsight
async def test_an_hour_of_opus_from_the_console_is_refused_before_it_is_stored(
        notes_app: App, hour_of_opus: Path) -> None:
    media = Media(kind="voice", path=hour_of_opus, mime_type="audio/ogg", size_bytes=hour_of_opus.stat().st_size)
    replies = await notes_app.conversation.handle(
        Incoming(transport="console", sender="srinivas", delivery_id=uuid.uuid4().hex, media=media))
    assert [r.text for r in replies] == [
        "I could not use that voice note: the voice note is 3600 s long; the limit is 300 s. Nothing was stored."]
    assert notes_app.services.intake.listing() == []
    assert not (notes_app.settings.state_dir / "intake-media").exists()


@pytest.mark.hindsight
async def test_a_megabyte_of_text_is_refused_with_nothing_stored(notes_app: App) -> None:
    marker = "zq" + uuid.uuid4().hex
    body = f"note 2026-04-08 {marker} " + "x" * (1024 * 1024)
    [reply] = await notes_app.conversation.handle(
        Incoming(transport="telegram", sender="1001", delivery_id="update-1", text=body))
    assert f"too long ({len(body)} characters; the limit is 4000)" in reply.text
    assert notes_app.services.intake.listing() == []
    assert files_holding(notes_app.settings.data_dir, marker.encode()) == []


@pytest.mark.hindsight
async def test_the_console_refuses_an_hour_of_opus_the_same_way(notes_app: App, hour_of_opus: Path) -> None:
    session = ConsoleSession(notes_app.conversation, "srinivas")
    [reply] = await session.send(f"/voice {hour_of_opus}")
    assert "the voice note is 3600 s long; the limit is 300 s" in reply.text
    assert notes_app.services.intake.listing() == []
