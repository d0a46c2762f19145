"""Bad input gets a clear reason and nothing breaks: audio and documents checked before use."""

from pathlib import Path

import pytest
from PIL import Image

from bot.services.audio import AudioRejected, prepare_voice
from bot.services.ocr import DocumentRejected, TextReader
from tests import voice

MB = 1024 * 1024


@pytest.fixture(scope="module")
def spoken_ogg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real OGG/Opus voice note, as Telegram and WhatsApp send them."""
    return voice.spoken_ogg(tmp_path_factory.mktemp("voice"), "Visited Ramesh Goud in Chevella, chilli blight")


def test_a_real_voice_note_converts_to_16k_mono_wav(spoken_ogg: Path, tmp_path: Path) -> None:
    prepared = prepare_voice(spoken_ogg, tmp_path, max_bytes=20 * MB, max_seconds=300)
    assert prepared.path.suffix == ".wav" and 1.0 < prepared.seconds < 10.0
    from pydub import AudioSegment
    converted = AudioSegment.from_file(str(prepared.path))
    assert (converted.frame_rate, converted.channels) == (16000, 1)


@pytest.mark.parametrize("content, reason", [
    (b"", "empty"),
    (b"OggS" + b"\x00garbage" * 200, "could not be decoded"),
    (b"%PDF-1.4 not audio at all" * 50, "could not be decoded"),
])
def test_empty_or_corrupt_audio_is_refused(tmp_path: Path, content: bytes, reason: str) -> None:
    source = tmp_path / "voice.ogg"
    source.write_bytes(content)
    with pytest.raises(AudioRejected, match=reason):
        prepare_voice(source, tmp_path / "out", max_bytes=20 * MB, max_seconds=300)


def test_audio_over_the_size_limit_is_refused_without_reading_it(tmp_path: Path) -> None:
    source = tmp_path / "huge.ogg"
    with source.open("wb") as handle:
        handle.truncate(60 * MB)  # sparse: 60 MB on paper
    with pytest.raises(AudioRejected, match="60.0 MB; the limit is 20 MB"):
        prepare_voice(source, tmp_path / "out", max_bytes=20 * MB, max_seconds=300)


def test_audio_over_the_length_limit_is_refused(spoken_ogg: Path, tmp_path: Path) -> None:
    with pytest.raises(AudioRejected, match="long; the limit is 1 s"):
        prepare_voice(spoken_ogg, tmp_path, max_bytes=20 * MB, max_seconds=1)


def test_a_non_image_photo_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "photo.jpg"
    fake.write_bytes(b"this is not a jpeg, it is text pretending")
    with pytest.raises(DocumentRejected, match="not an image"):
        TextReader().read(fake, "image/jpeg")


def test_a_decompression_bomb_is_refused_before_decoding(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    Image.new("1", (12_000, 12_000)).save(bomb)  # a few KB on disk, 144 megapixels decoded
    assert bomb.stat().st_size < 1 * MB
    with pytest.raises(DocumentRejected, match="12000x12000 pixels"):
        TextReader().read(bomb, "image/png")


def test_a_broken_pdf_and_a_scan_without_text_are_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00\xff" * 300)
    with pytest.raises(DocumentRejected, match="could not be parsed"):
        TextReader().read(broken, "application/pdf")
    scan = tmp_path / "scan.pdf"
    Image.new("RGB", (400, 300), "white").save(scan)
    with pytest.raises(DocumentRejected, match="no text could be read"):
        TextReader().read(scan, "application/pdf")


def test_a_readable_page_is_read(tmp_path: Path) -> None:
    from PIL import ImageDraw, ImageFont
    page = Image.new("L", (1400, 300), 255)
    font = ImageFont.load_default(size=48)
    ImageDraw.Draw(page).text((40, 100), "22.06.2026: Counsel sought time", fill=0, font=font)
    path = tmp_path / "page.png"
    page.save(path)
    read = TextReader().read(path, "image/png")
    assert "22.06.2026" in read.text and "Counsel" in read.text
