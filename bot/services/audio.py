"""Voice notes in any container Telegram or WhatsApp sends (OGG/Opus, m4a, mp3, wav) -> 16 kHz mono WAV.

Length is checked before anything is decoded: an OGG file says how long it is in its last page's granule
position, other containers in their header (ffprobe). The decode itself is bounded to the limit, so a file
whose header lies costs at most the limit's worth of audio, written by ffmpeg straight to disk.
"""

import logging
import struct
import subprocess
import wave
from pathlib import Path

from pydantic import BaseModel

from bot.core.errors import InputRejected

log = logging.getLogger(__name__)

_MB = 1024 * 1024
_OGG_MAX_PAGE = 65307
"""The largest an OGG page can be (27-byte header, 255 lacing values, 255 segments of 255 bytes)."""
_OPUS_RATE = 48000
_PROBE_TIMEOUT_S = 10.0
_DECODE_TIMEOUT_S = 120.0


class AudioRejected(InputRejected, ValueError):
    """The audio cannot be used; the message is safe to show the sender."""


class PreparedAudio(BaseModel):
    path: Path
    seconds: float


def _ogg_rate_and_skip(head: bytes) -> tuple[int, int, int] | None:
    """(serial number, samples per second of the granule, samples to skip) from an OGG file's first page."""
    if len(head) < 28 or head[:4] != b"OggS" or head[4] != 0:
        return None
    serial = struct.unpack_from("<I", head, 14)[0]
    opus = head.find(b"OpusHead", 27)
    if opus != -1 and len(head) >= opus + 12:
        return serial, _OPUS_RATE, struct.unpack_from("<H", head, opus + 10)[0]
    vorbis = head.find(b"\x01vorbis", 27)
    if vorbis != -1 and len(head) >= vorbis + 16:
        rate = struct.unpack_from("<I", head, vorbis + 12)[0]
        return (serial, rate, 0) if rate else None
    return None


def _ogg_seconds(source: Path) -> float | None:
    """The length an OGG/Opus or OGG/Vorbis file states in its last page; None when it is not one."""
    with source.open("rb") as handle:
        first = _ogg_rate_and_skip(handle.read(4096))
        if first is None:
            return None
        serial, rate, skip = first
        size = source.stat().st_size
        handle.seek(max(0, size - _OGG_MAX_PAGE))
        tail = handle.read()
    at = len(tail)
    while (at := tail.rfind(b"OggS", 0, at)) != -1:
        if len(tail) >= at + 18 and tail[at + 4] == 0 and struct.unpack_from("<I", tail, at + 14)[0] == serial:
            granule = struct.unpack_from("<q", tail, at + 6)[0]
            if granule >= 0:
                return max(0.0, float(granule - skip) / rate)
    return None


def _probed_seconds(source: Path) -> float | None:
    """The length the container's header states, read by ffprobe without decoding; None when it cannot tell."""
    try:
        probed = subprocess.run(
            ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(source)],
            capture_output=True, text=True, timeout=_PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.info("ffprobe could not read a voice note: %s", type(exc).__name__)
        return None
    try:
        return float(probed.stdout.strip().splitlines()[0])
    except (ValueError, IndexError):
        return None


def stated_seconds(source: Path) -> float | None:
    """How long a voice note says it is, from its container, without decoding it; None when it does not say."""
    from_ogg = _ogg_seconds(source)
    return from_ogg if from_ogg is not None else _probed_seconds(source)


def check_voice(source: Path, max_bytes: int, max_seconds: float) -> float | None:
    """Refuse an empty, oversized or overlong voice note before any decoding; return its stated length."""
    size = source.stat().st_size if source.exists() else 0
    if size == 0:
        raise AudioRejected("the voice note is empty")
    if size > max_bytes:
        raise AudioRejected(f"the voice note is {size / _MB:.1f} MB; the limit is {max_bytes / _MB:.0f} MB")
    seconds = stated_seconds(source)
    if seconds is not None and seconds > max_seconds:
        raise AudioRejected(f"the voice note is {seconds:.0f} s long; the limit is {max_seconds:.0f} s")
    return seconds


def _decode_bounded(source: Path, target: Path, max_seconds: float) -> float:
    """Convert to 16 kHz mono 16-bit WAV, stopping just past the limit; return the seconds written."""
    command = ["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", str(source), "-t", f"{max_seconds + 1:.3f}",
               "-vn", "-ac", "1", "-ar", "16000", "-sample_fmt", "s16", "-f", "wav", str(target)]
    try:
        decoded = subprocess.run(command, capture_output=True, timeout=_DECODE_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.info("could not decode audio: %s", type(exc).__name__)
        raise AudioRejected("the voice note could not be decoded (corrupt or not audio)") from exc
    if decoded.returncode != 0 or not target.exists():
        log.info("could not decode audio: ffmpeg exited with %s", decoded.returncode)
        target.unlink(missing_ok=True)
        raise AudioRejected("the voice note could not be decoded (corrupt or not audio)")
    try:
        with wave.open(str(target), "rb") as wav:
            return wav.getnframes() / float(wav.getframerate())
    except (wave.Error, EOFError) as exc:
        target.unlink(missing_ok=True)
        raise AudioRejected("the voice note could not be decoded (corrupt or not audio)") from exc


def prepare_voice(source: Path, work_dir: Path, max_bytes: int, max_seconds: float) -> PreparedAudio:
    """Check and convert a voice note for transcription; raise AudioRejected with a reason on bad input."""
    check_voice(source, max_bytes, max_seconds)
    work_dir.mkdir(parents=True, exist_ok=True)
    target = work_dir / f"{source.stem}.wav"
    seconds = _decode_bounded(source, target, max_seconds)
    if seconds < 0.3:
        target.unlink(missing_ok=True)
        raise AudioRejected("the voice note has no sound in it")
    if seconds > max_seconds:
        # The header understated the length; only the limit's worth was decoded.
        target.unlink(missing_ok=True)
        raise AudioRejected(f"the voice note is longer than the limit of {max_seconds:.0f} s")
    return PreparedAudio(path=target, seconds=seconds)
