"""Speech to text behind one interface: Groq Whisper (with a key) or faster-whisper on this machine.

`SMRITI_SPEECH=groq|local` picks the engine; unset, it is groq when a Groq key is set and local otherwise.
"""

import importlib.util
import logging
from typing import TYPE_CHECKING

from bot.settings import Settings
from bot.services.speech.base import (
    SpeechEngine,
    SpeechUnavailable,
    Transcript,
    vocabulary_prompt,
)
from bot.services.speech.models import DEFAULT_MODEL, PACKAGED

if TYPE_CHECKING:
    from bot.services.speech.groq import GroqSpeech, SpeechToText
    from bot.services.speech.local import LocalWhisper

log = logging.getLogger(__name__)

__all__ = ["DEFAULT_MODEL", "PACKAGED", "GroqSpeech", "LocalWhisper", "SpeechEngine", "SpeechToText",
           "SpeechUnavailable", "Transcript", "build_speech", "vocabulary_prompt"]


def __getattr__(name: str) -> object:
    # The engines load their SDKs (Groq, CTranslate2) only when one is asked for.
    if name in ("GroqSpeech", "SpeechToText"):
        from bot.services.speech import groq

        return getattr(groq, name)
    if name == "LocalWhisper":
        from bot.services.speech.local import LocalWhisper

        return LocalWhisper
    raise AttributeError(f"module 'bot.services.speech' has no attribute {name!r}")


def build_speech(settings: Settings) -> SpeechEngine | None:
    """The engine the settings ask for, or None when none can run here (the notes are then kept)."""
    if settings.speech_engine == "groq":
        if settings.groq_api_key is None:
            log.warning("SMRITI_SPEECH=groq but no GROQ_API_KEY: voice notes are kept until one is set")
            return None
        from bot.services.speech.groq import GroqSpeech

        return GroqSpeech(settings.groq_api_key.get_secret_value(), settings.groq_whisper_model,
                          base_url=settings.groq_base_url)
    if importlib.util.find_spec("faster_whisper") is None:
        log.warning("faster-whisper is not installed: voice notes are kept until a speech engine is available")
        return None
    from bot.services.speech.local import LocalWhisper

    return LocalWhisper(settings.whisper_model_for, settings.data_dir / "models" / "whisper",
                        cpu_threads=settings.whisper_cpu_threads)
