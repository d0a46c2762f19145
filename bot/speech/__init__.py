"""Speech to text behind one interface: Groq Whisper (with a key) or faster-whisper on this machine.

`SMRITI_SPEECH=groq|local` picks the engine; unset, it is groq when a Groq key is set and local otherwise.
"""

import logging

from bot.settings import Settings
from bot.speech.base import (
    SpeechEngine,
    SpeechUnavailable,
    Transcript,
    vocabulary_prompt,
)
from bot.speech.groq import GroqSpeech, SpeechToText
from bot.speech.local import LocalWhisper
from bot.speech.models import DEFAULT_MODEL, PACKAGED

log = logging.getLogger(__name__)

__all__ = ["DEFAULT_MODEL", "PACKAGED", "GroqSpeech", "LocalWhisper", "SpeechEngine", "SpeechToText",
           "SpeechUnavailable", "Transcript", "build_speech", "vocabulary_prompt"]


def build_speech(settings: Settings) -> SpeechEngine | None:
    """The engine the settings ask for, or None when none can run here (the notes are then kept)."""
    if settings.speech_engine == "groq":
        if settings.groq_api_key is None:
            log.warning("SMRITI_SPEECH=groq but no GROQ_API_KEY: voice notes are kept until one is set")
            return None
        return GroqSpeech(settings.groq_api_key.get_secret_value(), settings.groq_whisper_model,
                          base_url=settings.groq_base_url)
    try:
        import faster_whisper  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        log.warning("faster-whisper is not installed: voice notes are kept until a speech engine is available")
        return None
    return LocalWhisper(settings.whisper_model_for, settings.data_dir / "models" / "whisper",
                        cpu_threads=settings.whisper_cpu_threads)
