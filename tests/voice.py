"""Real voice notes for tests, made as phones send them: speech from espeak-ng, OGG/Opus from ffmpeg."""

import shutil
import subprocess
from pathlib import Path


def voice_tools_missing() -> bool:
    """True when espeak-ng or ffmpeg is not installed (./setup.sh installs both)."""
    return not (shutil.which("espeak-ng") and shutil.which("ffmpeg"))


def spoken_ogg(folder: Path, words: str, voice: str | None = None, bitrate: str | None = None) -> Path:
    """Speak `words` (in espeak-ng's `voice`, English by default) into folder/note.ogg; return its path."""
    wav, ogg = folder / "note.wav", folder / "note.ogg"
    subprocess.run(["espeak-ng", *(["-v", voice] if voice else []), "-w", str(wav), words], check=True,
                   capture_output=True)
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(wav), "-c:a", "libopus",
                    *(["-b:a", bitrate] if bitrate else []), str(ogg)], check=True, capture_output=True)
    return ogg
