"""Voice notes in any container Telegram or WhatsApp sends (OGG/Opus, m4a, mp3, wav) -> 16 kHz mono WAV."""

import logging
from pathlib import Path

from pydantic import BaseModel
from pydub import AudioSegment
from pydub.exceptions import CouldntDecodeError

log = logging.getLogger(__name__)

_MB = 1024 * 1024


class AudioRejected(ValueError):
    """The audio cannot be used; the message is safe to show the sender."""


class PreparedAudio(BaseModel):
    path: Path
    seconds: float


def prepare_voice(source: Path, work_dir: Path, max_bytes: int, max_seconds: float) -> PreparedAudio:
    """Check and convert a voice note for transcription; raise AudioRejected with a reason on bad input."""
    size = source.stat().st_size if source.exists() else 0
    if size == 0:
        raise AudioRejected("the voice note is empty")
    if size > max_bytes:
        raise AudioRejected(f"the voice note is {size / _MB:.1f} MB; the limit is {max_bytes / _MB:.0f} MB")
    try:
        segment = AudioSegment.from_file(str(source))
    except (CouldntDecodeError, IndexError, OSError) as exc:
        log.info("could not decode audio: %s", type(exc).__name__)
        raise AudioRejected("the voice note could not be decoded (corrupt or not audio)") from exc
    seconds = len(segment) / 1000.0
    if seconds < 0.3:
        raise AudioRejected("the voice note has no sound in it")
    if seconds > max_seconds:
        raise AudioRejected(f"the voice note is {seconds:.0f} s long; the limit is {max_seconds:.0f} s")
    work_dir.mkdir(parents=True, exist_ok=True)
    target = work_dir / f"{source.stem}.wav"
    segment.set_channels(1).set_frame_rate(16000).set_sample_width(2).export(str(target), format="wav")
    return PreparedAudio(path=target, seconds=seconds)
